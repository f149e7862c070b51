// API9:2023 Improper Inventory Management: behaviour the spec does not document (status codes,
// methods). The spec is the inventory: anything answering outside it is the finding.

import type { Endpoint } from '../../../../shared/contract';
import type { SeededRandom } from '../../random';
import { mutate, pathParamNames } from '../../requests';
import { apiWideFinding, defineCheck, describeEndpoint, forEachLimit, type Hit } from '../common/helpers';
import { AS_KEY1, injectionPoints } from '../common/input-points';
import { looksLikeError } from '../common/objects';
import { isEmptyBody } from '../../similarity';
import { presence } from './not-found';
import type { CheckContext } from '../types';
import type { FindingDraft } from '../types';
import { OWASP_API9 } from '../common/references';


function declaredStatus(endpoint: Endpoint, status: number): boolean {
  const codes = Object.keys(endpoint.responses);
  if (!codes.length || codes.includes('default')) return true;
  const s = String(status);
  return codes.some((c) => c === s || (/^[1-5]xx$/i.test(c) && c[0] === s[0]));
}

function unknownValue(random: SeededRandom, endpoint: Endpoint, name: string): string {
  const p = endpoint.parameters.find((x) => x.in === 'path' && x.name === name);
  const t = p?.schema?.type;
  if (t === 'integer' || t === 'number') return String(random.int(900_000_000, 989_999_999));
  if (p?.schema?.format === 'uuid') return `${random.hex(4)}-${random.hex(2)}-4${random.hex(2).slice(1)}-8${random.hex(2).slice(1)}-${random.hex(6)}`;
  return `portcullis-missing-${random.hex(6)}`;
}

export const undocumentedBehaviour = defineCheck({
  id: 'api9-undocumented-behaviour',
  title: 'Undocumented status codes and methods',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-1059',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:N/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 40,
  description:
    'Compares what the API does with what its spec declares: the status of every key-1 baseline (no extra request), the status for an id ' +
    'that does not exist on reads with one path parameter, and the Allow header of OPTIONS on each path. Finding (low) for success or ' +
    'redirect statuses the operation does not declare, and for an undocumented GET the server advertises that then succeeds (2xx with ' +
    'content unlike a random path next to it). An Allow header alone is not proof: frameworks list the methods of other routes that ' +
    'match the same URL.',
  coverage:
    'Advertised PUT, PATCH, POST and DELETE are not sent here (they would change data); api5-bfla-method-swap proves those by their effect ' +
    'on objects the scan created.',
  remediation:
    'Keep the spec in step with the code: declare every status an operation can answer and every method a path accepts, and disable the ' +
    'methods and routes nobody documented.',
  references: [OWASP_API9, 'https://cwe.mitre.org/data/definitions/1059.html', 'https://spec.openapis.org/oas/v3.1.0#responses-object'],
  async *run(ctx) {
    const statusHits: Hit[] = [];
    await forEachLimit(ctx.endpoints, ctx.parallelism, async (endpoint) => {
      const ex = await ctx.baseline('key1', endpoint);
      if (ex?.response && ex.status < 400 && !declaredStatus(endpoint, ex.status)) {
        statusHits.push({ endpoint, exchange: ex, detail: `HTTP ${ex.status} (declared: ${Object.keys(endpoint.responses).join(', ')})` });
      }
    });
    // An id that does not exist: reads with one path parameter.
    // Not for resources the scan creates: their reads only ever address the scan's own objects.
    const reads = ctx.endpoints.filter((e) => e.method === 'GET' && pathParamNames(e.path).length === 1 && !ctx.resources.producerFor(e)).slice(0, 15);
    await forEachLimit(reads, ctx.parallelism, async (endpoint) => {
      if (ctx.budgetLeft() <= 0 || statusHits.some((h) => h.endpoint === endpoint)) return;
      const request = await ctx.baselineRequest(endpoint);
      if (!request) return;
      const name = pathParamNames(endpoint.path)[0]!;
      const point = injectionPoints(ctx, endpoint, request).find((p) => p.where === 'path' && p.name === name);
      if (!point) return;
      const ex = await ctx.sendPrepared(point.with(unknownValue(ctx.random.fork(describeEndpoint(endpoint)), endpoint, name)), AS_KEY1);
      if (ex.response && ex.status < 400 && !declaredStatus(endpoint, ex.status)) {
        statusHits.push({ endpoint, exchange: ex, detail: `HTTP ${ex.status} for an id that does not exist (declared: ${Object.keys(endpoint.responses).join(', ')})` });
      }
    });
    const findings: FindingDraft[] = [];
    if (statusHits.length) {
      findings.push(
        apiWideFinding(
          {
            id: 'undocumented-status',
            name: 'Undocumented status codes',
            confidence: 'medium',
            description:
              'Operations answer with success or redirect statuses their spec does not declare. Clients written from the spec mishandle them, ' +
              'and the difference shows the implementation and the inventory have drifted apart.',
            recommendation: ctx.check.remediation,
          },
          statusHits,
        ),
      );
    }
    // Methods the server advertises on a path (Allow) that the spec does not document there: reported only once one succeeded.
    const methodHits = await undocumentedMethods(ctx);
    if (methodHits.length) {
      findings.push(
        apiWideFinding(
          {
            id: 'undocumented-methods',
            name: 'Undocumented methods answer',
            confidence: 'medium',
            description:
              'Documented paths answer a method their spec does not document there (advertised in Allow, then called: it succeeded with ' +
              'content unlike the API\'s not-found answer). Undocumented handlers are often forgotten ones, without the checks of the ' +
              'documented operations.',
            recommendation: ctx.check.remediation,
          },
          methodHits,
        ),
      );
    }
    for (const f of findings) yield f;
  },
});



/** Paths whose OPTIONS advertise an undocumented GET that then answers 2xx unlike a random path next to it. */
async function undocumentedMethods(ctx: CheckContext): Promise<Hit[]> {
  const byPath = new Map<string, Endpoint[]>();
  for (const e of ctx.allEndpoints) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
  const hits: Hit[] = [];
  const paths = [...byPath.entries()].filter(([, list]) => list.some((e) => ctx.endpoints.includes(e)) && !list.some((e) => e.method === 'GET')).slice(0, 20);
  await forEachLimit(paths, ctx.parallelism, async ([, list]) => {
    if (ctx.budgetLeft() < 3) return;
    const endpoint = list[0]!;
    const request = (await ctx.baselineRequest(endpoint)) ?? (await ctx.prepare(endpoint, 1, 'read'));
    if (!request) return;
    const options = await ctx.sendPrepared(mutate(request, { method: 'OPTIONS', body: null, headers: { 'content-type': null } }), AS_KEY1);
    const allow = (options.header('allow') ?? '').split(',').map((m) => m.trim().toUpperCase()).filter(Boolean);
    if (!options.response || options.status >= 400 || !allow.includes('GET')) return;
    const read = mutate(request, { method: 'GET', body: null, headers: { 'content-type': null } });
    const attempt = await ctx.sendPrepared(read, AS_KEY1);
    if (!attempt.ok || isEmptyBody(attempt) || looksLikeError(attempt)) return;
    const pathname = read.url.pathname;
    const control = await ctx.sendPrepared(mutate(read, { path: `${pathname.slice(0, pathname.lastIndexOf('/'))}/portcullis-${ctx.random.fork(`${describeEndpoint(endpoint)} OPTIONS`).hex(4)}` }), AS_KEY1);
    if (presence(attempt, [control]) !== 'present') return;
    hits.push({ endpoint, exchange: attempt, detail: `Allow: ${allow.join(', ')}; GET (undocumented) answered HTTP ${attempt.status}, a random path next to it ${control.status}` });
  });
  return hits;
}
