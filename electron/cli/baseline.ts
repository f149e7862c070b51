// `portcullis scan --baseline <file>`: what CI should not fail on again. The file is a triage export
// (GET /api/findings/triage/export, the scan page's "Export triage"), a previous run's findings.json,
// or a JSON report. Marks (false positive, accepted risk) are applied to the scan's API before it runs,
// so those findings are set aside exactly as in the app; findings a previous run already reported are
// "known": listed and scored, but not failed on.

import fs from 'node:fs';
import { z } from 'zod';
import { TRIAGE_EXPORT_FORMAT, TRIAGE_EXPORT_VERSION, TRIAGE_MARK_STATES, type TriageState } from '../../shared/constants';
import { UsageError } from './types';

export interface BaselineMark {
  fingerprint: string;
  state: Exclude<TriageState, 'open'>;
  reason: string;
  expires_at: string | null;
}

export interface Baseline {
  marks: BaselineMark[];
  /** Fingerprints a previous run reported (empty for a triage export). */
  known: Set<string>;
}

const fingerprint = z.string().min(1).max(200);
const triage = z.object({
  state: z.enum(TRIAGE_MARK_STATES),
  reason: z.string().max(1000).optional().default(''),
  expires_at: z.string().max(40).nullish(),
});
const triageExport = z.object({
  format: z.literal(TRIAGE_EXPORT_FORMAT),
  version: z.literal(TRIAGE_EXPORT_VERSION),
  triage: z.array(triage.extend({ fingerprint })).max(100_000),
});
const finding = z.object({ fingerprint, triage: triage.nullish() });
/** A findings.json of `portcullis scan`, or a JSON report (which lists set-aside findings apart). */
const findingsFile = z.object({
  findings: z.array(finding).max(100_000),
  triaged: z.array(finding).max(100_000).optional(),
});

function markOf(fp: string, t: z.infer<typeof triage> | null | undefined): BaselineMark[] {
  // A finding closed as fixed is not set aside in CI: found again, it is a regression to fail on.
  if (!t || t.state === 'open' || t.state === 'fixed') return [];
  return [{ fingerprint: fp, state: t.state, reason: t.reason, expires_at: t.expires_at ?? null }];
}

/** Reads and checks a baseline file; a UsageError says what is wrong with it. */
export function readBaseline(file: string): Baseline {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(`Cannot read the baseline ${file}: ${e.code ?? e.message}`);
  }
  const asExport = triageExport.safeParse(value);
  if (asExport.success) return { marks: asExport.data.triage.flatMap((t) => markOf(t.fingerprint, t)), known: new Set() };
  const asFindings = findingsFile.safeParse(value);
  if (asFindings.success) {
    const all = [...asFindings.data.findings, ...(asFindings.data.triaged ?? [])];
    return { marks: all.flatMap((f) => markOf(f.fingerprint, f.triage)), known: new Set(all.map((f) => f.fingerprint)) };
  }
  const issue = (value && typeof value === 'object' && 'format' in value ? asExport : asFindings).error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new UsageError(
    `The baseline ${file} is not a triage export (${TRIAGE_EXPORT_FORMAT}), a findings.json or a JSON report${where}: ${issue?.message ?? 'unrecognised content'}.`,
  );
}
