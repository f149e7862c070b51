// API4:2023 Unrestricted Resource Consumption: GraphQL queries nested without a depth limit (issue 20).
// An operation whose returned type leads back to itself (GraphqlOperation.cycle: Book.author ->
// Author.books) can be nested as deep as a client likes, and each level multiplies the resolvers run.
// The probe climbs a short ladder of depths as key 1, alone on the scan's timing gate so the durations
// compare: a shallow query, a medium one, then one past the limits servers usually set. Executed (data
// back, no error) at that depth is the finding; a depth error is the limit working.

import type { Endpoint } from '../../../../shared/contract';
import { adjustCvss } from '../../cvss';
import { AS_KEY1, type Exchange } from '../../http/exchange';
import { BaselineTimes, type SlowBar } from '../common/baseline-times';
import { argumentsOf, errorMessages, fieldValue, graphqlAnswer, operationDocument, operationName, operationOf, operationVariables, resolved, sendGraphql } from '../common/graphql';
import { defineCheck, withPrivileges } from '../common/helpers';
import { OWASP_API4, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import { withTimingLock } from '../common/timing-gate';
import type { CheckContext, FindingDraft } from '../types';

/** Depths in fields, the root field included: shallow, what most limits allow, past most limits (bounded: never more than 12). */
export const DEPTHS = [3, 8, 12] as const;
const DEEP: number = DEPTHS[2];
/** A deep query executed at this depth or more is reported. */
const REPORTED_DEPTH = 10;
const MAX_OPERATIONS = 2;
const PROBE_TIMEOUT_MS = 10_000;
/** The ladder stops before the deepest rung when the medium one already took this long, or this many times the shallow one: the server is near its limit. */
const STOP_MS = 2_000;
const STOP_RATIO = 25;
/** The deep query is "markedly slower" past the shallow one by 200 ms and 3x. */
const SLOW: SlowBar = { floorMs: 200, ratio: 3 };

/** A selection `levels` fields deep following the cycle (["author","books"], 3 -> { author { books { author { __typename } } } }). */
export function nestedSelection(cycle: readonly string[], levels: number): string {
  let inner = '{ __typename }';
  for (let i = levels - 1; i >= 0; i -= 1) inner = `{ ${cycle[i % cycle.length]} ${inner} }`;
  return inner;
}

/** How deep the answer really goes along the cycle (the root field counts 1): empty lists stop it early. */
export function reachedDepth(value: unknown, cycle: readonly string[], level = 0): number {
  if (value === null || value === undefined) return 0;
  if (Array.isArray(value)) return value.slice(0, 50).reduce<number>((m, v) => Math.max(m, reachedDepth(v, cycle, level)), 0);
  if (typeof value !== 'object') return 1;
  const next = (value as Record<string, unknown>)[cycle[level % cycle.length]!];
  return 1 + (next === undefined ? 0 : reachedDepth(next, cycle, level + 1));
}

/** Queries with a cycle, those without required arguments first (their answer does not hang on the scan's values). */
function candidates(endpoints: readonly Endpoint[]): Endpoint[] {
  return endpoints
    .map((e, i) => ({ e, i, args: argumentsOf(e).some((p) => p.required) ? 1 : 0 }))
    .filter((c) => c.e.graphql?.kind === 'query' && !!c.e.graphql.cycle?.length)
    .sort((a, b) => a.args - b.args || a.i - b.i)
    .slice(0, MAX_OPERATIONS)
    .map((c) => c.e);
}

interface Rung {
  depth: number;
  exchange: Exchange;
  executed: boolean;
}

const ms = (ex: Exchange) => `${Math.round(ex.durationMs)} ms`;

async function ladder(ctx: CheckContext, endpoint: Endpoint): Promise<Rung[] | null> {
  const op = operationOf(endpoint);
  const cycle = op.cycle!;
  const variables = await operationVariables(ctx, endpoint);
  // A required argument the scan could not fill (the safety rule refused it): nothing to nest under.
  if (argumentsOf(endpoint).some((p) => p.required && !(p.name in variables))) return null;
  const rungs: Rung[] = [];
  for (const depth of DEPTHS) {
    if (ctx.budgetLeft() <= 0) break;
    const query = operationDocument(op, { selection: nestedSelection(cycle, depth - 1), name: `PortcullisDepth${depth}` });
    const exchange = await sendGraphql(ctx, endpoint, { query, variables }, { auth: AS_KEY1, timeoutMs: PROBE_TIMEOUT_MS });
    const answer = graphqlAnswer(exchange);
    const executed = exchange.ok && resolved(answer, op.field) && !answer!.errors.length;
    rungs.push({ depth, exchange, executed });
    if (!executed) break;
    const shallow = rungs[0]!.exchange.durationMs;
    if (depth !== DEEP && (exchange.durationMs >= STOP_MS || exchange.durationMs >= STOP_RATIO * Math.max(shallow, 1))) break;
  }
  return rungs;
}

function finding(ctx: CheckContext, endpoint: Endpoint, rungs: Rung[]): FindingDraft {
  const op = operationOf(endpoint);
  const cycle = op.cycle!;
  const deep = rungs[rungs.length - 1]!;
  const shallow = rungs[0]!;
  const times = new BaselineTimes();
  times.add(shallow.exchange);
  const slow = times.slow(deep.exchange, SLOW);
  const reached = reachedDepth(fieldValue(graphqlAnswer(deep.exchange), op.field), cycle);
  const path = [op.field, ...Array.from({ length: Math.min(deep.depth - 1, 5) }, (_, i) => cycle[i % cycle.length])].join(' -> ');
  const name = operationName(endpoint);
  return {
    endpoint,
    parameter: 'depth',
    confidence: reached >= REPORTED_DEPTH ? 'high' : 'medium',
    cvss: withPrivileges(ctx, slow ? adjustCvss(ctx.check.cvss, { A: 'H' }) : ctx.check.cvss, endpoint),
    description:
      `${name} executed a query ${deep.depth} levels deep (${path} -> ... following the cycle ${cycle.join(' -> ')}), answered with data and ` +
      `no error${reached >= REPORTED_DEPTH ? `, the data itself ${reached} levels deep` : ` (the data stops at ${reached} levels where lists are empty)`}. ` +
      `Times: ${rungs.map((r) => `depth ${r.depth} ${ms(r.exchange)}`).join(', ')}${slow ? ' - the deep query took markedly longer than the shallow one' : ''}. ` +
      'The server sets no maximum depth: each level multiplies the resolvers and database queries one request runs, so a few deeper ' +
      'requests can exhaust its CPU and database.',
    notes: [
      `Cycle nested: ${cycle.join(' -> ')} (fields without required arguments leading from ${op.returns} back to itself).`,
      ...rungs.map((r) => `Depth ${r.depth}: HTTP ${r.exchange.status}, ${ms(r.exchange)}${r.executed ? ', executed' : `, not executed: ${errorMessages(graphqlAnswer(r.exchange)).slice(0, 2).join('; ') || 'no data'}`}.`),
      `Probes were sent as key 1, one at a time with no other timing measurement of the scan in flight; each waited at most ${PROBE_TIMEOUT_MS / 1000} s.`,
    ],
    exchanges: [
      { label: `Baseline: depth ${shallow.depth}`, exchange: shallow.exchange },
      ...rungs.slice(1, -1).map((r) => ({ label: `Depth ${r.depth}`, exchange: r.exchange })),
      { label: `Attack: depth ${deep.depth}`, exchange: deep.exchange },
    ],
    reproduce: deep.exchange,
  };
}

export const graphqlDepth = defineCheck({
  id: 'api4-graphql-depth',
  title: 'GraphQL query depth not limited',
  flag: 'URC',
  owasp: 'API4:2023',
  cwe: 'CWE-770',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:L',
  kind: 'active',
  safety: 'intrusive',
  scope: 'api',
  protocols: ['graphql'],
  budget: MAX_OPERATIONS * DEPTHS.length,
  techniques: ['API4.graphql-depth'],
  description:
    `On up to ${MAX_OPERATIONS} queries whose returned type has a field cycle back to itself (those without required arguments first, ` +
    'else with the scan\'s own argument values), sends as key 1 the query nested along the cycle to ' +
    `${DEPTHS.join(', ')} levels (ending in __typename), one at a time with no other timing measurement of the scan in flight. The ` +
    `ladder stops at the first refusal, or before the deepest rung when a rung took ${STOP_MS / 1000} s or ${STOP_RATIO}x the shallow ` +
    `query. Finding when the ${DEEP}-level query (past the usual limits of 7-10) is executed: HTTP 2xx, the field resolved, no error; ` +
    'high confidence when the data itself reaches 10 levels. The durations against the shallow query are reported, and a deep query ' +
    'markedly slower (3x and 200 ms more) raises the availability impact. Silent when the server refuses the depth with an error.',
  coverage:
    `Probes stop at ${DEEP} levels, so a limit between ${DEEP} and infinity is not told from none, and nothing deeper is ever sent (a real ` +
    'server is not taken down). Only cycles of fields without required arguments are nested; fragments, introspection-based cycles ' +
    '(__type { ofType ... }) and cost-based limits are not tested. A server that resolves deep queries cheaply (batching loaders) is still ' +
    'reported: the limit is missing, the impact may be lower.',
  remediation:
    'Refuse operations deeper than the API needs (typically 7-10 levels) before executing them, with a depth-limit validation rule ' +
    '(graphql-depth-limit, Apollo\'s or GraphQL Armor\'s maxDepth), and add query cost analysis, timeouts and pagination limits on list ' +
    'fields; consider persisted queries for first-party clients.',
  references: [OWASP_API4, 'https://cwe.mitre.org/data/definitions/770.html', OWASP_GRAPHQL_CHEAT_SHEET, `${OWASP_GRAPHQL_CHEAT_SHEET}#query-limiting-depth-amount`],
  appliesTo: (e) => e.flags.includes('URC') && e.graphql?.kind === 'query' && !!e.graphql.cycle?.length,
  async *run(ctx) {
    for (const endpoint of candidates(ctx.endpoints)) {
      if (ctx.budgetLeft() < DEPTHS.length) break;
      const rungs = await withTimingLock(ctx, () => ladder(ctx, endpoint));
      // The shallow query must run: otherwise the operation says nothing about depth.
      if (!rungs?.[0]?.executed) continue;
      const deep = rungs[rungs.length - 1]!;
      if (deep.depth >= REPORTED_DEPTH && deep.executed) {
        yield finding(ctx, endpoint, rungs);
        return;
      }
      if (deep.executed && deep.depth < DEEP) {
        ctx.note(`${operationName(endpoint)}: query depth not tested past ${deep.depth} levels: that query already took ${ms(deep.exchange)}.`);
      }
      // Refused at depth (a limit) or stopped for time: one GraphQL server, one answer.
      return;
    }
  },
});
