// The detection benchmark's own logic (bench/detect): findings of a target scanned in parts put back on
// the origin's paths, the "why missed" column drawn only from what the scan reported about that flaw,
// and the scan configurations of the five targets valid, with `destructive:` naming only real operations.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { graphqlOperationName } from '../../shared/display';
import { parseScanConfigYaml } from '../../shared/scan-config-yaml';
import { importApiDocument } from '../../electron/importer/index';
import { mergeFindings, originPath, type ScanFinding } from '../../bench/detect/findings';
import { BENCH_DIR, EXTERNAL_TARGETS, TARGETS_DIR } from '../../bench/detect/targets';
import { missReasons, type TruthEntry } from '../../bench/detect/why';
import { falseAlarmNote } from '../../bench/detect/doc';
import { summarizeCoverage, type CoverageOperation } from '../../shared/coverage';

const finding = (over: Partial<ScanFinding>): ScanFinding => ({ check_id: 'c', vulnerability_name: 'n', severity: 'medium', method: 'GET', path: '/', ...over });

describe('hand notes on false alarms', () => {
  it('shows the note keyed by method, path and check beside the scorer\'s line, and none for another check', () => {
    const notes = { J1: 'a flaw note', 'false-alarm GET /api-docs api9-exposed-docs': 'published on purpose' };
    expect(falseAlarmNote('low: GET /api-docs "API documentation exposed" (`api9-exposed-docs`): matches no truth entry', notes)).toBe('published on purpose');
    expect(falseAlarmNote('low: GET /api-docs "Verbose errors" (`api8-verbose-errors`): matches no truth entry', notes)).toBeNull();
    expect(falseAlarmNote('low: GET /api-docs/x "API documentation exposed" (`api9-exposed-docs`): matches no truth entry', notes)).toBeNull();
  });
});

describe('findings of a target scanned in parts', () => {
  it("puts an operation's path under its part's base, and leaves what the part found outside it", () => {
    expect(originPath(finding({ path: '/orders', curl: "curl -i -X POST 'http://127.0.0.1:3000/b2b/v2/orders'" }), '/b2b/v2')).toBe('/b2b/v2/orders');
    expect(originPath(finding({ path: '/metrics', curl: "curl -i -X GET 'http://127.0.0.1:3000/metrics'" }), '/b2b/v2')).toBe('/metrics');
    expect(originPath(finding({ path: '/orders/{id}' }), '/b2b/v2')).toBe('/b2b/v2/orders/{id}');
    expect(originPath(finding({ path: '/orders' }), '')).toBe('/orders');
  });

  it('keeps a finding two parts both report once', () => {
    const metrics = finding({ check_id: 'api9-metrics', path: '/metrics', curl: "curl 'http://127.0.0.1:3000/metrics'" });
    const merged = mergeFindings([
      { basePath: '', findings: [metrics, finding({ path: '/rest/x' })] },
      { basePath: '/b2b/v2', findings: [metrics, finding({ path: '/orders', method: 'POST' })] },
    ]);
    expect(merged.map((f) => `${f.method} ${f.path}`)).toEqual(['GET /metrics', 'GET /rest/x', 'POST /b2b/v2/orders']);
  });
});

describe('why a flaw was missed', () => {
  const bola: TruthEntry = { id: 'B', kind: 'vuln', name: 'BOLA', owasp: ['API1:2023'], locations: [{ method: 'PATCH', path: '/reviews/{id}' }], keywords: ['bola', 'another user', 'review'] };
  const sqli: TruthEntry = { id: 'S', kind: 'vuln', name: 'SQLi', owasp: ['injection', 'API8:2023'], locations: [{ method: 'PATCH', path: '/reviews/{id}' }], keywords: ['sql', 'injection'] };
  const imported = [{ method: 'PATCH', path: '/reviews/{reviewId}' }];
  const heldBackSql =
    'Not sent, for the target\'s safety: SQL payloads that end or comment out the statement never go to operations that change data. Held back on 1 operation (PATCH /reviews/{reviewId}); to test them...';

  it('quotes a note on the same route about the same technique, and no note about another', () => {
    const ev = { imported, notes: [heldBackSql], skipped: [] };
    expect(missReasons(sqli, ev)).toEqual([`Scan note: ${heldBackSql}`]);
    expect(missReasons(bola, ev)).toEqual([]);
  });

  it('quotes a note that the route was not exercised at all, for any flaw there', () => {
    const note = 'PATCH /reviews/{reviewId} was not exercised: no object of its own (writes and deletes only touch objects the scan created).';
    expect(missReasons(bola, { imported, notes: [note], skipped: [] })).toEqual([`Scan note: ${note}`]);
  });

  it("quotes the scan's coverage: the flaw's operation not reached, and checks of its category that could not exercise it", () => {
    const op = (over: Partial<CoverageOperation>): CoverageOperation => ({ method: 'PATCH', path: '/reviews/{reviewId}', operation: null, identities: {}, ran: [], found: [], skipped: [], ...over });
    const refused = op({
      identities: { alice: { requests: 3, classes: { '4xx': 3 } }, anonymous: { requests: 1, classes: { '4xx': 1 } } },
      skipped: [
        { check_id: 'api1-bola-token-swap', reason: 'existing-object', detail: '{reviewId} would address an object the scan did not create' },
        { check_id: 'api8-sql-injection', reason: 'refused', detail: "alice's unchanged request was refused: 401" },
      ],
    });
    const coverage = (ops: CoverageOperation[]) => [{ basePath: '/api', coverage: { summary: summarizeCoverage(ops, ['alice', 'anonymous']), operations: ops } }];
    const under = [{ method: 'PATCH', path: '/api/reviews/{reviewId}' }];
    const bolaAt: TruthEntry = { ...bola, locations: [{ method: 'PATCH', path: '/api/reviews/{id}' }] };
    const why = missReasons(bolaAt, { imported: under, notes: [], skipped: [], coverage: coverage([refused]) });
    expect(why).toEqual([
      'Coverage: PATCH /reviews/{reviewId} answered no 2xx to any identity (alice: 4xx 3; anonymous: 4xx 1).',
      expect.stringMatching(/^Coverage: ".+" did not exercise PATCH \/reviews\/\{reviewId\}: would write to an object the scan did not create \(\{reviewId\} would address/),
    ]);
    // The SQL check's skip belongs to the injection flaw on the same route, not to the BOLA one.
    const sqlAt: TruthEntry = { ...sqli, locations: bolaAt.locations };
    expect(missReasons(sqlAt, { imported: under, notes: [], skipped: [], coverage: coverage([refused]) }).some((w) => /SQL injection" did not exercise .*refused by the API/.test(w))).toBe(true);
    // A reached operation whose checks all ran says nothing.
    const fine = op({ identities: { alice: { requests: 5, classes: { '2xx': 5 } } }, ran: ['api1-bola-token-swap'] });
    expect(missReasons(bolaAt, { imported: under, notes: [], skipped: [], coverage: coverage([fine]) })).toEqual([]);
  });

  it('says when the route is not in the imported description', () => {
    const hidden: TruthEntry = { ...bola, locations: [{ method: 'GET', path: '/api3/comment' }] };
    expect(missReasons(hidden, { imported, notes: [], skipped: [] })).toEqual(['Its route is not among the operations the scan imported.']);
    expect(missReasons(bola, { imported, notes: [], skipped: [] })).toEqual([]);
  });

  it('on a route every GraphQL flaw shares, ties a note to a flaw only through its operation', () => {
    const gql = [
      { method: 'POST', path: '/graphql', operation: 'Query.pastes' },
      { method: 'POST', path: '/graphql', operation: 'Mutation.editPaste' },
      { method: 'POST', path: '/graphql', operation: 'Mutation.importPaste' },
    ];
    const sqlInPastes: TruthEntry = { id: 'G18', kind: 'vuln', name: 'SQLi in pastes(filter)', owasp: ['injection'], locations: [{ method: 'POST', path: '/graphql', needKeyword: true }], keywords: ['sql', 'sqli'] };
    const cmdInImport: TruthEntry = { id: 'G13', kind: 'vuln', name: 'OS command injection', owasp: ['injection'], locations: [{ method: 'POST', path: '/graphql', needKeyword: true }], keywords: ['importpaste', 'curl'] };
    const notes = [
      'Not sent, for the target\'s safety: SQL payloads that end or comment out the statement never go to operations that change data. Held back on 1 operation (Mutation.editPaste).',
      'POST /graphql Mutation.deletePaste was not exercised: its name says it deletes data.',
      'POST /graphql Mutation.importPaste was not exercised: something.',
    ];
    expect(missReasons(sqlInPastes, { imported: gql, notes, skipped: [] })).toEqual([]);
    expect(missReasons(cmdInImport, { imported: gql, notes, skipped: [] })).toEqual([`Scan note: ${notes[2]}`]);
  });

  it('quotes a skipped check of the same category that names the technique, never one that only shares who it acts as', () => {
    const jwt: TruthEntry = { id: 'J', kind: 'vuln', name: 'JWT alg none', owasp: ['API2:2023'], locations: [{ method: '*', path: '*', needKeyword: true }], keywords: ['tampered jwt', 'alg none'] };
    const skipped = [
      { check_id: 'a', title: 'Tampered JWT accepted', reason: 'Key 1 is not a JWT, so there is no token to tamper with.', owasp: 'API2:2023' },
      { check_id: 'b', title: "Another user's password can be changed", reason: 'No scanned endpoint has the BOLA flag (or fits this check).', owasp: 'API1:2023' },
    ];
    expect(missReasons(jwt, { imported, notes: [], skipped })).toEqual(['Skipped check "Tampered JWT accepted": Key 1 is not a JWT, so there is no token to tamper with.']);
    expect(missReasons(bola, { imported, notes: [], skipped })).toEqual([]);
  });
});

describe.runIf(fs.existsSync(TARGETS_DIR))("the targets' scan configurations", () => {
  for (const t of EXTERNAL_TARGETS) {
    for (const plan of t.scans) {
      it(`${t.id}/${plan.config} is valid and names under destructive: only operations of ${plan.spec}`, () => {
        const text = fs.readFileSync(path.join(BENCH_DIR, t.id, plan.config), 'utf8');
        const parsed = parseScanConfigYaml(text, { env: (name) => (name === 'TARGET_URL' ? 'http://127.0.0.1:1' : undefined) });
        expect(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues)).toBe(true);
        if (!parsed.ok) return;
        const spec = path.join(TARGETS_DIR, t.dir, plan.spec);
        const doc = importApiDocument(new Uint8Array(fs.readFileSync(spec)), { filename: path.basename(spec) });
        const names = new Set(doc.endpoints.map((e) => (e.graphql ? graphqlOperationName(e.graphql) : `${e.method} ${e.path}`)));
        for (const op of parsed.config.destructive ?? []) expect(names, op).toContain(op);
        if (t.setup) expect(fs.existsSync(path.join(BENCH_DIR, t.id, 'setup.sh'))).toBe(true);
      });
    }
  }
});
