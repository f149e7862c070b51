// Pure rules of the scan page (issue 17): findings ordered and grouped by OWASP category, then check,
// then endpoint; the filters and the search; the rows the virtualised list draws; moving the selection
// with the keyboard; and the lists of the "compare with previous scan" view. No React here.

import { FLAG_OWASP, SEVERITIES, type Confidence, type Severity, type TriageMarkState, type TriageState } from '../../../../shared/constants';
import type { Finding, ScanInfo } from '../../../../shared/contract';
import { severityBucket } from '../../../../shared/display';

const SEVERITY_RANK: Record<Severity, number> = Object.fromEntries(SEVERITIES.map((s, i) => [s, i])) as Record<Severity, number>;

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

/** A finding with what filtering and grouping read, computed once per load rather than per keystroke. */
export interface PreparedFinding {
  finding: Finding;
  severity: Severity;
  category: string;
  /** Lower-case name, method and path (and a GraphQL operation's name), one per line: what the search looks in. */
  text: string;
}

/** Findings in page order: category (API1 first), then check (most severe first), then endpoint. */
export function prepareFindings(findings: Finding[]): PreparedFinding[] {
  const prepared = findings.map<PreparedFinding>((finding) => ({
    finding,
    severity: severityBucket(finding.severity),
    category: (finding.owasp ?? '').trim(),
    text: `${finding.vulnerability_name}\n${finding.method} ${finding.path}${finding.graphql?.operation ? `\n${finding.graphql.operation}` : ''}`.toLowerCase(),
  }));
  // The most severe finding of a check places the check within its category.
  const checkRank = new Map<string, number>();
  for (const p of prepared) {
    const key = `${p.category}\u0000${p.finding.check_id}`;
    checkRank.set(key, Math.min(checkRank.get(key) ?? Infinity, SEVERITY_RANK[p.severity]));
  }
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return prepared.sort((a, b) => {
    const [an, as] = categoryOrder(a.category);
    const [bn, bs] = categoryOrder(b.category);
    if (an !== bn) return an - bn;
    if (as !== bs) return as < bs ? -1 : 1;
    const ar = checkRank.get(`${a.category}\u0000${a.finding.check_id}`)!;
    const br = checkRank.get(`${b.category}\u0000${b.finding.check_id}`)!;
    if (ar !== br) return ar - br;
    if (a.finding.check_id !== b.finding.check_id) return collator.compare(a.finding.vulnerability_name, b.finding.vulnerability_name) || (a.finding.check_id < b.finding.check_id ? -1 : 1);
    return (
      collator.compare(a.finding.path, b.finding.path) ||
      collator.compare(a.finding.method, b.finding.method) ||
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      collator.compare(a.finding.parameter ?? '', b.finding.parameter ?? '')
    );
  });
}

export interface FindingFilters {
  severity: Severity | 'all';
  /** An OWASP id ("API1:2023"), '' for findings without one, or 'all'. */
  category: string;
  confidence: Confidence | 'all';
  trend: Finding['trend'] | 'all';
  triage: TriageMarkState | 'all';
  query: string;
}

export const NO_FILTERS: FindingFilters = { severity: 'all', category: 'all', confidence: 'all', trend: 'all', triage: 'all', query: '' };

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
  severity: Record<Severity, number>;
  /** OWASP ids in page order, with their counts. */
  categories: { id: string; label: string; count: number }[];
  confidence: Record<Confidence, number>;
  trend: Record<Finding['trend'], number>;
  triage: Record<TriageMarkState, number>;
}

/** How many findings each filter option holds (over the whole scan). */
export function facetCounts(prepared: PreparedFinding[]): FacetCounts {
  const counts: FacetCounts = {
    severity: { high: 0, medium: 0, low: 0, info: 0 },
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
  | { kind: 'finding'; key: string; finding: Finding; severity: Severity };

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
      check = { kind: 'check', key: `k:${p.category}\u0000${p.finding.check_id}`, label: p.finding.vulnerability_name, count: 0 };
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
  new: Finding[];
  recurring: Finding[];
  fixed: ScanInfo['fixed'];
}

/** New and recurring findings of this scan (most severe first) and the previous scan's findings it no longer sees. */
export function compareFindings(findings: Finding[], fixed: ScanInfo['fixed'] | undefined): ComparedFindings {
  const bySeverity = (a: { severity: string; cvss_score?: number }, b: { severity: string; cvss_score?: number }) =>
    SEVERITY_RANK[severityBucket(a.severity)] - SEVERITY_RANK[severityBucket(b.severity)] || (b.cvss_score ?? 0) - (a.cvss_score ?? 0);
  const sorted = [...findings].sort(bySeverity);
  return {
    new: sorted.filter((f) => f.trend !== 'recurring'),
    recurring: sorted.filter((f) => f.trend === 'recurring'),
    fixed: [...(fixed ?? [])].sort(bySeverity),
  };
}

/** Replaces the triage mark of every finding with this fingerprint (the mark follows the fingerprint). */
export function withTriage(findings: Finding[], fingerprint: string, triage: Finding['triage']): Finding[] {
  return findings.map((f) => (f.fingerprint === fingerprint ? { ...f, triage } : f));
}

/** The export's file name: "portcullis-triage - Billing_API.json". */
export function triageExportFileName(apiName: string): string {
  const safe = apiName.replace(/[^\p{L}\p{N}._-]+/gu, '_').replace(/^_+|_+$/g, '').slice(0, 60) || 'API';
  return `portcullis-triage - ${safe}.json`;
}
