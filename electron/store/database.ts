// Opens the SQLite store (WAL, foreign keys, busy timeout) and runs the numbered migrations.

import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type MigrationProvider, type SqliteDatabase } from 'kysely';
import { migrations } from './migrations/index';
import { createPrivateFile, PRIVATE_DIR_MODE, tightenPrivateFile } from '../file-modes';
import type { Logger } from '../log';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface OpenedStore {
  db: Db;
  /** The raw handle, for pragmas, backups and benchmarks; repositories use `db`. */
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

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
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function openStore(file: string, logger?: Logger): Promise<OpenedStore> {
  const sqlite = openSqlite(file, logger);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  try {
    await migrateToLatest(db as Kysely<unknown>);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { db, sqlite, close: () => db.destroy() };
}
