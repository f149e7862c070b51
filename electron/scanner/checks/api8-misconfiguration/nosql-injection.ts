// API8:2023 Security Misconfiguration (injection): NoSQL query operators and server-side JavaScript
// expressions ($where) that change what a query matches. Proven by boolean pairs: an always-true
// input must answer with more than an always-false one, for two different pairs.

import type { Exchange } from '../../http/exchange';
import type { SeededRandom } from '../../random';
import { mutate, type PreparedRequest } from '../../requests';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { byPlace, numeric, scalar } from '../common/injection';
import {
    AS_KEY1,
    describePoint,
    editableBody,
    isCreate,
    pointSource,
    valueText,
    type InjectionPoint,
} from '../common/input-points';
import { OWASP_API8 } from '../common/references';
import { probeBlocked } from '../../probe-safety';
import { gained } from './command-injection';
import { differenceMarker } from '../../proof';

export function describeDifference(a: Exchange, b: Exchange): string {
  if (a.status !== b.status) return `status ${a.status} instead of ${b.status}`;
  return `${a.body.length} bytes instead of ${b.body.length}`;
}

const NOSQL_FIELDS = 3;
const QUERY_POINTS = 2;
const JS_POINTS = 2;
const PAGING_NAME = /^(page|pages|page_?size|per_?page|limit|offset|skip|size|count|top|sort|order|order_?by|sort_?by|fields|include|expand|format|lang|locale)$/i;

/** An always-true and an always-false input, as the value sent and as words for the evidence. */
export interface Pair {
  yes: unknown;
  no: unknown;
  label: [string, string];
}

/** Pairs tried in turn: the first must hold, and one more of the rest. */
export type Family = Pair[];

const token = (random: SeededRandom) => `portcullis-${random.alnum(12)}`;

/** Operator objects for JSON bodies. */
export function bodyOperators(random: SeededRandom): Family {
  const r = token(random);
  return [
    { yes: { $ne: null }, no: { $in: [r] }, label: ['{"$ne": null}', '{"$in": [random]}'] },
    { yes: { $gt: '' }, no: { $lt: '' }, label: ['{"$gt": ""}', '{"$lt": ""}'] },
    { yes: { $regex: '.*' }, no: { $regex: `^${r}$` }, label: ['{"$regex": ".*"}', '{"$regex": "^random$"}'] },
  ];
}

/** Operators in query strings (name[$op]=value, as qs-style parsers read them): [operator, value]. */
function queryOperators(random: SeededRandom): Family {
  const r = token(random);
  return [
    { yes: ['$ne', r], no: ['$eq', r], label: ['[$ne]=random', '[$eq]=random'] },
    { yes: ['$regex', '.*'], no: ['$regex', `^${r}$`], label: ['[$regex]=.*', '[$regex]=^random$'] },
    { yes: ['$gt', ''], no: ['$lt', ''], label: ['[$gt]=', '[$lt]='] },
  ];
}

/**
 * Server-side JavaScript ($where, mapReduce, $function) built by string concatenation: an expression
 * context ("this.name == '<value>'") and a function-body context ("var x = '<value>'; return ...").
 * === is JavaScript only, so SQL never answers these pairs.
 */
export function jsExpressions(v: string): Family[] {
  const pair = (yes: string, no: string): Pair => ({ yes, no, label: [yes, no] });
  return [
    [pair(`${v}' || 'a'==='a`, `${v}' && 'a'==='b`), pair(`${v}' || 1===1 || '`, `${v}' && 1===2 && '`)],
    [pair(`${v}'; return true; var x='`, `${v}'; return false; var x='`), pair(`${v}'; return 1===1; var x='`, `${v}'; return 1===2; var x='`)],
  ];
}

/** The same for a number concatenated without quotes ("this.id == <value>"), as path and query ids often are. */
export function jsNumberExpressions(v: string): Family[] {
  const pair = (yes: string, no: string): Pair => ({ yes, no, label: [yes, no] });
  return [[pair(`${v} || 1===1`, `${v} && 1===2`), pair(`${v} || 'a'==='a'`, `${v} && 'a'==='b'`)]];
}

export interface Hit {
  pair: Pair;
  yes: Exchange;
  no: Exchange;
}

/** The always-true input got more than the always-false one: a success where it was refused, or more data. */
function truthier(yes: Exchange, no: Exchange): boolean {
  return !!yes.response && !!no.response && yes.status < 500 && no.status < 500 && gained(yes, no);
}

export type Outcome = { hits: Hit[] } | 'none' | 'unconfirmed' | 'budget';

/** A family's first pair and then its others until a second one holds (`truthy`: the true input got more than the false one). */
export async function proveFamily(send: (value: unknown) => Promise<Exchange | null>, family: Family, truthy: (yes: Exchange, no: Exchange) => boolean = truthier): Promise<Outcome> {
  const hits: Hit[] = [];
  for (const [i, pair] of family.entries()) {
    const yes = await send(pair.yes);
    if (!yes) return 'budget';
    const no = await send(pair.no);
    if (!no) return 'budget';
    if (truthy(yes, no)) hits.push({ pair, yes, no });
    else if (i === 0) return 'none';
    if (hits.length >= 2) return { hits };
  }
  return 'unconfirmed';
}

/** Why operator probes were not sent to an operation that changes data (probe-safety.ts). */
export const OPERATORS_HELD_BACK =
  'NoSQL operators and always-true expressions never go to operations that change data (they could widen an update or a delete to every record)';

const STAGES = ['body operators', 'query operators', 'server-side JavaScript'] as const;

export const nosqlInjection = defineCheck({
  id: 'api8-nosql-injection',
  title: 'NoSQL operator injection',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-943',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 40,
  description:
    'Boolean pairs, each an always-true and an always-false input: (1) MongoDB-style operators in string fields of key 1\'s JSON body, all ' +
    'at once then one at a time ({"$ne": null} vs {"$in": [random]}, {"$gt": ""} vs {"$lt": ""}, {"$regex": ".*"} vs {"$regex": "^random$"}); ' +
    '(2) the bracket form in query parameters (name[$ne]=x vs name[$eq]=x, name[$regex]=.* vs a non-matching pattern, [$gt] vs [$lt]); ' +
    '(3) server-side JavaScript ($where) built from query, path and body strings: x\' || \'a\'===\'a vs x\' && \'a\'===\'b, and the ' +
    'function-body form \'; return true; var x=\' vs return false, and for numeric path and query ids the unquoted 1 || 1===1 vs 1 && 1===2. Finding when the true input answers with more than the false one (a success ' +
    'where it is refused, or more data), for two different pairs. Never on a 5xx.',
  coverage:
    `Body operators go into up to ${NOSQL_FIELDS} top-level string fields, query operators into up to ${QUERY_POINTS} filter parameters (not ` +
    `paging ones), expressions into up to ${JS_POINTS} strings, single-quoted contexts only. Blind injections whose answer does not change ` +
    '(no more data, no other status) are not seen; nor are operators in form bodies. Operations that change or remove data (updates, ' +
    'deletes, POSTs under an object) get none of these inputs: they could widen the change to every record.',
  remediation:
    'Accept only the types the schema declares (reject objects where strings are expected), cast values before building queries, use the ' +
    'driver\'s sanitisation (e.g. mongo-sanitize, `sanitizeFilter`) so client input never supplies query operators, and never build $where, ' +
    'mapReduce or $function code from input (disable server-side JavaScript where the database allows it).',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/943.html', 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/07-Input_Validation_Testing/05.6-Testing_for_NoSQL_Injection'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const src = await pointSource(ctx, { createdPaths: ep.method === 'GET' });
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline?.response) return;
    const send = async (request: PreparedRequest | null) => (request && ctx.budgetLeft() > 0 ? ctx.sendPrepared(request, AS_KEY1) : null);
    /** A fresh request for creates (repeats must not collide), the same one otherwise. */
    const requestNow = async () => (isCreate(ep) ? ((await pointSource(ctx))?.request ?? null) : src.request);

    // Candidates per stage: a label for the evidence, and how a value is sent there.
    type Candidate = { where: string; families: Family[]; sendValue: (value: unknown) => Promise<Exchange | null> };
    const stages: Candidate[][] = [[], [], []];
    if (editableBody(src.request) && /json/i.test(src.request.contentType ?? '')) {
      const strings = src.points.filter((p) => p.where === 'body' && p.type === 'string' && typeof p.value === 'string' && !/[.[]/.test(p.name)).slice(0, NOSQL_FIELDS);
      for (const set of [...(strings.length >= 2 ? [strings] : []), ...strings.map((p) => [p])]) {
        stages[0]!.push({
          where: `${set.length > 1 ? 'body fields' : 'body field'} ${set.map((p) => p.name).join(', ')}`,
          families: [bodyOperators(ctx.random)],
          sendValue: async (op) => {
            const request = await requestNow();
            if (!request) return null;
            let value = request.bodyValue as Record<string, unknown>;
            for (const p of set) value = { ...value, [p.key]: op };
            return send(mutate(request, { bodyValue: value }));
          },
        });
      }
    }
    const filters = src.points.filter((x) => x.where === 'query' && scalar(x) && String(x.schema?.default ?? '\u0000') !== valueText(x) && !PAGING_NAME.test(x.key));
    for (const p of filters.slice(0, QUERY_POINTS)) {
      stages[1]!.push({
        where: `query parameter ${p.name}`,
        families: [queryOperators(ctx.random)],
        sendValue: async (opValue) => {
          const [op, value] = opValue as [string, string];
          const request = await requestNow();
          return request ? send(mutate(request, { query: { [p.name]: null, [`${p.name}[${op}]`]: value } })) : null;
        },
      });
    }
    const jsPoints = src.points
      .filter((p) => p.where !== 'header' && p.type === 'string' && typeof p.value === 'string' && !p.schema?.enum && !['date', 'date-time', 'uuid'].includes(String(p.schema?.format ?? '')))
      .sort(byPlace)
      .slice(0, JS_POINTS);
    // Numeric ids in the path or the query: an expression context without quotes.
    const jsNumbers = src.points.filter((p) => (p.where === 'path' || p.where === 'query') && numeric(p) && !PAGING_NAME.test(p.key)).sort(byPlace).slice(0, JS_POINTS);
    for (const p0 of jsNumbers) {
      stages[2]!.push({
        where: describePoint(p0),
        families: jsNumberExpressions(valueText(p0)),
        sendValue: async (value) => {
          const p: InjectionPoint | null = await src.get(p0.name);
          return p ? send(p.with(value)) : null;
        },
      });
    }
    for (const p0 of jsPoints) {
      stages[2]!.push({
        where: describePoint(p0),
        families: jsExpressions(valueText(p0)),
        sendValue: async (value) => {
          const p: InjectionPoint | null = await src.get(p0.name);
          return p ? send(p.with(value)) : null;
        },
      });
    }

    // Operators and always-true expressions widen what a filter matches: on an update or a delete, every record.
    const held = stages.some((c) => c.length) ? probeBlocked(ep, 'widening', ctx.options) : null;
    if (held) {
      ctx.holdBack(OPERATORS_HELD_BACK);
      return;
    }
    for (const [stage, candidates] of stages.entries()) {
      for (const c of candidates) {
        let outcome: Outcome = 'none';
        for (const family of c.families) {
          outcome = await proveFamily(c.sendValue, family);
          if (outcome !== 'none') break;
        }
        if (outcome === 'budget') return;
        // A first pair that held and no second one: an unstable answer, not worth more requests here.
        if (outcome === 'unconfirmed') break;
        if (outcome === 'none') continue;
        yield finding(ep, STAGES[stage]!, c.where, outcome.hits, baseline);
        return;
      }
    }
  },
});

function finding(ep: { method: string; path: string }, stage: (typeof STAGES)[number], where: string, hits: Hit[], baseline: Exchange) {
  const [first, second] = hits as [Hit, Hit];
  const what = stage === 'server-side JavaScript' ? 'server-side JavaScript expressions' : 'query operators';
  const name = stage === 'server-side JavaScript' ? 'NoSQL injection (server-side JavaScript)' : 'NoSQL operator injection';
  const parameter = where.replace(/^(body fields?|query parameter|path parameter|header) /, '');
  return {
    name,
    parameter,
    confidence: stage === 'body operators' ? ('high' as const) : ('medium' as const),
    description:
      `${describeEndpoint(ep)} evaluates ${what} sent in ${where}: the always-true ${first.pair.label[0]} was answered with HTTP ${first.yes.status} ` +
      `(${first.yes.body.length} bytes), the always-false ${first.pair.label[1]} with HTTP ${first.no.status} (${first.no.body.length} bytes), and a ` +
      `second pair (${second.pair.label[0]} vs ${second.pair.label[1]}) did the same. The input becomes part of a database query: an attacker can match records without knowing their ` +
      "values (log in without a password, read other users' data).",
    notes: hits.map((h) => `${h.pair.label[0]} -> HTTP ${h.yes.status} (${h.yes.body.length} bytes); ${h.pair.label[1]} -> HTTP ${h.no.status} (${h.no.body.length} bytes).`),
    exchanges: [
      { label: 'Baseline', exchange: baseline },
      { label: `Attack: ${first.pair.label[0]}`, exchange: first.yes },
      { label: `Control: ${first.pair.label[1]}`, exchange: first.no },
      { label: `Confirmation: ${second.pair.label[0]}`, exchange: second.yes },
      { label: `Control: ${second.pair.label[1]}`, exchange: second.no },
    ],
    reproduce: first.yes,
    // The always-true input's answer has what the always-false one's lacks.
    proof: { marker: differenceMarker(first.yes, first.no) },
  };
}
