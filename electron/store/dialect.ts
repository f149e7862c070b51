// What differs between the store's two databases, SQLite (desktop, CLI, one-node team server) and
// PostgreSQL (a team server of several nodes), in one place: migrations and repositories ask this module
// instead of testing the database themselves.
//
// On SQLite the helpers that migrations 001-009 use return exactly the SQL those migrations ran before
// PostgreSQL existed (migrations.test.ts compares it with a snapshot), so existing databases see no change.

import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, type RawBuilder } from 'kysely';

export type DialectKind = 'sqlite' | 'postgres';

/** When a finding counts towards its scan's vulnerability counts, over its `NEW` or `OLD` row. */
export interface CountingRule {
  /** The finding's condition to count at all (severity, triage); null: every finding counts. */
  counts: ((row: 'NEW' | 'OLD') => string) | null;
  /** The columns whose update can move a finding between scans or in or out of the counts. */
  updateOf: string[];
}

export interface StoreDialect {
  kind: DialectKind;
  /** Column type of an epoch-milliseconds time (past int4 on PostgreSQL; SQLite integers are 64-bit). */
  epochMs: 'integer' | 'bigint';
  /** Column type of an 8-byte float (PostgreSQL's `real` is 4 bytes). */
  double: 'real' | 'double precision';
  /** Adds a generated integer primary key column: `autoincrement` on SQLite, an identity on PostgreSQL. */
  autoId<N extends string>(name: N): <TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) => CreateTableBuilder<TB, C | N>;
  /** SQL for the UTF-8 byte length of a text expression (as `Buffer.byteLength` counts it). */
  byteLength(expr: string): string;
  /** SQL for an expression that stops SQLite's planner from using an index on it (`+col`); PostgreSQL has no such hint. */
  noIndexHint(expr: string): string;
  /** Drops a trigger if it exists (PostgreSQL triggers belong to a table). */
  dropTrigger(name: string, table: string): RawBuilder<unknown>;
  /**
   * The statements creating the three triggers that keep `scans.findings_count` and `critical_count`
   * right through inserts, deletes and updates of findings: three trigger bodies on SQLite, one plpgsql
   * function and three triggers calling it on PostgreSQL.
   */
  countingTriggers(rule: CountingRule): RawBuilder<unknown>[];
  /**
   * The statements adding an integer column that numbers a table's rows in insertion order (a
   * tie-break for rows written in the same millisecond; text UUID keys have no order): on SQLite filled
   * from `rowid` for the rows there are and set by an AFTER INSERT trigger to one past the largest, on
   * PostgreSQL an identity column. The caller indexes it.
   */
  insertionSequence(table: string, column: string): RawBuilder<unknown>[];
}

/**
 * SQL turning a condition into 0 or 1, valid on both databases (SQLite's comparisons are already 0/1;
 * PostgreSQL's are booleans, which an integer column or `+` refuses).
 */
export function boolToInt(condition: string): string {
  return `CASE WHEN ${condition} THEN 1 ELSE 0 END`;
}

/** `boolToInt` for a condition built with Kysely's `sql` (its parameters kept bound). */
export function boolToIntSql(condition: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`CASE WHEN ${condition} THEN 1 ELSE 0 END`;
}

/**
 * Whether an error is a unique or primary-key violation, on either database; with `column`
 * ("table.column"), one of that column alone (SQLite names it in the message, PostgreSQL in the
 * error's table and detail).
 */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, table, detail } = error as { code?: unknown; message?: unknown; table?: unknown; detail?: unknown };
  if (code === '23505') {
    // PostgreSQL's unique_violation; its detail reads 'Key (email)=(…) already exists.'
    if (column === undefined) return true;
    const [tableName, columnName] = column.split('.');
    return table === tableName && typeof detail === 'string' && detail.startsWith(`Key (${columnName})=`);
  }
  if (typeof message !== 'string') return false;
  if (column === undefined) return /^(UNIQUE|PRIMARY KEY) constraint failed/.test(message);
  return message === `UNIQUE constraint failed: ${column}`;
}

/** Namespace of the store's advisory locks (the first of PostgreSQL's two 32-bit keys): "PCLS". */
const PG_LOCK_SPACE = 0x50434c53;

/**
 * Holds a lock on `name` until the transaction `trx` ends, so that transactions taking the same name
 * (a quota owner, a throttle key) run their read-then-write one after another, on every node. On
 * PostgreSQL a transaction-level advisory lock on the name's hash (two names sharing a hash only wait
 * for each other); on SQLite nothing, as its one connection already runs one transaction at a time.
 */
export async function lockName(trx: Pick<Kysely<unknown>, 'getExecutor'>, name: string): Promise<void> {
  if (dialectOf(trx).kind !== 'postgres') return;
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(PG_LOCK_SPACE)}, hashtext(${name}))`.execute(trx);
}

const CRITICAL = (row: string): string => `${row}.cvss_score >= 9.0`;
const TRIGGERS = { insert: 'findings_counts_insert', delete: 'findings_counts_delete', update: 'findings_counts_update' } as const;
const PG_COUNTING_FUNCTION = 'findings_counts';

/**
 * One scan's counts moving by one finding (`+` for NEW, `-` for OLD). `toInt` turns a condition into
 * 0/1. The text, line breaks included, is that of the landed SQLite migrations.
 */
function countStep(sign: '+' | '-', row: 'NEW' | 'OLD', condition: string | null, toInt: (c: string) => string): string {
  const findings = condition === null ? '1' : toInt(condition);
  const critical = toInt(condition === null ? CRITICAL(row) : `${condition} AND ${CRITICAL(row)}`);
  const separator = condition === null ? ', ' : ',\n                       ';
  return `      UPDATE scans SET findings_count = findings_count ${sign} ${findings}${separator}critical_count = critical_count ${sign} ${critical}\n      WHERE id = ${row}.scan_id;`;
}

export const sqliteDialect: StoreDialect = {
  kind: 'sqlite',
  epochMs: 'integer',
  double: 'real',
  autoId: (name) => (table) => table.addColumn(name, 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement()),
  byteLength: (expr) => `length(CAST(${expr} AS BLOB))`,
  noIndexHint: (expr) => `+${expr}`,
  dropTrigger: (name) => sql.raw(`DROP TRIGGER IF EXISTS ${name}`),
  countingTriggers({ counts, updateOf }) {
    const trigger = (name: string, event: string, when: string, body: string): RawBuilder<unknown> =>
      sql.raw(`\n    CREATE TRIGGER ${name} AFTER ${event} ON findings${when} BEGIN\n${body}\n    END`);
    const when = (row: 'NEW' | 'OLD'): string => (counts ? ` WHEN ${counts(row)}` : '');
    const toInt = (condition: string): string => `(${condition})`; // comparisons are 0/1 already
    return [
      trigger(TRIGGERS.insert, 'INSERT', when('NEW'), countStep('+', 'NEW', null, toInt)),
      trigger(TRIGGERS.delete, 'DELETE', when('OLD'), countStep('-', 'OLD', null, toInt)),
      trigger(
        TRIGGERS.update,
        `UPDATE OF ${updateOf.join(', ')}`,
        '',
        `${countStep('-', 'OLD', counts?.('OLD') ?? null, toInt)}\n${countStep('+', 'NEW', counts?.('NEW') ?? null, toInt)}`,
      ),
    ];
  },
  insertionSequence: (table, column) => [
    sql.raw(`ALTER TABLE ${table} ADD COLUMN ${column} integer`),
    sql.raw(`UPDATE ${table} SET ${column} = rowid`),
    // max() over the column's index is one seek; a row given a value keeps it.
    sql.raw(
      `CREATE TRIGGER ${table}_${column} AFTER INSERT ON ${table} WHEN NEW.${column} IS NULL BEGIN\n` +
        `  UPDATE ${table} SET ${column} = (SELECT coalesce(max(${column}), 0) + 1 FROM ${table}) WHERE rowid = NEW.rowid;\nEND`,
    ),
  ],
};

export const postgresDialect: StoreDialect = {
  kind: 'postgres',
  epochMs: 'bigint',
  double: 'double precision',
  autoId: (name) => (table) => table.addColumn(name, 'bigint', (c: ColumnDefinitionBuilder) => c.primaryKey().generatedByDefaultAsIdentity()),
  byteLength: (expr) => `octet_length(${expr})`,
  noIndexHint: (expr) => expr,
  dropTrigger: (name, table) => sql.raw(`DROP TRIGGER IF EXISTS ${name} ON ${table}`),
  countingTriggers({ counts, updateOf }) {
    // One function serves the three triggers (TG_OP says which rows there are). The insert and delete
    // triggers filter with WHEN as SQLite's do; for updates the function applies the rule to each side.
    const trigger = (name: string, event: string, when: string): RawBuilder<unknown> =>
      sql.raw(`CREATE TRIGGER ${name} AFTER ${event} ON findings FOR EACH ROW${when} EXECUTE FUNCTION ${PG_COUNTING_FUNCTION}()`);
    const when = (row: 'NEW' | 'OLD'): string => (counts ? ` WHEN (${counts(row)})` : '');
    return [
      sql.raw(
        `CREATE OR REPLACE FUNCTION ${PG_COUNTING_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n` +
          `  IF TG_OP <> 'INSERT' THEN\n${countStep('-', 'OLD', counts?.('OLD') ?? null, boolToInt)}\n  END IF;\n` +
          `  IF TG_OP <> 'DELETE' THEN\n${countStep('+', 'NEW', counts?.('NEW') ?? null, boolToInt)}\n  END IF;\n` +
          `  RETURN NULL;\nEND\n$$`,
      ),
      trigger(TRIGGERS.insert, 'INSERT', when('NEW')),
      trigger(TRIGGERS.delete, 'DELETE', when('OLD')),
      trigger(TRIGGERS.update, `UPDATE OF ${updateOf.join(', ')}`, ''),
    ];
  },
  insertionSequence: (table, column) => [sql.raw(`ALTER TABLE ${table} ADD COLUMN ${column} bigint GENERATED BY DEFAULT AS IDENTITY`)],
};

/** The dialect of a Kysely instance (or transaction), from its adapter. */
export function dialectOf(db: Pick<Kysely<unknown>, 'getExecutor'>): StoreDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? postgresDialect : sqliteDialect;
}

/**
 * SQL for the database's own time plus `offsetMs`, as ISO text in UTC with milliseconds (what
 * `Date.toISOString()` writes, so it compares with the stored times as text). Leases between nodes use
 * it: one clock for every node, whatever their own clocks say.
 */
export function isoNowSql(db: Pick<Kysely<unknown>, 'getExecutor'>, offsetMs = 0): RawBuilder<string> {
  const ms = Math.round(offsetMs);
  if (dialectOf(db).kind === 'postgres') {
    return sql<string>`to_char((clock_timestamp() + ${sql.lit(ms)} * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  }
  return sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${sql.lit(`${ms / 1000} seconds`)})`;
}
