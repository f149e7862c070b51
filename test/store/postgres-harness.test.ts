// The throwaway PostgreSQL cluster of test/helpers/postgres.ts: it starts, takes connections from `pg`
// and from Kysely's PostgresDialect, and leaves no process, port or directory behind.

import fs from 'node:fs';
import net from 'node:net';
import { type Generated, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../helpers/postgres';

const skip = postgresSkipReason();

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe.skipIf(skip !== null)(`PostgreSQL test harness${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: TestPostgres;

  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('starts a loopback cluster tuned for tests and accepts a pg connection', async () => {
    expect(cluster.url).toMatch(/^postgres:\/\/portcullis:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
    expect(cluster.startupMs).toBeLessThan(15_000);
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: string; fsync: string; listen: string; tz: string }>(
        "SELECT current_setting('server_version') AS version, current_setting('fsync') AS fsync, current_setting('listen_addresses') AS listen, current_setting('TimeZone') AS tz",
      );
      expect(rows[0]).toMatchObject({ fsync: 'off', listen: '127.0.0.1', tz: 'UTC' });
      expect(Number.parseInt(rows[0]!.version, 10)).toBeGreaterThanOrEqual(15);
    } finally {
      await client.end();
    }
  });

  it('also listens on a unix socket in its temp dir', async () => {
    // A connection string would win over `host`, so the socket connection is given field by field.
    const { username, password } = new URL(cluster.url);
    const client = new pg.Client({ host: cluster.socketDir, port: cluster.port, user: username, password: decodeURIComponent(password), database: 'postgres' });
    await client.connect();
    try {
      const { rows } = await client.query<{ addr: string | null }>('SELECT inet_client_addr()::text AS addr');
      expect(rows[0]!.addr).toBeNull();
    } finally {
      await client.end();
    }
  });

  it('refuses a wrong password', async () => {
    const wrong = new URL(cluster.url);
    wrong.password = 'not-the-password';
    const client = new pg.Client({ connectionString: wrong.toString() });
    await expect(client.connect()).rejects.toThrow(/password authentication failed/);
    await client.end().catch(() => undefined);
  });

  it('creates a database that Kysely reaches through PostgresDialect', async () => {
    const url = await cluster.createDatabase('harness_check');
    expect(url).toBe(cluster.urlFor('harness_check'));
    interface Db {
      things: { id: Generated<string>; name: string; created_at: Generated<Date> };
    }
    const db = new Kysely<Db>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) });
    try {
      await db.schema
        .createTable('things')
        .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      const inserted = await db.insertInto('things').values({ name: 'first' }).returning(['id', 'name']).executeTakeFirstOrThrow();
      expect(inserted).toEqual({ id: '1', name: 'first' }); // pg returns int8 as a string unless told otherwise
      const rows = await db.selectFrom('things').select(['name', 'created_at']).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.created_at).toBeInstanceOf(Date);
    } finally {
      await db.destroy();
    }
  });

  it('rejects database names that are not plain identifiers', async () => {
    await expect(cluster.createDatabase('x"; DROP DATABASE postgres; --')).rejects.toThrow(/not a test database name/);
  });

  it('stops: the port closes and the temp dir is gone', async () => {
    const other = await startPostgres();
    expect(await portAccepts(other.port)).toBe(true);
    expect(fs.existsSync(other.socketDir)).toBe(true);
    await other.stop();
    await other.stop(); // a second stop is harmless
    expect(await portAccepts(other.port)).toBe(false);
    expect(fs.existsSync(other.socketDir)).toBe(false);
  });
});
