import { describe, expect, it } from 'vitest';
import { summarizeCoverage, type CoverageOperation, type ScanCoverage } from '../../../../shared/coverage';
import {
  checkNamer,
  checksLine,
  codeSpans,
  coverageCell,
  coverageFilterCounts,
  coverageRows,
  dominantClass,
  filterCoverageRows,
  identityColumns,
  lostOperations,
  onlyClientErrors,
  skipGroups,
  skipsLine,
  splitPath,
} from './coverage-view';

const op = (method: string, path: string, identities: CoverageOperation['identities'], extra: Partial<CoverageOperation> = {}): CoverageOperation => ({
  method,
  path,
  operation: null,
  identities,
  ran: [],
  found: [],
  skipped: [],
  ...extra,
});

const t = (classes: CoverageOperation['identities'][string]['classes']) => ({ requests: Object.values(classes).reduce((a, b) => a + (b ?? 0), 0), classes });

const OPS: CoverageOperation[] = [
  op('GET', '/me', { 'key 1': t({ '2xx': 9 }), anonymous: t({ '4xx': 5, '2xx': 1 }) }, { ran: ['a', 'b', 'c'], found: ['b'] }),
  op('GET', '/orders/{orderId}', { 'key 1': t({ '4xx': 3 }), anonymous: t({ '4xx': 1 }) }, {
    ran: ['a'],
    skipped: [
      { check_id: 'api1-bola-token-swap', reason: 'needs-second-identity', detail: 'Needs a second user (key 2).' },
      { check_id: 'api1-bola-id-swap', reason: 'needs-second-identity', detail: 'Needs a second user (key 2).' },
      { check_id: 'x-validation', reason: 'validation', detail: '400 {"error":"bad"}' },
      { check_id: 'api8-trace-enabled', reason: 'not-applicable', detail: '' },
    ],
  }),
  op('POST', '/notes', {}, { skipped: [{ check_id: 'api8-trace-enabled', reason: 'not-applicable', detail: '' }] }),
  op('POST', '/graphql', { 'key 1': t({ '5xx': 2, timeout: 2 }) }, { operation: 'Mutation.uploadPaste' }),
];

const COVERAGE: ScanCoverage = { summary: summarizeCoverage(OPS, ['key 1', 'anonymous']), operations: OPS };

describe('status cells', () => {
  it('show the commonest class; a tie goes to the earlier class', () => {
    expect(dominantClass({ '2xx': 1, '4xx': 5 })).toBe('4xx');
    expect(dominantClass({ '5xx': 2, timeout: 2 })).toBe('5xx');
    expect(dominantClass({ '4xx': 0 })).toBeNull();
  });

  it('carry the request count and every class in their text; an identity that sent nothing is "not sent"', () => {
    expect(coverageCell('anonymous', t({ '4xx': 5, '2xx': 1 }))).toEqual({
      identity: 'anonymous',
      status: '4xx',
      requests: 6,
      classes: [
        { status: '4xx', count: 5 },
        { status: '2xx', count: 1 },
      ],
      text: 'anonymous: 6 requests: 4xx 5, 2xx 1',
    });
    expect(coverageCell('key 2', undefined)).toMatchObject({ status: 'not-sent', requests: 0, text: 'key 2: not sent' });
    expect(coverageCell('key 1', t({ '2xx': 1 })).text).toBe('key 1: 1 request: 2xx 1');
  });
});

describe('rows and filters', () => {
  const rows = coverageRows(COVERAGE);

  it('one row per operation, a cell per identity in the summary order', () => {
    expect(rows.map((r) => r.label)).toEqual(['GET /me', 'GET /orders/{orderId}', 'POST /notes', 'Mutation.uploadPaste']);
    expect(rows[0]!.cells.map((c) => [c.identity, c.status])).toEqual([
      ['key 1', '2xx'],
      ['anonymous', '4xx'],
    ]);
    expect(rows[2]!.cells.every((c) => c.status === 'not-sent')).toBe(true);
    // not-applicable skips are counted apart, never listed as skipped.
    expect(rows[1]!.skips).toHaveLength(3);
    expect(rows[1]!.notApplicable).toBe(1);
    expect(rows[2]!.skips).toHaveLength(0);
  });

  it('an identity only an operation names still gets its column, after the summary\'s', () => {
    const extra = { ...COVERAGE, operations: [...OPS, op('GET', '/x', { 'registered users': t({ '2xx': 1 }) })] };
    expect(identityColumns(extra)).toEqual(['key 1', 'anonymous', 'registered users']);
  });

  it('"only 4xx" is an operation that was answered, every time with a 4xx', () => {
    expect(onlyClientErrors(OPS[1]!)).toBe(true);
    expect(onlyClientErrors(OPS[0]!)).toBe(false);
    // Nothing sent: not reached, but not "only 4xx" either.
    expect(onlyClientErrors(OPS[2]!)).toBe(false);
  });

  it('count and filter: not reached (no 2xx), only 4xx, actionable skipped checks', () => {
    expect(coverageFilterCounts(rows)).toEqual({ all: 4, 'not-reached': 3, 'only-4xx': 1, skipped: 1 });
    expect(filterCoverageRows(rows, 'not-reached', '').map((r) => r.label)).toEqual(['GET /orders/{orderId}', 'POST /notes', 'Mutation.uploadPaste']);
    expect(filterCoverageRows(rows, 'only-4xx', '').map((r) => r.label)).toEqual(['GET /orders/{orderId}']);
    expect(filterCoverageRows(rows, 'skipped', '').map((r) => r.label)).toEqual(['GET /orders/{orderId}']);
    // The counts agree with the summary the server computed.
    expect(coverageFilterCounts(rows)['not-reached']).toBe(COVERAGE.summary.operations - COVERAGE.summary.reached);
    expect(coverageFilterCounts(rows).skipped).toBe(COVERAGE.summary.not_exercised);
  });

  it('the search looks in the method, the path and the GraphQL operation name; every word must match', () => {
    expect(filterCoverageRows(rows, 'all', 'orders').map((r) => r.label)).toEqual(['GET /orders/{orderId}']);
    expect(filterCoverageRows(rows, 'all', 'post notes').map((r) => r.label)).toEqual(['POST /notes']);
    expect(filterCoverageRows(rows, 'all', 'uploadpaste').map((r) => r.label)).toEqual(['Mutation.uploadPaste']);
    expect(filterCoverageRows(rows, 'not-reached', '/me')).toEqual([]);
  });

  it('say what ran, found and was skipped', () => {
    expect(checksLine(OPS[0]!)).toBe('3 ran · 1 found');
    expect(skipsLine(rows[1]!)).toBe('3 skipped: needs a second identity (+1 more reason)');
    expect(skipsLine(rows[0]!)).toBe('');
  });

  it('group an operation\'s skips by reason, then by the API\'s answer', () => {
    const groups = skipGroups(rows[1]!.skips);
    expect(groups.map((g) => [g.reason, g.details.map((d) => d.checks)])).toEqual([
      ['needs-second-identity', [['api1-bola-token-swap', 'api1-bola-id-swap']]],
      ['validation', [['x-validation']]],
    ]);
    expect(groups[0]!.label).toBe('needs a second identity');
    expect(groups[0]!.fix).toContain('add a second identity');
  });
});

describe('display helpers', () => {
  it('cut a path so its last segment stays visible', () => {
    expect(splitPath('/users/{userId}/addresses')).toEqual(['/users/{userId}', '/addresses']);
    expect(splitPath('/me')).toEqual(['', '/me']);
    // A long last segment keeps its end.
    const [head, tail] = splitPath('/files/a-very-long-file-name-that-goes-on.pdf');
    expect(tail).toHaveLength(18);
    expect(head + tail).toBe('/files/a-very-long-file-name-that-goes-on.pdf');
  });

  it('render `code` in fix texts', () => {
    expect(codeSpans('allow writes (`writes: existing`) on a disposable instance')).toEqual([
      { code: false, text: 'allow writes (' },
      { code: true, text: 'writes: existing' },
      { code: false, text: ') on a disposable instance' },
    ]);
    expect(codeSpans('no code')).toEqual([{ code: false, text: 'no code' }]);
  });

  it('name checks by the registry, then by what the scan said, else by id', () => {
    const name = checkNamer([{ check_id: 'new-check', vulnerability_name: 'A check from a newer core' }], [{ check_id: 'skipped-new', title: 'Skipped newer check' }]);
    expect(name('api1-bola-token-swap')).toBe("Object readable with another user's key (token swap)");
    expect(name('new-check')).toBe('A check from a newer core');
    expect(name('skipped-new')).toBe('Skipped newer check');
    expect(name('unknown')).toBe('unknown');
  });
});

describe('lost coverage', () => {
  it('lists the previous scan\'s operations reached then and not now, with their method and path', () => {
    const before = [op('GET', '/me', { 'key 1': t({ '2xx': 1 }) }), op('GET', '/orders', { 'key 1': t({ '2xx': 1 }) }), op('GET', '/gone', { 'key 1': t({ '2xx': 1 }) }), op('GET', '/never', { 'key 1': t({ '4xx': 1 }) })];
    const after = [op('GET', '/me', { 'key 1': t({ '2xx': 1 }) }), op('GET', '/orders', { 'key 1': t({ '4xx': 3 }) })];
    expect(lostOperations(before, after).map((o) => `${o.method} ${o.path}`)).toEqual(['GET /orders', 'GET /gone']);
    expect(lostOperations(after, after)).toEqual([]);
  });
});
