// Scan leases (issue 19, migration 012) on both databases: a node leases a scan before it runs and
// renews the lease while it runs; the sweep fails running scans whose lease has expired in one
// statement (never a live one, never one of the caller's own), and the live view (current check and
// endpoint) is kept with the progress for every node to read.

import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../../test/helpers/postgres';
import { openStore, type OpenedStore } from './database';
import { isoNowSql } from './dialect';
import { createRepos, type Repos } from './index';

let cluster: Promise<TestPostgres> | null = null;
let databases = 0;
afterAll(async () => {
  if (cluster) await (await cluster).stop();
});

const TARGETS: { name: string; skip: string | null; open(): Promise<OpenedStore> }[] = [
  { name: 'SQLite', skip: null, open: () => openStore(':memory:') },
  {
    name: 'PostgreSQL',
    skip: postgresSkipReason(),
    open: async () => {
      cluster ??= startPostgres();
      return openStore(await (await cluster).createDatabase(`leases_${++databases}`));
    },
  },
];

const NOW = new Date('2026-03-10T12:00:00.000Z');
const REASON = 'node stopped';

async function runningScan(repos: Repos, apiId: string, id: string, node: string, leaseMs: number): Promise<void> {
  const user = await repos.users.create({ email: `${id}@x.io`, username: id, firstName: 'A', lastName: 'A', passwordHash: null }, NOW);
  await repos.scans.create({ id, apiId, userId: user.id, profile: 'OWASP_API_10', config: {}, secretRef: `ref-${id}` }, NOW);
  await repos.scans.takeLease(id, node, leaseMs);
  expect(await repos.scans.markRunning(id, user.id, NOW, 1)).toBe('ok');
}

describe.each(TARGETS)('scan leases on $name', ({ skip, open }) => {
  describe.skipIf(skip !== null)(skip ?? 'through createRepos', () => {
    it('write the database time as ISO text, as Date.toISOString does', async () => {
      const store = await open();
      try {
        const { rows } = await sql<{ now: string; later: string }>`SELECT ${isoNowSql(store.db)} AS now, ${isoNowSql(store.db, 90_500)} AS later`.execute(store.db);
        const { now, later } = rows[0]!;
        expect(now).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(new Date(now).toISOString()).toBe(now);
        expect(Math.abs(new Date(now).getTime() - Date.now())).toBeLessThan(5_000);
        expect(new Date(later).getTime() - new Date(now).getTime()).toBeGreaterThanOrEqual(90_500);
        expect(new Date(later).getTime() - new Date(now).getTime()).toBeLessThan(91_500);
      } finally {
        await store.close();
      }
    });

    it('sweep only running scans whose lease expired, once, with their event data; renew only running ones', async () => {
      const store = await open();
      const repos = createRepos(store.db);
      try {
        const owner = await repos.users.create({ email: 'o@x.io', username: 'o', firstName: 'O', lastName: 'O', passwordHash: null }, NOW);
        const api = await repos.apis.createWithEndpoints(
          { ownerId: owner.id, name: 'Shop', baseUrl: 'https://api.example.com', sourceFormat: 'manual', sourceFilename: null, specVersion: null, security: { schemes: {}, default: [] }, endpoints: [] },
          NOW,
        );
        await runningScan(repos, api, 'live', 'node-a', 60_000);
        await runningScan(repos, api, 'dead', 'node-b', 60_000);
        await runningScan(repos, api, 'mine', 'node-c', 60_000);
        await runningScan(repos, api, 'old', 'node-d', 60_000);
        expect((await repos.scans.findById('live'))).toMatchObject({ owner_node: 'node-a', status: 'running' });
        // node-b and node-c stopped renewing a while ago; "old" was never leased (from before 012).
        const past = new Date(Date.now() - 10_000).toISOString();
        await store.db.updateTable('scans').set({ lease_until: past }).where('id', 'in', ['dead', 'mine']).execute();
        await store.db.updateTable('scans').set({ lease_until: null, owner_node: null }).where('id', '=', 'old').execute();

        const swept = await repos.scans.failExpiredLeases(NOW, REASON, { unleased: false, except: ['mine'] });
        expect(swept.map((s) => s.id)).toEqual(['dead']);
        expect(swept[0]).toMatchObject({ api_id: api, findings: 0 });
        expect(await repos.scans.findById('dead')).toMatchObject({ status: 'failed', failure_reason: REASON, completed_at: NOW.toISOString() });
        for (const id of ['live', 'mine', 'old']) expect((await repos.scans.findById(id))?.status).toBe('running');
        // A second sweep (another node, at once) finds nothing more.
        expect(await repos.scans.failExpiredLeases(NOW, REASON, { unleased: false, except: ['mine'] })).toEqual([]);
        // At a start: the scans never leased go too.
        expect((await repos.scans.failExpiredLeases(NOW, REASON, { unleased: true, except: ['mine'] })).map((s) => s.id)).toEqual(['old']);

        // The heartbeat renews the running ones it is given, and says which are no longer running.
        const renewed = await repos.scans.renewLeases(['mine', 'dead', 'gone'], 'node-c', 45_000);
        expect([...renewed]).toEqual(['mine']);
        const mine = (await repos.scans.findById('mine'))!;
        expect(mine.owner_node).toBe('node-c');
        expect(new Date(mine.lease_until!).getTime()).toBeGreaterThan(Date.now() + 40_000);
        expect(await repos.scans.failExpiredLeases(NOW, REASON, { unleased: true, except: [] })).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it('keep what a running scan checks now with its progress, and forget it when the scan ends', async () => {
      const store = await open();
      const repos = createRepos(store.db);
      try {
        const owner = await repos.users.create({ email: 'c@x.io', username: 'c', firstName: 'C', lastName: 'C', passwordHash: null }, NOW);
        const api = await repos.apis.createWithEndpoints(
          { ownerId: owner.id, name: 'Shop', baseUrl: 'https://api.example.com', sourceFormat: 'manual', sourceFilename: null, specVersion: null, security: { schemes: {}, default: [] }, endpoints: [] },
          NOW,
        );
        await runningScan(repos, api, 'scan', 'node-a', 60_000);
        expect(await repos.scans.updateProgress('scan', { done: 1, total: 4, requestsSent: 3 }, { check: 'BOLA', endpoint: 'GET /pets/{id}' })).toBe(true);
        expect(await repos.scans.findById('scan')).toMatchObject({ progress_done: 1, current_check: 'BOLA', current_endpoint: 'GET /pets/{id}' });
        expect(await repos.scans.updateProgress('scan', { done: 2, total: 4, requestsSent: 5 })).toBe(true);
        expect(await repos.scans.findById('scan')).toMatchObject({ progress_done: 2, current_check: 'BOLA' });
        const notes = { errors: [], skipped_checks: [], previous_scan_id: null, requests_by_check: {} };
        expect(await repos.scans.finish('scan', { status: 'cancelled', failureReason: 'c', score: null, notes, done: 2, total: 4, requestsSent: 5 }, NOW)).toBe(true);
        expect(await repos.scans.findById('scan')).toMatchObject({ current_check: null, current_endpoint: null });
        expect(await repos.scans.updateProgress('scan', { done: 3, total: 4, requestsSent: 6 }, null)).toBe(false);
      } finally {
        await store.close();
      }
    });
  });
});
