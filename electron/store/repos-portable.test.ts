// The repositories' runtime SQL on both databases (issue 19): the same test body over an SQLite store
// and a PostgreSQL one (the throwaway cluster of test/helpers/postgres.ts), through createRepos as the
// services use it — scan order among equal timestamps, dashboard figures, triage, unique violations.

import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Severity } from '../../shared/constants';
import { SERVER_MESSAGES } from '../../shared/messages';
import { vulnerabilityCount, vulnerabilityLevels } from '../../shared/severity';
import { freshDatabase, postgresSkipReason, stopSharedCluster } from '../../test/helpers/postgres';
import { HashGate } from '../accounts/passwords';
import { createAccounts } from '../accounts/service';
import { createTwoFactor } from '../accounts/two-factor';
import { ApiError, serviceUnavailable } from '../api/errors';
import { systemClock } from '../clock';
import { resolveConfig } from '../config';
import { createLogger } from '../log';
import { createEncryptedStore } from '../secrets/encrypted';
import { openStore, type OpenedStore } from './database';
import { isUniqueViolation } from './dialect';
import type { NewFinding } from './findings';
import { NUL_STAND_IN } from './nul-free-text';
import { createRepos, type Repos } from './index';
import type { ScoreOf } from './triage';

afterAll(stopSharedCluster);

const TARGETS: { name: string; skip: string | null; open(): Promise<OpenedStore> }[] = [
  { name: 'SQLite', skip: null, open: () => openStore(':memory:') },
  {
    name: 'PostgreSQL',
    skip: postgresSkipReason(),
    open: async () => openStore(await freshDatabase('repos')),
  },
];

const NOW = new Date('2026-03-10T12:00:00.000Z');
const EARLIER = new Date('2026-03-10T11:00:00.000Z');
const score: ScoreOf = (findings) => 100 - 10 * findings.length;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function addApi(repos: Repos, ownerId: string, name: string): Promise<string> {
  return repos.apis.createWithEndpoints(
    { ownerId, name, baseUrl: 'https://api.example.com', sourceFormat: 'manual', sourceFilename: null, specVersion: null, security: { schemes: {}, default: [] }, endpoints: [] },
    EARLIER,
  );
}

function finding(scanId: string, apiId: string, name: string, severity: Severity, cvss: number): NewFinding {
  return {
    scan_id: scanId,
    api_id: apiId,
    check_id: 'check',
    vulnerability_name: name,
    severity,
    confidence: 'high',
    owasp: 'API1:2023',
    cwe: null,
    description: 'd',
    recommendation: 'r',
    cvss_score: cvss,
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

/** Creates the scan and, unless it stays a draft, runs it to completion at `completedAt`. */
async function addScan(repos: Repos, id: string, apiId: string, userId: string, completedAt: Date | null): Promise<void> {
  await repos.scans.create({ id, apiId, userId, profile: 'OWASP_API_10', config: {}, secretRef: `ref-${id}` }, EARLIER);
  if (!completedAt) return;
  expect(await repos.scans.markRunning(id, userId, EARLIER, 1)).toBe('ok');
  const finished = await repos.scans.finish(
    id,
    { status: 'completed', failureReason: null, score: 90, notes: { errors: [], skipped_checks: [], previous_scan_id: null, requests_by_check: {} }, done: 1, total: 1, requestsSent: 1 },
    completedAt,
  );
  expect(finished).toBe(true);
}

describe.each(TARGETS)('repositories on $name', ({ skip, open }) => {
  /** A fresh store's repositories for `fn`, the store closed after it. */
  const withRepos = async (fn: (repos: Repos, store: OpenedStore) => Promise<void>): Promise<void> => {
    const store = await open();
    try {
      await fn(createRepos(store.db), store);
    } finally {
      await store.close();
    }
  };

  describe.skipIf(skip !== null)(skip ?? 'through createRepos', () => {
    it('order scans created in the same millisecond by insertion, not by id', async () => {
      await withRepos(async (repos, store) => {
        const user = await repos.users.create({ email: 'a@x.io', username: 'a', firstName: 'A', lastName: 'A', passwordHash: null }, EARLIER);
        const api = await addApi(repos, user.id, 'Shop');
        // Ids sort against insertion order, so an id tie-break would give the reverse.
        await addScan(repos, 'scan-c', api, user.id, NOW);
        await addScan(repos, 'scan-b', api, user.id, NOW);
        await addScan(repos, 'scan-a', api, user.id, null);
        expect((await repos.scans.listForApi(api)).map((s) => s.id)).toEqual(['scan-a', 'scan-b', 'scan-c']);
        expect((await repos.scans.latestCreated(api, user.id))?.id).toBe('scan-a');
        expect((await repos.scans.latestHoldingSecret(api, user.id))?.id).toBe('scan-a');
        expect((await repos.scans.previousCompleted(api, 'none'))?.id).toBe('scan-b');
        expect((await repos.scans.previousCompleted(api, 'scan-b'))?.id).toBe('scan-c');

        // A scan written by plain SQL (an older writer, a seed) is numbered after the others too.
        await sql`INSERT INTO scans (id, api_id, user_id, profile, status, created_at) VALUES ('scan-0', ${api}, ${user.id}, 'p', 'created', ${EARLIER.toISOString()})`.execute(store.db);
        expect((await repos.scans.latestCreated(api, user.id))?.id).toBe('scan-0');
        // A superseded draft goes; the next scan still comes after every remaining one.
        await repos.scans.deleteDrafts(api, user.id, 'scan-0');
        await addScan(repos, 'scan-00', api, user.id, null);
        expect((await repos.scans.listForApi(api)).map((s) => s.id)).toEqual(['scan-00', 'scan-0', 'scan-b', 'scan-c']);
      });
    });

    it('keep a scan\'s traffic compressed, replace it, and drop it with its scan (migration 016)', async () => {
      await withRepos(async (repos, store) => {
        const user = await repos.users.create({ email: 't@x.io', username: 't', firstName: 'T', lastName: 'T', passwordHash: null }, EARLIER);
        const api = await addApi(repos, user.id, 'Traffic');
        await addScan(repos, 'scan-t', api, user.id, NOW);
        expect(await repos.scanTraffic.find('scan-t')).toBeNull();
        const entry = { startedDateTime: NOW.toISOString(), time: 1, request: { method: 'GET', url: 'https://api.example.com/é', httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 }, response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 2, mimeType: 'application/json', text: '{}' }, redirectURL: '', headersSize: -1, bodySize: 2 }, cache: {}, timings: { send: 0, wait: 1, receive: 0 } };
        const har = (n: number) => ({ log: { version: '1.2', creator: { name: 'Portcullis', version: '0' }, entries: Array.from({ length: n }, () => entry) } });
        await repos.scanTraffic.save('scan-t', { har: har(1), entries: 1, dropped: 0 }, NOW);
        await repos.scanTraffic.save('scan-t', { har: har(300), entries: 300, dropped: 7 }, NOW);
        const stored = await repos.scanTraffic.find('scan-t');
        expect(stored).toMatchObject({ entries: 300, dropped: 7 });
        expect(JSON.parse(stored!.har)).toEqual(har(300));
        await sql`DELETE FROM scans WHERE id = 'scan-t'`.execute(store.db);
        expect(await repos.scanTraffic.find('scan-t')).toBeNull();
      });
    });

    it('list the recent scans of one millisecond newest inserted first', async () => {
      await withRepos(async (repos) => {
        const user = await repos.users.create({ email: 'r@x.io', username: 'r', firstName: 'R', lastName: 'R', passwordHash: null }, EARLIER);
        const api = await addApi(repos, user.id, 'Recent');
        // Ids sort against insertion order, so neither an id tie-break nor none at all gives this.
        for (const id of ['scan-z', 'scan-m', 'scan-a']) await addScan(repos, id, api, user.id, NOW);
        const order = async () => (await repos.dashboard.overview(user.id, NOW)).recent_scans.map((s) => s.id);
        // Walking every scan newest first (the user sees most APIs), then sorting only the user's own
        // (once they see under a tenth of the instance's APIs): the same order.
        expect(await order()).toEqual(['scan-a', 'scan-m', 'scan-z']);
        const other = await repos.users.create({ email: 'o@x.io', username: 'o', firstName: 'O', lastName: 'O', passwordHash: null }, EARLIER);
        for (let i = 0; i < 10; i++) await addApi(repos, other.id, `Other ${i}`);
        expect(await order()).toEqual(['scan-a', 'scan-m', 'scan-z']);
      });
    });

    it('store text holding a NUL character (PostgreSQL gets the visible stand-in, SQLite the character)', async () => {
      await withRepos(async (repos, store) => {
        const user = await repos.users.create({ email: 'n@x.io', username: 'n', firstName: 'N', lastName: 'N', passwordHash: null }, EARLIER);
        const api = await addApi(repos, user.id, 'Binary');
        await addScan(repos, 'scan-nul', api, user.id, null);
        const body = 'HTTP/1.1 200 OK\n\nGIF89a\u0000\u0001\u0000';
        expect(await repos.findings.insert({ ...finding('scan-nul', api, 'binary', 'low', 3.1), evidence: body, parameter: 'a\u0000b' }, NOW)).toBe(true);
        const [stored] = await repos.findings.listForScan('scan-nul');
        const nul = store.dialect.kind === 'postgres' ? NUL_STAND_IN : '\u0000';
        expect(stored!.evidence).toBe(body.replaceAll('\u0000', nul));
        expect(stored!.parameter).toBe(`a${nul}b`);
        // Raw SQL parameters too.
        const { rows } = await sql<{ t: string }>`SELECT ${'x\u0000y'} AS t`.execute(store.db);
        expect(rows[0]!.t).toBe(`x${nul}y`);
      });
    });

    it('keep a GraphQL operation on its endpoint and the GraphQL part of a finding (migration 014)', async () => {
      await withRepos(async (repos) => {
        const user = await repos.users.create({ email: 'g@x.io', username: 'g', firstName: 'G', lastName: 'G', passwordHash: null }, EARLIER);
        const graphql = { kind: 'query' as const, root_type: 'RootQuery', field: 'loan', document: 'query Loan($id: ID!) { loan(id: $id) { id } }', variable_types: { id: 'ID!' }, returns: 'Loan', cycle: ['member', 'loans'] };
        const operation = (field: string) => ({
          method: 'POST',
          path: '/graphql',
          summary: `Query.${field}`,
          flags: ['BOLA' as const],
          operation_id: `Query.${field}`,
          tags: ['Query'],
          parameters: [{ name: 'id', in: 'argument' as const, required: true, schema: { type: 'string', 'x-graphql-type': 'ID!' } }],
          request_body: null,
          responses: {},
          security: null,
          graphql: { ...graphql, field },
        });
        const rest = { ...operation('x'), method: 'GET', path: '/books', graphql: undefined };
        const apiId = await repos.apis.createWithEndpoints(
          { ownerId: user.id, name: 'Library', baseUrl: 'https://api.example.com', sourceFormat: 'graphql-sdl', sourceFilename: 'library.graphql', specVersion: null, security: { schemes: {}, default: [] }, endpoints: [operation('loan'), operation('member'), rest] },
          EARLIER,
        );
        const endpoints = await repos.endpoints.listForApi(apiId);
        expect(endpoints.map((e) => [e.method, e.path, e.graphql?.field ?? null])).toEqual([
          ['POST', '/graphql', 'loan'],
          ['POST', '/graphql', 'member'],
          ['GET', '/books', null],
        ]);
        expect(endpoints[0]!.graphql).toEqual({ ...graphql, field: 'loan' });
        expect(endpoints[0]!.parameters[0]!.in).toBe('argument');
        await addScan(repos, 'scan-gql', apiId, user.id, null);
        const part = { operation: 'Query.loan', query: 'query Loan($id: ID!) { loan(id: $id) { id } }', variables: '{\n  "id": "7"\n}', batch: null };
        expect(await repos.findings.insert({ ...finding('scan-gql', apiId, 'bola', 'high', 8.1), graphql: part }, NOW)).toBe(true);
        expect(await repos.findings.insert({ ...finding('scan-gql', apiId, 'rest', 'low', 3.1) }, NOW)).toBe(true);
        const stored = await repos.findings.listForScan('scan-gql');
        expect(stored.find((f) => f.vulnerability_name === 'bola')!.graphql).toEqual(part);
        expect(stored.find((f) => f.vulnerability_name === 'rest')!.graphql).toBeNull();
      });
    });

    it('keep a finding\'s replay proof whole, leave it out of the briefs, and read a finding from before it as null (migration 019)', async () => {
      await withRepos(async (repos, store) => {
        const user = await repos.users.create({ email: 'p@x.io', username: 'p', firstName: 'P', lastName: 'P', passwordHash: null }, EARLIER);
        const apiId = await addApi(repos, user.id, 'Proofs');
        await addScan(repos, 'scan-proof', apiId, user.id, null);
        // A marker with the characters a payload has: quotes, a backslash, markup, non-ASCII.
        const proof = { step: 2, status: [200, 201], marker: 'pcx1\\"\'><svg onload=alert(1)> — é' };
        expect(await repos.findings.insert({ ...finding('scan-proof', apiId, 'stored', 'high', 7.5), proof }, NOW)).toBe(true);
        expect(await repos.findings.insert({ ...finding('scan-proof', apiId, 'status-only', 'low', 3.1), proof: { step: 1, status: [204], marker: null } }, NOW)).toBe(true);
        expect(await repos.findings.insert(finding('scan-proof', apiId, 'before', 'low', 2.1), NOW)).toBe(true);
        const stored = await repos.findings.listForScan('scan-proof');
        const byName = (name: string) => stored.find((f) => f.vulnerability_name === name)!;
        expect(byName('stored').proof).toEqual(proof);
        expect(byName('status-only').proof).toEqual({ step: 1, status: [204], marker: null });
        expect(byName('before').proof).toBeNull();
        expect((await repos.findings.findInScan('scan-proof', byName('stored').id))!.proof).toEqual(proof);
        expect((await repos.findings.findById(byName('stored').id))!.proof).toEqual(proof);
        const briefs = await repos.findings.listBriefsForScan('scan-proof');
        expect(briefs).toHaveLength(3);
        expect(briefs.every((b) => !('proof' in b))).toBe(true);
        // A value that is not a proof's shape reads as none.
        await sql`UPDATE findings SET proof = ${'{"step":"2","status":[200]}'} WHERE id = ${byName('before').id}`.execute(store.db);
        expect((await repos.findings.findById(byName('before').id))!.proof).toBeNull();
      });
    });

    it('compute the dashboard, triage marks and suppressed findings alike', async () => {
      await withRepos(async (repos, store) => {
        const alice = await repos.users.create({ email: 'alice@x.io', username: 'alice', firstName: 'A', lastName: 'A', passwordHash: null }, EARLIER);
        const bob = await repos.users.create({ email: 'bob@x.io', username: 'bob', firstName: 'B', lastName: 'B', passwordHash: null }, EARLIER);
        const shop = await addApi(repos, alice.id, 'Shop');
        // Bob owns most of the instance; Alice sees her API and one of his (shared): two of 26, so her
        // recent scans come from her own APIs' scans, and Bob's from walking every scan.
        const bobs: string[] = [];
        for (let i = 0; i < 25; i++) bobs.push(await addApi(repos, bob.id, `Bob ${i}`));
        await repos.shares.upsert(bobs[0]!, alice.id, 'read', EARLIER);

        await addScan(repos, 'old', shop, alice.id, EARLIER);
        await addScan(repos, 'new', shop, alice.id, NOW);
        await addScan(repos, 'bob-0', bobs[0]!, bob.id, NOW);
        await addScan(repos, 'bob-1', bobs[1]!, bob.id, NOW);
        await addScan(repos, 'draft', shop, alice.id, null);
        const add = (scanId: string, apiId: string, name: string, severity: Severity, cvss: number) => repos.findings.insert(finding(scanId, apiId, name, severity, cvss), NOW);
        expect(await add('old', shop, 'sqli', 'high', 9.8)).toBe(true);
        expect(await add('new', shop, 'sqli', 'high', 9.8)).toBe(true);
        expect(await add('new', shop, 'sqli', 'high', 9.8)).toBe(false); // one per fingerprint and scan
        expect(await add('new', shop, 'headers', 'low', 3.1)).toBe(true);
        expect(await add('new', shop, 'banner', 'info', 0)).toBe(true);
        expect(await add('bob-0', bobs[0]!, 'cors', 'medium', 5.3)).toBe(true);
        expect(await add('bob-1', bobs[1]!, 'bola', 'high', 9.1)).toBe(true);

        const aliceView = await repos.dashboard.overview(alice.id, NOW);
        expect(aliceView).toMatchObject({ total_apis: 2, total_scans: 3, total_vulnerabilities: 3, critical_vulnerabilities: 1 });
        expect(aliceView.top_vuln_types).toEqual([
          { type: 'sqli', count: 1, severity: 'high', level: 'critical' },
          { type: 'cors', count: 1, severity: 'medium', level: 'medium' },
          { type: 'headers', count: 1, severity: 'low', level: 'low' },
        ]);
        // Each API's last scan of the day (issue 31): the shop's "new" (2), not "old" and "new" summed, and Bob's shared one (1).
        expect(aliceView.scan_activity_weekly.at(-1)).toEqual({ day: '2026-03-10', scans: 3, vulnerabilities: 3 });
        expect(aliceView.scan_activity_weekly).toHaveLength(7);
        expect(aliceView.recent_scans.map((r) => [r.id, r.apiName, r.status, r.vulnerabilities]).sort()).toEqual([
          ['bob-0', 'Bob 0', 'completed', 1],
          ['new', 'Shop', 'completed', 2],
          ['old', 'Shop', 'completed', 1],
        ]);
        // The API list's card of each visible API (its last scan joined through a correlated subquery).
        const cards = (await repos.apis.listVisible(alice.id)).map((c) => [c.name, c.permission, c.scanStatus, c.vulnerabilitiesFound]).sort();
        expect(cards).toEqual([
          ['Bob 0', 'read', 'Completed', 1],
          ['Shop', 'owner', 'Completed', 2],
        ]);
        const bobView = await repos.dashboard.overview(bob.id, NOW);
        expect(bobView).toMatchObject({ total_apis: 25, total_scans: 2, total_vulnerabilities: 2, critical_vulnerabilities: 1 });
        expect(bobView.recent_scans.map((r) => r.apiName).sort()).toEqual(['Bob 0', 'Bob 1']);

        // Setting SQL injection aside re-scores both of Alice's completed scans and drops it from the counts.
        const marked = await repos.triage.set({ apiId: shop, fingerprint: 'fp-sqli', state: 'false_positive', reason: 'test data', expiresAt: null, userId: alice.id }, NOW, score);
        expect(marked.affectedScans).toBe(2);
        expect(marked.triage).toMatchObject({ state: 'false_positive', set_by: 'alice' });
        expect(await repos.dashboard.overview(alice.id, NOW)).toMatchObject({ total_vulnerabilities: 2, critical_vulnerabilities: 0 });
        const scores = await store.db.selectFrom('scans').select(['id', 'score']).where('id', 'in', ['old', 'new']).orderBy('id').execute();
        expect(scores).toEqual([
          { id: 'new', score: 80 },
          { id: 'old', score: 100 },
        ]);
        expect(Object.fromEntries((await repos.scans.listForApi(shop)).map((scan) => [scan.id, scan.vulnerabilities]))).toEqual({ draft: 0, new: 1, old: 0 });
        // A later scan's finding with that fingerprint is set aside from the start (0/1 in `suppressed`).
        await addScan(repos, 'later', shop, alice.id, NOW);
        expect(await add('later', shop, 'sqli', 'high', 9.8)).toBe(true);
        expect(await add('later', shop, 'headers', 'low', 3.1)).toBe(true);
        const suppressed = await store.db.selectFrom('findings').select(['path', 'suppressed']).where('scan_id', '=', 'later').orderBy('path').execute();
        expect(suppressed).toEqual([
          { path: '/headers', suppressed: 0 },
          { path: '/sqli', suppressed: 1 },
        ]);
        expect((await repos.scans.listForApi(shop)).find((s) => s.id === 'later')?.vulnerabilities).toBe(1);
        expect((await repos.triage.listForApi(shop)).map((t) => t.fingerprint)).toEqual(['fp-sqli']);
      });
    });

    it('keep every stored vulnerability count equal to the one count of shared/severity.ts (issue 31)', async () => {
      await withRepos(async (repos, store) => {
        const user = await repos.users.create({ email: 'c@x.io', username: 'c', firstName: 'C', lastName: 'C', passwordHash: null }, EARLIER);
        const api = await addApi(repos, user.id, 'Count');
        await addScan(repos, 'count-1', api, user.id, NOW);
        const rows: [string, Severity, number][] = [
          ['crit', 'high', 9.8],
          ['high', 'high', 7.5],
          ['med', 'medium', 5.3],
          ['low', 'low', 3.1],
          ['note', 'info', 0],
          ['fp', 'medium', 6.5],
          ['risk', 'high', 9.1],
        ];
        for (const [name, severity, cvss] of rows) expect(await repos.findings.insert(finding('count-1', api, name, severity, cvss), NOW)).toBe(true);
        // What each surface reads: the card and History (findings_count), the dashboard (its sum and critical_count), the page (the function).
        const agree = async () => {
          const listed = await repos.findings.listForScan('count-1');
          // The counting triggers' columns are not in the typed schema: only SQL reads them.
          const stored = await store.db
            .selectFrom('scans')
            .select([sql<number>`findings_count`.as('findings_count'), sql<number>`critical_count`.as('critical_count')])
            .where('id', '=', 'count-1')
            .executeTakeFirstOrThrow();
          const card = (await repos.apis.listVisible(user.id)).find((a) => a.id === api)!.vulnerabilitiesFound;
          const history = (await repos.scans.listForApi(api)).find((x) => x.id === 'count-1')!.vulnerabilities;
          const dashboard = await repos.dashboard.overview(user.id, NOW);
          const expected = vulnerabilityCount(listed);
          expect([Number(stored.findings_count), card, history, dashboard.total_vulnerabilities]).toEqual([expected, expected, expected, expected]);
          expect([Number(stored.critical_count), dashboard.critical_vulnerabilities]).toEqual([vulnerabilityLevels(listed).critical, vulnerabilityLevels(listed).critical]);
          return expected;
        };
        expect(await agree()).toBe(6);
        await repos.triage.set({ apiId: api, fingerprint: 'fp-fp', state: 'false_positive', reason: 'test data', expiresAt: null, userId: user.id }, NOW, score);
        await repos.triage.set({ apiId: api, fingerprint: 'fp-risk', state: 'accepted_risk', reason: 'later', expiresAt: '2026-04-01T00:00:00.000Z', userId: user.id }, NOW, score);
        await repos.triage.set({ apiId: api, fingerprint: 'fp-note', state: 'false_positive', reason: 'noise', expiresAt: null, userId: user.id }, NOW, score);
        expect(await agree()).toBe(4);
        await repos.triage.set({ apiId: api, fingerprint: 'fp-high', state: 'fixed', reason: 'Not reproduced by the re-test.', expiresAt: null, userId: user.id }, NOW, score);
        expect(await agree()).toBe(3);
        // Opened again, and an accepted risk that ended: they count again.
        await repos.triage.set({ apiId: api, fingerprint: 'fp-fp', state: 'open', reason: '', expiresAt: null, userId: user.id }, NOW, score);
        expect(await repos.triage.expireDue(new Date('2026-04-02T00:00:00.000Z'), score)).toBe(1);
        expect(await agree()).toBe(5);
      });
    });

    it('report a taken email or username as a unique violation of that column', async () => {
      await withRepos(async (repos) => {
        const first = await repos.users.create({ email: 'same@x.io', username: 'first', firstName: 'F', lastName: 'F', passwordHash: null }, NOW);
        const second = await repos.users.create({ email: 'other@x.io', username: 'second', firstName: 'S', lastName: 'S', passwordHash: null }, NOW);
        const email = await rejection(repos.users.create({ email: 'SAME@x.io', username: 'third', firstName: 'T', lastName: 'T', passwordHash: null }, NOW));
        expect([isUniqueViolation(email), isUniqueViolation(email, 'users.email'), isUniqueViolation(email, 'users.username')]).toEqual([true, true, false]);
        const username = await rejection(repos.users.updateNames(second.id, { firstName: 'S', lastName: 'S', username: 'First' }, NOW));
        expect([isUniqueViolation(username), isUniqueViolation(username, 'users.username'), isUniqueViolation(username, 'users.email')]).toEqual([true, true, false]);
        expect((await repos.users.findById(second.id))?.username).toBe('second');
        expect((await repos.users.findByUsername('first'))?.id).toBe(first.id);
      });
    });

    it('answer two sign-ups racing for one email or username with a conflict on that field', async () => {
      await withRepos(async (repos) => {
        const config = resolveConfig({ shell: 'server', dataDir: '/nonexistent', scryptCost: { N: 1024, r: 8, p: 1 } }, {});
        const logger = createLogger({ level: 'error' });
        const secrets = createEncryptedStore({ secrets: repos.secrets, clock: systemClock, key: randomBytes(32), description: 'test key' });
        const hashGate = new HashGate(config.passwordHashing, () => serviceUnavailable(1));
        const twoFactor = createTwoFactor({ repos, secrets, config, clock: systemClock, logger, hashGate });
        const accounts = createAccounts({ repos, config, clock: systemClock, logger, mailer: null, twoFactor, hashGate });
        const signup = (n: number, email: string, username: string) =>
          accounts.signup({ firstName: 'R', lastName: 'R', email, username, password: 'correct horse 1' }, { client: 'test', ip: `10.0.0.${n}` });
        // Both pass the "already taken?" reads before either hash is done, so the database decides.
        for (const [field, message, a, b] of [
          ['email', SERVER_MESSAGES.emailTaken, ['race@x.io', 'racer1'], ['race@x.io', 'racer2']],
          ['username', SERVER_MESSAGES.usernameTaken, ['one@x.io', 'racer'], ['two@x.io', 'racer']],
        ] as const) {
          const results = await Promise.allSettled([signup(1, a[0], a[1]), signup(2, b[0], b[1])]);
          expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
          const error = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as ApiError;
          expect(error).toBeInstanceOf(ApiError);
          expect([error.status, error.message, error.errors?.map((e) => e.field)]).toEqual([409, message, [field]]);
        }
      });
    });
  });
});
