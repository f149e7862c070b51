// API8:2023 Security Misconfiguration, injection: SQL (error-based, time-based, boolean-based), NoSQL
// operators, OS command injection (time-based) and path traversal. Every technique compares with key
// 1's normal answer and confirms with a second, different input before it reports.

import type { Exchange } from '../http/exchange';
import { randomAlnum } from '../random';
import { mutate } from '../requests';
import { describeEndpoint, defineCheck } from './helpers';
import {
  AS_KEY1,
  bodyText,
  confirmDelay,
  delayed,
  describePoint,
  editableBody,
  isCreate,
  ms,
  otherAnswer,
  passwdMarker,
  pointSource,
  sameAnswer,
  valueText,
  winIniMarker,
  type DelayProof,
  type InjectionPoint,
  type PointSource,
  urlKind,
} from './input-points';
import { sqlSignature } from './sec-misc-errors';
import { timingScreen, withTimingLock } from './timing-gate';
import type { CheckContext, FindingDraft } from './types';

const OWASP_API8 = 'https://owasp.org/API-Security/editions/2023/en/0xa8-security-misconfiguration/';

function scalar(p: InjectionPoint): boolean {
  return ['string', 'integer', 'number', 'unknown'].includes(p.type) && (typeof p.value === 'string' || typeof p.value === 'number');
}

function numeric(p: InjectionPoint): boolean {
  return p.type === 'integer' || p.type === 'number' || (typeof p.value === 'string' && /^-?\d+(\.\d+)?$/.test(p.value));
}

/** Query and path parameters first (most often concatenated), then body fields. */
function byPlace(a: InjectionPoint, b: InjectionPoint): number {
  const rank = (p: InjectionPoint) => (p.where === 'query' ? 0 : p.where === 'path' ? 1 : 2);
  return rank(a) - rank(b);
}

/** The unchanged request once more, as the reference for timing and comparison (timing: the faster of it and the baseline). */
async function reference(ctx: CheckContext, src: PointSource): Promise<Exchange | null> {
  if (ctx.budgetLeft() <= 0) return null;
  const request = isCreate(ctx.endpoint) ? ((await pointSource(ctx))?.request ?? null) : src.request;
  return request ? ctx.sendPrepared(request, AS_KEY1) : null;
}

function delayNotes(proof: DelayProof, baseMs: number): string[] {
  return [
    `Baseline time: ${ms(baseMs)}. Asking for ${proof.delays[0]} s: ${ms(proof.first.durationMs)}; for ${proof.delays[1]} s: ${ms(proof.second.durationMs)}; ` +
      `for 0 s: ${ms(proof.control.durationMs)}.`,
  ];
}

/** The four exchanges of a time-based proof: the timed baseline, both delays and the 0 s control. */
function delayExchanges(baseline: Exchange, proof: DelayProof): { label: string; exchange: Exchange }[] {
  return [
    { label: 'Baseline (re-sent, timed)', exchange: baseline },
    { label: `Attack: sleep ${proof.delays[0]} s`, exchange: proof.first },
    { label: `Confirmation: sleep ${proof.delays[1]} s`, exchange: proof.second },
    { label: 'Control: sleep 0 s', exchange: proof.control },
  ];
}

type DelayTemplate = (value: string, seconds: number) => string;

/** A first baseline slower than this is timed again before screening (a cold start hides a 1 s delay). */
const SLOW_BASELINE_MS = 300;

interface TimeProof {
  point: InjectionPoint;
  template: DelayTemplate;
  /** The payload at a delay, on the point's value. */
  payload: (seconds: number) => string;
  /** The unchanged request re-timed before the confirmation. */
  ref: Exchange;
  baseMs: number;
  proof: DelayProof;
}

/**
 * Time-based proof for delaying payloads: each template is screened at 1 s alongside the scan's other
 * requests (timingScreen); one that answers late is confirmed alone (withTimingLock): the unchanged
 * request re-timed, then 1 s again, 2 s and 0 s (confirmDelay).
 */
async function timeBased(
  ctx: CheckContext,
  src: PointSource,
  baseline: Exchange,
  points: InjectionPoint[],
  templatesFor: (p: InjectionPoint) => DelayTemplate[],
): Promise<TimeProof | null> {
  const send = async (name: string, value: string): Promise<Exchange | null> => {
    if (ctx.budgetLeft() <= 0) return null;
    const p = await src.get(name);
    return p ? ctx.sendPrepared(p.with(value), AS_KEY1) : null;
  };
  let screenMs = baseline.durationMs;
  if (screenMs > SLOW_BASELINE_MS) {
    const again = await timingScreen(ctx, () => reference(ctx, src));
    if (again?.response) screenMs = Math.min(screenMs, again.durationMs);
  }
  for (const p of points) {
    const v = valueText(p);
    for (const t of templatesFor(p)) {
      const probe = await timingScreen(ctx, () => send(p.name, t(v, 1)));
      if (!probe) return null;
      if (!delayed(probe, screenMs, 1)) continue;
      const confirmed = await withTimingLock(ctx, async (): Promise<TimeProof | null> => {
        const ref = await reference(ctx, src);
        if (!ref?.response) return null;
        const baseMs = Math.min(ref.durationMs, baseline.durationMs);
        let last: Exchange = probe;
        const proof = await confirmDelay(async (d) => (last = (await send(p.name, t(v, d))) ?? last), baseMs);
        return proof && { point: p, template: t, payload: (d) => t(v, d), ref, baseMs, proof };
      });
      if (confirmed) return confirmed;
    }
  }
  return null;
}

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
const SQL_POINTS = 4;

export const sqlInjection = defineCheck({
  id: 'api8-sql-injection',
  title: 'SQL injection',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-89',
  severity: 'high',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 40,
  description:
    `In up to ${SQL_POINTS} query, path and body values of key 1's request: (1) error-based: a quote that makes the answer carry a database ` +
    'error (MySQL, PostgreSQL, SQLite, SQL Server, Oracle, ORMs) absent from the baseline, and a doubled quote (a valid literal) that does not; ' +
    '(2) time-based: sleep payloads for MySQL, PostgreSQL, SQLite and SQL Server, measured against the baseline, confirmed at a second, ' +
    'different delay and with a zero delay answering at baseline speed; (3) boolean-based: an always-true condition that answers like the ' +
    'baseline and an always-false one that does not, twice with different conditions. Sleep payloads are screened alongside other requests; a delayed answer is confirmed with no other ' +
    'timing measurement of the scan in flight.',
  remediation:
    'Use parameterised queries (prepared statements, or the ORM\'s query builder) for every value that reaches SQL; validate types, enums and ' +
    'formats first; run the database account with least privilege; never return database errors to clients.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/89.html', 'https://cheatsheetseries.owasp.org/cheatsheets/SQL_Injection_Prevention_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const src = await pointSource(ctx);
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline?.response) return;
    const points = src.points.filter(scalar).sort(byPlace).slice(0, SQL_POINTS);
    if (!points.length) return;
    const base = sqlSignature(baseline);
    const send = async (name: string, value: string): Promise<{ point: InjectionPoint; ex: Exchange } | null> => {
      if (ctx.budgetLeft() <= 0) return null;
      const p = await src.get(name);
      return p ? { point: p, ex: await ctx.sendPrepared(p.with(value), AS_KEY1) } : null;
    };

    // 1. Error-based.
    if (!base) {
      for (const p of points) {
        for (const q of ["'", '"']) {
          const v = valueText(p);
          const attack = await send(p.name, `${v}${q}`);
          if (!attack) return;
          const sig = sqlSignature(attack.ex);
          if (!sig) continue;
          const control = await send(p.name, `${v}${q}${q}`);
          if (!control || sqlSignature(control.ex)) break;
          yield {
            name: 'SQL injection (error-based)',
            parameter: p.name,
            description:
              `${describeEndpoint(ep)} puts ${describePoint(p)} into SQL unescaped: a ${q === "'" ? 'single' : 'double'} quote after the value makes ` +
              `the answer (HTTP ${attack.ex.status}) carry a ${sig.what} ("${sig.excerpt}"), while a doubled quote — a valid string literal — does ` +
              `not (HTTP ${control.ex.status}). An attacker can change the query: read or alter any data the database account can reach.`,
            notes: [`${describePoint(p)} = ${JSON.stringify(`${v}${q}`)} -> ${sig.what}; ${JSON.stringify(`${v}${q}${q}`)} -> no database error.`],
            exchanges: [
              { label: 'Baseline', exchange: baseline },
              { label: `Attack: ${q} after ${p.name}`, exchange: attack.ex },
              { label: `Control: ${q}${q} (a valid literal)`, exchange: control.ex },
            ],
            reproduce: attack.ex,
          };
          return;
        }
      }
    }

    // 2. Time-based: screened alongside the scan's other requests, confirmed alone.
    const proven = await timeBased(ctx, src, baseline, points, (p) => (numeric(p) ? [...SQL_TIME_NUMBER, SQL_TIME_STRING[0]!] : SQL_TIME_STRING));
    const timed: FindingDraft | null = proven && {
      name: 'SQL injection (time-based)',
      parameter: proven.point.name,
      description:
        `${describeEndpoint(ep)} runs SQL injected through ${describePoint(proven.point)}: asking the database to sleep ${proven.proof.delays[0]} s delayed the ` +
        `answer by ${ms(proven.proof.first.durationMs - proven.baseMs)}, asking for ${proven.proof.delays[1]} s by ${ms(proven.proof.second.durationMs - proven.baseMs)}, and ` +
        `asking for 0 s answered at baseline speed (${ms(proven.proof.control.durationMs)}). The injected SQL runs: an attacker can read or alter ` +
        'any data the database account can reach, one bit at a time if need be.',
      notes: [`Payload: ${describePoint(proven.point)} = ${JSON.stringify(proven.payload(proven.proof.delays[0]))}.`, ...delayNotes(proven.proof, proven.baseMs)],
      exchanges: delayExchanges(proven.ref, proven.proof),
      reproduce: proven.proof.second,
    };
    if (timed) {
      yield timed;
      return;
    }

    // 3. Boolean-based: true conditions answer like the baseline, false ones do not (twice).
    if (!baseline.ok) return;
    const fresh = await reference(ctx, src);
    if (!fresh?.ok || !sameAnswer(fresh, baseline)) return;
    for (const p of points) {
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
      let proven = true;
      for (const [t, f] of pairs) {
        const yes = await send(p.name, t);
        if (!yes || !sameAnswer(yes.ex, fresh)) {
          proven = false;
          break;
        }
        const no = await send(p.name, f);
        if (!no || !otherAnswer(no.ex, fresh) || !no.ex.response || no.ex.status >= 500) {
          proven = false;
          break;
        }
        seen.push(yes.ex, no.ex);
      }
      if (!proven || seen.length < 4) continue;
      yield {
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
      return;
    }
  },
});

function describeDifference(a: Exchange, b: Exchange): string {
  if (a.status !== b.status) return `status ${a.status} instead of ${b.status}`;
  return `${a.body.length} bytes instead of ${b.body.length}`;
}

// ---------------------------------------------------------------- NoSQL operators

const NOSQL_FIELDS = 3;
const PAGING_NAME = /^(page|pages|page_?size|per_?page|limit|offset|skip|size|count|top|sort|order|order_?by|sort_?by|fields|include|expand|format|lang|locale)$/i;

export const nosqlInjection = defineCheck({
  id: 'api8-nosql-injection',
  title: 'NoSQL operator injection',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-943',
  severity: 'high',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 16,
  description:
    'Replaces string values of key 1\'s JSON body with MongoDB-style operators — all of them at once, then one at a time — and query ' +
    'parameters with their bracket form (name[$ne]=...). Finding when {"$ne": null} turns a refused or empty answer into a successful or ' +
    'larger one, {"$gt": ""} does the same, and a non-matching operator ({"$in": [random]}) answers like the baseline: the operators are ' +
    'evaluated. For query parameters: name[$eq]=value answers like name=value while name[$ne]=value answers otherwise.',
  remediation:
    'Accept only the types the schema declares (reject objects where strings are expected), cast values before building queries, and use ' +
    'the driver\'s sanitisation (e.g. mongo-sanitize, `sanitizeFilter`) so client input never supplies query operators.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/943.html', 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/07-Input_Validation_Testing/05.6-Testing_for_NoSQL_Injection'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const src = await pointSource(ctx);
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline?.response) return;
    const send = async (request: ReturnType<InjectionPoint['with']>) => (ctx.budgetLeft() > 0 ? ctx.sendPrepared(request, AS_KEY1) : null);

    // Bodies: operators in string fields.
    if (editableBody(src.request) && /json/i.test(src.request.contentType ?? '')) {
      const strings = src.points.filter((p) => p.where === 'body' && p.type === 'string' && typeof p.value === 'string' && !/[.[]/.test(p.name)).slice(0, NOSQL_FIELDS);
      const sets = [...(strings.length >= 2 ? [strings] : []), ...strings.map((p) => [p])];
      for (const set of sets) {
        const withOp = async (op: unknown) => {
          const fresh = isCreate(ep) ? await pointSource(ctx) : src;
          if (!fresh) return null;
          let value = fresh.request.bodyValue as Record<string, unknown>;
          for (const p of set) value = { ...value, [p.key]: op };
          return send(mutate(fresh.request, { bodyValue: value }));
        };
        const ne = await withOp({ $ne: null });
        if (!ne || !gained(ne, baseline)) continue;
        const control = await withOp({ $in: [`portcullis-${randomAlnum(12)}`] });
        if (!control || gained(control, baseline) || !control.response) continue;
        const gt = await withOp({ $gt: '' });
        if (!gt || !gained(gt, baseline)) continue;
        const names = set.map((p) => p.name).join(', ');
        yield {
          parameter: names,
          description:
            `${describeEndpoint(ep)} evaluates query operators sent in ${set.length > 1 ? 'body fields' : 'body field'} ${names}: with {"$ne": null} ` +
            `the answer became ${describeGain(ne, baseline)}, {"$gt": ""} did the same, and a non-matching operator ({"$in": [random]}) was ` +
            `answered like the original request (HTTP ${control.status}). The JSON value goes into a database query as is: an attacker can match ` +
            'records without knowing their values (log in without a password, read other users\' data).',
          notes: [`Baseline HTTP ${baseline.status}; $ne HTTP ${ne.status}; $gt HTTP ${gt.status}; non-matching $in HTTP ${control.status}.`],
          exchanges: [
            { label: 'Baseline', exchange: baseline },
            { label: 'Attack: {"$ne": null}', exchange: ne },
            { label: 'Confirmation: {"$gt": ""}', exchange: gt },
            { label: 'Control: {"$in": [random]}', exchange: control },
          ],
          reproduce: ne,
        };
        return;
      }
    }

    // Query parameters: name[$eq]=v must answer like name=v, name[$ne]=v otherwise.
    if (!baseline.ok) return;
    // Filters only: a value equal to its default, or a paging number, gives nothing to compare.
    const filters = src.points.filter((x) => x.where === 'query' && scalar(x) && String(x.schema?.default ?? '\u0000') !== valueText(x) && !PAGING_NAME.test(x.key));
    for (const p of filters.slice(0, 2)) {
      const v = valueText(p);
      const bracket = (op: string) => mutate(src.request, { query: { [p.name]: null, [`${p.name}[${op}]`]: v } });
      const eq = await send(bracket('$eq'));
      if (!eq?.ok || !sameAnswer(eq, baseline)) continue;
      const plainMissing = await send(mutate(src.request, { query: { [p.name]: null } }));
      // Without the parameter the answer must differ: else $eq "working" proves nothing.
      if (!plainMissing || !otherAnswer(plainMissing, baseline)) continue;
      const ne = await send(bracket('$ne'));
      if (!ne?.ok || !otherAnswer(ne, baseline) || !otherAnswer(ne, eq)) continue;
      // Still stable: $eq answers as before (the data did not simply change meanwhile).
      const again = await send(bracket('$eq'));
      if (!again || !sameAnswer(again, eq)) continue;
      yield {
        parameter: p.name,
        confidence: 'medium',
        description:
          `${describeEndpoint(ep)} evaluates query operators in query parameter ${p.name}: ${p.name}[$eq]=${v} answers like ${p.name}=${v}, ` +
          `the request without it answers differently, and ${p.name}[$ne]=${v} returns other data (HTTP ${ne.status}). The parsed object goes into ` +
          'a database query as is.',
        exchanges: [
          { label: 'Baseline', exchange: baseline },
          { label: `Control: ${p.name}[$eq]`, exchange: eq },
          { label: `Control: without ${p.name}`, exchange: plainMissing },
          { label: `Attack: ${p.name}[$ne]`, exchange: ne },
        ],
        reproduce: ne,
      };
      return;
    }
  },
});

/** The operator answer got more than the baseline: a refusal became a success, or a success returned more items or a different body. */
function gained(ex: Exchange, baseline: Exchange): boolean {
  if (!ex.ok) return false;
  if (!baseline.ok) return baseline.status >= 400 && baseline.status < 500;
  return otherAnswer(ex, baseline) && ex.body.length > baseline.body.length;
}

function describeGain(ex: Exchange, baseline: Exchange): string {
  return baseline.ok ? `larger (${ex.body.length} bytes instead of ${baseline.body.length})` : `a success (HTTP ${ex.status} instead of ${baseline.status})`;
}

// ---------------------------------------------------------------- OS command injection

/** Separators with a sleep: unquoted and double-quoted contexts ($() and backticks expand there), single quotes, a line break, Windows. */
const CMD_TEMPLATES = [
  (v: string, d: number) => `${v};sleep ${d};`,
  (v: string, d: number) => `${v}|sleep ${d}`,
  (v: string, d: number) => `${v}$(sleep ${d})`,
  (v: string, d: number) => `${v}\`sleep ${d}\``,
  (v: string, d: number) => `${v}';sleep ${d};'`,
  (v: string, d: number) => `${v}\nsleep ${d}\n`,
  (v: string, d: number) => `${v}&ping -n ${d + 1} 127.0.0.1&`,
];
const CMD_POINTS = 3;
const CMD_NAME = /(file|path|dir|folder|cmd|command|exec|run|host|ip|addr|domain|url|name|target|arg|param|option|filter|query|image|src|dest)/i;

export const commandInjection = defineCheck({
  id: 'api8-command-injection',
  title: 'OS command injection',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-78',
  severity: 'high',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 1 + CMD_POINTS * CMD_TEMPLATES.length + 4,
  description:
    `In up to ${CMD_POINTS} string values of key 1's request (names like file, path, host, cmd first), appends shell separators with a sleep ` +
    '(;, |, $(), backticks, a single-quote break-out, a newline, and ping on Windows). Finding when the answer is delayed by the requested time ' +
    'against a measured baseline, again at a second, different delay, and not when asking for no delay. Screened alongside other requests; a delayed answer is confirmed with no other timing ' +
    'measurement of the scan in flight.',
  remediation:
    'Do not build shell commands from input: call programs with an argument list (no shell), or use a library instead of a command; ' +
    'validate values against an allow-list (known file names, hosts).',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/78.html', 'https://cheatsheetseries.owasp.org/cheatsheets/OS_Command_Injection_Defense_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const src = await pointSource(ctx);
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline?.response) return;
    const points = src.points
      .filter((p) => p.type === 'string' && typeof p.value === 'string' && !p.schema?.enum && !['uuid', 'date', 'date-time', 'email'].includes(String(p.schema?.format ?? '')))
      .sort((a, b) => (CMD_NAME.test(b.key) ? 1 : 0) - (CMD_NAME.test(a.key) ? 1 : 0) || byPlace(a, b))
      .slice(0, CMD_POINTS);
    if (!points.length) return;
    // A line break in a URL value ends up in headers (a redirect's Location): not worth breaking a server for.
    const proven = await timeBased(ctx, src, baseline, points, (p) => (urlKind(p) ? CMD_TEMPLATES.filter((x) => !x('', 1).includes('\n')) : CMD_TEMPLATES));
    if (!proven) return;
    const { point: p, proof, baseMs } = proven;
    yield {
      parameter: p.name,
      description:
        `${describeEndpoint(ep)} runs shell commands injected through ${describePoint(p)}: appending ${JSON.stringify(proven.template('', proof.delays[0]))} ` +
        `delayed the answer by ${ms(proof.first.durationMs - baseMs)}, the same with ${proof.delays[1]} s by ${ms(proof.second.durationMs - baseMs)}, ` +
        `and with 0 s it answered at baseline speed (${ms(proof.control.durationMs)}). An attacker can run any command with the ` +
        "server's privileges.",
      notes: [`Payload: ${describePoint(p)} = ${JSON.stringify(proven.payload(proof.delays[0]))}.`, ...delayNotes(proof, baseMs)],
      exchanges: delayExchanges(proven.ref, proof),
      reproduce: proof.second,
    };
  },
});

// ---------------------------------------------------------------- path traversal

const FILE_NAME = /(file|path|filename|filepath|document|template|folder|dir|directory|download|attachment|include|resource)$/i;
const MAYBE_FILE_NAME = /(doc|page|report|log|img|image|src|name|key|load|read|view)$/i;

/** How much a value looks like a file name: 2 by name or value, 1 by a weaker name, 0 not. */
function fileLike(p: InjectionPoint): number {
  const v = String(p.value);
  if (/^https?:/i.test(v) || p.schema?.enum) return 0;
  if (FILE_NAME.test(p.key) || /\.[a-z0-9]{1,5}$/i.test(v) || /^[^\s]*[/\\][^\s]*$/.test(v)) return 2;
  return MAYBE_FILE_NAME.test(p.key) ? 1 : 0;
}
/** Enough ../ to climb from a deep install (/home/app/releases/2026/current/public/uploads/files) to the root; extra ones stop at the root. */
const TRAVERSAL_DEPTH = 14;
const TRAVERSALS: { value: (v: string) => string; marker: (t: string) => string | null; what: string }[] = [
  { value: () => `${'../'.repeat(TRAVERSAL_DEPTH)}etc/passwd`, marker: passwdMarker, what: '/etc/passwd' },
  { value: () => `${'....//'.repeat(TRAVERSAL_DEPTH)}etc/passwd`, marker: passwdMarker, what: '/etc/passwd' },
  { value: () => '/etc/passwd', marker: passwdMarker, what: '/etc/passwd' },
  { value: () => `${'..\\'.repeat(TRAVERSAL_DEPTH)}windows\\win.ini`, marker: winIniMarker, what: 'C:\\windows\\win.ini' },
];
const TRAVERSAL_POINTS = 2;

export const pathTraversal = defineCheck({
  id: 'api8-path-traversal',
  title: 'Path traversal',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-22',
  severity: 'high',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: TRAVERSAL_POINTS * TRAVERSALS.length,
  description:
    'In string values that name files (file, path, document, template...; or hold a file name), sends ../ sequences (plain, filter-bypassing ' +
    '"....//", backslashes) to /etc/passwd and C:\\windows\\win.ini, and the absolute path. Finding when the answer contains that file ' +
    '(several passwd lines with root, or win.ini\'s sections) and the baseline answer does not.',
  remediation:
    'Never join client input onto file paths: look files up by an id in an allow-list, or resolve the path and check it stays inside the ' +
    'intended directory (after decoding and normalisation) before opening it.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/22.html', 'https://owasp.org/www-community/attacks/Path_Traversal'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const src = await pointSource(ctx);
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline) return;
    const before = `${bodyText(baseline)}\n${baseline.body}`;
    const points = src.points
      .filter((p) => p.type === 'string' && typeof p.value === 'string' && fileLike(p) > 0)
      .sort((a, b) => fileLike(b) - fileLike(a) || byPlace(a, b))
      .slice(0, TRAVERSAL_POINTS);
    for (const p0 of points) {
      for (const t of TRAVERSALS) {
        if (ctx.budgetLeft() <= 0) return;
        const p = await src.get(p0.name);
        if (!p) break;
        const value = t.value(valueText(p));
        const ex = await ctx.sendPrepared(p.with(value), AS_KEY1);
        if (!ex.response) continue;
        const marker = t.marker(`${bodyText(ex)}\n${ex.body}`);
        if (!marker || t.marker(before)) continue;
        yield {
          parameter: p.name,
          description:
            `${describeEndpoint(ep)} reads files named by ${describePoint(p)} outside the intended directory: ${JSON.stringify(value)} returned ` +
            `${t.what} (HTTP ${ex.status}; "${marker}"), which the baseline answer does not contain. Any file the server process can read ` +
            '(configuration, keys, source) is exposed.',
          notes: [`${describePoint(p)} = ${JSON.stringify(value)} -> ${t.what} (${marker}).`],
          exchanges: [
            { label: 'Baseline', exchange: baseline },
            { label: `Attack: ${value}`, exchange: ex },
          ],
          reproduce: ex,
        };
        return;
      }
    }
  },
});

export const SEC_MISC_INJECTION_CHECKS = [sqlInjection, nosqlInjection, commandInjection, pathTraversal];
