// API4:2023 Unrestricted Resource Consumption: GraphQL documents a server should refuse before running
// them. Field duplication: the same field hundreds of times in one selection (valid GraphQL, merged by
// the executor, but each copy is parsed, validated and often resolved), which no token or cost limit
// stopped. Circular fragments: fragment A spreads B and B spreads A — the specification makes that a
// validation error ("Cannot spread fragment A within itself"); a server that answers it with a
// recursion error, a 5xx or a timeout expands fragments without that rule, and one small request can
// tie up a worker. Both documents select only __typename, so no resolver of the API runs.

import type { Endpoint } from '../../../../shared/contract';
import { AS_KEY1, type Exchange } from '../../http/exchange';
import { errorMessages, graphqlAnswer, graphqlEndpoints, operationOf, resolved, sendGraphql } from '../common/graphql';
import { defineCheck } from '../common/helpers';
import { OWASP_API4, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import { withTimingLock } from '../common/timing-gate';
import type { CheckContext, FindingDraft } from '../types';

const PATHS = 2;
export const DUPLICATES = 2000;
const PROBE_TIMEOUT_MS = 10_000;
/** The executor recursed until the language stopped it: the cycle was not refused at validation. */
const RECURSION = /recursion|too much recursion|call stack|stack ?overflow|stackoverflow|nesting|too deep|depth exceeded/i;

export function duplicatedFieldDocument(count: number): string {
  return `query PortcullisDuplicates { ${Array.from({ length: count }, () => '__typename').join(' ')} }`;
}

export function circularFragmentsDocument(rootType: string): string {
  return `query PortcullisCircular { ...PortcullisA } fragment PortcullisA on ${rootType} { __typename ...PortcullisB } fragment PortcullisB on ${rootType} { __typename ...PortcullisA }`;
}

/** The cycle was refused the way the specification says: an error naming the fragment spread, before anything ran. */
function refusedAtValidation(ex: Exchange): boolean {
  const messages = errorMessages(graphqlAnswer(ex)).join(' ');
  return ex.status < 500 && !!ex.response && /fragment/i.test(messages) && !RECURSION.test(messages);
}

function circularFailure(ex: Exchange): string | null {
  if (!ex.response) return `no answer (${ex.error ?? 'timed out'})`;
  const messages = errorMessages(graphqlAnswer(ex));
  const recursion = messages.find((m) => RECURSION.test(m)) ?? (RECURSION.test(ex.body.slice(0, 4000)) ? ex.body.slice(0, 160) : null);
  if (recursion) return `a recursion error (${recursion.slice(0, 160)})`;
  if (ex.status >= 500) return `HTTP ${ex.status}`;
  return null;
}

async function probePath(ctx: CheckContext, endpoint: Endpoint, path: string): Promise<FindingDraft[]> {
  // Documents of __typename only: none is the operation the endpoint was imported for, so its slowness does not hold them back.
  const send = { auth: AS_KEY1, path, timeoutMs: PROBE_TIMEOUT_MS, pathProbe: true };
  const rootType = operationOf(endpoint).kind === 'query' ? operationOf(endpoint).root_type : 'Query';
  return withTimingLock(ctx, async () => {
    const out: FindingDraft[] = [];
    const baseline = await sendGraphql(ctx, endpoint, { query: 'query PortcullisTypename { __typename }' }, send);
    if (!baseline.ok || !resolved(graphqlAnswer(baseline), '__typename')) return out;
    if (ctx.budgetLeft() > 0) {
      const dup = await sendGraphql(ctx, endpoint, { query: duplicatedFieldDocument(DUPLICATES) }, send);
      const answer = graphqlAnswer(dup);
      if (dup.ok && resolved(answer, '__typename') && !errorMessages(answer).length) {
        out.push({
          endpoint,
          parameter: 'field-duplication',
          name: 'GraphQL field duplication not limited',
          description:
            `The GraphQL endpoint ${path} answered a document repeating one field ${DUPLICATES} times (${dup.request.body?.length ?? 0} bytes) ` +
            `with HTTP ${dup.status} and no error, in ${Math.round(dup.durationMs)} ms against ${Math.round(baseline.durationMs)} ms for the field ` +
            'asked once. Nothing limits the size or the token count of a document, so a client can make the server parse, validate and ' +
            'execute as much as it likes per request; repeated expensive fields multiply the work.',
          notes: [`Sent as key 1, alone (no other timing measurement in flight); only __typename was selected, so no resolver of the API ran.`],
          exchanges: [
            { label: 'Baseline: the field once', exchange: baseline },
            { label: `Attack: the field ${DUPLICATES} times`, exchange: dup },
          ],
          reproduce: dup,
        });
      }
    }
    if (ctx.budgetLeft() > 0) {
      const circ = await sendGraphql(ctx, endpoint, { query: circularFragmentsDocument(rootType) }, send);
      const failure = refusedAtValidation(circ) ? null : circularFailure(circ);
      if (failure) {
        out.push({
          endpoint,
          parameter: 'circular-fragments',
          name: 'GraphQL circular fragments not refused',
          cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:L',
          description:
            `The GraphQL endpoint ${path} answered two fragments that spread each other with ${failure}, instead of the validation error ` +
            'the specification requires ("Cannot spread fragment within itself"). The server expands fragments without checking for ' +
            'cycles, so one small request makes it recurse until the language stops it, tying up a worker each time.',
          notes: ['Sent once, as key 1, alone; the fragments select only __typename.'],
          exchanges: [
            { label: 'Baseline: __typename', exchange: baseline },
            { label: 'Attack: two fragments that spread each other', exchange: circ },
          ],
          reproduce: circ,
        });
      }
    }
    return out;
  });
}

export const graphqlDocumentAbuse = defineCheck({
  id: 'api4-graphql-document-abuse',
  title: 'GraphQL documents that should be refused are run',
  flag: 'URC',
  owasp: 'API4:2023',
  cwe: 'CWE-770',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:N/I:N/A:L',
  kind: 'active',
  safety: 'intrusive',
  scope: 'api',
  protocols: ['graphql'],
  budget: PATHS * 3,
  techniques: ['API4.graphql-field-duplication', 'API4.graphql-circular-fragments'],
  description:
    `For each GraphQL endpoint (up to ${PATHS}), as key 1 and with nothing else of the scan's timing in flight: __typename once, then ` +
    `__typename repeated ${DUPLICATES} times in one selection, then two fragments that spread each other. Finding (low) when the ` +
    'duplicated document is answered in full with no error (no size, token or cost limit), and (medium) when the circular fragments are ' +
    'answered with a recursion error, a 5xx or no answer instead of the validation error the specification requires.',
  coverage:
    `A limit above ${DUPLICATES} repetitions is not told from none. Only __typename is selected, so what the duplicates would cost on an ` +
    'expensive field is not measured.',
  remediation:
    'Bound documents before executing them: a maximum document size and token count (graphql-js maxTokens, GraphQL Armor maxTokens / ' +
    'maxDirectives), query cost analysis, and the specification\'s validation rules (NoFragmentCycles) — keep the server\'s standard ' +
    'validation on and up to date.',
  references: [OWASP_API4, 'https://cwe.mitre.org/data/definitions/770.html', OWASP_GRAPHQL_CHEAT_SHEET],
  async *run(ctx) {
    const byPath = new Map<string, Endpoint>();
    // A query's root type names the type the fragments apply to.
    for (const e of graphqlEndpoints(ctx.endpoints)) {
      const had = byPath.get(e.path);
      if (!had || (operationOf(had).kind !== 'query' && operationOf(e).kind === 'query')) byPath.set(e.path, e);
    }
    for (const [path, endpoint] of [...byPath].slice(0, PATHS)) {
      if (ctx.budgetLeft() <= 0) return;
      for (const f of await probePath(ctx, endpoint, path)) yield f;
    }
  },
});
