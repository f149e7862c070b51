// Opens the store, an SQLite file (WAL, foreign keys, busy timeout) or a PostgreSQL database (a pool),
// and runs the numbered migrations.

import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration, type MigrationProvider, type PostgresPool, type PostgresPoolClient, type SqliteDatabase } from 'kysely';
import type pg from 'pg';
import { Redactor } from '../scanner/redact';
import { dialectOf, postgresDialect, sqliteDialect, type StoreDialect } from './dialect';
import { createDatabaseHealth, markDatabaseError, sqliteHealth, type DatabaseHealth } from './health';
import { migrations } from './migrations/index';
import { NulFreeTextPlugin } from './nul-free-text';
import { createPrivateFile, PRIVATE_DIR_MODE, tightenPrivateFile } from '../file-modes';
import type { Logger } from '../log';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface OpenedStore {
  db: Db;
  dialect: StoreDialect;
  /** The raw SQLite handle (SQLite only), for pragmas, backups and benchmarks; repositories use `db`. */
  sqlite?: SQLite.Database;
  /** Whether the database answers (PostgreSQL; SQLite never goes away). */
  health: DatabaseHealth;
  close(): Promise<void>;
}

/**
 * The numbered migrations with the database's dialect passed to each `up`. The names are the landed
 * ones, so a database migrated before PostgreSQL existed sees nothing new.
 */
export function migrationProvider(dialect: StoreDialect): MigrationProvider {
  const wrapped: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(migrations)) wrapped[name] = { up: (db) => migration.up(db, dialect) };
  return { getMigrations: async () => wrapped };
}

/** Whether the store target is a PostgreSQL URL rather than an SQLite file. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

/** The files SQLite keeps next to the database: the WAL, its shared-memory index, a rollback journal. */
export const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

/**
 * Opens (and creates) the database file; ":memory:" gives a private in-memory store. The file is
 * created 0600 before SQLite opens it: on Unix SQLite gives the -wal, -shm and -journal files the
 * database file's own mode (and resets leftover ones to it), so they are 0600 too. A looser database
 * file left by an older version is tightened first; the side files are checked again after opening.
 */
export function openSqlite(file: string, logger?: Logger): SQLite.Database {
  if (file !== ':memory:') {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    createPrivateFile(file);
    tightenPrivateFile(file, 'database file', logger);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  if (file !== ':memory:') for (const suffix of SQLITE_SIDE_FILES) tightenPrivateFile(`${file}${suffix}`, `database file ${path.basename(file)}${suffix}`, logger);
  return sqlite;
}

const STATEMENT_CACHE_SIZE = 512;

/**
 * Kysely's SQLite driver prepares every statement on every query; preparing is the largest cost of a
 * simple read. Statements are reusable and Kysely runs one query at a time on its single connection,
 * so a bounded cache of prepared statements by SQL text is safe.
 */
export function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  } as SqliteDatabase;
}

export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialectOf(db)) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw (await newerMigrationsError(db)) ?? (error instanceof Error ? error : new Error(String(error)));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Kysely refuses a database holding a migration the code does not know ("corrupted migrations"); the
 * likely cause is a newer version that migrated it, which this says plainly. Null for any other failure.
 */
async function newerMigrationsError(db: Kysely<unknown>): Promise<Error | null> {
  let applied: string[];
  try {
    applied = (await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db)).rows.map((r) => r.name);
  } catch {
    return null;
  }
  const unknown = applied.filter((name) => !Object.hasOwn(migrations, name)).sort();
  if (unknown.length === 0) return null;
  return new Error(`The database was migrated by a newer Portcullis (${unknown.join(', ')}): upgrade this node`);
}

/** Opens the store at a file path (SQLite; ":memory:" for a private one) or a postgres:// URL. */
export async function openStore(target: string, logger?: Logger): Promise<OpenedStore> {
  if (isPostgresUrl(target)) {
    const health = createDatabaseHealth(logger ?? silentLogger, serverOf(target), (text) => redactPassword(text, target));
    const db = await connectPostgres(target, logger, health);
    await migrateOrDestroy(db);
    return { db, dialect: postgresDialect, health, close: () => db.destroy() };
  }
  const sqlite = openSqlite(target, logger);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrateOrDestroy(db);
  return { db, dialect: sqliteDialect, sqlite, health: sqliteHealth, close: () => db.destroy() };
}

async function migrateOrDestroy(db: Db): Promise<void> {
  try {
    await migrateToLatest(db as Kysely<unknown>);
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

const PG_POOL_SIZE = 10;
const PG_CONNECT_TIMEOUT_MS = 10_000;
const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/**
 * pg returns int8 and numeric as strings, since they can pass 2^53; the store's are counts, sums of
 * bytes and epoch milliseconds, which cannot, and SQLite gives them as numbers. Set per pool, not on the
 * global `pg.types`, so no other pg user in the process is affected.
 */
function storeTypeParsers(types: typeof pg.types): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      (oid === PG_INT8 || oid === PG_NUMERIC) && format !== 'binary' ? Number : types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/**
 * Connects to a PostgreSQL database without migrating it: a pool through Kysely's PostgresDialect, after
 * checking that the database is reachable and sorts text as SQLite does (see `checkDatabase`).
 * Destroying the returned Kysely ends the pool. pg is loaded here, so the desktop app never loads it.
 */
export async function connectPostgres(url: string, logger?: Logger, health?: DatabaseHealth): Promise<Db> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: PG_POOL_SIZE, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS, types: storeTypeParsers(pg.types) });
  const watch = health ?? createDatabaseHealth(logger ?? silentLogger, serverOf(url), (text) => redactPassword(text, url));
  // A connection that drops emits 'error' on its client: the pool listens while the client is idle, no
  // one while a query holds it, and an 'error' no one hears ends the process. Every client gets a
  // listener of its own for its whole life; the query in flight fails on its own.
  // A dropped connection alone is no outage (an administrator may end one); one that cannot be made
  // again, or a query that fails for it, is (markingErrors below).
  const lost = (err: Error) => logger?.debug('PostgreSQL connection lost', { server: serverOf(url), reason: reasonOf(err, url) });
  pool.on('connect', (client) => {
    client.on('error', lost);
    watch.answered();
  });
  pool.on('error', lost);
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    await pool.end();
    throw new Error(`Cannot reach the PostgreSQL database at ${serverOf(url)}: ${reasonOf(err, url)}`);
  }
  try {
    await checkDatabase(client);
  } catch (err) {
    client.release();
    await pool.end();
    throw err;
  }
  client.release();
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: markingErrors(pool, watch) }), plugins: [new NulFreeTextPlugin()] });
}

/**
 * The pool as Kysely uses it, with every error it hands on (a connection that could not be had, a query
 * that failed) marked as the database's and shown to `health`, which logs an outage once.
 */
function markingErrors(pool: pg.Pool, health: DatabaseHealth): PostgresPool {
  const fail = (err: unknown): never => {
    health.failed(err);
    throw markDatabaseError(err);
  };
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let w = wrapped.get(client);
    if (!w) {
      w = {
        query: ((...args: unknown[]) => {
          const result: unknown = (client.query as (...a: unknown[]) => unknown)(...args);
          // A cursor (streaming) is returned as it is; a query's promise gets its failure marked.
          return result instanceof Promise ? result.catch(fail) : result;
        }) as unknown as PostgresPoolClient['query'],
        // pg-pool gives a client a new release() at each checkout: look it up at call time.
        release: () => client.release(),
      };
      wrapped.set(client, w);
    }
    return w;
  };
  return {
    connect: async () => wrap(await pool.connect().catch(fail)),
    end: () => pool.end(),
  };
}

const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Refuses a database that would behave unlike SQLite: text must sort by bytes (C/POSIX collation) — the
 * throttle reads a key prefix as the range ['kind:', 'kind;') and lists are ordered by name — and be
 * stored as UTF-8 (stored sizes are UTF-8 bytes). Checked by behaviour, so any provider or version is judged alike.
 */
async function checkDatabase(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ encoding: string; database: string; collation: string }>(
    `SELECT getdatabaseencoding() AS encoding, current_database() AS database,
            CASE WHEN to_jsonb(d) ->> 'datlocprovider' = 'i' THEN coalesce(to_jsonb(d) ->> 'daticulocale', to_jsonb(d) ->> 'datlocale') ELSE d.datcollate END AS collation
       FROM pg_database d WHERE d.datname = current_database()`,
  );
  const { encoding, database, collation } = rows[0]!;
  if (encoding !== 'UTF8') {
    throw new Error(`The PostgreSQL database "${database}" uses the encoding ${encoding}; Portcullis needs UTF8 (${CREATE_HINT})`);
  }
  const { rows: order } = await client.query<{ bytewise: boolean }>(`SELECT ('login:zz' < 'login;' AND 'B' < 'a' AND 'z' < 'é') AS bytewise`);
  if (!order[0]!.bytewise) {
    throw new Error(`The PostgreSQL database "${database}" sorts text by the collation "${collation}"; Portcullis needs byte order, the C collation (${CREATE_HINT})`);
  }
}

const CREATE_HINT = "create it with CREATE DATABASE … TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'";

/** "host:port" of a PostgreSQL URL, for messages: never the user or password. */
export function serverOf(url: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname || u.searchParams.get('host') || 'localhost';
    return `${host}:${u.port || '5432'}`;
  } catch {
    return 'an unparsable URL';
  }
}

/** Why a connection failed, in words; Node's AggregateError (IPv6 then IPv4) has an empty message. */
function reasonOf(err: unknown, url: string): string {
  const e = err as { message?: string; code?: string; errors?: unknown[] };
  const first = Array.isArray(e.errors) && e.errors.length > 0 ? (e.errors[0] as { message?: string }) : undefined;
  const reason = e.message || first?.message || e.code || String(err);
  return redactPassword(reason, url);
}

/**
 * Belt and braces: no driver message should hold the password (in any encoding), and none will reach a
 * log if one does. The scan engine's Redactor knows the encodings.
 */
export function redactPassword(text: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // an unparsable URL has no password to hide
  }
  return new Redactor([{ label: '***', envVar: 'PGPASSWORD', value: password }]).redact(text);
}
