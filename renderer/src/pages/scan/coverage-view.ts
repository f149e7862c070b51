// Pure rules of the scan page's Coverage tab (issue 26): one row per operation with a status cell per
// identity, the filters and their counts, the search, the names of checks, the path split for a middle
// ellipsis, and the operations the previous scan reached that this one did not. No React here.

import { CHECK_TITLES } from '../../../../shared/check-titles';
import type { Finding, SkippedCheck } from '../../../../shared/contract';
import {
  actionableSkips,
  COVERAGE_REASONS,
  coverageLabel,
  lostCoverage,
  reachedOperation,
  STATUS_CLASSES,
  type CoverageOperation,
  type CoverageReason,
  type CoverageSkip,
  type IdentityTraffic,
  type ScanCoverage,
  type StatusClass,
} from '../../../../shared/coverage';
import { searchTerms } from './findings-view';

/** One identity's traffic to one operation: its dominant status class, or nothing sent. */
export interface CoverageCell {
  identity: string;
  status: StatusClass | 'not-sent';
  requests: number;
  /** Every class it got, commonest first. */
  classes: { status: StatusClass; count: number }[];
  /** "key 1: 12 requests: 2xx 9, 4xx 3" (the tooltip and the screen reader's text). */
  text: string;
}

export interface ReasonGroup {
  reason: CoverageReason;
  label: string;
  count: number;
}

export interface CoverageRow {
  key: string;
  op: CoverageOperation;
  label: string;
  reached: boolean;
  /** Answered, and every answer to every identity was a 4xx. */
  only4xx: boolean;
  /** The skips the user can act on (not-applicable left out). */
  skips: CoverageSkip[];
  /** Checks that have nothing to test here. */
  notApplicable: number;
  /** The skips' reasons, commonest first. */
  reasons: ReasonGroup[];
  cells: CoverageCell[];
  /** Lower-case method, path and operation name: what the search looks in. */
  text: string;
}

export type CoverageFilter = 'all' | 'not-reached' | 'only-4xx' | 'skipped';

export const COVERAGE_FILTERS: readonly { id: CoverageFilter; label: string; hint: string }[] = [
  { id: 'all', label: 'All', hint: 'Every operation the scan tested.' },
  { id: 'not-reached', label: 'Not reached', hint: 'No identity got a 2xx from the operation.' },
  { id: 'only-4xx', label: 'Only 4xx', hint: 'Every answer to every identity was a 4xx.' },
  { id: 'skipped', label: 'Skipped checks', hint: 'Some check could not exercise the operation, for a reason you can act on.' },
];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The commonest class; a tie goes to the earlier class of STATUS_CLASSES (2xx first). */
export function dominantClass(classes: IdentityTraffic['classes']): StatusClass | null {
  let best: StatusClass | null = null;
  for (const c of STATUS_CLASSES) {
    const n = classes[c] ?? 0;
    if (n > 0 && (best === null || n > (classes[best] ?? 0))) best = c;
  }
  return best;
}

export function coverageCell(identity: string, traffic: IdentityTraffic | undefined): CoverageCell {
  const classes = STATUS_CLASSES.map((status) => ({ status, count: traffic?.classes[status] ?? 0 }))
    .filter((c) => c.count > 0)
    .sort((a, b) => b.count - a.count);
  const requests = traffic?.requests ?? 0;
  const status = dominantClass(traffic?.classes ?? {});
  if (!requests || !status) return { identity, status: 'not-sent', requests: 0, classes: [], text: `${identity}: not sent` };
  return { identity, status, requests, classes, text: `${identity}: ${plural(requests, 'request')}: ${classes.map((c) => `${c.status} ${c.count}`).join(', ')}` };
}

/** Every answer the operation got was a 4xx (an operation nobody sent is not "only 4xx"). */
export function onlyClientErrors(op: Pick<CoverageOperation, 'identities'>): boolean {
  let answers = 0;
  for (const t of Object.values(op.identities)) {
    for (const c of STATUS_CLASSES) {
      const n = t.classes[c] ?? 0;
      if (n && c !== '4xx') return false;
      answers += n;
    }
  }
  return answers > 0;
}

/** The identity columns: the summary's order, then any name only an operation carries. */
export function identityColumns(coverage: ScanCoverage): string[] {
  const names = [...coverage.summary.identities];
  for (const op of coverage.operations) for (const name of Object.keys(op.identities)) if (!names.includes(name)) names.push(name);
  return names;
}

export function reasonGroups(skips: readonly CoverageSkip[]): ReasonGroup[] {
  const counts = new Map<CoverageReason, number>();
  for (const s of skips) counts.set(s.reason, (counts.get(s.reason) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, count]) => ({ reason, count, label: COVERAGE_REASONS[reason]?.label ?? reason }));
}

export function coverageRows(coverage: ScanCoverage): CoverageRow[] {
  const identities = identityColumns(coverage);
  return coverage.operations.map((op, i) => {
    const skips = actionableSkips(op);
    return {
      key: `${i}:${coverageLabel(op)}`,
      op,
      label: coverageLabel(op),
      reached: reachedOperation(op),
      only4xx: onlyClientErrors(op),
      skips,
      notApplicable: op.skipped.length - skips.length,
      reasons: reasonGroups(skips),
      cells: identities.map((name) => coverageCell(name, op.identities[name])),
      text: `${op.method} ${op.path}${op.operation ? `\n${op.operation}` : ''}`.toLowerCase(),
    };
  });
}

function matches(row: CoverageRow, filter: CoverageFilter): boolean {
  if (filter === 'not-reached') return !row.reached;
  if (filter === 'only-4xx') return row.only4xx;
  if (filter === 'skipped') return row.skips.length > 0;
  return true;
}

/** How many operations each filter holds (over the whole scan, before the search). */
export function coverageFilterCounts(rows: readonly CoverageRow[]): Record<CoverageFilter, number> {
  const counts: Record<CoverageFilter, number> = { all: 0, 'not-reached': 0, 'only-4xx': 0, skipped: 0 };
  for (const r of rows) for (const f of COVERAGE_FILTERS) if (matches(r, f.id)) counts[f.id] += 1;
  return counts;
}

/** The rows a filter and the search keep: every search word must appear in the method, path or operation name. */
export function filterCoverageRows(rows: readonly CoverageRow[], filter: CoverageFilter, query: string): CoverageRow[] {
  const terms = searchTerms(query);
  return rows.filter((r) => matches(r, filter) && terms.every((t) => r.text.includes(t)));
}

/** "12 ran · 2 found" */
export function checksLine(op: Pick<CoverageOperation, 'ran' | 'found'>): string {
  return `${op.ran.length} ran · ${op.found.length} found`;
}

/** "4 skipped: needs a second identity", "+ 1 more reason" when there are several. */
export function skipsLine(row: Pick<CoverageRow, 'skips' | 'reasons'>): string {
  if (!row.skips.length) return '';
  const [first, ...rest] = row.reasons;
  return `${row.skips.length} skipped: ${first!.label}${rest.length ? ` (+${plural(rest.length, 'more reason')})` : ''}`;
}

/**
 * A path cut for a middle ellipsis: the head shrinks, the tail (its last segment, or its last 18
 * characters when that segment is longer) always shows. "/users/{userId}/addresses" -> ["/users/{userId}", "/addresses"].
 */
export function splitPath(path: string, tailMax = 18): [string, string] {
  const cut = path.lastIndexOf('/');
  let at = cut > 0 ? cut : 0;
  if (path.length - at > tailMax) at = Math.max(0, path.length - tailMax);
  return [path.slice(0, at), path.slice(at)];
}

/** Text with `code` spans (the fix texts name settings that way) as parts to render. */
export function codeSpans(text: string): { code: boolean; text: string }[] {
  return text
    .split('`')
    .map((part, i) => ({ code: i % 2 === 1, text: part }))
    .filter((p) => p.text !== '');
}

/**
 * Names of checks: the registry's titles, then what the scan itself said (a check the renderer does not
 * know yet is named by its findings or its skipped-check note), else the id.
 */
export function checkNamer(findings: readonly Pick<Finding, 'check_id' | 'vulnerability_name'>[], skipped: readonly Pick<SkippedCheck, 'check_id' | 'title'>[]): (id: string) => string {
  // Built on the first name asked for: the findings tab of a big scan never pays for it.
  let seen: Map<string, string> | null = null;
  const scanNames = () => {
    if (seen) return seen;
    seen = new Map<string, string>();
    for (const s of skipped) if (s.title) seen.set(s.check_id, s.title);
    for (const f of findings) if (f.vulnerability_name && !seen.has(f.check_id)) seen.set(f.check_id, f.vulnerability_name);
    return seen;
  };
  return (id) => CHECK_TITLES[id] ?? scanNames().get(id) ?? id;
}

/** The previous scan's operations that answered a 2xx then and to no identity now, in its order. */
export function lostOperations(before: readonly CoverageOperation[], after: readonly CoverageOperation[]): CoverageOperation[] {
  const lost = new Set(lostCoverage(before, after));
  return before.filter((o) => lost.has(coverageLabel(o)));
}

export interface SkipGroup {
  reason: CoverageReason;
  label: string;
  fix: string;
  /** The particulars, each with the checks it stopped (one detail often stops every check of the operation). */
  details: { detail: string; checks: string[] }[];
}

/** An operation's actionable skips by reason (commonest first), then by detail. */
export function skipGroups(skips: readonly CoverageSkip[]): SkipGroup[] {
  const groups = new Map<CoverageReason, Map<string, string[]>>();
  for (const s of skips) {
    const byDetail = groups.get(s.reason) ?? new Map<string, string[]>();
    groups.set(s.reason, byDetail);
    byDetail.set(s.detail, [...(byDetail.get(s.detail) ?? []), s.check_id]);
  }
  return reasonGroups(skips).map(({ reason, label }) => ({
    reason,
    label,
    fix: COVERAGE_REASONS[reason]?.fix ?? '',
    details: [...groups.get(reason)!].map(([detail, checks]) => ({ detail, checks })),
  }));
}
