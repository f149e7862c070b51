// The coverage appendix of the technical PDF and the HTML export (issue 26): the ledger's operations
// as rows — how each identity's requests ended, which checks ran and found something, and the checks
// that could not exercise the operation grouped by reason. Both formats draw these rows, so they say
// the same thing.

import {
  actionableSkips,
  coverageHeadline,
  coverageLabel,
  COVERAGE_REASONS,
  reachedOperation,
  STATUS_CLASSES,
  type CoverageOperation,
  type CoverageReason,
  type CoverageReasonCount,
  type IdentityTraffic,
  type ScanCoverage,
  type StatusClass,
} from '../../shared/coverage';

export const COVERAGE_APPENDIX_TITLE = 'Coverage by operation';

/** How an identity's answers ended, as a colour: a 2xx, only refusals or redirects, only failures, nothing sent. */
export type StatusTone = 'ok' | 'refused' | 'failed' | 'none';

export const STATUS_TONE_COLORS: Record<StatusTone, string> = { ok: '#2e7d32', refused: '#b45309', failed: '#c62828', none: '#9aa5b1' };

/** More identities than this share one "Answers by identity" column (those that sent anything) instead of a column each. */
export const MAX_IDENTITY_COLUMNS = 4;
/** A reason's checks are listed up to this many in the PDF; the HTML and JSON list every one. */
export const PDF_CHECKS_PER_REASON = 6;
/** A skip's detail (the API's message) is shortened to this many characters in a table cell. */
export const DETAIL_CHARS = 140;

/** "The scan reached 41 of 57 operations …": the header line as a sentence. */
export function coverageSentence(cov: ScanCoverage): string {
  return `The scan ${coverageHeadline(cov.summary)}.`;
}

/** The identity columns: the scan's identities in its order, then any name only an operation mentions. */
export function identityColumns(cov: ScanCoverage): string[] {
  const names = [...cov.summary.identities];
  for (const op of cov.operations) for (const name of Object.keys(op.identities)) if (!names.includes(name)) names.push(name);
  return names;
}

/** The status classes an identity's requests ended in, in class order: ["2xx 14", "4xx 3"]; [] when it sent none. */
export function statusParts(t: IdentityTraffic | undefined): { cls: StatusClass; n: number; text: string }[] {
  if (!t) return [];
  return STATUS_CLASSES.filter((c) => (t.classes[c] ?? 0) > 0).map((c) => ({ cls: c, n: t.classes[c]!, text: `${c} ${t.classes[c]!}` }));
}

export function statusTone(t: IdentityTraffic | undefined): StatusTone {
  const parts = statusParts(t);
  if (!parts.length) return 'none';
  if (parts.some((p) => p.cls === '2xx')) return 'ok';
  if (parts.some((p) => p.cls === '3xx' || p.cls === '4xx')) return 'refused';
  return 'failed';
}

export interface SkipGroup {
  reason: CoverageReason;
  label: string;
  checks: string[];
  /** The distinct particulars (the API's message, the parameter), in order of first appearance. */
  details: string[];
}

/** An operation's actionable skips grouped by reason, the reason with most checks first. */
export function skipGroups(op: Pick<CoverageOperation, 'skipped'>): SkipGroup[] {
  const groups = new Map<CoverageReason, SkipGroup>();
  for (const s of actionableSkips(op)) {
    let g = groups.get(s.reason);
    if (!g) {
      g = { reason: s.reason, label: COVERAGE_REASONS[s.reason]?.label ?? s.reason, checks: [], details: [] };
      groups.set(s.reason, g);
    }
    if (!g.checks.includes(s.check_id)) g.checks.push(s.check_id);
    const detail = s.detail?.replace(/\s+/g, ' ').trim();
    if (detail && !g.details.includes(detail)) g.details.push(detail);
  }
  return [...groups.values()].sort((a, b) => b.checks.length - a.checks.length || a.reason.localeCompare(b.reason));
}

/** An operation worth a row of its own: nothing answered a 2xx, or a check could not exercise it. */
export function needsAttention(op: CoverageOperation): boolean {
  return !reachedOperation(op) || actionableSkips(op).length > 0;
}

export interface CoverageRow {
  label: string;
  /** Per identity column: the status parts and their tone. */
  identities: { parts: string[]; tone: StatusTone }[];
  ran: number;
  found: number;
  reached: boolean;
  skips: SkipGroup[];
}

export interface CoverageAppendix {
  sentence: string;
  /** The three commonest actionable reasons, with their fix. */
  reasons: CoverageReasonCount[];
  columns: string[];
  /** Operations not reached or not fully exercised, in the ledger's order. */
  attention: CoverageRow[];
  /** Operations reached and exercised by every check that applies. */
  exercised: CoverageRow[];
}

export function coverageAppendix(cov: ScanCoverage): CoverageAppendix {
  const columns = identityColumns(cov);
  const rows = cov.operations.map((op) => ({
    op,
    row: {
      label: coverageLabel(op),
      identities: columns.map((name) => ({ parts: statusParts(op.identities[name]).map((p) => p.text), tone: statusTone(op.identities[name]) })),
      ran: op.ran.length,
      found: op.found.length,
      reached: reachedOperation(op),
      skips: skipGroups(op),
    } satisfies CoverageRow,
  }));
  return {
    sentence: coverageSentence(cov),
    reasons: cov.summary.reasons.slice(0, 3),
    columns,
    attention: rows.filter((r) => needsAttention(r.op)).map((r) => r.row),
    exercised: rows.filter((r) => !needsAttention(r.op)).map((r) => r.row),
  };
}
