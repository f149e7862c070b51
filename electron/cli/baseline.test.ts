// A triage export with a finding closed as fixed (issue 29): read, but the fixed mark sets nothing aside
// in CI (found again, the finding is a regression to fail on); the other marks apply as before.

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/core';
import { readBaseline } from './baseline';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('readBaseline', () => {
  it('reads a triage export with a fixed mark and sets aside only the hand-set marks', () => {
    const dir = tempDir('portcullis-baseline-');
    dirs.push(dir);
    const file = path.join(dir, 'triage.json');
    const mark = (fingerprint: string, state: string) => ({ fingerprint, state, reason: '', expires_at: null, set_by: 'ada', set_at: '2026-01-01T00:00:00.000Z' });
    fs.writeFileSync(file, JSON.stringify({ format: 'portcullis-triage', version: 1, api: { id: 'a', name: 'A' }, exported_at: '2026-01-02T00:00:00.000Z', triage: [mark('fp-1', 'fixed'), mark('fp-2', 'false_positive')] }));
    const baseline = readBaseline(file);
    expect(baseline.marks.map((m) => [m.fingerprint, m.state])).toEqual([['fp-2', 'false_positive']]);
    expect(baseline.known.size).toBe(0);
  });
});
