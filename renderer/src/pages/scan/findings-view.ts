// Pure rules of the scan page (issue 17): findings ordered and grouped by OWASP category, then check,
// then endpoint; the filters and the search; the rows the virtualised list draws; moving the selection
// with the keyboard; and the lists of the "compare with previous scan" view. No React here.

import { CONFIDENCES, FLAG_OWASP, TRIAGE_MARK_STATES, type Confidence, type TriageMarkState, type TriageState } from '../../../../shared/constants';
import type { Finding, FindingBrief, ScanInfo } from '../../../../shared/contract';
import { CHECK_TITLES } from '../../../../shared/check-titles';
import { countsAsVulnerability, levelCounts, levelRank, SEVERITY_LEVELS, severityLevel, type SeverityLevel } from '../../../../shared/severity';

const OWASP_TITLES: Record<string, string> = Object.fromEntries(Object.values(FLAG_OWASP).map((c) => [c.id, c.title]));

/** "API1:2023 Broken Object Level Authorization"; an unknown id as it is; none as "Other". */
export function categoryLabel(owasp: string | null | undefined): string {
  const id = (owasp ?? '').trim();
  if (!id) return 'Other';
  const title = OWASP_TITLES[id];
  return title ? `${id} ${title}` : id;
}

/** API1 < API2 < ... < API10, then anything else by name, "Other" last. */
function categoryOrder(owasp: string): [number, string] {
  const m = /^API(\d+):/i.exec(owasp);
  if (m) return [Number(m[1]), owasp];
  return [owasp ? 1000 : 2000, owasp];
}

/** A finding's triage state: no mark counts as open. */
export function triageStateOf(f: Pick<Finding, 'triage'>): TriageMarkState {
  return f.triage?.state ?? 'open';
}

/** The state the triage form starts from: a finding closed as fixed is opened again by hand (only a re-test closes one as fixed). */
export function editableTriageState(f: Pick<Finding, 'triage'>): TriageState {
  const state = triageStateOf(f);
  return state === 'fixed' ? 'open' : state;
}

export const TRIAGE_LABELS: Record<TriageMarkState, string> = { open: 'Open', false_positive: 'False positive', accepted_risk: 'Accepted risk', fixed: 'Fixed' };

/** A check's title (the group heading), never the name one of its findings happens to carry. */
export function checkTitle(f: Pick<FindingBrief, 'check_id' | 'vulnerability_name'>): string {
  return CHECK_TITLES[f.check_id] ?? f.vulnerability_name;
}

/** A finding with what filtering and grouping read, computed once per load rather than per keystroke. */
export interface PreparedFinding {
  finding: FindingBrief;
  /** Its level: critical is one of its own (shared/severity.ts). */
  severity: SeverityLevel;
  category: string;
  /** Lower-case name, check title, method and path (and a GraphQL operation's name), one per line: what the search looks in. */
  text: string;
  /** The check's title: the group heading. */
  checkTitle: string;
}

/** Findings in page order: category (API1 first), then check (most severe first), then endpoint. */
export function prepareFindings(findings: FindingBrief[]): PreparedFinding[] {
  const prepared = findings.map<PreparedFinding>((finding) => {
    const title = checkTitle(finding);
    return {
      finding,
      severity: severityLevel(finding),
      category: (finding.owasp ?? '').trim(),
      checkTitle: title,
      text: `${finding.vulnerability_name}\n${title}\n${finding.method} ${finding.path}${finding.graphql?.operation ? `\n${finding.graphql.operation}` : ''}`.toLowerCase(),
    };
  });
  // The most severe finding of a check places the check within its category.
  const checkRank = new Map<string, number>();
  const checkKeys = prepared.map((p) => {
    const key = `${p.category}\u0000${p.finding.check_id}`;
    checkRank.set(key, Math.min(checkRank.get(key) ?? Infinity, levelRank(p.severity)));
    return key;
  });
  // Sort keys worked out once per finding, not once per comparison (10,000 findings: ~130,000 comparisons).
  const categoryRanks = new Map<string, number>();
  const keyed = prepared.map((p, i) => {
    let categoryRank = categoryRanks.get(p.category);
    if (categoryRank === undefined) categoryRanks.set(p.category, (categoryRank = categoryOrder(p.category)[0]));
    return { p, categoryRank, checkRank: checkRank.get(checkKeys[i]!)!, severityRank: levelRank(p.severity) };
  });
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  keyed.sort((a, b) => {
    if (a.categoryRank !== b.categoryRank) return a.categoryRank - b.categoryRank;
    if (a.p.category !== b.p.category) return a.p.category < b.p.category ? -1 : 1;
    if (a.checkRank !== b.checkRank) return a.checkRank - b.checkRank;
    const af = a.p.finding;
    const bf = b.p.finding;
    if (af.check_id !== bf.check_id) return collator.compare(a.p.checkTitle, b.p.checkTitle) || (af.check_id < bf.check_id ? -1 : 1);
    return (
      (af.path === bf.path ? 0 : collator.compare(af.path, bf.path)) ||
      (af.method === bf.method ? 0 : collator.compare(af.method, bf.method)) ||
      a.severityRank - b.severityRank ||
      ((af.parameter ?? '') === (bf.parameter ?? '') ? 0 : collator.compare(af.parameter ?? '', bf.parameter ?? ''))
    );
  });
  return keyed.map((k) => k.p);
}

export interface FindingFilters {
  severity: SeverityLevel | 'all';
  /** An OWASP id ("API1:2023"), '' for findings without one, or 'all'. */
  category: string;
  confidence: Confidence | 'all';
  trend: Finding['trend'] | 'all';
  triage: TriageMarkState | 'all';
  query: string;
}

export const NO_FILTERS: FindingFilters = { severity: 'all', category: 'all', confidence: 'all', trend: 'all', triage: 'all', query: '' };

/** The page's address keeps the filters and the open finding, so a link shows what its sender saw. */
export interface FindingsAddress {
  filters: FindingFilters;
  findingId: string | null;
}

const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | 'all' => (value && (allowed as readonly string[]).includes(value) ? (value as T) : 'all');

/** The filters and open finding a scan page address names; anything unknown reads as no filter. */
export function readFindingsAddress(search: URLSearchParams): FindingsAddress {
  const category = search.get('category');
  return {
    filters: {
      severity: oneOf(search.get('severity'), SEVERITY_LEVELS),
      category: category === null ? 'all' : category.slice(0, 40),
      confidence: oneOf(search.get('confidence'), CONFIDENCES),
      trend: oneOf(search.get('trend'), ['new', 'recurring'] as const),
      triage: oneOf(search.get('triage'), TRIAGE_MARK_STATES),
      query: (search.get('q') ?? '').slice(0, 200),
    },
    findingId: search.get('finding')?.slice(0, 100) || null,
  };
}

/** The address's query for these filters and open finding ("severity=high&q=users&finding=…"). */
export function writeFindingsAddress({ filters, findingId }: FindingsAddress): string {
  const search = new URLSearchParams();
  for (const key of ['severity', 'category', 'confidence', 'trend', 'triage'] as const) if (filters[key] !== 'all') search.set(key, filters[key]);
  if (filters.query) search.set('q', filters.query);
  if (findingId) search.set('finding', findingId);
  return search.toString();
}

/** Whether any filter or the search narrows the list. */
export function isFiltered(filters: FindingFilters): boolean {
  return (Object.keys(NO_FILTERS) as (keyof FindingFilters)[]).some((k) => (k === 'query' ? filters.query.trim() !== '' : filters[k] !== NO_FILTERS[k]));
}

/** The search's words: every one must appear in the name, method or path ("get /users" finds GET /users/{id}). */
export function searchTerms(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

export function filterFindings(prepared: PreparedFinding[], filters: FindingFilters): PreparedFinding[] {
  const terms = searchTerms(filters.query);
  const { severity, category, confidence, trend, triage } = filters;
  return prepared.filter(
    (p) =>
      (severity === 'all' || p.severity === severity) &&
      (category === 'all' || p.category === category) &&
      (confidence === 'all' || p.finding.confidence === confidence) &&
      (trend === 'all' || p.finding.trend === trend) &&
      (triage === 'all' || triageStateOf(p.finding) === triage) &&
      terms.every((t) => p.text.includes(t)),
  );
}

export interface FacetCounts {
  severity: Record<SeverityLevel, number>;
  /** OWASP ids in page order, with their counts. */
  categories: { id: string; label: string; count: number }[];
  confidence: Record<Confidence, number>;
  trend: Record<Finding['trend'], number>;
  triage: Record<TriageMarkState, number>;
}

/** How many findings each filter option holds (over the whole scan). */
export function facetCounts(prepared: PreparedFinding[]): FacetCounts {
  const counts: FacetCounts = {
    severity: levelCounts([]),
    categories: [],
    confidence: { high: 0, medium: 0, low: 0 },
    trend: { new: 0, recurring: 0 },
    triage: { open: 0, false_positive: 0, accepted_risk: 0, fixed: 0 },
  };
  const categories = new Map<string, number>();
  for (const p of prepared) {
    counts.severity[p.severity] += 1;
    categories.set(p.category, (categories.get(p.category) ?? 0) + 1);
    if (p.finding.confidence in counts.confidence) counts.confidence[p.finding.confidence] += 1;
    if (p.finding.trend in counts.trend) counts.trend[p.finding.trend] += 1;
    counts.triage[triageStateOf(p.finding)] += 1;
  }
  // prepared is in page order already, so the Map keeps category order.
  counts.categories = [...categories].map(([id, count]) => ({ id, label: categoryLabel(id), count }));
  return counts;
}

export type ListRow =
  | { kind: 'category'; key: string; label: string; count: number }
  | { kind: 'check'; key: string; label: string; count: number }
  | { kind: 'finding'; key: string; finding: FindingBrief; severity: SeverityLevel };

/** The rows of the list: a heading per category and per check, then one row per finding (its endpoint). */
export function groupRows(filtered: PreparedFinding[]): ListRow[] {
  const rows: ListRow[] = [];
  let category: Extract<ListRow, { kind: 'category' }> | null = null;
  let check: Extract<ListRow, { kind: 'check' }> | null = null;
  for (const p of filtered) {
    if (!category || category.key !== `c:${p.category}`) {
      category = { kind: 'category', key: `c:${p.category}`, label: categoryLabel(p.category), count: 0 };
      check = null;
      rows.push(category);
    }
    if (!check || check.key !== `k:${p.category}\u0000${p.finding.check_id}`) {
      check = { kind: 'check', key: `k:${p.category}\u0000${p.finding.check_id}`, label: p.checkTitle, count: 0 };
      rows.push(check);
    }
    category.count += 1;
    check.count += 1;
    rows.push({ kind: 'finding', key: p.finding.id, finding: p.finding, severity: p.severity });
  }
  return rows;
}

export type SelectionKey = 'next' | 'previous' | 'first' | 'last';

/** The row index of the finding the key moves to, skipping headings; null when there is none. */
export function moveSelection(rows: ListRow[], currentId: string | null, key: SelectionKey): number | null {
  const findingIndexes: number[] = [];
  rows.forEach((r, i) => {
    if (r.kind === 'finding') findingIndexes.push(i);
  });
  if (!findingIndexes.length) return null;
  if (key === 'first') return findingIndexes[0]!;
  if (key === 'last') return findingIndexes.at(-1)!;
  const at = currentId === null ? -1 : findingIndexes.findIndex((i) => (rows[i] as { key: string }).key === currentId);
  // Nothing selected (or the selection was filtered away): the first finding either way.
  if (at < 0) return findingIndexes[0]!;
  const next = key === 'next' ? Math.min(at + 1, findingIndexes.length - 1) : Math.max(at - 1, 0);
  return findingIndexes[next]!;
}

export interface ComparedFindings {
  new: FindingBrief[];
  recurring: FindingBrief[];
  fixed: ScanInfo['fixed'];
  /** Findings of this scan that are not vulnerabilities (informational, or set aside in triage): not compared. */
  notCompared: number;
}

/**
 * This scan's vulnerabilities (the one count: new plus recurring is the scan's number), new and recurring,
 * most severe first, and the previous scan's findings it no longer sees (informational ones left out).
 */
export function compareFindings(findings: FindingBrief[], fixed: ScanInfo['fixed'] | undefined): ComparedFindings {
  const bySeverity = (a: { severity: string; cvss_score?: number }, b: { severity: string; cvss_score?: number }) =>
    levelRank(severityLevel(a)) - levelRank(severityLevel(b)) || (b.cvss_score ?? 0) - (a.cvss_score ?? 0);
  const counted = findings.filter(countsAsVulnerability).sort(bySeverity);
  return {
    new: counted.filter((f) => f.trend !== 'recurring'),
    recurring: counted.filter((f) => f.trend === 'recurring'),
    fixed: (fixed ?? []).filter((f) => f.severity !== 'info').sort(bySeverity),
    notCompared: findings.length - counted.length,
  };
}

/** Replaces the triage mark of every finding with this fingerprint (the mark follows the fingerprint). */
export function withTriage<F extends FindingBrief>(findings: F[], fingerprint: string, triage: Finding['triage']): F[] {
  return findings.map((f) => (f.fingerprint === fingerprint ? { ...f, triage } : f));
}

/** The export's file name: "portcullis-triage - Billing_API.json". */
export function triageExportFileName(apiName: string): string {
  const safe = apiName.replace(/[^\p{L}\p{N}._-]+/gu, '_').replace(/^_+|_+$/g, '').slice(0, 60) || 'API';
  return `portcullis-triage - ${safe}.json`;
}
