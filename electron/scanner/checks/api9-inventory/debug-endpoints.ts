// API9:2023 Improper Inventory Management: debug, metrics and environment surfaces, and GraphQL
// introspection left on.


import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { cvssScore } from '../../cvss';
import { apiWideFinding, defineCheck, forEachLimit, type Hit } from '../common/helpers';
import { graphqlAnswer, graphqlPaths } from '../common/graphql';
import { AS_KEY1 } from '../common/input-points';
import { ANON, originUrl, prefixes } from './paths';
import { OWASP_API9, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import type { FindingDraft } from '../types';


// ---------------------------------------------------------------- old versions
// ---------------------------------------------------------------- exposed docs

export function pseudoEndpoint(path: string): Endpoint {
  return { id: `pseudo:${path}`, method: 'GET', path, summary: '', flags: [], operation_id: null, tags: [], parameters: [], request_body: null, responses: {}, security: [] };
}

// ---------------------------------------------------------------- debug and monitoring surfaces

interface Surface {
  family: string;
  name: string;
  /** What it gives away: secrets (high), internals (medium) or a little (low). */
  cvss: string;
  path: string;
  test(ex: Exchange): string | null;
}

const SECRETS = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N';
const INTERNALS = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N';
const LITTLE = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N';

function jsonObject(ex: Exchange): Record<string, unknown> | null {
  const v = ex.json();
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

const SURFACES: Surface[] = [
  { family: 'actuator', name: 'Spring Boot actuator exposed', cvss: INTERNALS, path: '/actuator', test: (ex) => (jsonObject(ex)?._links && typeof jsonObject(ex)!._links === 'object' ? 'actuator index with links' : null) },
  { family: 'actuator', name: 'Spring Boot actuator exposed', cvss: SECRETS, path: '/actuator/env', test: (ex) => (Array.isArray(jsonObject(ex)?.propertySources) || Array.isArray(jsonObject(ex)?.activeProfiles) ? 'environment and configuration properties' : null) },
  { family: 'actuator', name: 'Spring Boot actuator exposed', cvss: LITTLE, path: '/actuator/health', test: (ex) => (typeof jsonObject(ex)?.status === 'string' && (jsonObject(ex)?.components || jsonObject(ex)?.details) ? 'health details of components' : null) },
  { family: 'actuator', name: 'Spring Boot actuator exposed', cvss: INTERNALS, path: '/actuator/mappings', test: (ex) => (jsonObject(ex)?.contexts && typeof jsonObject(ex)!.contexts === 'object' ? 'every request mapping' : null) },
  { family: 'metrics', name: 'Metrics endpoint exposed', cvss: LITTLE, path: '/metrics', test: (ex) => (ex.ok && (ex.body.match(/^# (HELP|TYPE) [a-zA-Z_:][\w:]* /gm) ?? []).length >= 2 ? 'Prometheus metrics' : null) },
  { family: 'debug-vars', name: 'Debug variables exposed', cvss: INTERNALS, path: '/debug/vars', test: (ex) => (Array.isArray(jsonObject(ex)?.cmdline) && jsonObject(ex)?.memstats ? 'expvar: command line and memory statistics' : null) },
  { family: 'pprof', name: 'Profiler exposed', cvss: INTERNALS, path: '/debug/pprof/', test: (ex) => (ex.ok && /Types of profiles available|\/debug\/pprof\/(goroutine|heap)\b/.test(ex.body) ? 'pprof profiles' : null) },
  { family: 'server-status', name: 'Server status page exposed', cvss: LITTLE, path: '/server-status', test: (ex) => (ex.ok && /Apache Server Status for|Server Version: Apache/.test(ex.body) ? 'Apache server-status' : null) },
  { family: 'env-file', name: 'Environment file exposed', cvss: SECRETS, path: '/.env', test: (ex) => (ex.ok && (ex.body.match(/^[A-Z][A-Z0-9_]{2,}=.+$/gm) ?? []).length >= 2 && /^[A-Z0-9_]*(SECRET|PASSWORD|PASSWD|TOKEN|KEY|DATABASE_URL)[A-Z0-9_]*=/m.test(ex.body) ? '.env file with secrets' : null) },
  { family: 'phpinfo', name: 'phpinfo() exposed', cvss: LITTLE, path: '/phpinfo.php', test: (ex) => (ex.ok && /<title>phpinfo\(\)<\/title>|PHP Version \d+\.\d+/.test(ex.body) ? 'phpinfo() output' : null) },
];

export const debugEndpoints = defineCheck({
  id: 'api9-debug-endpoints',
  title: 'Debug and monitoring endpoints exposed',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-215',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  protocols: ['rest', 'graphql'],
  budget: 3 * SURFACES.length,
  description:
    'Asks, without credentials, for well-known debug and monitoring paths at the origin root and under each level of the base path: Spring ' +
    'Boot actuator (index, env, health, mappings), Prometheus /metrics, Go /debug/vars and /debug/pprof/, Apache server-status, .env, ' +
    'phpinfo. Finding when the answer has that surface\'s content (actuator links or property sources, metric families, expvar fields...), ' +
    'one finding per kind of surface.',
  remediation:
    'Do not expose management endpoints on the public listener: bind them to an internal port or network, require authentication, and ' +
    'expose only what monitoring needs (e.g. management.endpoints.web.exposure.include=health without details).',
  references: [OWASP_API9, 'https://cwe.mitre.org/data/definitions/215.html', 'https://docs.spring.io/spring-boot/reference/actuator/endpoints.html'],
  async *run(ctx) {
    const found = new Map<string, { surface: Surface; hits: Hit[] }>();
    const jobs = prefixes(ctx).flatMap((prefix) => SURFACES.map((surface) => ({ prefix, surface })));
    await forEachLimit(jobs, ctx.parallelism, async ({ prefix, surface }) => {
      if (ctx.budgetLeft() <= 0) return;
      const path = `${prefix}${surface.path}`;
      if (ctx.skips('GET', originUrl(ctx, path))) return;
      const ex = await ctx.send({ method: 'GET', url: originUrl(ctx, path), auth: ANON, followRedirects: false });
      const what = ex.ok ? surface.test(ex) : null;
      if (!what) return;
      const entry = found.get(surface.family) ?? { surface, hits: [] };
      if (cvssScore(surface.cvss) > cvssScore(entry.surface.cvss)) entry.surface = surface;
      entry.hits.push({ endpoint: pseudoEndpoint(path), exchange: ex, detail: what });
      found.set(surface.family, entry);
    });
    for (const [family, { surface, hits }] of found) {
      hits.sort((a, b) => a.endpoint.path.length - b.endpoint.path.length);
      const f = apiWideFinding(
        {
          id: `debug-${family}`,
          name: surface.name,
          confidence: 'high',
          cvss: surface.cvss,
          description:
            `Debug or monitoring endpoints answer without credentials (${[...new Set(hits.map((h) => h.detail))].join('; ')}). They reveal ` +
            'internals — configuration, environment, routes, memory, command lines — that help an attacker, and some allow actions.',
          recommendation: ctx.check.remediation,
        },
        hits,
      );
      yield { ...f, method: 'GET', path: hits[0]!.endpoint.path };
    }
  },
});

// ---------------------------------------------------------------- GraphQL introspection

const INTROSPECTION = 'query PortcullisIntrospection { __schema { queryType { name } types { name kind } } }';
/** GraphQL paths of the scan probed first (a few: every operation of one endpoint shares its path). */
const KNOWN_PATHS = 3;

type ProbeAuth = typeof ANON | typeof AS_KEY1;

export const graphqlIntrospection = defineCheck({
  id: 'api9-graphql-introspection',
  title: 'GraphQL introspection enabled',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-200',
  confidence: 'high',
  // Low: the schema maps the API but is no attack by itself (AC:H).
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  protocols: ['rest', 'graphql'],
  // Applies to every GraphQL operation (their endpoint is where introspection answers) and to REST endpoints flagged IIM.
  appliesTo: (e) => e.flags.includes('IIM') || !!e.graphql,
  budget: 18 + 2 * KNOWN_PATHS,
  description:
    'Sends an introspection query (__schema) first to the paths of the scan\'s GraphQL operations (a JSON POST without credentials, then ' +
    'as key 1 where refused), then to the usual GraphQL paths (/graphql, /api/graphql, under the base path, /v1/graphql, /query) without ' +
    'credentials (key 1 where refused), by GET, and by POST only where a GraphQL server answered the GET without taking it. Finding when ' +
    'the answer lists the schema\'s types.',
  coverage:
    'Only the introspection meta-fields (__schema) are asked; a server that refuses them but leaks names through "Did you mean" ' +
    'suggestions is api8-graphql-field-suggestions\'s finding. GraphQL endpoints at paths neither imported nor among the usual ones are not found.',
  techniques: ['API9.graphql-introspection'],
  remediation: 'Disable introspection in production (and field suggestions), or restrict it to authenticated developers; document the schema deliberately.',
  references: [OWASP_API9, 'https://graphql.org/learn/introspection/', OWASP_GRAPHQL_CHEAT_SHEET],
  async *run(ctx) {
    // The scan's own GraphQL endpoints first: their path is known, and POST with JSON is what every GraphQL server takes.
    const known = graphqlPaths(ctx.allEndpoints).slice(0, KNOWN_PATHS).map((path) => ({ path, url: ctx.url(path).href }));
    const sent = new Set<string>();
    for (const { path, url } of known) {
      if (ctx.budgetLeft() <= 0) return;
      sent.add(url);
      const post = (auth: ProbeAuth) => ctx.send({ method: 'POST', url, auth, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ query: INTROSPECTION }) });
      let ex = await post(ANON);
      // A refusal may be the server's answer to anonymous callers only (401, 403, or a GraphQL error).
      if (!introspected(ex) && refused(ex) && ctx.budgetLeft() > 0) ex = await post(AS_KEY1);
      if (introspected(ex)) {
        yield introspectionFinding(path, ex);
        return;
      }
    }
    const guesses = [...new Set(['/graphql', '/api/graphql', ...prefixes(ctx).map((p) => `${p}/graphql`), '/v1/graphql', '/query'])];
    for (const path of guesses) {
      if (ctx.budgetLeft() <= 0) return;
      if (sent.has(originUrl(ctx, path))) continue;
      // GET first (a read); POST only where a GraphQL server answered but wants POST.
      const get = (auth: ProbeAuth) =>
        ctx.send({ method: 'GET', url: `${originUrl(ctx, path)}?query=${encodeURIComponent(INTROSPECTION)}`, auth, headers: { 'apollo-require-preflight': 'true' } });
      const post = (auth: ProbeAuth) =>
        ctx.send({ method: 'POST', url: originUrl(ctx, path), auth, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: INTROSPECTION }) });
      let ex = await get(ANON);
      if ((ex.status === 401 || ex.status === 403) && ctx.budgetLeft() > 0) ex = await get(AS_KEY1);
      if (!introspected(ex) && graphqlServer(ex) && ctx.budgetLeft() > 0) {
        const auth = ex.request.auth.kind === 'none' ? ANON : AS_KEY1;
        ex = await post(auth);
      }
      if (!introspected(ex)) continue;
      yield introspectionFinding(path, ex);
      return;
    }
  },
});

function introspectionFinding(path: string, ex: Exchange): FindingDraft {
  const types = schemaTypeNames(ex);
  const custom = types.filter((n) => !n.startsWith('__') && !['String', 'Int', 'Float', 'Boolean', 'ID'].includes(n));
  const anonymous = ex.request.auth.kind === 'none';
  return {
    endpoint: null,
    method: 'POST',
    path,
    parameter: 'introspection',
    // Key 1 was needed: any signed-in user maps the API (PR:L).
    ...(anonymous ? {} : { cvss: 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:L/I:N/A:N' }),
    description:
      `The GraphQL endpoint ${path} answers introspection queries${anonymous ? ' without credentials' : ' (as key 1)'}: it listed ` +
      `${types.length} types (${custom.slice(0, 8).join(', ')}${custom.length > 8 ? ', ...' : ''}). The whole schema — every query, mutation and ` +
      'field, including ones the clients never use — is available to map attacks.',
    exchanges: [{ label: 'Attack: introspection query', exchange: ex }],
    reproduce: ex,
  };
}

/** The type names an introspection answer listed. */
function schemaTypeNames(ex: Exchange): string[] {
  const types = (jsonObject(ex)?.data as { __schema?: { types?: unknown } } | null | undefined)?.__schema?.types;
  return Array.isArray(types) ? types.map((t) => (t as { name?: unknown } | null)?.name).filter((n): n is string => typeof n === 'string') : [];
}

/** Introspection was refused in a way another identity might not be: 401/403, or a GraphQL answer with errors and no schema. */
function refused(ex: Exchange): boolean {
  if (ex.status === 401 || ex.status === 403) return true;
  const a = graphqlAnswer(ex);
  return !!a && a.errors.length > 0;
}

function introspected(ex: Exchange): boolean {
  return ex.ok && schemaTypeNames(ex).length > 0;
}

/** A GraphQL server that did not take the GET: a GraphQL-shaped error, or 405 with POST allowed. */
function graphqlServer(ex: Exchange): boolean {
  if (!ex.response || ex.status === 404 || ex.status >= 500) return false;
  if (ex.status === 405) return /post/i.test(ex.header('allow') ?? '');
  const errors = jsonObject(ex)?.errors;
  return Array.isArray(errors) || /graphql|must provide query|query string|csrf/i.test(ex.body.slice(0, 2000));
}
