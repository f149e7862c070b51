// Copies an SQLite store into an empty PostgreSQL one (`portcullis migrate-store`): every table of the
// SQLite file in foreign-key order, in one PostgreSQL transaction, values as they are, identities moved
// past the copied ids, row counts checked before the commit. Tables and columns are read from the two
// databases, never listed here, so a migration that adds either is copied without a change.

import type SQLite from 'better-sqlite3';
import { sql, type Transaction } from 'kysely';
import type { Database } from './schema';
import type { OpenedStore } from './database';

/** PostgreSQL's bound on the parameters of one statement (a 16-bit count in the protocol). */
export const PG_MAX_PARAMETERS = 65_535;
const MAX_ROWS_PER_INSERT = 1_000;
/** Rows are also cut by size: a batch of endpoints with large JSON bodies stays a few megabytes. */
const MAX_BATCH_CHARS = 4 * 1024 * 1024;

/**
 * Columns kept by triggers from other tables' rows (findings → their scan's counts). The triggers are
 * off while copying, so these hold the source's values; they are compared row by row afterwards.
 */
const TRIGGER_KEPT_COLUMNS: Record<string, string[]> = { scans: ['findings_count', 'critical_count'] };

export class StoreCopyError extends Error {
  override name = 'StoreCopyError';
}

export interface TableCount {
  table: string;
  source: number;
  target: number;
}

export interface CopyResult {
  tables: TableCount[];
  rows: number;
  /** "scans.findings_count" and the like whose values differ between the two databases, with how many rows. */
  keptColumnMismatches: string[];
  verified: boolean;
}

export interface CopyProgress {
  /** A table's copy starts (`copied` 0), goes on (after each batch) and ends (`copied` = `total`). */
  (table: string, copied: number, total: number): void;
}

type Trx = Transaction<Database>;
type Row = unknown[];

interface SourceTable {
  name: string;
  columns: string[];
  /** The INTEGER PRIMARY KEY AUTOINCREMENT column, whose sqlite_sequence entry may be past max(id). */
  autoIncrement: string | null;
}

/** Tables that are the store's own bookkeeping, not data: SQLite's and Kysely's migration tables. */
export function isBookkeepingTable(name: string): boolean {
  return name.startsWith('sqlite_') || name.startsWith('kysely_');
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The data tables of an SQLite store, parents before children (by its foreign keys). */
export function sqliteTablesInForeignKeyOrder(sqlite: SQLite.Database): SourceTable[] {
  const names = (sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[])
    .map((r) => r.name)
    .filter((n) => !isBookkeepingTable(n));
  const parents = new Map<string, Set<string>>();
  for (const name of names) {
    const keys = sqlite.prepare(`PRAGMA foreign_key_list(${quote(name)})`).all() as { table: string }[];
    // A table referring to itself would need its rows in order; the store has none, and the copy refuses one below.
    parents.set(name, new Set(keys.map((k) => k.table)));
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const ready = names.filter((n) => !placed.has(n) && [...parents.get(n)!].every((p) => placed.has(p) || !parents.has(p)));
    if (ready.length === 0) {
      const left = names.filter((n) => !placed.has(n));
      throw new StoreCopyError(`The SQLite tables ${left.join(', ')} refer to each other: no copy order exists.`);
    }
    for (const n of ready) {
      ordered.push(n);
      placed.add(n);
    }
  }
  return ordered.map((name) => {
    const info = sqlite.prepare(`PRAGMA table_info(${quote(name)})`).all() as { name: string; type: string; pk: number }[];
    const pk = info.filter((c) => c.pk > 0);
    const createSql = (sqlite.prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) as { sql: string }).sql;
    const autoIncrement = pk.length === 1 && pk[0]!.type.toLowerCase() === 'integer' && /autoincrement/i.test(createSql) ? pk[0]!.name : null;
    return { name, columns: info.map((c) => c.name), autoIncrement };
  });
}

interface TargetColumn {
  table_name: string;
  column_name: string;
  is_identity: string;
}

/** Refuses a target whose tables or columns are not the source's (the two were migrated by different code). */
function checkSameSchema(source: SourceTable[], target: TargetColumn[]): void {
  const targetTables = new Map<string, Set<string>>();
  for (const c of target) {
    if (isBookkeepingTable(c.table_name)) continue;
    if (!targetTables.has(c.table_name)) targetTables.set(c.table_name, new Set());
    targetTables.get(c.table_name)!.add(c.column_name);
  }
  const differences: string[] = [];
  for (const t of source) {
    const columns = targetTables.get(t.name);
    if (!columns) {
      differences.push(`table ${t.name} is missing`);
      continue;
    }
    const missing = t.columns.filter((c) => !columns.has(c));
    const extra = [...columns].filter((c) => !t.columns.includes(c));
    if (missing.length) differences.push(`${t.name} lacks ${missing.join(', ')}`);
    if (extra.length) differences.push(`${t.name} has ${extra.join(', ')} the SQLite table lacks`);
  }
  const sourceNames = new Set(source.map((t) => t.name));
  for (const name of targetTables.keys()) if (!sourceNames.has(name)) differences.push(`table ${name} is not in the SQLite database`);
  if (differences.length) throw new StoreCopyError(`The PostgreSQL schema differs from the SQLite one: ${differences.join('; ')}.`);
}

async function countRows(trx: Trx, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(trx);
  return Number(rows[0]!.n);
}

function countSource(sqlite: SQLite.Database, table: string): number {
  return (sqlite.prepare(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number }).n;
}

function approximateChars(row: Row): number {
  let n = 0;
  for (const v of row) n += typeof v === 'string' ? v.length : 8;
  return n;
}

async function insertBatch(trx: Trx, table: SourceTable, overriding: boolean, rows: Row[]): Promise<void> {
  const columns = sql.join(table.columns.map((c) => sql.ref(c)));
  const values = sql.join(rows.map((r) => sql`(${sql.join(r)})`));
  // Ids are copied as they are; OVERRIDING SYSTEM VALUE also lets an identity GENERATED ALWAYS take them.
  const override = overriding ? sql` OVERRIDING SYSTEM VALUE` : sql``;
  await sql`INSERT INTO ${sql.table(table.name)} (${columns})${override} VALUES ${values}`.execute(trx);
}

/** Rows of an insert with this many columns: at most 1,000, and never past the parameter bound. */
export function rowsPerInsert(columns: number): number {
  return Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(PG_MAX_PARAMETERS / columns)));
}

async function copyTable(sqlite: SQLite.Database, trx: Trx, table: SourceTable, identity: boolean, total: number, progress: CopyProgress): Promise<void> {
  const perInsert = rowsPerInsert(table.columns.length);
  const select = sqlite.prepare(`SELECT ${table.columns.map(quote).join(', ')} FROM ${quote(table.name)}`).raw(true);
  // Integers as BigInt: an SQLite integer past 2^53 is copied exactly (pg sends it as its decimal text).
  select.safeIntegers(true);
  progress(table.name, 0, total);
  let batch: Row[] = [];
  let chars = 0;
  let copied = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    await insertBatch(trx, table, identity, batch);
    copied += batch.length;
    batch = [];
    chars = 0;
    if (copied < total) progress(table.name, copied, total);
  };
  // better-sqlite3 iterates synchronously; nothing else uses the SQLite connection meanwhile.
  for (const row of select.iterate() as IterableIterator<Row>) {
    batch.push(row);
    chars += approximateChars(row);
    if (batch.length >= perInsert || chars >= MAX_BATCH_CHARS) await flush();
  }
  await flush();
  progress(table.name, copied, total);
}

/** Moves each identity's sequence past the largest copied id (and past SQLite's AUTOINCREMENT high mark). */
async function advanceIdentities(sqlite: SQLite.Database, trx: Trx, tables: SourceTable[], identities: TargetColumn[]): Promise<void> {
  const hasSequenceTable = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'`).get() !== undefined;
  for (const { table_name: table, column_name: column } of identities) {
    const source = tables.find((t) => t.name === table);
    let floor = 0;
    if (hasSequenceTable && source?.autoIncrement === column) {
      const row = sqlite.prepare(`SELECT seq FROM sqlite_sequence WHERE name = ?`).get(table) as { seq: number } | undefined;
      floor = row?.seq ?? 0;
    }
    await sql`SELECT setval(pg_get_serial_sequence(${quote(table)}, ${column}),
                            greatest(${floor}::bigint, (SELECT coalesce(max(${sql.ref(column)}), 0) FROM ${sql.table(table)})) + 1, false)`.execute(trx);
  }
}

/** Row by row, the trigger-kept columns of both databases (ordered by id; both sort text bytewise). */
async function keptColumnMismatches(sqlite: SQLite.Database, trx: Trx, tables: SourceTable[]): Promise<string[]> {
  const out: string[] = [];
  for (const [table, columns] of Object.entries(TRIGGER_KEPT_COLUMNS)) {
    const source = tables.find((t) => t.name === table);
    if (!source) continue;
    for (const column of columns) {
      if (!source.columns.includes(column)) continue;
      const from = sqlite.prepare(`SELECT id, ${quote(column)} AS v FROM ${quote(table)} ORDER BY id`).all() as { id: string; v: unknown }[];
      const { rows: to } = await sql<{ id: string; v: unknown }>`SELECT id, ${sql.ref(column)} AS v FROM ${sql.table(table)} ORDER BY id`.execute(trx);
      const byId = new Map(to.map((r) => [r.id, r.v]));
      const differing = from.filter((r) => byId.get(r.id) !== r.v).length;
      if (differing > 0 || from.length !== to.length) out.push(`${table}.${column} (${differing} rows)`);
    }
  }
  return out;
}

export class CopyVerificationError extends StoreCopyError {
  constructor(readonly result: CopyResult) {
    const counts = result.tables.filter((t) => t.source !== t.target).map((t) => `${t.table} ${t.source} → ${t.target}`);
    super(`The copy does not match the SQLite database (${[...counts, ...result.keptColumnMismatches].join('; ')}); nothing was written.`);
  }
}

/**
 * Copies every data table of `source` (an SQLite store, migrated to the latest version) into `target`
 * (a PostgreSQL store, migrated, empty), in one transaction that commits only when every table's row
 * count, and the columns triggers keep, equal the source's. The source is read in one read
 * transaction, so it is one snapshot even if something wrote to it. Throws a StoreCopyError (with the
 * reason) for a target that holds data or another schema, and CopyVerificationError for a mismatch.
 *
 * User triggers of the target are disabled while copying (ALTER TABLE … DISABLE TRIGGER USER, which
 * needs the tables' owner — the role that created them by migrating): the source's rows already carry
 * what the triggers wrote, so firing them again would count every finding twice. Foreign keys are
 * system triggers and stay on. The statement is transactional: a failed copy leaves them enabled.
 */
export async function copySqliteToPostgres(source: OpenedStore, target: OpenedStore, progress: CopyProgress = () => {}): Promise<CopyResult> {
  const sqlite = source.sqlite;
  if (!sqlite || target.dialect.kind !== 'postgres') throw new StoreCopyError('The copy goes from an SQLite store to a PostgreSQL one.');
  sqlite.exec('BEGIN');
  try {
    const tables = sqliteTablesInForeignKeyOrder(sqlite);
    const sourceCounts = new Map(tables.map((t) => [t.name, countSource(sqlite, t.name)]));
    return await target.db.transaction().execute(async (trx) => {
      const { rows: targetColumns } = await sql<TargetColumn>`
        SELECT table_name, column_name, is_identity FROM information_schema.columns
         WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`.execute(trx);
      checkSameSchema(tables, targetColumns);
      const names = tables.map((t) => t.name);
      // Nobody writes to the tables until the commit; readers go on.
      if (names.length) await sql`LOCK TABLE ${sql.join(names.map((n) => sql.table(n)))} IN EXCLUSIVE MODE`.execute(trx);
      const holding: string[] = [];
      for (const name of names) {
        const n = await countRows(trx, name);
        if (n > 0) holding.push(`${name} ${n}`);
      }
      if (holding.length) {
        throw new StoreCopyError(`The PostgreSQL database already holds data (${holding.join(', ')} rows): migrate-store copies into an empty database only.`);
      }
      const { rows: triggered } = await sql<{ table_name: string }>`
        SELECT DISTINCT c.relname AS table_name
          FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE NOT t.tgisinternal AND n.nspname = current_schema() ORDER BY 1`.execute(trx);
      const withTriggers = triggered.map((r) => r.table_name).filter((n) => names.includes(n));
      for (const name of withTriggers) {
        await sql`ALTER TABLE ${sql.table(name)} DISABLE TRIGGER USER`.execute(trx).catch((err: unknown) => {
          // insufficient_privilege: another role created the tables.
          if ((err as { code?: string }).code !== '42501') throw err;
          throw new StoreCopyError(`The PostgreSQL role cannot switch off the triggers of ${name} while copying: connect as the tables' owner (${(err as Error).message}).`);
        });
      }

      const identities = targetColumns.filter((c) => c.is_identity === 'YES' && names.includes(c.table_name));
      for (const table of tables) {
        const hasIdentity = identities.some((c) => c.table_name === table.name);
        await copyTable(sqlite, trx, table, hasIdentity, sourceCounts.get(table.name)!, progress);
      }
      await advanceIdentities(sqlite, trx, tables, identities);
      for (const name of withTriggers) await sql`ALTER TABLE ${sql.table(name)} ENABLE TRIGGER USER`.execute(trx);

      const counts: TableCount[] = [];
      for (const t of tables) counts.push({ table: t.name, source: sourceCounts.get(t.name)!, target: await countRows(trx, t.name) });
      const mismatches = await keptColumnMismatches(sqlite, trx, tables);
      const verified = mismatches.length === 0 && counts.every((c) => c.source === c.target);
      const result: CopyResult = { tables: counts, rows: counts.reduce((sum, c) => sum + c.target, 0), keptColumnMismatches: mismatches, verified };
      // Thrown inside the transaction: Kysely rolls it back.
      if (!verified) throw new CopyVerificationError(result);
      return result;
    });
  } finally {
    sqlite.exec('ROLLBACK');
  }
}
