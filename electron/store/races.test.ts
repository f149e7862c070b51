// Races that SQLite's single connection hid (issue 19): on a PostgreSQL pool, statements of concurrent
// requests interleave under READ COMMITTED. The same tests on both databases: one running scan per user,
// and the per-owner quota checked inside the import's transaction. On PostgreSQL each race is forced:
// a third connection holds the rows the racers need until every racer waits for it, so all of them
// read the database before any of them writes.

import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, postgresSkipReason, stopSharedCluster } from '../../test/helpers/postgres';
import { connectPostgres, migrateToLatest, migrationProvider, openSqlite, openStore, type Db, type OpenedStore } from './database';
import { dialectOf, isUniqueViolation } from './dialect';
import { createRepos, type Repos } from './index';
import { QuotaExceededError } from './quotas';
import type { Database } from './schema';

afterAll(stopSharedCluster);

const postgresUrl = () => freshDatabase('races');

const TARGETS: { name: string; skip: string | null; open(): Promise<OpenedStore>; bare(): Promise<Kysely<Database>> }[] = [
  {
    name: 'SQLite',
    skip: null,
    open: () => openStore(':memory:'),
    bare: async () => new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqlite(':memory:') }) }),
  },
  { name: 'PostgreSQL', skip: postgresSkipReason(), open: async () => openStore(await postgresUrl()), bare: async () => connectPostgres(await postgresUrl()) },
];

const NOW = new Date('2026-03-10T12:00:00.000Z');

/** Connections of this database waiting for a lock (PostgreSQL). */
async function lockWaiters(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db);
  return Number(rows[0]!.n);
}

/**
 * Runs the racers together. On PostgreSQL a transaction of its own first locks `lockSql`'s rows and
 * keeps them until all `racers` wait for a lock, so that every racer has read before any writes; on
 * SQLite they just run concurrently on its one connection. The pool has 10 connections: one holds,
 * one polls, so at most 8 racers.
 */
async function race<T>(db: Db, lockSql: ReturnType<typeof sql>, racers: (() => Promise<T>)[]): Promise<PromiseSettledResult<T>[]> {
  if (dialectOf(db).kind !== 'postgres') return Promise.allSettled(racers.map((r) => r()));
  let settled: Promise<PromiseSettledResult<T>[]> | undefined;
  await db.transaction().execute(async (trx) => {
    await lockSql.execute(trx);
    settled = Promise.allSettled(racers.map((r) => r()));
    const until = Date.now() + 10_000;
    while ((await lockWaiters(db)) < racers.length) {
      if (Date.now() > until) throw new Error('the racers never all waited for the held rows');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  return settled!;
}

async function addUser(repos: Repos, name: string): Promise<string> {
  return (await repos.users.create({ email: `${name}@x.io`, username: name, firstName: 'R', lastName: 'R', passwordHash: null }, NOW)).id;
}

function newApi(ownerId: string, name: string, endpoints = 0) {
  return {
    ownerId,
    name,
    baseUrl: 'https://api.example.com',
    sourceFormat: 'manual',
    sourceFilename: null,
    specVersion: null,
    security: { schemes: {}, default: [] },
    endpoints: Array.from({ length: endpoints }, (_, i) => ({
      method: 'GET',
      path: `/${name}/${i}`,
      summary: '',
      operation_id: null,
      tags: [],
      parameters: [],
      request_body: null,
      responses: {},
      security: null,
      flags: [],
    })),
  };
}

describe.each(TARGETS)('races on $name', ({ skip, open, bare }) => {
  describe.skipIf(skip !== null)(skip ?? 'closed by the database', () => {
    it('let exactly one of two concurrent starts of one user’s scans run; the other is told busy', async () => {
      const store = await open();
      const repos = createRepos(store.db);
      try {
        const user = await addUser(repos, 'starter');
        const api = await repos.apis.createWithEndpoints(newApi(user, 'Shop'), NOW);
        for (const id of ['scan-1', 'scan-2']) await repos.scans.create({ id, apiId: api, userId: user, profile: 'OWASP_API_10', config: {}, secretRef: `ref-${id}` }, NOW);
        const results = await race(
          store.db,
          sql`SELECT id FROM scans WHERE id IN ('scan-1', 'scan-2') FOR UPDATE`,
          ['scan-1', 'scan-2'].map((id) => () => repos.scans.markRunning(id, user, NOW, 1)),
        );
        expect(results.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason))).sort()).toEqual(['busy', 'ok']);
        const running = await store.db.selectFrom('scans').select('id').where('status', '=', 'running').execute();
        expect(running).toHaveLength(1);
        // The one told busy is still waiting to start, and starts once the other has finished.
        const waiting = running[0]!.id === 'scan-1' ? 'scan-2' : 'scan-1';
        expect(await repos.scans.finish(running[0]!.id, { status: 'completed', failureReason: null, score: 100, notes: { errors: [], skipped_checks: [], previous_scan_id: null, requests_by_check: {} }, done: 1, total: 1, requestsSent: 1 }, NOW)).toBe(true);
        expect(await repos.scans.markRunning(waiting, user, NOW, 1)).toBe('ok');
        expect(await repos.scans.markRunning(waiting, user, NOW, 1)).toBe('not-created');
      } finally {
        await store.close();
      }
    });

    it('start one scan per user when many users start several at once', async () => {
      const store = await open();
      const repos = createRepos(store.db);
      try {
        const starts: (() => Promise<string>)[] = [];
        const users: string[] = [];
        for (let u = 0; u < 4; u++) {
          const user = await addUser(repos, `many${u}`);
          users.push(user);
          const api = await repos.apis.createWithEndpoints(newApi(user, `Api ${u}`), NOW);
          for (let s = 0; s < 2; s++) {
            const id = `scan-${u}-${s}`;
            await repos.scans.create({ id, apiId: api, userId: user, profile: 'OWASP_API_10', config: {}, secretRef: `ref-${id}` }, NOW);
            starts.push(async () => `${user}:${await repos.scans.markRunning(id, user, NOW, 1)}`);
          }
        }
        const results = await race(store.db, sql`SELECT id FROM scans FOR UPDATE`, starts);
        const values = results.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason)));
        for (const user of users) expect(values.filter((v) => v.startsWith(`${user}:`)).sort()).toEqual([`${user}:busy`, `${user}:ok`]);
      } finally {
        await store.close();
      }
    });

    it('let concurrent imports of one owner pass the API quota only as far as it goes', async () => {
      const store = await open();
      const repos = createRepos(store.db);
      try {
        const owner = await addUser(repos, 'importer');
        const other = await addUser(repos, 'bystander');
        const limits = { apis: 2, endpoints: 0, bytes: 0 };
        const imports = Array.from({ length: 6 }, (_, i) => () => repos.apis.createWithEndpoints(newApi(owner, `Import ${i}`, 2), NOW, limits));
        // Another owner's import is not held up by this owner's quota.
        imports.push(() => repos.apis.createWithEndpoints(newApi(other, 'Theirs', 2), NOW, limits));
        const results = await race(store.db, sql`SELECT id FROM users FOR UPDATE`, imports);
        const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as unknown);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
        expect(refused).toHaveLength(4);
        for (const error of refused) expect(error).toBeInstanceOf(QuotaExceededError);
        expect(await repos.quotas.usage(owner)).toEqual({ apis: 2, endpoints: 4, bytes: expect.any(Number) as number });
        expect((await repos.quotas.usage(other)).apis).toBe(1);
      } finally {
        await store.close();
      }
    });

    it('let concurrent imports pass the endpoint quota only as far as it goes', async () => {
      const store = await open();
      const repos = createRepos(store.db);
      try {
        const owner = await addUser(repos, 'endpoints');
        const limits = { apis: 0, endpoints: 10, bytes: 0 };
        const imports = Array.from({ length: 5 }, (_, i) => () => repos.apis.createWithEndpoints(newApi(owner, `Part ${i}`, 4), NOW, limits));
        const results = await race(store.db, sql`SELECT id FROM users FOR UPDATE`, imports);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
        expect((await repos.quotas.usage(owner)).endpoints).toBe(8);
      } finally {
        await store.close();
      }
    });

    it('keep the newest of a user’s running scans when 011 makes running scans unique per user', async () => {
      const db = await bare();
      try {
        expect((await new Migrator({ db, provider: migrationProvider(dialectOf(db)) }).migrateTo('010-scan-sequence')).error).toBeUndefined();
        const at = NOW.toISOString();
        for (const id of ['u', 'v']) await sql`INSERT INTO users (id,email,username,first_name,last_name,created_at,updated_at) VALUES (${id},${`${id}@x.io`},${id},'U','U',${at},${at})`.execute(db);
        await sql`INSERT INTO apis (id,owner_id,name,base_url,source_format,created_at,updated_at) VALUES ('a','u','A','http://x','manual',${at},${at})`.execute(db);
        const scan = (id: string, user: string, status: string, startedAt: string | null) =>
          sql`INSERT INTO scans (id,api_id,user_id,profile,status,created_at,started_at) VALUES (${id},'a',${user},'owasp',${status},${at},${startedAt})`.execute(db);
        // Two of u's started in the same millisecond: the later inserted is the newer.
        await scan('u-old', 'u', 'running', '2026-03-10T10:00:00.000Z');
        await scan('u-tie', 'u', 'running', '2026-03-10T11:00:00.000Z');
        await scan('u-new', 'u', 'running', '2026-03-10T11:00:00.000Z');
        await scan('u-done', 'u', 'completed', '2026-03-10T09:00:00.000Z');
        await scan('v-run', 'v', 'running', '2026-03-10T08:00:00.000Z');
        expect(await migrateToLatest(db as Kysely<unknown>)).toContain('011-one-running-scan');
        const rows = await db.selectFrom('scans').select(['id', 'status', 'failure_reason', 'completed_at']).orderBy('id').execute();
        const failed = { status: 'failed', failure_reason: expect.stringMatching(/^The scan was interrupted/) as string, completed_at: expect.any(String) as string };
        expect(rows).toEqual([
          { id: 'u-done', status: 'completed', failure_reason: null, completed_at: null },
          { id: 'u-new', status: 'running', failure_reason: null, completed_at: null },
          { id: 'u-old', ...failed },
          { id: 'u-tie', ...failed },
          { id: 'v-run', status: 'running', failure_reason: null, completed_at: null },
        ]);
        let error: unknown;
        try {
          await sql`UPDATE scans SET status = 'running' WHERE id = 'u-done'`.execute(db);
        } catch (e) {
          error = e;
        }
        expect(isUniqueViolation(error, 'scans.user_id')).toBe(true);
      } finally {
        await db.destroy();
      }
    });
  });
});
