// API4:2023 Unrestricted Resource Consumption: GraphQL queries nested without a depth limit (issue 20).
// An operation whose returned type leads back to itself (GraphqlOperation.cycle: Book.author ->
// Author.books) can be nested as deep as a client likes, and each level multiplies the resolvers run.
// The probe climbs a ladder of depths one level at a time as key 1, alone on the scan's timing gate so the
// durations compare. Work that multiplies from one level to the next (time and objects) is the finding at
// once: a proof needs the growth, not the deepest query, and a server that answers one request at a time
// would be held by a deeper one whether the scan waits for it or not. Otherwise, executed (data back, no
// error) past the limits servers usually set is the finding; a depth error is the limit working.

import type { Endpoint } from '../../../../shared/contract';
import { adjustCvss } from '../../cvss';
import { AS_KEY1, type Exchange } from '../../http/exchange';
import { BaselineTimes, type SlowBar } from '../common/baseline-times';
import { argumentsOf, errorMessages, fieldValue, graphqlAnswer, operationDocument, operationName, operationOf, operationVariables, resolved, sendGraphql } from '../common/graphql';
import { defineCheck, withPrivileges } from '../common/helpers';
import { OWASP_API4, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import { withTimingLock } from '../common/timing-gate';
import type { CheckContext, FindingDraft } from '../types';

/** Depths in fields, the root field included: a ladder one level at a time, from 2 to past the limits servers usually set (bounded: never more than 12). */
export const DEPTHS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
const DEEP: number = DEPTHS[DEPTHS.length - 1]!;
/** A deep query executed at this depth or more is reported. */
const REPORTED_DEPTH = 10;
const MAX_OPERATIONS = 2;
const PROBE_TIMEOUT_MS = 10_000;
/**
 * The ladder never sends a rung expected to take longer than this: the next rung's time is foreseen from the
 * last one's, times how much the work grew from the rung before (or, from the answer, how many objects the next
 * level would add). A server that answers one request at a time is held by a deep query for as long as it runs,
 * timed out or not, so a proof must not need one.
 */
const NEXT_RUNG_CAP_MS = 5_000;
/** Work that multiplies with depth: a rung at least this slow ... */
const GROWTH_FLOOR_MS = 50;
/** ... and, under this, shown again when the pair is sent once more (short times are noisy). */
const CONFIRMED_MS = 1_000;
/** ... with this many times the objects of the rung one level shallower (the data says the work multiplied) ... */
const GROWTH_RATIO = 3;
/** ... and this many times its time (the clock agrees). */
const TIME_GROWTH_RATIO = 2;
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

/** What an answer holds along the cycle: objects in all, those at its deepest level, the longest list met, and how many children each cycle field gave its parent on average. */
export interface AnswerShape {
  objects: number;
  deepest: number;
  widest: number;
  /** By index in the cycle: children per parent seen through that field (lists count their items). */
  branching: number[];
}

/** Counts the objects of an answer level by level along the cycle (every list item counted). */
export function answerShape(value: unknown, cycle: readonly string[]): AnswerShape {
  const levels: number[] = [];
  const parents: number[] = [];
  const children: number[] = [];
  let widest = 1;
  const count = (v: unknown): number => (v === null || v === undefined ? 0 : Array.isArray(v) ? v.length : 1);
  const walk = (v: unknown, level: number): void => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) {
      widest = Math.max(widest, v.length);
      for (const item of v) walk(item, level);
      return;
    }
    levels[level] = (levels[level] ?? 0) + 1;
    if (typeof v !== 'object') return;
    const i = level % cycle.length;
    const next = (v as Record<string, unknown>)[cycle[i]!];
    if (next === undefined) return;
    parents[i] = (parents[i] ?? 0) + 1;
    children[i] = (children[i] ?? 0) + count(next);
    walk(next, level + 1);
  };
  walk(value, 0);
  const branching = cycle.map((_, i) => (parents[i] ? children[i]! / parents[i]! : 0));
  return { objects: levels.reduce((a, b) => a + b, 0), deepest: levels[levels.length - 1] ?? 0, widest, branching };
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
  shape: AnswerShape;
}

interface Ladder {
  rungs: Rung[];
  /** The rung whose time and objects multiplied over the one before (the work grows with depth), if one did. */
  growth: Rung | null;
  /** Why the ladder stopped before its deepest rung with no refusal, if it did. */
  stopped: string | null;
}

const ms = (ex: Exchange) => `${Math.round(ex.durationMs)} ms`;

/**
 * The next rung's time, foreseen: the last one's, times the growth of time from the rung before or of the
 * objects one more level would add (the deepest objects times what the next cycle field gave each parent
 * before, or the longest list met when it has not been seen yet).
 */
function foreseenMs(prev: Rung | undefined, last: Rung, cycle: readonly string[]): number {
  const t = Math.max(last.exchange.durationMs, 1);
  // Below half a second a ratio of times is mostly noise (a loaded machine), and the cap is far anyway.
  const timeGrowth = prev && t >= 500 ? t / Math.max(prev.exchange.durationMs, 1) : 1;
  const seen = last.shape.branching[(last.depth - 1) % cycle.length] ?? 0;
  const perParent = seen > 0 ? seen : last.shape.widest;
  const objectGrowth = (last.shape.objects + last.shape.deepest * perParent) / Math.max(last.shape.objects, 1);
  return t * Math.max(1, timeGrowth, objectGrowth);
}

function grew(prev: Rung | undefined, r: Rung): boolean {
  if (!prev?.executed || !r.executed) return false;
  return (
    r.exchange.durationMs >= GROWTH_FLOOR_MS &&
    r.exchange.durationMs >= TIME_GROWTH_RATIO * Math.max(prev.exchange.durationMs, 1) &&
    r.shape.objects >= GROWTH_RATIO * Math.max(prev.shape.objects, 1)
  );
}

/** The first rung whose objects multiplied over the one before (GROWTH_RATIO), when the answers kept executing. */
function multiplied(rungs: readonly Rung[]): Rung | null {
  for (let i = 1; i < rungs.length; i += 1) {
    if (rungs[i]!.executed && rungs[i]!.shape.objects >= GROWTH_RATIO * Math.max(rungs[i - 1]!.shape.objects, 1)) return rungs[i]!;
  }
  return null;
}

async function rung(ctx: CheckContext, endpoint: Endpoint, depth: number, variables: Record<string, unknown>): Promise<Rung> {
  const op = operationOf(endpoint);
  const query = operationDocument(op, { selection: nestedSelection(op.cycle!, depth - 1), name: `PortcullisDepth${depth}` });
  // The ladder foresees each level's time (NEXT_RUNG_CAP_MS): an operation found slow with other values does not keep it back.
  const exchange = await sendGraphql(ctx, endpoint, { query, variables }, { auth: AS_KEY1, timeoutMs: PROBE_TIMEOUT_MS, ownGuard: true });
  const answer = graphqlAnswer(exchange);
  const executed = exchange.ok && resolved(answer, op.field) && !answer!.errors.length;
  return { depth, exchange, executed, shape: answerShape(fieldValue(answer, op.field), op.cycle!) };
}

/** The pair that showed the growth, sent again: the growth must show again. */
async function grewAgain(ctx: CheckContext, endpoint: Endpoint, prev: Rung, r: Rung, variables: Record<string, unknown>): Promise<boolean> {
  if (ctx.budgetLeft() < 2) return false;
  const a = await rung(ctx, endpoint, prev.depth, variables);
  const b = await rung(ctx, endpoint, r.depth, variables);
  return grew(a, b);
}

async function ladder(ctx: CheckContext, endpoint: Endpoint): Promise<Ladder | null> {
  const op = operationOf(endpoint);
  const cycle = op.cycle!;
  const variables = await operationVariables(ctx, endpoint);
  // A required argument the scan could not fill (the safety rule refused it): nothing to nest under.
  if (argumentsOf(endpoint).some((p) => p.required && !(p.name in variables))) return null;
  const rungs: Rung[] = [];
  for (const depth of DEPTHS) {
    if (ctx.budgetLeft() <= 0) break;
    const rung_ = await rung(ctx, endpoint, depth, variables);
    const { executed } = rung_;
    const prev = rungs[rungs.length - 1];
    rungs.push(rung_);
    if (!executed) return { rungs, growth: null, stopped: null };
    // The work multiplies with depth: that is the proof; a deeper query would only hold the server longer.
    // Short times are noisy: the pair is sent once more and must show the growth again.
    if (grew(prev, rung_) && (rung_.exchange.durationMs >= CONFIRMED_MS || (await grewAgain(ctx, endpoint, prev!, rung_, variables)))) {
      return { rungs, growth: rung_, stopped: null };
    }
    if (depth === DEEP) break;
    const next = foreseenMs(prev, rung_, cycle);
    if (next > NEXT_RUNG_CAP_MS) {
      const stopped = `the next level was foreseen to take about ${(next / 1000).toFixed(1)} s`;
      // Too slow to go on because the objects multiply level after level: the data shows the growth the clock would (deterministically).
      return { rungs, growth: multiplied(rungs), stopped };
    }
  }
  return { rungs, growth: null, stopped: null };
}

function finding(ctx: CheckContext, endpoint: Endpoint, l: Ladder): FindingDraft {
  const { rungs } = l;
  const op = operationOf(endpoint);
  const cycle = op.cycle!;
  const deep = l.growth ?? rungs[rungs.length - 1]!;
  const shallow = rungs[0]!;
  const times = new BaselineTimes();
  times.add(shallow.exchange);
  const slow = times.slow(deep.exchange, SLOW);
  const reached = reachedDepth(fieldValue(graphqlAnswer(deep.exchange), op.field), cycle);
  const path = [op.field, ...Array.from({ length: Math.min(deep.depth - 1, 5) }, (_, i) => cycle[i % cycle.length])].join(' -> ');
  const name = operationName(endpoint);
  const before = rungs[rungs.indexOf(deep) - 1];
  const growth =
    l.growth && before
      ? `each level multiplies the work: ${before.depth} levels returned ${before.shape.objects} objects in ${ms(before.exchange)}, ${deep.depth} levels ` +
        `${deep.shape.objects} objects in ${ms(deep.exchange)}${l.stopped ? `, and ${l.stopped} (${rungs[rungs.length - 1]!.depth} levels took ${ms(rungs[rungs.length - 1]!.exchange)})` : ''}, ` +
        'so a few more levels would hold the server for minutes (the scan went no deeper). '
      : '';
  return {
    endpoint,
    parameter: 'depth',
    confidence: l.growth || reached >= REPORTED_DEPTH ? 'high' : 'medium',
    cvss: withPrivileges(ctx, slow || l.growth ? adjustCvss(ctx.check.cvss, { A: 'H' }) : ctx.check.cvss, endpoint),
    description:
      `${name} executed a query ${deep.depth} levels deep (${path} -> ... following the cycle ${cycle.join(' -> ')}), answered with data and ` +
      `no error${reached >= REPORTED_DEPTH ? `, the data itself ${reached} levels deep` : ` (the data stops at ${reached} levels where lists are empty)`}, and ${growth}` +
      `Times: ${rungs.map((r) => `depth ${r.depth} ${ms(r.exchange)}`).join(', ')}${slow && !l.growth ? ' - the deep query took markedly longer than the shallow one' : ''}. ` +
      'The server sets no maximum depth (or cost): each level multiplies the resolvers and database queries one request runs, so a few deeper ' +
      'requests can exhaust its CPU and database.',
    notes: [
      `Cycle nested: ${cycle.join(' -> ')} (fields without required arguments leading from ${op.returns} back to itself).`,
      ...rungs.map(
        (r) =>
          `Depth ${r.depth}: HTTP ${r.exchange.status}, ${ms(r.exchange)}${r.executed ? `, executed, ${r.shape.objects} objects` : `, not executed: ${errorMessages(graphqlAnswer(r.exchange)).slice(0, 2).join('; ') || 'no data'}`}.`,
      ),
      `Probes were sent as key 1, one at a time with nothing else of the scan in flight; each waited at most ${PROBE_TIMEOUT_MS / 1000} s, and no level foreseen to take more than ${NEXT_RUNG_CAP_MS / 1000} s was sent.`,
    ],
    exchanges: [
      { label: `Baseline: depth ${shallow.depth}`, exchange: shallow.exchange },
      ...rungs.slice(1, rungs.indexOf(deep)).map((r) => ({ label: `Depth ${r.depth}`, exchange: r.exchange })),
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
  budget: MAX_OPERATIONS * (DEPTHS.length + 2),
  techniques: ['API4.graphql-depth'],
  description:
    `On up to ${MAX_OPERATIONS} queries whose returned type has a field cycle back to itself (those without required arguments first, ` +
    "else with the scan's own argument values), sends as key 1 the query nested along the cycle one level at a time, from " +
    `${DEPTHS[0]} to ${DEEP} levels (ending in __typename), each alone with nothing else of the scan in flight. The ladder stops at the ` +
    `first refusal; at the first level whose objects multiplied (${GROWTH_RATIO}x the level before) and time too (${TIME_GROWTH_RATIO}x, at least ` +
    `${GROWTH_FLOOR_MS} ms; under ${CONFIRMED_MS / 1000} s the pair is sent again and must show it again): the work grows with depth, ` +
    `which is the finding; or before a level foreseen to take more than ${NEXT_RUNG_CAP_MS / 1000} s (from the last level's time and ` +
    'how the time or the answer\'s objects grew, each cycle field counted with the children it gave before) — a finding too when the ' +
    `objects had multiplied (${GROWTH_RATIO}x) from one level to the next on the way. Finding also when the ` +
    `${DEEP}-level query (past the usual limits of 7-10) is executed: HTTP 2xx, the field resolved, no error; high confidence when the data ` +
    'itself reaches 10 levels or the work multiplied. A deep query markedly slower (3x and 200 ms more) than the shallow one, or work that ' +
    'multiplies, raises the availability impact. Silent when the server refuses the depth with an error.',
  coverage:
    `Probes stop at ${DEEP} levels, so a limit between ${DEEP} and infinity is not told from none, and nothing deeper is ever sent (a real ` +
    'server is not taken down); where each level multiplies the work, the ladder stops there, so a limit deeper than that level is not ' +
    'seen (the cost per level is the finding). Only cycles of fields without required arguments are nested; fragments, ' +
    'introspection-based cycles (__type { ofType ... }) and cost-based limits are not tested. A server that resolves deep queries cheaply ' +
    '(batching loaders) is still reported: the limit is missing, the impact may be lower.',
  remediation:
    'Refuse operations deeper than the API needs (typically 7-10 levels) before executing them, with a depth-limit validation rule ' +
    '(graphql-depth-limit, Apollo\'s or GraphQL Armor\'s maxDepth), and add query cost analysis, timeouts and pagination limits on list ' +
    'fields; consider persisted queries for first-party clients.',
  references: [OWASP_API4, 'https://cwe.mitre.org/data/definitions/770.html', OWASP_GRAPHQL_CHEAT_SHEET, `${OWASP_GRAPHQL_CHEAT_SHEET}#query-limiting-depth-amount`],
  appliesTo: (e) => e.flags.includes('URC') && e.graphql?.kind === 'query' && !!e.graphql.cycle?.length,
  async *run(ctx) {
    for (const endpoint of candidates(ctx.endpoints)) {
      if (ctx.budgetLeft() < DEPTHS.length) break;
      const l = await withTimingLock(ctx, () => ladder(ctx, endpoint));
      // The shallow query must run: otherwise the operation says nothing about depth.
      if (!l?.rungs[0]?.executed) continue;
      const deep = l.rungs[l.rungs.length - 1]!;
      if (l.growth || (deep.depth >= REPORTED_DEPTH && deep.executed)) {
        yield finding(ctx, endpoint, l);
        return;
      }
      if (l.stopped) ctx.note(`${operationName(endpoint)}: query depth not tested past ${deep.depth} levels: ${l.stopped} (${ms(deep.exchange)} at ${deep.depth}).`);
      // Refused at depth (a limit) or stopped for time: one GraphQL server, one answer.
      return;
    }
  },
});
