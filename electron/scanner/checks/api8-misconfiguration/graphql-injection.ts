// API8:2023 Security Misconfiguration (injection) through GraphQL arguments (issue 20): SQL, NoSQL and OS
// command injection, split like the REST checks. The payload goes into one String, ID or custom-scalar
// argument at a time (sent as its variable; the others keep the scan's values), and the REST detectors
// read the GraphQL answer: database errors in errors[].message, the operation's field for boolean pairs,
// durations (through the scan's timing gate) for delays. Mutations only when they address no existing
// object (common/graphql-inputs.ts mayInject).

import type { GraphqlOperation } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { graphqlAnswer, operationOf, selectedLeafFields } from '../common/graphql';
import { argumentSource, moreOfField, pointGraphqlType } from '../common/graphql-inputs';
import { scalar } from '../common/injection';
import { AS_KEY1, describePoint, valueText, type InjectionPoint } from '../common/input-points';
import { OWASP_API8, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import { TIME_CONFIRM_BUDGET, timeBased } from '../common/time-proof';
import type { CheckContext, FindingDraft } from '../types';
import { commandFinding, commandPoints, commandTemplates, CMD_POINTS, CMD_TEMPLATES } from './command-injection';
import type { SeededRandom } from '../../random';
import { bodyOperators, jsExpressions, OPERATORS_HELD_BACK, proveFamily, type Family, type Hit, type Outcome } from './nosql-injection';
import { SQL_POINTS, sqlInjection, sqlInjectionFindings } from './sql-injection';
import { probeBlocked } from '../../probe-safety';

const SAFETY =
  'Queries take payloads freely; a mutation only when no argument addresses an existing object (no ID-typed or id-named argument: a ' +
  'create, a login, a code check) or the scan allows writes to existing objects, and never one named like a delete or reset.';

/** Text arguments before custom scalars, top-level arguments before input-object fields. */
function byArgument(a: InjectionPoint, b: InjectionPoint): number {
  const rank = (p: InjectionPoint) => (['String', 'ID'].includes(pointGraphqlType(p) ?? '') ? 0 : 2) + (p.name.includes('.') ? 1 : 0);
  return rank(a) - rank(b);
}

/** The operation's arguments as points and key 1's baseline, when the operation takes payloads and answered as GraphQL. */
async function prepare(ctx: CheckContext) {
  const src = await argumentSource(ctx);
  if (!src || !src.points.length) return null;
  const baseline = await ctx.baseline('key1');
  if (!baseline?.response || !graphqlAnswer(baseline)) return null;
  return { src, baseline, points: [...src.points].sort(byArgument) };
}

// ---------------------------------------------------------------- SQL

export const graphqlSqlInjection = defineCheck({
  id: 'api8-graphql-sql-injection',
  title: 'SQL injection through GraphQL arguments',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-89',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  protocols: ['graphql'],
  budget: sqlInjection.budget,
  description:
    `The REST SQL injection techniques, through up to ${SQL_POINTS} String, ID or custom-scalar arguments of the operation (fields of ` +
    'input-object arguments too), one at a time, sent as GraphQL variables while the other variables keep key 1\'s values: (1) error-based: a ' +
    'quote that makes errors[].message (or any part of the answer) carry a database parse error absent from the baseline, twice, while a ' +
    'doubled quote does not; (2) time-based: sleep payloads for MySQL, PostgreSQL, SQLite and SQL Server, measured against the baseline, ' +
    'confirmed at a second delay and with a zero delay at baseline speed (screened in parallel, confirmed with no other timing measurement ' +
    'in flight); (3) boolean-based: always-true conditions answer like the unchanged operation and always-false ones do not, twice. A ' +
    'finding then shows a harmless read (boolean pair, UNION SELECT of computed constants, the version). ' +
    SAFETY,
  coverage:
    'Int, Float, Boolean and enum arguments are left out (GraphQL rejects text there before any resolver runs); lists take the payload as ' +
    'their only member; input objects are looked into one level down, and only when the request sends them. The UNION read needs the ' +
    'field to return the rows the query selects. Subscriptions are not probed.',
  remediation:
    'Pass GraphQL arguments to the database as bound parameters (prepared statements, the ORM\'s query builder), never concatenated into ' +
    'SQL; validate arguments with custom scalars or input validation; return generic errors (mask database messages in errors[]).',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/89.html', OWASP_GRAPHQL_CHEAT_SHEET, 'https://cheatsheetseries.owasp.org/cheatsheets/SQL_Injection_Prevention_Cheat_Sheet.html'],
  async *run(ctx) {
    const got = await prepare(ctx);
    if (!got) return;
    yield* sqlInjectionFindings(ctx, got.src, got.baseline, got.points.filter(scalar).slice(0, SQL_POINTS));
  },
});

// ---------------------------------------------------------------- NoSQL

const OBJECT_POINTS = 3;
const STRING_POINTS = 2;
/** Field names a filter object is tried with, at most. */
const FILTER_KEYS = 2;

/** The body operators under one field of a filter object: {"username": {"$ne": null}} vs {"username": {"$in": [random]}}. */
function keyedOperators(random: SeededRandom, key: string): Family {
  return bodyOperators(random).map((p) => ({ yes: { [key]: p.yes }, no: { [key]: p.no }, label: [`{"${key}": ${p.label[0]}}`, `{"${key}": ${p.label[1]}}`] }));
}

/**
 * The fields a filter-like object argument is tried with: the keys the scan's value already has, else the
 * leaf fields the operation selects (a filter usually matches the type it returns), id-like names last
 * (their values are often numbers, which the string operators do not match).
 */
function filterKeys(point: InjectionPoint, op: GraphqlOperation): string[] {
  const own = point.value && typeof point.value === 'object' && !Array.isArray(point.value) ? Object.keys(point.value) : [];
  const names = own.length ? own : selectedLeafFields(op);
  const idLike = (n: string) => /(^|_)id$|Id$/.test(n);
  return [...names.filter((n) => !idLike(n)), ...names.filter(idLike)].slice(0, FILTER_KEYS);
}

/** Families for a custom-scalar argument: whole operator objects, then (when it takes objects) operators under filter keys. */
function objectFamilies(random: SeededRandom, point: InjectionPoint, op: GraphqlOperation): Family[] {
  const takesObjects = point.type === 'object' || point.schema?.type === 'object';
  return [bodyOperators(random), ...(takesObjects ? filterKeys(point, op).map((key) => keyedOperators(random, key)) : [])];
}

/** The body operators as strings: for servers that JSON.parse a String argument into a filter. */
function encodedOperators(random: SeededRandom): Family {
  return bodyOperators(random).map((p) => ({ yes: JSON.stringify(p.yes), no: JSON.stringify(p.no), label: [`"${p.label[0]}" (a string)`, `"${p.label[1]}" (a string)`] }));
}

const STAGES = ['operator objects', 'string-encoded operators', 'server-side JavaScript'] as const;

export const graphqlNosqlInjection = defineCheck({
  id: 'api8-graphql-nosql-injection',
  title: 'NoSQL injection through GraphQL arguments',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-943',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  protocols: ['graphql'],
  budget: 48,
  description:
    'Boolean pairs, each an always-true and an always-false input, one argument at a time (the other variables keep key 1\'s values): (1) ' +
    `MongoDB-style operator objects in up to ${OBJECT_POINTS} custom-scalar arguments or input-object fields (a JSON or Object scalar takes ` +
    'them): {"$ne": null} vs {"$in": [random]}, {"$gt": ""} vs {"$lt": ""}, {"$regex": ".*"} vs {"$regex": "^random$"}, as the whole value ' +
    `and, for a scalar that takes objects (a filter), under up to ${FILTER_KEYS} field names (the value's own keys, else the fields the ` +
    'operation selects): {"name": {"$ne": null}}; (2) the same ' +
    `operators as JSON text in up to ${STRING_POINTS} String or ID arguments, for servers that parse them; (3) server-side JavaScript ($where) ` +
    'in those arguments: x\' || \'a\'===\'a vs x\' && \'a\'===\'b, and \'; return true; var x=\' vs return false. Finding when the true input ' +
    'makes the operation\'s field resolve where the false one gives null or an error, or a longer list or value, for two different pairs. ' +
    'Never on a 5xx or an answer that did not execute. ' +
    SAFETY,
  coverage:
    'Operator objects fit only arguments whose type accepts objects (custom scalars); String, ID and enum inputs reject them before any ' +
    'resolver runs, so there only the string-encoded and JavaScript forms are tried. Blind injections whose answer does not change are not ' +
    'seen. Single-quoted JavaScript contexts only. Subscriptions are not probed, nor mutations that change data.',
  remediation:
    'Type arguments precisely (String, ID, enums, input objects) instead of JSON/Object scalars that pass client objects to the database; ' +
    'cast and sanitise values before building queries (e.g. mongo-sanitize, `sanitizeFilter`) so input never supplies query operators; ' +
    'never JSON.parse arguments into filters; never build $where, mapReduce or $function code from input.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/943.html', OWASP_GRAPHQL_CHEAT_SHEET, 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/07-Input_Validation_Testing/05.6-Testing_for_NoSQL_Injection'],
  async *run(ctx) {
    const got = await prepare(ctx);
    if (!got) return;
    const { src, points } = got;
    const ep = ctx.endpoint;
    const field = operationOf(ep).field;
    const truthy = (yes: Exchange, no: Exchange) => moreOfField(yes, no, field);
    const sendAt = (name: string) => async (value: unknown): Promise<Exchange | null> => {
      if (ctx.budgetLeft() <= 0) return null;
      const p = await src.get(name);
      return p ? ctx.sendPrepared(p.with(value), AS_KEY1) : null;
    };
    const text = points.filter((p) => ['String', 'ID'].includes(pointGraphqlType(p) ?? '') && typeof p.value === 'string').slice(0, STRING_POINTS);
    const custom = points.filter((p) => !['String', 'ID'].includes(pointGraphqlType(p) ?? '')).slice(0, OBJECT_POINTS);
    const stages: { point: InjectionPoint; families: Family[] }[][] = [
      custom.map((point) => ({ point, families: objectFamilies(ctx.random, point, operationOf(ep)) })),
      text.map((point) => ({ point, families: [encodedOperators(ctx.random)] })),
      text.map((point) => ({ point, families: jsExpressions(valueText(point)) })),
    ];
    // Operators widen what a filter matches: never on a mutation that changes data (probe-safety.ts).
    if (stages.some((c) => c.length) && probeBlocked(ep, 'widening', ctx.options)) {
      ctx.holdBack(OPERATORS_HELD_BACK);
      return;
    }
    for (const [stage, candidates] of stages.entries()) {
      for (const c of candidates) {
        let outcome: Outcome = 'none';
        for (const family of c.families) {
          outcome = await proveFamily(sendAt(c.point.name), family, truthy);
          if (outcome !== 'none') break;
        }
        if (outcome === 'budget') return;
        // A first pair that held and no second one: an unstable answer, not worth more requests here.
        if (outcome === 'unconfirmed') break;
        if (outcome === 'none') continue;
        yield nosqlFinding(ctx, STAGES[stage]!, c.point, outcome.hits, got.baseline);
        return;
      }
    }
  },
});

function nosqlFinding(ctx: CheckContext, stage: (typeof STAGES)[number], p: InjectionPoint, hits: Hit[], baseline: Exchange): FindingDraft {
  const [first, second] = hits as [Hit, Hit];
  const js = stage === 'server-side JavaScript';
  const field = operationOf(ctx.endpoint).field;
  return {
    name: js ? 'NoSQL injection through GraphQL arguments (server-side JavaScript)' : 'NoSQL operator injection through GraphQL arguments',
    parameter: p.name,
    confidence: stage === 'operator objects' ? 'high' : 'medium',
    description:
      `${describeEndpoint(ctx.endpoint)} evaluates ${js ? 'server-side JavaScript expressions' : stage === 'operator objects' ? 'query operators' : 'query operators sent as JSON text'} ` +
      `in ${describePoint(p)}: with the always-true ${first.pair.label[0]} the field ${field} came back (${first.yes.body.length} bytes), with the ` +
      `always-false ${first.pair.label[1]} it did not or with less (${first.no.body.length} bytes), and a second pair (${second.pair.label[0]} vs ` +
      `${second.pair.label[1]}) did the same. The argument becomes part of a database query: an attacker can match records without knowing ` +
      "their values (log in without a password, read other users' data).",
    notes: hits.map((h) => `${h.pair.label[0]} -> ${h.yes.body.length} bytes; ${h.pair.label[1]} -> ${h.no.body.length} bytes.`),
    exchanges: [
      { label: 'Baseline', exchange: baseline },
      { label: `Attack: ${p.name} = ${first.pair.label[0]}`, exchange: first.yes },
      { label: `Control: ${p.name} = ${first.pair.label[1]}`, exchange: first.no },
      { label: `Confirmation: ${p.name} = ${second.pair.label[0]}`, exchange: second.yes },
      { label: `Control: ${p.name} = ${second.pair.label[1]}`, exchange: second.no },
    ],
    reproduce: first.yes,
  };
}

// ---------------------------------------------------------------- OS commands

export const graphqlCommandInjection = defineCheck({
  id: 'api8-graphql-command-injection',
  title: 'OS command injection through GraphQL arguments',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-78',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  protocols: ['graphql'],
  budget: 1 + CMD_POINTS * CMD_TEMPLATES.length + TIME_CONFIRM_BUDGET,
  description:
    `In up to ${CMD_POINTS} String, ID or custom-scalar arguments (names like file, path, host, cmd first), one at a time as GraphQL ` +
    'variables, appends shell separators with a sleep (;, |, $(), backticks, a single-quote break-out, a newline, and ping on Windows). ' +
    'Finding when the answer is delayed by the requested time against a measured baseline, again at a second, different delay, and not ' +
    'when asking for no delay. Screened alongside other requests; a delayed answer is confirmed with no other timing measurement of the ' +
    'scan in flight, and once more when that confirmation fails (two of the three verdicts decide). ' +
    SAFETY,
  coverage:
    'Time-based only: a command whose output comes back but takes no time is found only if sleep runs too (it does in any shell). ' +
    'Int, Float, Boolean and enum arguments are left out; subscriptions are not probed.',
  remediation:
    'Do not build shell commands from GraphQL arguments: call programs with an argument list (no shell), or use a library instead of a ' +
    'command; validate arguments against an allow-list (known file names, hosts) or a strict custom scalar.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/78.html', OWASP_GRAPHQL_CHEAT_SHEET, 'https://cheatsheetseries.owasp.org/cheatsheets/OS_Command_Injection_Defense_Cheat_Sheet.html'],
  async *run(ctx) {
    const got = await prepare(ctx);
    if (!got) return;
    const points = commandPoints(got.points);
    if (!points.length) return;
    const proven = await timeBased(ctx, got.src, got.baseline, points, commandTemplates);
    if (proven) yield commandFinding(ctx.endpoint, proven);
  },
});

export const GRAPHQL_INJECTION_CHECKS = [graphqlSqlInjection, graphqlNosqlInjection, graphqlCommandInjection] as const;
