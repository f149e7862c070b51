// API8:2023 Security Misconfiguration, injection: SQL (error-based, time-based, boolean-based).
// Every technique compares with key 1's normal answer and confirms with a second, different input
// before it reports.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { byPlace, numeric, reference, scalar } from '../common/injection';
import {
    AS_KEY1,
    bodyText,
    describePoint,
    ms,
    otherAnswer,
    pointSource,
    sameAnswer,
    valueText,
    type InjectionPoint,
    type PointSource,
} from '../common/input-points';
import { delayExchanges, delayNotes, TIME_CONFIRM_REQUESTS, timeBased } from '../common/time-proof';
import type { CheckContext, FindingDraft } from '../types';
import { describeDifference } from './nosql-injection';
import { sqlSignature } from './verbose-errors';
import { OWASP_API8 } from '../common/references';
import { probeBlocked } from '../../probe-safety';
import { asAnswered, MAX_MARKER } from '../../proof';
import { describeRead, READ_PROOF_BUDGET, readExchanges, readProof, UNION_MAX_COLUMNS, type ReadProof, type SqlSyntax } from './sql-read';

// ---------------------------------------------------------------- SQL injection

/**
 * Payloads asking the database to sleep D seconds, by context: uncorrelated subqueries, which run
 * once whether or not any row matches (MySQL/MariaDB — where || is OR — PostgreSQL, SQLite with a
 * sleep function), and SQL Server's stacked WAITFOR. No per-row sleeps: on a large table they would
 * hold the database for rows x seconds.
 */
const SQL_TIME_STRING = [
  (v: string, d: number) => `${v}'||(SELECT SLEEP(${d}))||'`,
  (v: string, d: number) => `${v}'||(SELECT '' FROM PG_SLEEP(${d}))||'`,
  (v: string, d: number) => `${v}';WAITFOR DELAY '0:0:${d}'-- -`,
];
const SQL_TIME_NUMBER = [
  (v: string, d: number) => `${v}+(SELECT SLEEP(${d}))`,
  (v: string, d: number) => `${v}+(SELECT 0 FROM PG_SLEEP(${d}))`,
  (v: string, d: number) => `${v};WAITFOR DELAY '0:0:${d}'--`,
];
type SqlTemplate = (v: string, d: number) => string;
/**
 * A payload that ends the statement (a stacked query) or comments out its rest: on an UPDATE or a
 * DELETE it would drop the WHERE clause and touch every row, so it never goes to an operation that
 * changes data (probe-safety.ts).
 */
export const widensStatement = (t: SqlTemplate): boolean => /;|--/.test(t('', 1));
export const SQL_POINTS = 4;

/**
 * Words of a parse error near the driver's error text. Errors that any request can meet (a missing
 * table while the database is reset, a lock, a constraint) and type casts of a bound parameter
 * ("invalid input syntax for type integer") say nothing about the input reaching the query text.
 */
const PARSE_ERROR = /(?<!invalid input )syntax|unrecognized token|unterminated|unclosed quotation|not properly terminated|incomplete input|unexpected end of|ORA-0(?:0933|0936|0921|1756|0907)|ER_PARSE_ERROR|SQLSTATE\[(?:42000|42601)\]|mismatched input|missing right parenthesis/i;

/** A database parse error in the answer: a driver's error text with parse-error words next to it. */
export function sqlParseError(ex: Exchange): { what: string; excerpt: string } | null {
  const sig = sqlSignature(ex);
  if (!sig) return null;
  for (const text of [bodyText(ex), ex.body]) {
    const at = text.indexOf(sig.excerpt);
    if (at < 0) continue;
    const near = text.slice(Math.max(0, at - 300), at + sig.excerpt.length + 300);
    const m = PARSE_ERROR.exec(near);
    if (!m) continue;
    // The excerpt shows the parse error itself: the line around the words that make it one.
    const start = near.lastIndexOf('\n', m.index) + 1;
    const end = near.indexOf('\n', m.index);
    const line = near.slice(start, end < 0 ? undefined : end).trim().slice(0, 200);
    return { what: sig.what, excerpt: !line ? sig.excerpt : line.includes(sig.excerpt) ? line : `${sig.excerpt}: ${line}` };
  }
  return null;
}

const quoteSyntax = (q: string): SqlSyntax => ({ quote: q === '"' ? '"' : "'" });
/** The syntaxes a read is tried in: a number first for numeric values, then quotes. */
const likelySyntaxes = (p: InjectionPoint): SqlSyntax[] => (numeric(p) ? [{ quote: null }, { quote: "'" }] : [{ quote: "'" }]);

export const sqlInjection = defineCheck({
  id: 'api8-sql-injection',
  title: 'SQL injection',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-89',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 44 + TIME_CONFIRM_REQUESTS + READ_PROOF_BUDGET,
  description:
    `In up to ${SQL_POINTS} query, path, header and body values of key 1's request (array members too): (1) error-based: a quote that makes the ` +
    'answer carry a database parse error (MySQL, PostgreSQL, SQLite, SQL Server, Oracle, ORMs) absent from the baseline, the same again on a ' +
    'second try, and a doubled quote (a valid literal) that does not; (2) time-based: sleep payloads for MySQL, PostgreSQL, SQLite and SQL ' +
    'Server, measured against the baseline, confirmed at a second, different delay and with a zero delay answering at baseline speed; ' +
    '(3) boolean-based: an always-true condition that answers like the baseline and an always-false one that does not, twice with different ' +
    'conditions. Sleep payloads are screened alongside other requests; a delayed answer is confirmed with no other timing measurement of the ' +
    'scan in flight, and once more when that confirmation fails (two of the three verdicts decide). Then a harmless read is shown: a boolean pair (\' AND \'1\'=\'1 / \' AND \'1\'=\'2, or 1 AND 1=1 / 1 AND 1=2), and a ' +
    `UNION SELECT of constants the database computes (a*b: an echoed input cannot fake it), 1 to ${UNION_MAX_COLUMNS} columns, then the ` +
    'version (sqlite_version(), version(), @@version) in the column shown. Reads only: no stacked queries, no writes.',
  coverage:
    'The UNION read needs the injected query to be a SELECT whose rows the answer shows, closed by a "-- -" comment (not inside parentheses), ' +
    `with at most ${UNION_MAX_COLUMNS} columns that accept numbers (so PostgreSQL and SQL Server text columns are not read); otherwise the ` +
    'finding rests on the error, delay or boolean pair alone. Double-quoted string contexts are tried for errors only. The SQL Server delay ' +
    'payload is a stacked WAITFOR (a delay, no data touched). A parse error that the doubled quote also gives, or that does not come back ' +
    'on a second try, is not reported.',
  remediation:
    'Use parameterised queries (prepared statements, or the ORM\'s query builder) for every value that reaches SQL; validate types, enums and ' +
    'formats first; run the database account with least privilege; never return database errors to clients.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/89.html', 'https://cheatsheetseries.owasp.org/cheatsheets/SQL_Injection_Prevention_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    // Reads may address objects the scan created; writes keep them as they are.
    const src = await pointSource(ctx, { headers: true, arrayItems: true, createdPaths: ctx.endpoint.method === 'GET' });
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline?.response) return;
    yield* sqlInjectionFindings(ctx, src, baseline, src.points.filter(scalar).sort(byPlace).slice(0, SQL_POINTS));
  },
});

/**
 * The SQL injection techniques over chosen points of a source (REST values or GraphQL arguments), in
 * order: error-based, time-based, boolean-based; the first proven one is reported with what it reads.
 */
export async function* sqlInjectionFindings(ctx: CheckContext, src: PointSource, baseline: Exchange, points: InjectionPoint[]): AsyncGenerator<FindingDraft> {
  const ep = ctx.endpoint;
  if (!points.length) return;
  const send = async (name: string, value: string): Promise<{ point: InjectionPoint; ex: Exchange } | null> => {
    if (ctx.budgetLeft() <= 0) return null;
    const p = await src.get(name);
    return p ? { point: p, ex: await ctx.sendPrepared(p.with(value), AS_KEY1) } : null;
  };
  // Operations that change data get no payload that could widen the statement (comments, stacked queries).
  const narrow = probeBlocked(ep, 'widening', ctx.options) !== null;
  const read = async (p: InjectionPoint, syntaxes: SqlSyntax[], pair = true): Promise<ReadProof> => {
    const ref = pair ? await reference(ctx, src) : null;
    return readProof(ctx.random, async (value) => (await send(p.name, value))?.ex ?? null, valueText(p), syntaxes, ref, baseline, !narrow);
  };
  const allowed = (ts: SqlTemplate[]) => (narrow ? ts.filter((t) => !widensStatement(t)) : ts);
  if (narrow) ctx.holdBack('SQL payloads that end or comment out the statement (a stacked WAITFOR, a UNION read) never go to operations that change data');

  // 1. Error-based.
  if (!sqlSignature(baseline)) {
    for (const p of points) {
      for (const q of ["'", '"']) {
        const v = valueText(p);
        const attack = await send(p.name, `${v}${q}`);
        if (!attack) return;
        const sig = sqlParseError(attack.ex);
        if (!sig) continue;
        const control = await send(p.name, `${v}${q}${q}`);
        if (!control || sqlSignature(control.ex)) break;
        // A parse error that does not come back was something else (a database being reset, say).
        const again = await send(p.name, `${v}${q}`);
        if (!again || !sqlParseError(again.ex)) break;
        yield withRead(errorFinding(ep, p, q, sig, baseline, attack.ex, control.ex), await read(p, [quoteSyntax(q)]));
        return;
      }
    }
  }

  // 2. Time-based: screened alongside the scan's other requests, confirmed alone.
  const proven = await timeBased(ctx, src, baseline, points, (p) => allowed(numeric(p) ? [...SQL_TIME_NUMBER, SQL_TIME_STRING[0]!] : SQL_TIME_STRING));
  if (proven) {
    const syntax: SqlSyntax[] = SQL_TIME_NUMBER.includes(proven.template) ? [{ quote: null }] : [{ quote: "'" }];
    yield withRead(timeFinding(ep, proven), await read(proven.point, syntax));
    return;
  }

  // 3. Boolean-based: true conditions answer like the baseline, false ones do not (twice).
  if (!baseline.ok) return;
  const fresh = await reference(ctx, src);
  if (!fresh?.ok || !sameAnswer(fresh, baseline)) return;
  for (const p of points) {
    const found = await booleanBased(send, p, fresh);
    if (!found) continue;
    yield withRead(booleanFinding(ep, p, found, fresh), await read(p, likelySyntaxes(p), false));
    return;
  }
}

type Sent = (name: string, value: string) => Promise<{ point: InjectionPoint; ex: Exchange } | null>;

/** Two always-true conditions answer like the baseline, two always-false ones do not. */
async function booleanBased(send: Sent, p: InjectionPoint, fresh: Exchange): Promise<{ pairs: [string, string][]; seen: Exchange[] } | null> {
  const v = valueText(p);
  const pairs: [string, string][] = numeric(p)
    ? [
        [`${v} AND 7=7`, `${v} AND 7=8`],
        [`${v} AND 3>2`, `${v} AND 2>3`],
      ]
    : [
        [`${v}' AND '7'='7`, `${v}' AND '7'='8`],
        [`${v}' AND 'b'<'c`, `${v}' AND 'c'<'b`],
      ];
  const seen: Exchange[] = [];
  for (const [t, f] of pairs) {
    const yes = await send(p.name, t);
    if (!yes || !sameAnswer(yes.ex, fresh)) return null;
    const no = await send(p.name, f);
    if (!no || !otherAnswer(no.ex, fresh) || !no.ex.response || no.ex.status >= 500) return null;
    seen.push(yes.ex, no.ex);
  }
  return { pairs, seen };
}

function errorFinding(ep: Endpoint, p: InjectionPoint, q: string, sig: { what: string; excerpt: string }, baseline: Exchange, attack: Exchange, control: Exchange): FindingDraft {
  const v = valueText(p);
  return {
    name: 'SQL injection (error-based)',
    parameter: p.name,
    description:
      `${describeEndpoint(ep)} puts ${describePoint(p)} into SQL unescaped: a ${q === "'" ? 'single' : 'double'} quote after the value makes ` +
      `the answer (HTTP ${attack.status}) carry a ${sig.what} ("${sig.excerpt}"), twice, while a doubled quote — a valid string literal — does ` +
      `not (HTTP ${control.status}). An attacker can change the query: read or alter any data the database account can reach.`,
    notes: [`${describePoint(p)} = ${JSON.stringify(`${v}${q}`)} -> ${sig.what}; ${JSON.stringify(`${v}${q}${q}`)} -> no database error.`],
    exchanges: [
      { label: 'Baseline', exchange: baseline },
      { label: `Attack: ${q} after ${p.name}`, exchange: attack },
      { label: `Control: ${q}${q} (a valid literal)`, exchange: control },
    ],
    reproduce: attack,
    // The database's error message, which the doubled quote's answer lacked.
    proof: { marker: asAnswered(attack, sig.excerpt.slice(0, MAX_MARKER)) ?? undefined },
  };
}

function timeFinding(ep: Endpoint, proven: NonNullable<Awaited<ReturnType<typeof timeBased>>>): FindingDraft {
  const { point, proof, baseMs } = proven;
  return {
    name: 'SQL injection (time-based)',
    parameter: point.name,
    description:
      `${describeEndpoint(ep)} runs SQL injected through ${describePoint(point)}: asking the database to sleep ${proof.delays[0]} s delayed the ` +
      `answer by ${ms(proof.first.durationMs - baseMs)}, asking for ${proof.delays[1]} s by ${ms(proof.second.durationMs - baseMs)}, and ` +
      `asking for 0 s answered at baseline speed (${ms(proof.control.durationMs)}). The injected SQL runs: an attacker can read or alter ` +
      'any data the database account can reach, one bit at a time if need be.',
    notes: [`Payload: ${describePoint(point)} = ${JSON.stringify(proven.payload(proof.delays[0]))}.`, ...delayNotes(proof, baseMs)],
    exchanges: delayExchanges(proven.ref, proof),
    reproduce: proof.second,
  };
}

function booleanFinding(ep: Endpoint, p: InjectionPoint, found: { pairs: [string, string][]; seen: Exchange[] }, fresh: Exchange): FindingDraft {
  const { pairs, seen } = found;
  return {
    name: 'SQL injection (boolean-based)',
    confidence: 'medium',
    parameter: p.name,
    description:
      `${describeEndpoint(ep)} evaluates SQL conditions injected through ${describePoint(p)}: two different always-true conditions answered ` +
      `like the unchanged request, and two always-false ones answered differently (HTTP ${seen[1]!.status}, ${describeDifference(seen[1]!, fresh)}). ` +
      'The value is concatenated into the query: an attacker can read data one condition at a time.',
    notes: [`True: ${JSON.stringify(pairs[0]![0])}, ${JSON.stringify(pairs[1]![0])}. False: ${JSON.stringify(pairs[0]![1])}, ${JSON.stringify(pairs[1]![1])}.`],
    exchanges: [
      { label: 'Baseline (re-sent)', exchange: fresh },
      { label: 'Attack: always-true condition', exchange: seen[0]! },
      { label: 'Attack: always-false condition', exchange: seen[1]! },
      { label: 'Confirmation: another always-false condition', exchange: seen[3]! },
    ],
    reproduce: seen[1],
  };
}

/** The finding with what could be read added: a UNION read makes any signal high confidence. */
function withRead(f: FindingDraft, r: ReadProof): FindingDraft {
  if (!r.boolean && !r.union) return f;
  const { sentence, notes } = describeRead(r);
  return {
    ...f,
    // A UNION read shows the product the database computed from the constants sent (never the sent text itself).
    ...(r.union ? { confidence: 'high' as const, reproduce: r.union.exchange, proof: { marker: r.union.marker } } : {}),
    description: `${f.description} Data can be read: ${sentence}.`,
    notes: [...(f.notes ?? []), ...notes],
    exchanges: [...f.exchanges, ...readExchanges(r)],
  };
}
