import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../../shared/contract';
import {
  categoryLabel,
  compareFindings,
  editableTriageState,
  facetCounts,
  filterFindings,
  groupRows,
  isFiltered,
  moveSelection,
  NO_FILTERS,
  prepareFindings,
  readFindingsAddress,
  triageExportFileName,
  withTriage,
  writeFindingsAddress,
  type ListRow,
} from './findings-view';
import { vulnerabilityCount } from '../../../../shared/severity';

let seq = 0;
function finding(over: Partial<Finding> = {}): Finding {
  seq += 1;
  return {
    id: `f${seq}`,
    check_id: 'bola-id-swap',
    vulnerability_name: 'Object read with another user key',
    severity: 'high',
    confidence: 'high',
    owasp: 'API1:2023',
    cwe: 'CWE-639',
    description: 'd',
    recommendation: 'r',
    cvss_score: 8.1,
    cvss_vector: 'CVSS:3.1/AV:N',
    method: 'GET',
    path: '/orders/{id}',
    parameter: null,
    evidence: 'e',
    curl: 'c',
    references: [],
    fingerprint: `fp${seq}`,
    trend: 'new',
    triage: null,
    ...over,
  };
}

const ids = (rows: ListRow[]) => rows.map((r) => (r.kind === 'finding' ? r.key : `${r.kind}:${r.label}:${r.count}`));

describe('categoryLabel', () => {
  it('names OWASP categories, passes unknown ids through and calls none "Other"', () => {
    expect(categoryLabel('API1:2023')).toBe('API1:2023 Broken Object Level Authorization');
    expect(categoryLabel('API99:2030')).toBe('API99:2030');
    expect(categoryLabel('')).toBe('Other');
  });
});

describe('check groups', () => {
  it('are titled by their check, never by the name of their first finding', () => {
    const alg = finding({ owasp: 'API2:2023', check_id: 'api2-jwt-tampering', vulnerability_name: 'JWT with "alg": "none" accepted', path: '/me' });
    const stripped = finding({ owasp: 'API2:2023', check_id: 'api2-jwt-tampering', vulnerability_name: 'JWT with its signature stripped accepted', path: '/me' });
    const rows = groupRows(prepareFindings([alg, stripped]));
    expect(rows.filter((r) => r.kind === 'check').map((r) => (r as { label: string }).label)).toEqual(['Tampered JWT accepted']);
    // The search finds a finding by its check's title too.
    expect(filterFindings(prepareFindings([alg, stripped]), { ...NO_FILTERS, query: 'tampered' })).toHaveLength(2);
  });
});

describe('prepareFindings and groupRows', () => {
  it('orders by category number (API10 after API2), then most severe check, then endpoint, with counts', () => {
    const a = finding({ id: 'a', owasp: 'API10:2023', check_id: 'x', vulnerability_name: 'Unsafe', path: '/b' });
    const b = finding({ id: 'b', owasp: 'API2:2023', check_id: 'low-check', vulnerability_name: 'A low one', severity: 'low', cvss_score: 2 });
    const c = finding({ id: 'c', owasp: 'API2:2023', check_id: 'high-check', vulnerability_name: 'Z high one', path: '/z' });
    const d = finding({ id: 'd', owasp: 'API2:2023', check_id: 'high-check', vulnerability_name: 'Z high one', path: '/a' });
    const e = finding({ id: 'e', owasp: '', check_id: 'misc', vulnerability_name: 'Misc' });
    const rows = groupRows(prepareFindings([e, a, b, c, d]));
    expect(ids(rows)).toEqual([
      'category:API2:2023 Broken Authentication:3',
      'check:Z high one:2',
      'd',
      'c',
      'check:A low one:1',
      'b',
      'category:API10:2023 Unsafe Consumption of APIs:1',
      'check:Unsafe:1',
      'a',
      'category:Other:1',
      'check:Misc:1',
      'e',
    ]);
  });
});

describe('filterFindings', () => {
  const all = [
    finding({ id: 'h', severity: 'high', confidence: 'high', trend: 'new', method: 'GET', path: '/users/{id}' }),
    finding({ id: 'm', severity: 'medium', confidence: 'low', trend: 'recurring', owasp: 'API8:2023', method: 'POST', path: '/login', vulnerability_name: 'No rate limit' }),
    finding({
      id: 't',
      severity: 'low',
      confidence: 'medium',
      trend: 'recurring',
      triage: { state: 'false_positive', reason: 'test data', expires_at: null, set_by: 'ada', set_at: '2026-01-01T00:00:00Z' },
    }),
  ];
  const prepared = prepareFindings(all);
  const run = (f: Partial<typeof NO_FILTERS>) => filterFindings(prepared, { ...NO_FILTERS, ...f }).map((p) => p.finding.id).sort();

  it('filters by severity, category, confidence, trend and triage state (no mark counts as open)', () => {
    expect(run({})).toEqual(['h', 'm', 't']);
    expect(run({ severity: 'medium' })).toEqual(['m']);
    expect(run({ category: 'API8:2023' })).toEqual(['m']);
    expect(run({ confidence: 'medium' })).toEqual(['t']);
    expect(run({ trend: 'recurring' })).toEqual(['m', 't']);
    expect(run({ triage: 'open' })).toEqual(['h', 'm']);
    expect(run({ triage: 'false_positive' })).toEqual(['t']);
    expect(run({ trend: 'recurring', triage: 'open' })).toEqual(['m']);
  });

  it('searches name, method and path, every word, in any case', () => {
    expect(run({ query: 'rate' })).toEqual(['m']);
    expect(run({ query: 'post' })).toEqual(['m']);
    expect(run({ query: 'GET /users' })).toEqual(['h']);
    expect(run({ query: '  /USERS  ' })).toEqual(['h']);
    expect(run({ query: 'post /users' })).toEqual([]);
    // The description is not searched.
    expect(run({ query: 'test data' })).toEqual([]);
  });

  it('finds a GraphQL finding by its operation name', () => {
    const gql = finding({
      id: 'g',
      method: 'POST',
      path: '/graphql',
      graphql: { operation: 'Query.loan', query: 'query ($id: ID!) { loan(id: $id) { id } }', variables: '{"id": "2"}', batch: null },
    });
    const find = (query: string) => filterFindings(prepareFindings([...all, gql]), { ...NO_FILTERS, query }).map((p) => p.finding.id);
    expect(find('query.loan')).toEqual(['g']);
    expect(find('loan')).toEqual(['g']);
    expect(find('Mutation.loan')).toEqual([]);
  });

  it('counts and filters a finding closed as fixed apart, and its triage form starts from open', () => {
    const fixed = finding({ id: 'x', triage: { state: 'fixed', reason: 'Not reproduced by the re-test.', expires_at: null, set_by: 'ada', set_at: '2026-01-01T00:00:00Z' } });
    const withFixed = prepareFindings([...all, fixed]);
    expect(facetCounts(withFixed).triage).toEqual({ open: 2, false_positive: 1, accepted_risk: 0, fixed: 1 });
    expect(filterFindings(withFixed, { ...NO_FILTERS, triage: 'fixed' }).map((p) => p.finding.id)).toEqual(['x']);
    expect(editableTriageState(fixed)).toBe('open');
    expect(editableTriageState(all[2]!)).toBe('false_positive');
  });

  it('counts each option over the whole scan', () => {
    const c = facetCounts(prepared);
    expect(c.severity).toEqual({ critical: 0, high: 1, medium: 1, low: 1, info: 0 });
    expect(c.trend).toEqual({ new: 1, recurring: 2 });
    expect(c.triage).toEqual({ open: 2, false_positive: 1, accepted_risk: 0, fixed: 0 });
    expect(c.categories.map((x) => [x.id, x.count])).toEqual([
      ['API1:2023', 2],
      ['API8:2023', 1],
    ]);
  });

  it('knows when anything narrows the list', () => {
    expect(isFiltered(NO_FILTERS)).toBe(false);
    expect(isFiltered({ ...NO_FILTERS, query: '   ' })).toBe(false);
    expect(isFiltered({ ...NO_FILTERS, query: 'x' })).toBe(true);
    expect(isFiltered({ ...NO_FILTERS, trend: 'new' })).toBe(true);
  });

  it('filters 10,000 findings well within 100 ms', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      finding({ owasp: `API${(i % 10) + 1}:2023`, check_id: `c${i % 40}`, path: `/resource/${i}`, severity: (['high', 'medium', 'low', 'info'] as const)[i % 4] }),
    );
    const p = prepareFindings(many);
    const start = performance.now();
    const rows = groupRows(filterFindings(p, { ...NO_FILTERS, severity: 'high', query: 'resource/1' }));
    const took = performance.now() - start;
    expect(rows.filter((r) => r.kind === 'finding').length).toBeGreaterThan(0);
    expect(took).toBeLessThan(100);
  });
});

describe('moveSelection', () => {
  const rows = groupRows(prepareFindings([finding({ id: 'a', path: '/a' }), finding({ id: 'b', path: '/b' }), finding({ id: 'c', owasp: 'API2:2023' })]));
  const at = (i: number | null) => (i === null ? null : rows[i]!.key);

  it('steps over headings, stops at the ends, and starts at the first finding', () => {
    expect(at(moveSelection(rows, null, 'next'))).toBe('a');
    expect(at(moveSelection(rows, 'a', 'next'))).toBe('b');
    expect(at(moveSelection(rows, 'b', 'next'))).toBe('c');
    expect(at(moveSelection(rows, 'c', 'next'))).toBe('c');
    expect(at(moveSelection(rows, 'c', 'previous'))).toBe('b');
    expect(at(moveSelection(rows, 'a', 'previous'))).toBe('a');
    expect(at(moveSelection(rows, 'b', 'last'))).toBe('c');
    expect(at(moveSelection(rows, 'c', 'first'))).toBe('a');
    expect(at(moveSelection(rows, 'gone', 'next'))).toBe('a');
    expect(moveSelection([], null, 'next')).toBeNull();
  });
});

describe('compareFindings', () => {
  it('splits new and recurring (most severe first) and sorts the fixed ones', () => {
    const lowNew = finding({ id: 'ln', severity: 'low', cvss_score: 3, trend: 'new' });
    const highNew = finding({ id: 'hn', severity: 'high', cvss_score: 9.1, trend: 'new' });
    const rec = finding({ id: 'r', trend: 'recurring' });
    const c = compareFindings([lowNew, rec, highNew], [
      { fingerprint: 'x', vulnerability_name: 'Old low', method: 'GET', path: '/x', severity: 'low' },
      { fingerprint: 'y', vulnerability_name: 'Old high', method: 'GET', path: '/y', severity: 'high' },
    ]);
    expect(c.new.map((f) => f.id)).toEqual(['hn', 'ln']);
    expect(c.recurring.map((f) => f.id)).toEqual(['r']);
    expect(c.fixed.map((f) => f.fingerprint)).toEqual(['y', 'x']);
    expect(c.notCompared).toBe(0);
    expect(compareFindings([], undefined).fixed).toEqual([]);
  });

  it('compares vulnerabilities only: new plus recurring is the one count, the others are said apart', () => {
    const open = finding({ id: 'o', trend: 'new' });
    const info = finding({ id: 'i', severity: 'info', cvss_score: 0, trend: 'new' });
    const setAside = finding({ id: 'fp', trend: 'recurring', triage: { state: 'false_positive', reason: '', expires_at: null, set_by: null, set_at: '2026-01-01T00:00:00Z' } });
    const rec = finding({ id: 'r', severity: 'medium', cvss_score: 5.3, trend: 'recurring' });
    const all = [open, info, setAside, rec];
    const c = compareFindings(all, [
      { fingerprint: 'a', vulnerability_name: 'Old note', method: 'GET', path: '/a', severity: 'info' },
      { fingerprint: 'b', vulnerability_name: 'Old critical', method: 'GET', path: '/b', severity: 'high', cvss_score: 9.8 },
      { fingerprint: 'c', vulnerability_name: 'Old high', method: 'GET', path: '/c', severity: 'high', cvss_score: 7.5 },
    ]);
    expect(c.new.map((f) => f.id)).toEqual(['o']);
    expect(c.recurring.map((f) => f.id)).toEqual(['r']);
    expect(c.new.length + c.recurring.length).toBe(vulnerabilityCount(all));
    expect(c.notCompared).toBe(2);
    // Informational findings were no vulnerabilities: not listed as fixed; the critical one first.
    expect(c.fixed.map((f) => f.fingerprint)).toEqual(['b', 'c']);
  });
});

describe('the Critical level', () => {
  const critical = finding({ id: 'c', severity: 'high', cvss_score: 9.1 });
  const high = finding({ id: 'h', severity: 'high', cvss_score: 7.5 });
  const prepared = prepareFindings([high, critical]);

  it('is a filter option of its own, apart from High', () => {
    expect(facetCounts(prepared).severity).toEqual({ critical: 1, high: 1, medium: 0, low: 0, info: 0 });
    expect(filterFindings(prepared, { ...NO_FILTERS, severity: 'critical' }).map((p) => p.finding.id)).toEqual(['c']);
    expect(filterFindings(prepared, { ...NO_FILTERS, severity: 'high' }).map((p) => p.finding.id)).toEqual(['h']);
    // The row carries its level, and the critical finding comes first in its check.
    expect(groupRows(prepared).flatMap((r) => (r.kind === 'finding' ? [`${r.key}:${r.severity}`] : []))).toEqual(['c:critical', 'h:high']);
  });

  it('is kept in the address', () => {
    expect(readFindingsAddress(new URLSearchParams('severity=critical')).filters.severity).toBe('critical');
    expect(writeFindingsAddress({ filters: { ...NO_FILTERS, severity: 'critical' }, findingId: null })).toBe('severity=critical');
    expect(readFindingsAddress(new URLSearchParams('severity=urgent')).filters.severity).toBe('all');
  });
});

describe('withTriage and the export name', () => {
  it('sets the mark on every finding with the fingerprint, leaving the others as they were', () => {
    const a = finding({ fingerprint: 'same' });
    const b = finding({ fingerprint: 'same' });
    const c = finding();
    const mark = { state: 'accepted_risk' as const, reason: 'r', expires_at: null, set_by: 'ada', set_at: 'now' };
    const out = withTriage([a, b, c], 'same', mark);
    expect(out[0]!.triage).toEqual(mark);
    expect(out[1]!.triage).toEqual(mark);
    expect(out[2]).toBe(c);
    expect(a.triage).toBeNull();
  });

  it('names the export after the API, safe for any file system', () => {
    expect(triageExportFileName('Billing API')).toBe('portcullis-triage - Billing_API.json');
    expect(triageExportFileName('a/b\\c:d*')).toBe('portcullis-triage - a_b_c_d.json');
    expect(triageExportFileName('///')).toBe('portcullis-triage - API.json');
  });
});
