// API7:2023 Server Side Request Forgery through GraphQL arguments (issue 20): the URL of the scan's
// out-of-band listener (a unique token per injection) goes into each URL-like String argument (or
// input-object field) of an operation, sent as its variable; a hit on the listener carrying the token
// proves the server fetched it. Where nothing calls back, a local file and the cloud metadata address
// are tried once, found only when their content comes back in the answer. Mutations only when they
// address no existing object (common/graphql-inputs.ts mayInject).

import type { Endpoint, JsonSchema } from '../../../../shared/contract';
import { adjustCvss } from '../../cvss';
import { oobPage } from '../../oob';
import { fileWriteRefusal } from '../../probe-safety';
import { mutate, type PreparedRequest } from '../../requests';
import { defineCheck } from '../common/helpers';
import { argumentsOf, namedType, operationName, operationOf } from '../common/graphql';
import { argumentSource } from '../common/graphql-inputs';
import { AS_KEY1, describePoint, urlKind, urlPoints, type InjectionPoint } from '../common/input-points';
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

// ---------------------------------------------------------------- a URL split across arguments

/** Argument names of the parts a server joins into a URL around a host argument ("scheme://host:port/path"). */
const SCHEME_ARG = /^(scheme|protocol|proto|url_?scheme)$/i;
const PORT_ARG = /^(port|port_?number|remote_?port|target_?port|host_?port)$/i;
const PATH_ARG = /^(path|url_?path|pathname|uri|resource|route|location)$/i;

interface SplitUrl {
  host: string;
  scheme: string | null;
  port: { name: string; numeric: boolean } | null;
  path: string | null;
}

/**
 * The operation's URL, split across top-level arguments: a host argument and at least one of scheme, port and path
 * beside it (a fetcher building "scheme://host:port/path"). Each part gets its piece of the listener's URL at once;
 * one argument changed alone would leave the made-up scheme or port of the scan's request in the URL.
 */
export function splitUrl(e: Endpoint, hostArgument: string): SplitUrl | null {
  const op = operationOf(e);
  const type = (name: string) => namedType(op.variable_types[name] ?? String(argumentsOf(e).find((p) => p.name === name)?.schema?.['x-graphql-type'] ?? ''));
  const names = argumentsOf(e).map((p) => p.name).filter((n) => n !== hostArgument && n in op.variable_types);
  const text = (n: string) => ['String', 'ID'].includes(type(n));
  const scheme = names.find((n) => SCHEME_ARG.test(n) && text(n)) ?? null;
  const portName = names.find((n) => PORT_ARG.test(n) && (text(n) || type(n) === 'Int')) ?? null;
  const path = names.find((n) => PATH_ARG.test(n) && text(n)) ?? null;
  if (!scheme && !portName && !path) return null;
  return { host: hostArgument, scheme, port: portName ? { name: portName, numeric: type(portName) === 'Int' } : null, path };
}

/**
 * The request with the URL's pieces in the split arguments: scheme, host (with the port when no argument takes it),
 * port, path and query. The path argument is left as the scan's request has it where the file-write safety rule
 * keeps it (a write whose `path` may name a file): the listener's path then rides in the host, before a "?".
 */
function withSplitUrl(request: PreparedRequest, parts: SplitUrl, raw: string): PreparedRequest {
  const body = request.bodyValue as { variables?: Record<string, unknown> } & Record<string, unknown>;
  const url = new URL(raw);
  const variables: Record<string, unknown> = { ...(body.variables ?? {}) };
  const rest = `${url.pathname}${url.search}`;
  if (parts.scheme) variables[parts.scheme] = url.protocol.replace(/:$/, '');
  if (parts.port) variables[parts.port.name] = parts.port.numeric ? Number(url.port || (url.protocol === 'https:' ? 443 : 80)) : url.port;
  if (parts.path) {
    variables[parts.host] = parts.port ? url.hostname : url.host;
    variables[parts.path] = rest;
  } else {
    // Without a path argument the host carries the listener's port and path, and what the server appends (":port/path") lands in its query.
    variables[parts.host] = `${url.host}${rest}?`;
  }
  return mutate(request, { bodyValue: { ...body, variables } });
}

/** A host point turned into one that takes a whole URL and spreads it over the split arguments. */
function splitPoint(
  p: InjectionPoint & { urlKind: 'url' | 'host' },
  given: SplitUrl,
  request: PreparedRequest,
  pathAllowed: (r: PreparedRequest) => boolean,
): InjectionPoint & { urlKind: 'url' | 'host' } {
  const withPath = (v: unknown) => withSplitUrl(request, given, String(v));
  const probe = withPath('http://127.0.0.1:1/portcullis');
  const parts = given.path && !pathAllowed(probe) ? { ...given, path: null } : given;
  const named = [parts.scheme, parts.host, parts.port?.name, parts.path].filter((n): n is string => !!n);
  return { ...p, name: named.join(', '), urlKind: 'url', with: (v) => withSplitUrl(request, parts, String(v)) };
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
    'a time as its GraphQL variable (the others keep key 1\'s values), and waits briefly for the target to call it. A host argument ' +
    'with scheme, port or path arguments beside it (a URL the server joins from parts) gets the listener\'s host while those get its ' +
    'scheme, port and path in the same request. Finding when the ' +
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
      if (!fresh) return null;
      const parts = p0.urlKind === 'host' ? splitUrl(ep, p0.name) : null;
      // The request the fresh point belongs to: its own value put back in.
      const pathAllowed = (r: PreparedRequest) => fileWriteRefusal(ep, r, ctx.options) === null;
      return parts ? splitPoint({ ...fresh, urlKind: p0.urlKind }, parts, fresh.with(fresh.value), pathAllowed) : { ...fresh, urlKind: p0.urlKind };
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
        listener: h.url,
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
