// The re-tests repository and the `fixed` triage mark (issue 29, item 3) on both databases: one running
// re-test per API (a second is told busy, another API's is not), a running row a stopped process left
// is failed before the next, the history newest first without running rows, the latest of each of a
// scan's findings; a fixed mark takes the API's findings out of the counts, never sets aside a finding
// a later scan writes, and opens again (once) when one is found again.

import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, postgresSkipReason, stopSharedCluster } from '../../test/helpers/postgres';
import { openStore, type OpenedStore } from './database';
import type { NewFinding } from './findings';
import { createRepos, type Repos } from './index';
import type { RetestResult } from './retests';
import type { ScoreOf } from './triage';

afterAll(stopSharedCluster);

const TARGETS: { name: string; skip: string | null; open(): Promise<OpenedStore> }[] = [
  { name: 'SQLite', skip: null, open: () => openStore(':memory:') },
  { name: 'PostgreSQL', skip: postgresSkipReason(), open: async () => openStore(await freshDatabase('retests')) },
];

const T0 = new Date('2026-03-10T12:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const score: ScoreOf = (findings) => 100 - 10 * findings.length;
const STALE = 'The re-test could not run: Portcullis stopped while it ran.';

function draft(scanId: string, apiId: string, name: string): NewFinding {
  return {
    scan_id: scanId,
    api_id: apiId,
    check_id: 'api2-credentials-not-enforced',
    vulnerability_name: name,
    severity: 'high',
    confidence: 'high',
    owasp: 'API2:2023',
    cwe: null,
    description: 'd',
    recommendation: 'r',
    cvss_score: 7.5,
    cvss_vector: 'v',
    method: 'GET',
    path: `/${name}`,
    parameter: null,
    evidence: 'Method: GET',
    curl: '',
    references: [],
    fingerprint: `fp-${name}`,
    trend: 'new',
  };
}

const result = (outcome: RetestResult['outcome']): RetestResult => ({
  outcome,
  evidence: outcome === 'reproduced' ? 'Method: GET\nPath: /a' : null,
  curl: outcome === 'reproduced' ? 'curl http://x/a' : null,
  sent: ['GET http://x/a → 401'],
  requestsSent: 3,
  reason: null,
});

async function setUp(repos: Repos) {
  const user = await repos.users.create({ email: 'r@x.io', username: 'rita', firstName: 'R', lastName: 'R', passwordHash: null }, T0);
  const api = (name: string) =>
    repos.apis.createWithEndpoints({ ownerId: user.id, name, baseUrl: 'https://api.example.com', sourceFormat: 'manual', sourceFilename: null, specVersion: null, security: { schemes: {}, default: [] }, endpoints: [] }, T0);
  const apiA = await api('A');
  const apiB = await api('B');
  const scan = async (id: string, apiId: string) => {
    await repos.scans.create({ id, apiId, userId: user.id, profile: 'OWASP_API_10', config: {}, secretRef: 'ref' }, T0);
    expect(await repos.scans.markRunning(id, user.id, T0, 1)).toBe('ok');
    await repos.scans.finish(id, { status: 'completed', failureReason: null, score: 80, notes: { errors: [], skipped_checks: [], previous_scan_id: null, requests_by_check: {} }, done: 1, total: 1, requestsSent: 1 }, T0);
  };
  await scan('scan-a', apiA);
  await scan('scan-b', apiB);
  await repos.findings.insert(draft('scan-a', apiA, 'a'), T0);
  await repos.findings.insert(draft('scan-a', apiA, 'b'), T0);
  await repos.findings.insert(draft('scan-b', apiB, 'c'), T0);
  const [fa, fb] = await repos.findings.listForScan('scan-a').then((l) => [l.find((f) => f.path === '/a')!, l.find((f) => f.path === '/b')!]);
  const [fc] = await repos.findings.listForScan('scan-b');
  return { user, apiA, apiB, fa: fa!, fb: fb!, fc: fc! };
}

describe.each(TARGETS)('re-tests on $name', ({ skip, open }) => {
  describe.skipIf(skip !== null)(skip ?? 'through createRepos', () => {
    it('hold one running re-test per API, fail a stale one, and list them newest first', async () => {
      const store = await open();
      const repos = createRepos(store.db);
      try {
        const { user, apiA, apiB, fa, fb, fc } = await setUp(repos);
        const first = await repos.retests.begin({ findingId: fa.id, apiId: apiA, fingerprint: fa.fingerprint, userId: user.id }, at(1), at(-4), STALE);
        expect(first).not.toBe('busy');
        // Another finding of the same API waits; another API does not.
        expect(await repos.retests.begin({ findingId: fb.id, apiId: apiA, fingerprint: fb.fingerprint, userId: user.id }, at(1), at(-4), STALE)).toBe('busy');
        const other = await repos.retests.begin({ findingId: fc.id, apiId: apiB, fingerprint: fc.fingerprint, userId: user.id }, at(1), at(-4), STALE);
        expect(other).not.toBe('busy');
        // Running re-tests are in no history yet.
        expect(await repos.retests.listForFinding(fa.id, 10)).toEqual([]);
        await repos.retests.finish(first as string, result('reproduced'), at(2), 1234.4);
        const second = await repos.retests.begin({ findingId: fa.id, apiId: apiA, fingerprint: fa.fingerprint, userId: user.id }, at(3), at(-2), STALE);
        await repos.retests.finish(second as string, result('not_reproduced'), at(4), 800);
        const list = await repos.retests.listForFinding(fa.id, 10);
        expect(list.map((r) => [r.outcome, r.at, r.by, r.duration_ms])).toEqual([
          ['not_reproduced', at(4).toISOString(), 'rita', 800],
          ['reproduced', at(2).toISOString(), 'rita', 1234],
        ]);
        expect(list[1]).toMatchObject({ evidence: 'Method: GET\nPath: /a', curl: 'curl http://x/a', sent: ['GET http://x/a → 401'], requests_sent: 3, fingerprint: fa.fingerprint });
        expect(await repos.retests.listForFinding(fa.id, 1)).toHaveLength(1);
        // The latest of each finding of the scan: only the one re-tested.
        const latest = await repos.retests.latestForScan('scan-a');
        expect([...latest]).toEqual([[fa.id, { outcome: 'not_reproduced', at: at(4).toISOString(), by: 'rita' }]]);

        // B's re-test never finished (its process stopped): past the stale limit the next one fails it and runs.
        expect(await repos.retests.begin({ findingId: fc.id, apiId: apiB, fingerprint: fc.fingerprint, userId: user.id }, at(5), at(0), STALE)).toBe('busy');
        const after = await repos.retests.begin({ findingId: fc.id, apiId: apiB, fingerprint: fc.fingerprint, userId: null }, at(10), at(5), STALE);
        expect(after).not.toBe('busy');
        expect(await repos.retests.findById(other as string)).toMatchObject({ outcome: 'failed', reason: STALE });
        expect(await repos.retests.findById(after as string)).toMatchObject({ outcome: 'running', by: null });

        // Gone with the finding's scan.
        await sql`DELETE FROM scans WHERE id = 'scan-a'`.execute(store.db);
        expect(await repos.retests.findById(first as string)).toBeUndefined();
      } finally {
        await store.close();
      }
    });

    it('take a fixed finding out of the counts, never set aside one found later, and open it again once', async () => {
      const store = await open();
      const repos = createRepos(store.db);
      const counts = async (id: string) => (await sql<{ findings_count: number }>`SELECT findings_count FROM scans WHERE id = ${id}`.execute(store.db)).rows[0]!.findings_count;
      try {
        const { user, apiA, fa } = await setUp(repos);
        expect(await counts('scan-a')).toBe(2);
        const { triage } = await repos.triage.set({ apiId: apiA, fingerprint: fa.fingerprint, state: 'fixed', reason: 'Not reproduced.', expiresAt: null, userId: user.id }, at(1), score);
        expect(triage).toMatchObject({ state: 'fixed', set_by: 'rita' });
        expect(await counts('scan-a')).toBe(1);
        // A later scan finds it again: written counted, not set aside by the fixed mark.
        await repos.scans.create({ id: 'scan-a2', apiId: apiA, userId: user.id, profile: 'OWASP_API_10', config: {}, secretRef: 'ref' }, at(2));
        expect(await repos.findings.insert(draft('scan-a2', apiA, 'a'), at(2))).toBe(true);
        const rows = await store.db.selectFrom('findings').select(['scan_id', 'suppressed']).where('fingerprint', '=', fa.fingerprint).orderBy('scan_id').execute();
        expect(rows.map((r) => [r.scan_id, Number(r.suppressed)])).toEqual([
          ['scan-a', 1],
          ['scan-a2', 0],
        ]);
        expect(await repos.triage.reopenFixed(apiA, fa.fingerprint, 'Found again.', at(3), score)).toBe(true);
        expect(await repos.triage.reopenFixed(apiA, fa.fingerprint, 'Found again.', at(3), score)).toBe(false);
        const found = await repos.findings.findById(fa.id);
        expect(found?.triage).toMatchObject({ state: 'open', reason: 'Found again.', set_by: null, set_at: at(3).toISOString() });
        expect(found).toMatchObject({ scan_id: 'scan-a', api_id: apiA });
        expect(await counts('scan-a')).toBe(2);
        // A hand-set mark is no fixed one: reopenFixed leaves it alone.
        await repos.triage.set({ apiId: apiA, fingerprint: fa.fingerprint, state: 'false_positive', reason: '', expiresAt: null, userId: user.id }, at(4), score);
        expect(await repos.triage.reopenFixed(apiA, fa.fingerprint, 'Found again.', at(5), score)).toBe(false);
        expect((await repos.findings.findById(fa.id))?.triage?.state).toBe('false_positive');
      } finally {
        await store.close();
      }
    });
  });
});
