// findings.json carries the scan's notes with their kind: every note in `errors`, the problems among
// them in `problems`, split as the scan page and the reports split them (shared/scan-notes.ts).

import { describe, expect, it } from 'vitest';
import type { ScanDetails } from '../../shared/contract';
import { findingsReport } from './scan';

const PROBLEM = 'Login of key 2 failed: the API answered 401';
const INFO = 'Credentials were renewed 2 times';

const details = (info: Partial<ScanDetails['results']['scan_info']>): ScanDetails =>
  ({ scan_id: 's1', status: 'completed', results: { results: [], scan_info: { identities: [], created_users: [], refreshes: 0, skipped_checks: [], ...info } } }) as unknown as ScanDetails;

describe('the notes in findings.json', () => {
  it('names the problems the scanner recorded among the notes', () => {
    // The scanner's record decides, even against the wording.
    const report = findingsReport(details({ errors: [INFO, PROBLEM], problems: [INFO] }), { name: 'A', base_url: 'https://a.test' });
    expect(report.scan.errors).toEqual([INFO, PROBLEM]);
    expect(report.scan.problems).toEqual([INFO]);
  });

  it('sorts the notes of a scan from before kinds were recorded by their wording', () => {
    const report = findingsReport(details({ errors: [INFO, PROBLEM] }), { name: 'A', base_url: 'https://a.test' });
    expect(report.scan.problems).toEqual([PROBLEM]);
  });
});
