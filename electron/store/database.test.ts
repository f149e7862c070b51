import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../../test/helpers/postgres';
import { openStore, type Db } from './database';
import { isUniqueViolation } from './dialect';

const NEWER = '999-from-a-newer-version';
const NEWER_MESSAGE = `The database was migrated by a newer Portcullis (${NEWER}): upgrade this node`;

async function addUser(db: Db, id: string, email: string): Promise<void> {
  const now = new Date().toISOString();
  await db.insertInto('users').values({ id, email, username: id, first_name: 'U', last_name: 'U', password_hash: null, profile_picture: null, created_at: now, updated_at: now }).execute();
}

/** Records a migration this code does not know, as a newer version would have left it. */
async function markNewerMigration(db: Db): Promise<void> {
  await sql`INSERT INTO kysely_migration (name, timestamp) VALUES (${NEWER}, ${new Date().toISOString()})`.execute(db);
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('openStore on an SQLite file', () => {
  it('opens with the SQLite dialect and its raw handle', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-store-'));
    try {
      const store = await openStore(path.join(dir, 'portcullis.db'));
      expect(store.dialect.kind).toBe('sqlite');
      expect(store.sqlite?.pragma('journal_mode', { simple: true })).toBe('wal');
      await addUser(store.db, 'u', 'u@x.io');
      const error = await rejection(addUser(store.db, 'v', 'u@x.io'));
      expect([isUniqueViolation(error), isUniqueViolation(error, 'users.email'), isUniqueViolation(error, 'users.username')]).toEqual([true, true, false]);
      expect(isUniqueViolation(new Error('no such table: x'))).toBe(false);
      await store.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a database migrated by a newer version', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-store-'));
    try {
      const file = path.join(dir, 'portcullis.db');
      const first = await openStore(file);
      await markNewerMigration(first.db);
      await first.close();
      expect((await rejection(openStore(file))).message).toBe(NEWER_MESSAGE);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(`openStore on a PostgreSQL URL${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: TestPostgres;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  async function connections(database: string): Promise<number> {
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [database]);
      return rows[0]!.n;
    } finally {
      await client.end();
    }
  }

  it('migrates the database, gives counts as numbers, and ends its pool on close', async () => {
    const url = await cluster.createDatabase('opens');
    const store = await openStore(url);
    expect(store.dialect.kind).toBe('postgres');
    expect(store.sqlite).toBeUndefined();
    await addUser(store.db, 'u', 'u@x.io');
    const error = await rejection(addUser(store.db, 'v', 'u@x.io'));
    expect([isUniqueViolation(error), isUniqueViolation(error, 'users.email'), isUniqueViolation(error, 'users.username')]).toEqual([true, true, false]);
    expect(error.message).not.toContain('u@x.io');
    const row = await store.db.selectFrom('users').select([sql<number>`count(*)`.as('n'), sql<number>`sum(totp_last_step)`.as('s')]).executeTakeFirstOrThrow();
    expect(row).toEqual({ n: 1, s: 0 });
    expect(await connections('opens')).toBeGreaterThan(0);
    await store.close();
    await expect.poll(() => connections('opens')).toBe(0);
    // The global parsers are left alone: other pg users in the process still get int8 as text.
    expect(pg.types.getTypeParser(20, 'text')('12')).toBe('12');
    // A second start finds everything applied.
    const again = await openStore(url);
    await again.close();
  });

  it('says the database cannot be reached, naming host and port but never the password', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const secret = 'pw-that-must-not-show';
    const refused = await rejection(openStore(`postgres://portcullis:${secret}@127.0.0.1:${closedPort}/portcullis`));
    expect(refused.message).toMatch(new RegExp(`^Cannot reach the PostgreSQL database at 127\\.0\\.0\\.1:${closedPort}: .*ECONNREFUSED`));
    expect(refused.message).not.toContain(secret);

    const wrongPassword = cluster.urlFor('postgres').replace(/:[^:@/]+@/, `:${secret}@`);
    const denied = await rejection(openStore(wrongPassword));
    expect(denied.message).toBe(`Cannot reach the PostgreSQL database at 127.0.0.1:${cluster.port}: password authentication failed for user "portcullis"`);
  });

  it('refuses a database migrated by a newer version', async () => {
    const url = await cluster.createDatabase('newer');
    const first = await openStore(url);
    await markNewerMigration(first.db);
    await first.close();
    expect((await rejection(openStore(url))).message).toBe(NEWER_MESSAGE);
    await expect.poll(() => connections('newer')).toBe(0);
  });

  it('refuses a database that does not sort text by bytes, or is not UTF-8', async () => {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    try {
      await admin.query("CREATE DATABASE latin TEMPLATE template0 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C'");
      const hasIcu = (await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_collation WHERE collprovider = 'i'")).rows[0]!.n > 0;
      expect((await rejection(openStore(cluster.urlFor('latin')))).message).toBe(
        `The PostgreSQL database "latin" uses the encoding LATIN1; Portcullis needs UTF8 (create it with CREATE DATABASE … TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C')`,
      );
      // A linguistic collation needs ICU (the test machine has no libc locale but C).
      if (hasIcu) {
        await admin.query("CREATE DATABASE linguistic TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'");
        expect((await rejection(openStore(cluster.urlFor('linguistic')))).message).toBe(
          `The PostgreSQL database "linguistic" sorts text by the collation "en-US"; Portcullis needs byte order, the C collation (create it with CREATE DATABASE … TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C')`,
        );
        // Nothing was created in it.
        const check = new pg.Client({ connectionString: cluster.urlFor('linguistic') });
        await check.connect();
        expect((await check.query("SELECT to_regclass('kysely_migration') AS t")).rows[0]).toEqual({ t: null });
        await check.end();
      }
    } finally {
      await admin.end();
    }
  });
});
