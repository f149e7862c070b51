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
const MAX_OPERATIONS = 2;
const PROBE_TIMEOUT_MS = 10_000;
const LIST = /^\s*\[/;

/** Cheap queries first: no argument at all, then optional ones only; single objects before lists. */
function candidates(endpoints: readonly Endpoint[]): Endpoint[] {
  return endpoints
    .filter((e) => e.graphql?.kind === 'query' && !argumentsOf(e).some((p) => p.required))
    .map((e, i) => ({ e, i, rank: (argumentsOf(e).length ? 2 : 0) + (LIST.test(e.graphql!.returns) ? 1 : 0) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .slice(0, MAX_OPERATIONS)
    .map((c) => c.e);
}

interface Probe {
  single: Exchange;
  aliases: Exchange | null;
  /** Aliases the answer resolved. */
  aliased: number;
  batch: Exchange | null;
  /** Batch entries that came back with the field resolved. */
  batched: number;
}

const ms = (ex: Exchange) => `${Math.round(ex.durationMs)} ms`;

/** One operation, then the same field under ALIASES aliases, then an array of BATCH copies: alone on the timing gate, so the times compare. */
async function probe(ctx: CheckContext, endpoint: Endpoint): Promise<Probe | null> {
  const op = operationOf(endpoint);
  const selection = selectsSubfields(op) ? '{ __typename }' : null;
  const variables = await operationVariables(ctx, endpoint);
  const query = operationDocument(op, { selection, name: 'PortcullisBatchOne' });
  const send = { auth: AS_KEY1, timeoutMs: PROBE_TIMEOUT_MS };
  return withTimingLock(ctx, async () => {
    const single = await sendGraphql(ctx, endpoint, { query, variables }, send);
    if (!single.ok || !resolved(graphqlAnswer(single), op.field)) return null;
    let aliases: Exchange | null = null;
    let aliased = 0;
    if (ctx.budgetLeft() > 0) {
      const doc = operationDocument(op, { selection, aliases: ALIASES, alias: 'p', name: 'PortcullisAliases' });
      aliases = await sendGraphql(ctx, endpoint, { query: doc, variables }, send);
      const answer = graphqlAnswer(aliases);
      aliased = aliases.ok ? Array.from({ length: ALIASES }, (_, i) => resolved(answer, `p${i}`)).filter(Boolean).length : 0;
    }
    let batch: Exchange | null = null;
    let batched = 0;
    if (ctx.budgetLeft() > 0) {
      batch = await sendGraphqlBatch(ctx, endpoint, Array.from({ length: BATCH }, () => ({ query, variables })), send);
      const answers = batch.ok ? graphqlBatchAnswers(batch) : null;
      batched = answers?.length === BATCH ? answers.filter((a) => resolved(a, op.field)).length : 0;
    }
    return { single, aliases, aliased, batch, batched };
  });
}

function finding(ctx: CheckContext, endpoint: Endpoint, p: Probe): FindingDraft {
  const name = operationName(endpoint);
  const aliasesOpen = p.aliased === ALIASES;
  const batchOpen = p.batched === BATCH;
  const what = aliasesOpen && batchOpen ? 'aliases and array batches' : aliasesOpen ? 'aliases' : 'array batches';
  const parts: string[] = [];
  if (aliasesOpen) parts.push(`${ALIASES} aliases of ${name} in one operation were all resolved (${ms(p.aliases!)})`);
  if (batchOpen) parts.push(`an array batch of ${BATCH} copies of the operation was answered in full (${ms(p.batch!)})`);
  const refused = (ex: Exchange | null, got: number, of: number) =>
    ex ? `HTTP ${ex.status}, ${got} of ${of} answered${errorMessages(graphqlAnswer(ex))[0] ? ` (${errorMessages(graphqlAnswer(ex))[0]})` : ''}` : 'not sent';
  return {
    endpoint,
    parameter: 'batching',
    name: `GraphQL ${what} not limited`,
    cvss: withPrivileges(ctx, ctx.check.cvss, endpoint),
    description:
      `The GraphQL endpoint ${endpoint.path} puts no limit on ${what}: ${parts.join('; ')}, while ${name} asked once took ${ms(p.single)}. ` +
      'One HTTP request runs as many resolvers as the client asks for, so request-based rate limits and timeouts do not bound the work ' +
      'a client causes, and a few requests can exhaust the server.',
    notes: [
      `Single operation: HTTP ${p.single.status}, ${ms(p.single)}.`,
      `${ALIASES} aliases: ${aliasesOpen ? `HTTP ${p.aliases!.status}, all resolved, ${ms(p.aliases!)}` : refused(p.aliases, p.aliased, ALIASES)}.`,
      `Array batch of ${BATCH}: ${batchOpen ? `HTTP ${p.batch!.status}, ${BATCH} answers, ${ms(p.batch!)}` : refused(p.batch, p.batched, BATCH)}.`,
      'Sent as key 1, one at a time with no other timing measurement of the scan in flight; the selection was cut to __typename.',
    ],
    exchanges: [
      { label: 'Baseline: the operation once', exchange: p.single },
      ...(aliasesOpen ? [{ label: `Attack: ${ALIASES} aliases in one operation`, exchange: p.aliases! }] : []),
      ...(batchOpen ? [{ label: `Attack: an array batch of ${BATCH} operations`, exchange: p.batch! }] : []),
    ],
    reproduce: aliasesOpen ? p.aliases! : p.batch!,
  };
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
    'Picks a cheap query (no required argument; without arguments and returning one object first) and, as key 1 with the selection cut ' +
    `to __typename, sends it once, then ${ALIASES} aliases of its field in one operation, then an array batch of ${BATCH} copies, one at a ` +
    'time with no other timing measurement of the scan in flight. Finding when every alias is resolved or the batch is answered with ' +
    `${BATCH} answers, each resolved; the times against the single query are reported. Silent when the request is refused (an error, a ` +
    '4xx) or only part of it is answered (a limit). A second query is tried when the first does not answer key 1.',
  coverage:
    `At most ${ALIASES} aliases and ${BATCH} batched operations are sent, so a limit above them is not told from none; cost-based limits ` +
    'that would refuse an expensive field but let cheap ones through are reported (the amplification exists, its impact may be lower). ' +
    'Login and code-check mutations batched to bypass attempt limits are api2-graphql-batch-brute-force\'s.',
  remediation:
    'Limit the aliases of one field per operation (GraphQL Armor maxAliases, a validation rule) and the operations of an array batch ' +
    '(or disable array batching), and add query cost analysis so one request cannot buy unbounded work; apply rate limits per resolved ' +
    'operation, not per HTTP request.',
  references: [OWASP_API4, 'https://cwe.mitre.org/data/definitions/770.html', OWASP_GRAPHQL_CHEAT_SHEET, `${OWASP_GRAPHQL_CHEAT_SHEET}#batching-attacks`],
  appliesTo: (e) => e.flags.includes('URC') && e.graphql?.kind === 'query',
  async *run(ctx) {
    for (const endpoint of candidates(ctx.endpoints)) {
      if (ctx.budgetLeft() < 3) break;
      const p = await probe(ctx, endpoint);
      // The query does not answer key 1: it says nothing about batching, try the next.
      if (!p) continue;
      if (p.aliased === ALIASES || p.batched === BATCH) yield finding(ctx, endpoint, p);
      return;
    }
  },
});
