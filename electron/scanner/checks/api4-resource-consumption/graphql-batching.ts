// API4:2023 Unrestricted Resource Consumption: GraphQL alias and array-batch amplification (issue 20).
// One HTTP request may ask for a field under many aliases, or carry an array of operations: a server
// that answers all of them lets one request run as many resolvers as the client likes, past any limit
// counted in requests. Probed with a cheap query the scan can already send (no required argument, its
// selection cut to __typename), timed against the same query asked once.

import type { Endpoint } from '../../../../shared/contract';
import { AS_KEY1, type Exchange } from '../../http/exchange';
import {
  argumentsOf,
  errorMessages,
  graphqlAnswer,
  graphqlBatchAnswers,
  operationDocument,
  operationName,
  operationOf,
  operationVariables,
  resolved,
  selectsSubfields,
  sendGraphql,
  sendGraphqlBatch,
} from '../common/graphql';
import { defineCheck, withPrivileges } from '../common/helpers';
import { OWASP_API4, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import { withTimingLock } from '../common/timing-gate';
import type { CheckContext, FindingDraft } from '../types';

/** Aliases of the field in one operation, and operations in one array batch (bounded: a real server must survive them). */
export const ALIASES = 50;
export const BATCH = 25;
/**
 * The copies are cut so that the single answer's time times the copies stays under this: a server that answers
 * one request at a time is held by an amplified request as long as it runs, and the proof is that every copy was
 * answered, not how long that took.
 */
const AMPLIFIED_CAP_MS = 6_000;
/**
 * The copies an amplified request may carry, most first: a few fixed steps, so that a little noise in the single
 * answer's time does not change the probe. Fewer than the last would not tell a missing limit from a usual one
 * (GraphQL Armor allows 15 aliases): an operation slower than that is not amplified.
 */
const COPY_STEPS = [50, 32, 16] as const;
export const MIN_COPIES = COPY_STEPS[COPY_STEPS.length - 1];
const MAX_OPERATIONS = 2;
/**
 * Far above what the copies are sized for: giving up early frees nothing on a server that answers one request at
 * a time (it goes on), and loses the proof on a loaded one.
 */
const PROBE_TIMEOUT_MS = 30_000;
const LIST = /^\s*\[/;

/** Cheap queries first: no argument at all, then optional ones only; single objects before lists; none the scan found slow. */
function candidates(endpoints: readonly Endpoint[], slow: ReadonlySet<string>): Endpoint[] {
  return endpoints
    .filter((e) => e.graphql?.kind === 'query' && !argumentsOf(e).some((p) => p.required) && !slow.has(e.id))
    .map((e, i) => ({ e, i, rank: (argumentsOf(e).length ? 2 : 0) + (LIST.test(e.graphql!.returns) ? 1 : 0) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .slice(0, MAX_OPERATIONS)
    .map((c) => c.e);
}

interface Probe {
  single: Exchange;
  /** Aliases and batch entries sent (fewer than ALIASES and BATCH when the single answer is slow). */
  aliasCount: number;
  batchCount: number;
  aliases: Exchange | null;
  /** Aliases the answer resolved. */
  aliased: number;
  batch: Exchange | null;
  /** Batch entries that came back with the field resolved. */
  batched: number;
}

const ms = (ex: Exchange) => `${Math.round(ex.durationMs)} ms`;

/** One operation, then the same field under ALIASES aliases, then an array of BATCH copies: alone on the timing gate, so the times compare. */
async function probe(ctx: CheckContext, endpoint: Endpoint): Promise<Probe | 'slow' | null> {
  const op = operationOf(endpoint);
  const selection = selectsSubfields(op) ? '{ __typename }' : null;
  const variables = await operationVariables(ctx, endpoint);
  const query = operationDocument(op, { selection, name: 'PortcullisBatchOne' });
  const send = { auth: AS_KEY1, timeoutMs: PROBE_TIMEOUT_MS };
  return withTimingLock(ctx, async () => {
    const single = await sendGraphql(ctx, endpoint, { query, variables }, send);
    if (!single.ok || !resolved(graphqlAnswer(single), op.field)) return null;
    const affordable = COPY_STEPS.find((n) => n * single.durationMs <= AMPLIFIED_CAP_MS);
    // Too slow to amplify safely: another operation may be cheaper.
    if (affordable === undefined) return 'slow';
    const aliasCount = Math.min(ALIASES, affordable);
    const batchCount = Math.min(BATCH, affordable);
    let aliases: Exchange | null = null;
    let aliased = 0;
    if (ctx.budgetLeft() > 0) {
      const doc = operationDocument(op, { selection, aliases: aliasCount, alias: 'p', name: 'PortcullisAliases' });
      aliases = await sendGraphql(ctx, endpoint, { query: doc, variables }, send);
      const answer = graphqlAnswer(aliases);
      aliased = aliases.ok ? Array.from({ length: aliasCount }, (_, i) => resolved(answer, `p${i}`)).filter(Boolean).length : 0;
    }
    let batch: Exchange | null = null;
    let batched = 0;
    if (ctx.budgetLeft() > 0) {
      batch = await sendGraphqlBatch(ctx, endpoint, Array.from({ length: batchCount }, () => ({ query, variables })), send);
      const answers = batch.ok ? graphqlBatchAnswers(batch) : null;
      batched = answers?.length === batchCount ? answers.filter((a) => resolved(a, op.field)).length : 0;
    }
    return { single, aliasCount, batchCount, aliases, aliased, batch, batched };
  });
}

const refused = (ex: Exchange | null, got: number, of: number) =>
  ex ? `HTTP ${ex.status}, ${got} of ${of} answered${errorMessages(graphqlAnswer(ex))[0] ? ` (${errorMessages(graphqlAnswer(ex))[0]})` : ''}` : 'not sent';

function notes(p: Probe): string[] {
  return [
    `Single operation: HTTP ${p.single.status}, ${ms(p.single)}.`,
    `${p.aliasCount} aliases: ${p.aliased === p.aliasCount ? `HTTP ${p.aliases!.status}, all resolved, ${ms(p.aliases!)}` : refused(p.aliases, p.aliased, p.aliasCount)}.`,
    `Array batch of ${p.batchCount}: ${p.batched === p.batchCount ? `HTTP ${p.batch!.status}, ${p.batchCount} answers, ${ms(p.batch!)}` : refused(p.batch, p.batched, p.batchCount)}.`,
    'Sent as key 1, one at a time with nothing else of the scan in flight; the selection was cut to __typename' +
      (p.aliasCount < ALIASES ? `; the copies were cut to ${p.aliasCount} so that the amplified request would not hold the server past ${AMPLIFIED_CAP_MS / 1000} s.` : '.'),
  ];
}

/** Aliases and array batches are two limits (two remediations): one finding each. */
function findings(ctx: CheckContext, endpoint: Endpoint, p: Probe): FindingDraft[] {
  const name = operationName(endpoint);
  const out: FindingDraft[] = [];
  const close =
    'One HTTP request runs as many resolvers as the client asks for, so request-based rate limits and timeouts do not bound the work ' +
    'a client causes, and a few requests can exhaust the server.';
  if (p.aliased === p.aliasCount) {
    out.push({
      endpoint,
      parameter: 'aliases',
      name: 'GraphQL aliases not limited',
      cvss: withPrivileges(ctx, ctx.check.cvss, endpoint),
      description:
        `The GraphQL endpoint ${endpoint.path} puts no limit on aliases: ${p.aliasCount} aliases of ${name} in one operation were all resolved ` +
        `(${ms(p.aliases!)}), while ${name} asked once took ${ms(p.single)}. ${close}`,
      notes: notes(p),
      exchanges: [
        { label: 'Baseline: the operation once', exchange: p.single },
        { label: `Attack: ${p.aliasCount} aliases in one operation`, exchange: p.aliases! },
      ],
      reproduce: p.aliases!,
    });
  }
  if (p.batched === p.batchCount) {
    out.push({
      endpoint,
      parameter: 'batching',
      name: 'GraphQL array batches not limited',
      cvss: withPrivileges(ctx, ctx.check.cvss, endpoint),
      description:
        `The GraphQL endpoint ${endpoint.path} puts no limit on array batches: an array batch of ${p.batchCount} copies of the operation was ` +
        `answered in full (${ms(p.batch!)}), while ${name} asked once took ${ms(p.single)}. ${close}`,
      notes: notes(p),
      exchanges: [
        { label: 'Baseline: the operation once', exchange: p.single },
        { label: `Attack: an array batch of ${p.batchCount} operations`, exchange: p.batch! },
      ],
      reproduce: p.batch!,
    });
  }
  return out;
}

export const graphqlBatching = defineCheck({
  id: 'api4-graphql-batching',
  title: 'GraphQL alias and batch amplification not limited',
  flag: 'URC',
  owasp: 'API4:2023',
  cwe: 'CWE-770',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:L',
  kind: 'active',
  safety: 'intrusive',
  scope: 'api',
  protocols: ['graphql'],
  budget: MAX_OPERATIONS * 3,
  techniques: ['API4.graphql-batching'],
  description:
    'Picks a cheap query (no required argument; without arguments and returning one object first; none the scan found slow) and, as key 1 with the selection cut ' +
    `to __typename, sends it once, then ${ALIASES} aliases of its field in one operation, then an array batch of ${BATCH} copies, one at a ` +
    'time with nothing else of the scan in flight. The copies are cut so that the single answer\'s time times the copies stays under ' +
    `${AMPLIFIED_CAP_MS / 1000} s (an operation that would get fewer than ${MIN_COPIES} is not amplified; the next one is tried). One finding ` +
    'when every alias is resolved, another when the batch is answered in full, each entry resolved; the times against the single query ' +
    'are reported. Silent when the request is refused (an error, a 4xx) or only part of it is answered (a limit). A second query is tried ' +
    'when the first does not answer key 1.',
  coverage:
    `At most ${ALIASES} aliases and ${BATCH} batched operations are sent (fewer on a slow operation, never fewer than ${MIN_COPIES}), so a ` +
    'limit above them is not told from none; cost-based limits ' +
    'that would refuse an expensive field but let cheap ones through are reported (the amplification exists, its impact may be lower). ' +
    'Login and code-check mutations batched to bypass attempt limits are api2-graphql-batch-brute-force\'s.',
  remediation:
    'Limit the aliases of one field per operation (GraphQL Armor maxAliases, a validation rule) and the operations of an array batch ' +
    '(or disable array batching), and add query cost analysis so one request cannot buy unbounded work; apply rate limits per resolved ' +
    'operation, not per HTTP request.',
  references: [OWASP_API4, 'https://cwe.mitre.org/data/definitions/770.html', OWASP_GRAPHQL_CHEAT_SHEET, `${OWASP_GRAPHQL_CHEAT_SHEET}#batching-attacks`],
  appliesTo: (e) => e.flags.includes('URC') && e.graphql?.kind === 'query',
  async *run(ctx) {
    const slow = new Set((ctx.slowOperations?.() ?? []).filter((o) => o.alone).map((o) => o.operation));
    for (const endpoint of candidates(ctx.endpoints, slow)) {
      if (ctx.budgetLeft() < 3) break;
      const p = await probe(ctx, endpoint);
      // The query does not answer key 1, or answers too slowly to amplify: it says nothing about batching, try the next.
      if (!p) continue;
      if (p === 'slow') {
        ctx.note(`${operationName(endpoint)}: not amplified with aliases or an array batch: one answer took too long for ${MIN_COPIES} copies to stay under ${AMPLIFIED_CAP_MS / 1000} s.`);
        continue;
      }
      yield* findings(ctx, endpoint, p);
      return;
    }
  },
});
