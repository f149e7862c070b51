// API7:2023 Server Side Request Forgery through GraphQL arguments (issue 20): the URL of the scan's
// out-of-band listener (a unique token per injection) goes into each URL-like String argument (or
// input-object field) of an operation, sent as its variable; a hit on the listener carrying the token
// proves the server fetched it. Where nothing calls back, a local file and the cloud metadata address
// are tried once, found only when their content comes back in the answer. Mutations only when they
// address no existing object (common/graphql-inputs.ts mayInject).

import type { Endpoint, JsonSchema } from '../../../../shared/contract';
import { adjustCvss } from '../../cvss';
import { oobPage } from '../../oob';
import { defineCheck } from '../common/helpers';
import { argumentsOf, operationName, operationOf } from '../common/graphql';
import { argumentSource } from '../common/graphql-inputs';
import { AS_KEY1, describePoint, urlKind, urlPoints } from '../common/input-points';
import { OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import { SSRF_REFS, SSRF_REMEDIATION } from './ssrf';
import { describeHit, FILE_AND_METADATA_TARGETS, listenerHits, listenerPageIn, MAX_URL_POINTS, targetContentIn } from './ssrf-probes';

/** Whether an argument (or a field of an input-object argument) looks like it takes a URL or a host. */
function hasUrlArgument(e: Endpoint): boolean {
  const looks = (name: string, schema: JsonSchema | null | undefined) =>
    urlKind({ where: 'argument', name, key: name, value: undefined, schema: schema ?? null, type: 'string', with: () => null as never }) !== null;
  const text = (s: JsonSchema | null | undefined) => ['String', 'ID'].includes(String(s?.['x-graphql-type'] ?? '').replace(/[[\]!\s]/g, '')) || s?.type === 'string';
  for (const p of argumentsOf(e)) {
    if (text(p.schema) && looks(p.name, p.schema)) return true;
    const props = p.schema?.properties;
    if (props && typeof props === 'object') for (const [k, s] of Object.entries(props as Record<string, JsonSchema>)) if (text(s) && looks(k, s)) return true;
  }
  return false;
}

export const graphqlSsrf = defineCheck({
  id: 'api7-graphql-ssrf',
  title: 'Server-side request forgery through a GraphQL argument',
  flag: 'SSRF',
  owasp: 'API7:2023',
  cwe: 'CWE-918',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: MAX_URL_POINTS + FILE_AND_METADATA_TARGETS.length,
  protocols: ['graphql'],
  description:
    'Puts a URL of the scanner\'s own listener (on 127.0.0.1, a unique token per injection) into each URL-like String argument of the ' +
    'operation (url, callback, webhook, image, avatar, host... by name, or format uri), and such fields of input-object arguments, one at ' +
    'a time as its GraphQL variable (the others keep key 1\'s values), and waits briefly for the target to call it. Finding when the ' +
    'listener receives a request carrying that token; higher impact when the answer (data or errors) also shows the listener\'s page. ' +
    'Where nothing called back, file:///etc/passwd, file:///c:/windows/win.ini and the cloud metadata address go into the first URL ' +
    'argument: finding when the answer carries their content. Queries always; mutations only when no argument addresses an existing ' +
    'object (a create, an import by URL), never one named like a delete or reset.',
  coverage:
    'Arguments whose names and formats do not say they take a URL are not tried. A server that fetches later than ~2 s after the request, ' +
    'or only from another network, is not seen. Mutations that address existing objects are left out unless the scan allows writes to them.',
  remediation: `${SSRF_REMEDIATION} Validate URL arguments in the resolver (or with a custom URL scalar that enforces the allow-list).`,
  references: [...SSRF_REFS, OWASP_GRAPHQL_CHEAT_SHEET],
  appliesTo: (e) => (e.graphql?.kind === 'query' || e.graphql?.kind === 'mutation') && e.flags.includes('SSRF') && hasUrlArgument(e),
  async *run(ctx) {
    const oob = ctx.oob;
    if (!oob) return ctx.skip('The out-of-band listener is not available in this scan.');
    const ep = ctx.endpoint;
    const name = operationName(ep);
    const src = await argumentSource(ctx);
    if (!src) return;
    const points = urlPoints(src.points).slice(0, MAX_URL_POINTS);
    if (!points.length) return;
    const hits = await listenerHits(ctx, oob, points, async (p0) => {
      const fresh = await src.get(p0.name);
      return fresh ? { ...fresh, urlKind: p0.urlKind } : null;
    });
    const h = hits[0];
    if (h) {
      const reflected = listenerPageIn(h.ex, h.token);
      yield {
        name: reflected ? 'Server-side request forgery through a GraphQL argument (fetched content returned)' : undefined,
        parameter: hits.map((x) => x.point.name).join(', '),
        cvss: reflected ? adjustCvss(ctx.check.cvss, { C: 'H' }) : undefined,
        description:
          `${name} fetched a URL put into ${hits.map((x) => describePoint(x.point)).join(' and ')} (sent as its variable): the scanner's ` +
          `listener on 127.0.0.1 received ${describeHit(h.hit, h.at)}, carrying the token of that injection. Any client can make the server ` +
          `send requests to addresses of their choosing through this ${operationOf(ep).kind}, including loopback and internal services.` +
          (reflected ? ' The answer also contains the page the listener served, so fetched content is returned to the client.' : ''),
        notes: [
          ...hits.map((x) => `Listener hit for ${describePoint(x.point)} (token ${x.token}): ${describeHit(x.hit, x.at)}.`),
          ...(reflected ? [`The answer contains the listener's page ("${oobPage(h.token).slice(0, 60)}...").`] : []),
        ],
        exchanges: [{ label: `Attack: listener URL in ${h.point.name}`, exchange: h.ex }],
        reproduce: h.ex,
      };
      return;
    }
    // No callback: internal content returned in the answer (a fetcher that refuses loopback may still read files or metadata).
    const first = points.find((p) => p.urlKind === 'url');
    if (!first) return;
    for (const target of FILE_AND_METADATA_TARGETS) {
      if (ctx.budgetLeft() <= 0) return;
      const fresh = await src.get(first.name);
      if (!fresh) return;
      const ex = await ctx.sendPrepared(fresh.with(target.url), AS_KEY1, { followRedirects: false });
      if (!ex.response) continue;
      const found = targetContentIn(target, ex);
      if (!found) continue;
      const { marker, encoded } = found;
      yield {
        name: target.url.startsWith('file:') ? 'Server-side request forgery through a GraphQL argument (local file read)' : undefined,
        parameter: first.name,
        cvss: adjustCvss(ctx.check.cvss, target.url.startsWith('file:') ? { C: 'H', S: 'U' } : { C: 'H' }),
        description:
          `${name} fetched ${target.label} (${target.url}) put into ${describePoint(first)} and returned its content: the answer ` +
          `(HTTP ${ex.status}) contains ${marker}${encoded}. Clients can read internal services and files through the API.`,
        notes: [`Injected ${target.url} into ${describePoint(first)}; found ${marker}${encoded}.`],
        exchanges: [{ label: `Attack: ${target.url} in ${first.name}`, exchange: ex }],
        reproduce: ex,
      };
      return;
    }
  },
});
