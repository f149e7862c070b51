// API9:2023 Improper Inventory Management: old API versions still answering, documentation and
// debug surfaces exposed, GraphQL introspection, and behaviour the spec does not document (status
// codes, methods). The spec is the inventory: anything answering outside it is the finding.

import type { Endpoint } from '../../../shared/contract';
import { randomHex } from '../random';
import { mutate, pathParamNames } from '../requests';
import { normalizeTemplate } from '../resources';
import { compareBodies } from '../similarity';
import type { Exchange } from '../http/exchange';
import { apiWideFinding, defineCheck, forEachLimit, type Hit } from './helpers';
import { AS_KEY1, injectionPoints } from './input-points';
import type { CheckContext, FindingDraft } from './types';

const OWASP_API9 = 'https://owasp.org/API-Security/editions/2023/en/0xa9-improper-inventory-management/';
const ANON = { kind: 'none' } as const;

/** The origin root and every ancestor of the base path ("", "/api", "/api/v2"). */
function prefixes(ctx: CheckContext): string[] {
  const base = ctx.url('/');
  const segs = base.pathname.split('/').filter(Boolean);
  const out = [''];
  for (let i = 1; i <= segs.length; i += 1) out.push(`/${segs.slice(0, i).join('/')}`);
  return [...new Set(out)];
}

function originUrl(ctx: CheckContext, path: string): string {
  return `${ctx.url('/').origin}${path}`;
}

/** The full path template of every documented operation (base path included), normalised. */
function documentedPaths(ctx: CheckContext): Set<string> {
  const basePath = ctx.url('/').pathname.replace(/\/+$/, '');
  return new Set(ctx.allEndpoints.map((e) => normalizeTemplate(`${basePath}${e.path}`)));
}

function matchesDocumented(documented: Set<string>, pathname: string): boolean {
  const segs = pathname.replace(/\/+$/, '').split('/');
  for (const t of documented) {
    const ts = t.split('/');
    if (ts.length === segs.length && ts.every((s, i) => s === '{}' || s === segs[i])) return true;
  }
  return false;
}

// ---------------------------------------------------------------- old versions

const VERSION = /\/v(\d+)(?=\/|$)/;

function similarShape(a: Exchange, b: Exchange): boolean {
  if (a.status !== b.status) return false;
  const s = compareBodies(a, b);
  return s.json ? s.structure >= 0.8 : s.values >= 0.8;
}

export const oldVersions = defineCheck({
  id: 'api9-old-version-alive',
  title: 'Old API version still answering',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-1059',
  severity: 'medium',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:L/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 12,
  description:
    'For documented paths with a version segment (/v2/...), sends key 1\'s request for up to three reads to the earlier ' +
    'versions (/v1/...) that the spec does not document, and to a version that cannot exist (/v999/) as a control. Finding when an earlier ' +
    'version answers like the documented one (same status, same shape of body) while the made-up version does not: an undocumented version ' +
    'is alive.',
  remediation:
    'Keep an inventory of every deployed API version; retire old versions (or route them to the same hardened code), and document and ' +
    'protect those that must stay, with the same authentication, rate limits and fixes as the current one.',
  references: [OWASP_API9, 'https://cwe.mitre.org/data/definitions/1059.html', 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/'],
  async *run(ctx) {
    const documented = documentedPaths(ctx);
    // Reads only: nothing is written through an undocumented version.
    const versioned = ctx.endpoints
      .filter((e) => VERSION.test(ctx.url(e.path).pathname) && e.method === 'GET')
      .sort((a, b) => pathParamNames(a.path).length - pathParamNames(b.path).length);
    const alive = new Map<string, Hit[]>();
    let tried = 0;
    for (const endpoint of versioned) {
      if (tried >= 3 || ctx.budgetLeft() < 2) break;
      const baseline = await ctx.baseline('key1', endpoint);
      const request = await ctx.baselineRequest(endpoint);
      if (!baseline?.response || baseline.status >= 500 || baseline.status === 404 || !request) continue;
      tried += 1;
      const current = Number(VERSION.exec(request.url.pathname)![1]);
      const at = (v: string) => mutate(request, { path: request.url.pathname.replace(VERSION, `/${v}`) });
      const control = await ctx.sendPrepared(at('v999'), AS_KEY1);
      if (similarShape(control, baseline)) continue;
      for (const older of [current - 1, current - 2].filter((v, i, a) => v >= 0 && a.indexOf(v) === i)) {
        if (ctx.budgetLeft() <= 0) break;
        const req = at(`v${older}`);
        if (matchesDocumented(documented, req.url.pathname)) continue;
        const ex = await ctx.sendPrepared(req, AS_KEY1);
        if (!similarShape(ex, baseline) || ex.status >= 400) continue;
        const label = request.url.pathname.replace(VERSION, `/v${older}`).replace(new RegExp(`(/v${older}).*`), '$1/');
        const list = alive.get(label) ?? [];
        const deprecation = ex.header('deprecation') || ex.header('sunset') ? ' (marked deprecated)' : '';
        list.push({ endpoint, exchange: ex, detail: `${ex.request.method} ${new URL(ex.request.url).pathname} answered HTTP ${ex.status} like v${current}${deprecation}; /v999/ answered ${control.status}` });
        alive.set(label, list);
      }
    }
    for (const [label, hits] of alive) {
      const f = apiWideFinding(
        {
          id: `old-version ${label}`,
          name: `Old API version still answering: ${label}`,
          severity: 'medium',
          confidence: 'high',
          description:
            `Requests to ${label} — a version the spec does not document — are served like the documented version, while a made-up version ` +
            'is refused. Old versions often lack the fixes, authentication and rate limits of the current one, and nobody watches them.',
          recommendation: ctx.check.remediation,
        },
        hits,
      );
      yield { ...f, method: 'GET', path: label };
    }
  },
});

// ---------------------------------------------------------------- exposed docs

const SPEC_PATHS = ['/openapi.json', '/swagger.json', '/v3/api-docs', '/v2/api-docs', '/api-docs', '/swagger/v1/swagger.json', '/openapi.yaml', '/swagger.yaml'];
const UI_PATHS = ['/swagger-ui.html', '/swagger-ui/', '/swagger/', '/docs', '/redoc', '/api-docs/'];

function isSpec(ex: Exchange): boolean {
  if (!ex.ok) return false;
  const v = ex.json() as Record<string, unknown> | undefined;
  if (v && typeof v === 'object' && !Array.isArray(v)) return (typeof v.openapi === 'string' || typeof v.swagger === 'string') && !!v.paths && typeof v.paths === 'object';
  return /^\s*["']?(openapi|swagger)["']?\s*:\s*["']?\d/m.test(ex.body) && /^["']?paths["']?\s*:/m.test(ex.body);
}

function isDocsUi(ex: Exchange): boolean {
  return ex.ok && /html/i.test(ex.contentType) && /(swagger-ui|SwaggerUIBundle|<redoc|redoc\.standalone|rapi-doc|<title>[^<]*(swagger|api docs|redoc)[^<]*<\/title>)/i.test(ex.body.slice(0, 50_000));
}

export const exposedDocs = defineCheck({
  id: 'api9-exposed-docs',
  title: 'API documentation exposed',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-200',
  severity: 'low',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 3 * (SPEC_PATHS.length + UI_PATHS.length),
  description:
    'Asks, without credentials, for the usual documentation paths (openapi.json, swagger.json, v3/api-docs, swagger-ui.html, docs, redoc...) at ' +
    'the origin root and under each level of the base path. Finding when one answers with an OpenAPI/Swagger document (an object with ' +
    '`openapi`/`swagger` and `paths`) or a Swagger UI / ReDoc page; a catch-all 200 does not count.',
  remediation:
    'Publish API documentation deliberately: keep it off production hosts or behind authentication, and make sure it documents exactly ' +
    'what is meant to be public (no internal or deprecated operations).',
  references: [OWASP_API9, 'https://cwe.mitre.org/data/definitions/200.html'],
  async *run(ctx) {
    const hits: Hit[] = [];
    for (const prefix of prefixes(ctx)) {
      for (const [paths, test, what] of [
        [SPEC_PATHS, isSpec, 'an OpenAPI/Swagger document'],
        [UI_PATHS, isDocsUi, 'an interactive documentation page'],
      ] as const) {
        for (const p of paths) {
          if (ctx.budgetLeft() <= 0) break;
          const ex = await ctx.send({ method: 'GET', url: originUrl(ctx, `${prefix}${p}`), auth: ANON });
          if (!test(ex)) continue;
          hits.push({ endpoint: pseudoEndpoint(`${prefix}${p}`), exchange: ex, detail: `${what} (HTTP ${ex.status}, ${ex.contentType || 'no type'})` });
          break;
        }
      }
    }
    if (!hits.length) return;
    const f = apiWideFinding(
      {
        id: 'exposed-docs',
        name: 'API documentation exposed',
        severity: 'low',
        confidence: 'high',
        description:
          'API documentation is served to anyone without credentials. It maps every operation and parameter for an attacker — including ' +
          'any the owners did not mean to publish.',
        recommendation: ctx.check.remediation,
      },
      hits,
    );
    yield { ...f, method: 'GET', path: new URL(hits[0]!.exchange.request.url).pathname };
  },
});

function pseudoEndpoint(path: string): Endpoint {
  return { id: `pseudo:${path}`, method: 'GET', path, summary: '', flags: [], operation_id: null, tags: [], parameters: [], request_body: null, responses: {}, security: [] };
}

// ---------------------------------------------------------------- debug and monitoring surfaces

interface Surface {
  family: string;
  name: string;
  severity: 'high' | 'medium' | 'low';
  path: string;
  test(ex: Exchange): string | null;
}

function jsonObject(ex: Exchange): Record<string, unknown> | null {
  const v = ex.json();
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

const SURFACES: Surface[] = [
  { family: 'actuator', name: 'Spring Boot actuator exposed', severity: 'medium', path: '/actuator', test: (ex) => (jsonObject(ex)?._links && typeof jsonObject(ex)!._links === 'object' ? 'actuator index with links' : null) },
  { family: 'actuator', name: 'Spring Boot actuator exposed', severity: 'high', path: '/actuator/env', test: (ex) => (Array.isArray(jsonObject(ex)?.propertySources) || Array.isArray(jsonObject(ex)?.activeProfiles) ? 'environment and configuration properties' : null) },
  { family: 'actuator', name: 'Spring Boot actuator exposed', severity: 'low', path: '/actuator/health', test: (ex) => (typeof jsonObject(ex)?.status === 'string' && (jsonObject(ex)?.components || jsonObject(ex)?.details) ? 'health details of components' : null) },
  { family: 'actuator', name: 'Spring Boot actuator exposed', severity: 'medium', path: '/actuator/mappings', test: (ex) => (jsonObject(ex)?.contexts && typeof jsonObject(ex)!.contexts === 'object' ? 'every request mapping' : null) },
  { family: 'metrics', name: 'Metrics endpoint exposed', severity: 'low', path: '/metrics', test: (ex) => (ex.ok && (ex.body.match(/^# (HELP|TYPE) [a-zA-Z_:][\w:]* /gm) ?? []).length >= 2 ? 'Prometheus metrics' : null) },
  { family: 'debug-vars', name: 'Debug variables exposed', severity: 'medium', path: '/debug/vars', test: (ex) => (Array.isArray(jsonObject(ex)?.cmdline) && jsonObject(ex)?.memstats ? 'expvar: command line and memory statistics' : null) },
  { family: 'pprof', name: 'Profiler exposed', severity: 'medium', path: '/debug/pprof/', test: (ex) => (ex.ok && /Types of profiles available|\/debug\/pprof\/(goroutine|heap)\b/.test(ex.body) ? 'pprof profiles' : null) },
  { family: 'server-status', name: 'Server status page exposed', severity: 'low', path: '/server-status', test: (ex) => (ex.ok && /Apache Server Status for|Server Version: Apache/.test(ex.body) ? 'Apache server-status' : null) },
  { family: 'env-file', name: 'Environment file exposed', severity: 'high', path: '/.env', test: (ex) => (ex.ok && (ex.body.match(/^[A-Z][A-Z0-9_]{2,}=.+$/gm) ?? []).length >= 2 && /^[A-Z0-9_]*(SECRET|PASSWORD|PASSWD|TOKEN|KEY|DATABASE_URL)[A-Z0-9_]*=/m.test(ex.body) ? '.env file with secrets' : null) },
  { family: 'phpinfo', name: 'phpinfo() exposed', severity: 'low', path: '/phpinfo.php', test: (ex) => (ex.ok && /<title>phpinfo\(\)<\/title>|PHP Version \d+\.\d+/.test(ex.body) ? 'phpinfo() output' : null) },
];

const SEVERITY_RANK = { high: 3, medium: 2, low: 1 } as const;

export const debugEndpoints = defineCheck({
  id: 'api9-debug-endpoints',
  title: 'Debug and monitoring endpoints exposed',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-215',
  severity: 'medium',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
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
      const ex = await ctx.send({ method: 'GET', url: originUrl(ctx, path), auth: ANON, followRedirects: false });
      const what = ex.ok ? surface.test(ex) : null;
      if (!what) return;
      const entry = found.get(surface.family) ?? { surface, hits: [] };
      if (SEVERITY_RANK[surface.severity] > SEVERITY_RANK[entry.surface.severity]) entry.surface = surface;
      entry.hits.push({ endpoint: pseudoEndpoint(path), exchange: ex, detail: what });
      found.set(surface.family, entry);
    });
    for (const [family, { surface, hits }] of found) {
      hits.sort((a, b) => a.endpoint.path.length - b.endpoint.path.length);
      const f = apiWideFinding(
        {
          id: `debug-${family}`,
          name: surface.name,
          severity: surface.severity,
          confidence: 'high',
          cvss: surface.severity === 'high' ? 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N' : undefined,
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

export const graphqlIntrospection = defineCheck({
  id: 'api9-graphql-introspection',
  title: 'GraphQL introspection enabled',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-200',
  severity: 'low',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 18,
  description:
    'Sends an introspection query (__schema) to the usual GraphQL paths (/graphql, /api/graphql, under the base path, /v1/graphql, /query) ' +
    'without credentials (key 1 where refused), by GET, and by POST only where a GraphQL server answered the GET without taking it. ' +
    'Finding when the answer lists the schema\'s types.',
  remediation: 'Disable introspection in production (and field suggestions), or restrict it to authenticated developers; document the schema deliberately.',
  references: [OWASP_API9, 'https://graphql.org/learn/introspection/', 'https://cheatsheetseries.owasp.org/cheatsheets/GraphQL_Cheat_Sheet.html'],
  async *run(ctx) {
    const paths = [...new Set(['/graphql', '/api/graphql', ...prefixes(ctx).map((p) => `${p}/graphql`), '/v1/graphql', '/query'])];
    for (const path of paths) {
      if (ctx.budgetLeft() <= 0) return;
      // GET first (a read); POST only where a GraphQL server answered but wants POST.
      const get = (auth: typeof ANON | typeof AS_KEY1) =>
        ctx.send({ method: 'GET', url: `${originUrl(ctx, path)}?query=${encodeURIComponent(INTROSPECTION)}`, auth, headers: { 'apollo-require-preflight': 'true' } });
      const post = (auth: typeof ANON | typeof AS_KEY1) =>
        ctx.send({ method: 'POST', url: originUrl(ctx, path), auth, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: INTROSPECTION }) });
      let ex = await get(ANON);
      if ((ex.status === 401 || ex.status === 403) && ctx.budgetLeft() > 0) ex = await get(AS_KEY1);
      if (!introspected(ex) && graphqlServer(ex) && ctx.budgetLeft() > 0) {
        const auth = ex.request.auth.kind === 'none' ? ANON : AS_KEY1;
        ex = await post(auth);
      }
      const types = ((jsonObject(ex)?.data as { __schema?: { types?: { name?: string }[] } } | undefined)?.__schema?.types ?? []).filter((t) => typeof t?.name === 'string');
      if (!ex.ok || !types.length) continue;
      const custom = types.map((t) => t.name!).filter((n) => !n.startsWith('__') && !['String', 'Int', 'Float', 'Boolean', 'ID'].includes(n));
      yield {
        endpoint: null,
        method: 'POST',
        path,
        parameter: 'introspection',
        description:
          `The GraphQL endpoint ${path} answers introspection queries${ex.request.auth.kind === 'none' ? ' without credentials' : ''}: it listed ` +
          `${types.length} types (${custom.slice(0, 8).join(', ')}${custom.length > 8 ? ', ...' : ''}). The whole schema — every query, mutation and ` +
          'field, including ones the clients never use — is available to map attacks.',
        exchanges: [{ label: 'Attack: introspection query', exchange: ex }],
        reproduce: ex,
      };
      return;
    }
  },
});

function introspected(ex: Exchange): boolean {
  const types = (jsonObject(ex)?.data as { __schema?: { types?: unknown } } | undefined)?.__schema?.types;
  return ex.ok && Array.isArray(types) && types.length > 0;
}

/** A GraphQL server that did not take the GET: a GraphQL-shaped error, or 405 with POST allowed. */
function graphqlServer(ex: Exchange): boolean {
  if (!ex.response || ex.status === 404 || ex.status >= 500) return false;
  if (ex.status === 405) return /post/i.test(ex.header('allow') ?? '');
  const errors = jsonObject(ex)?.errors;
  return Array.isArray(errors) || /graphql|must provide query|query string|csrf/i.test(ex.body.slice(0, 2000));
}

// ---------------------------------------------------------------- undocumented behaviour

function declaredStatus(endpoint: Endpoint, status: number): boolean {
  const codes = Object.keys(endpoint.responses);
  if (!codes.length || codes.includes('default')) return true;
  const s = String(status);
  return codes.some((c) => c === s || (/^[1-5]xx$/i.test(c) && c[0] === s[0]));
}

function unknownValue(endpoint: Endpoint, name: string): string {
  const p = endpoint.parameters.find((x) => x.in === 'path' && x.name === name);
  const t = p?.schema?.type;
  if (t === 'integer' || t === 'number') return String(900_000_000 + Math.floor(Math.random() * 90_000_000));
  if (p?.schema?.format === 'uuid') return `${randomHex(4)}-${randomHex(2)}-4${randomHex(2).slice(1)}-8${randomHex(2).slice(1)}-${randomHex(6)}`;
  return `portcullis-missing-${randomHex(6)}`;
}

const NOT_METHODS = new Set(['HEAD', 'OPTIONS', 'TRACE', 'CONNECT']);

export const undocumentedBehaviour = defineCheck({
  id: 'api9-undocumented-behaviour',
  title: 'Undocumented status codes and methods',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-1059',
  severity: 'low',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:N/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 40,
  description:
    'Compares what the API does with what its spec declares: the status of every key-1 baseline (no extra request), the status for an id ' +
    'that does not exist on reads with one path parameter, and the Allow header of OPTIONS on each path. Finding (low) for success or ' +
    'redirect statuses the operation does not declare, and (lower confidence) for methods the server advertises but the spec does not ' +
    'document.',
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
      const ex = await ctx.sendPrepared(point.with(unknownValue(endpoint, name)), AS_KEY1);
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
            severity: 'low',
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
    // Methods the server advertises on a path (Allow) that the spec does not document there.
    const byPath = new Map<string, Endpoint[]>();
    for (const e of ctx.allEndpoints) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
    const methodHits: Hit[] = [];
    const paths = [...byPath.entries()].filter(([, list]) => list.some((e) => ctx.endpoints.includes(e))).slice(0, 20);
    await forEachLimit(paths, ctx.parallelism, async ([, list]) => {
      if (ctx.budgetLeft() <= 0) return;
      const endpoint = list.find((e) => e.method === 'GET') ?? list[0]!;
      const request = (await ctx.baselineRequest(endpoint)) ?? (await ctx.prepare(endpoint, 1, 'read'));
      if (!request) return;
      const ex = await ctx.sendPrepared(mutate(request, { method: 'OPTIONS', body: null, headers: { 'content-type': null } }), AS_KEY1);
      const allow = (ex.header('allow') ?? '').split(',').map((m) => m.trim().toUpperCase()).filter(Boolean);
      if (!ex.response || ex.status >= 400 || !allow.length) return;
      const declared = new Set(list.map((e) => e.method.toUpperCase()));
      const extra = allow.filter((m) => !declared.has(m) && !NOT_METHODS.has(m));
      if (extra.length) methodHits.push({ endpoint, exchange: ex, detail: `Allow: ${allow.join(', ')}; undocumented: ${extra.join(', ')}` });
    });
    if (methodHits.length) {
      findings.push(
        apiWideFinding(
          {
            id: 'undocumented-methods',
            name: 'Undocumented methods advertised',
            severity: 'low',
            confidence: 'low',
            description:
              'The server advertises (OPTIONS, Allow header) methods on documented paths that the spec does not document there. Undocumented ' +
              'handlers are often forgotten ones, without the checks of the documented operations. Advertised only: they were not called.',
            recommendation: ctx.check.remediation,
          },
          methodHits,
        ),
      );
    }
    for (const f of findings) yield f;
  },
});

export const IIM_CHECKS = [oldVersions, exposedDocs, debugEndpoints, graphqlIntrospection, undocumentedBehaviour];

