// Undocumented-endpoint discovery (API9) and framework debug consoles (API8) on the Acme target and on
// small hand-written servers: each finds its flaw, stays silent on the hardened twin and on servers
// that answer every path alike, keeps within the discovery budget; and the API9 precision rules
// (the API's own docs are info, an Allow header alone proves no method) each with a trap.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { debugConsole } from '../../electron/scanner/checks/api8-misconfiguration/debug-console';
import { undocumentedEndpoints } from '../../electron/scanner/checks/api9-inventory/discovery';
import { exposedDocs } from '../../electron/scanner/checks/api9-inventory/exposed-docs';
import { oldVersions } from '../../electron/scanner/checks/api9-inventory/old-versions';
import { undocumentedBehaviour } from '../../electron/scanner/checks/api9-inventory/undocumented-behaviour';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { scanChecks } from '../helpers/check-scan';
import type { Target } from '../targets';
import { endpoint, expectWellFormed, expectWithinBudget, hardened, scanServer, targetWith } from './check-harness';

const DISCOVERY = [undocumentedEndpoints, debugConsole, oldVersions];
/** What discovery may add to a whole scan (issue 16's budget). */
const ISSUE_BUDGET = 300;
const ONLY = ['DELETE /users/{userId}', 'GET /me', 'GET /orders', 'GET /orders/{orderId}', 'GET /products/{productId}', 'GET /notes'];

const open: { close(): unknown }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function target(t: Promise<Target>): Promise<Target> {
  const x = await t;
  open.push(x);
  return x;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function serve(handler: Handler): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths };
}

const send = (res: http.ServerResponse, status: number, body: unknown, type = 'application/json', headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': type, ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};
const NOT_FOUND = (res: http.ServerResponse) => send(res, 404, { detail: 'The requested URL was not found on the server.', status: 404, title: 'Not Found' }, 'application/problem+json');
const KEYS = { 1: 'tok-a-5f1e2d3c4b5a69788796a5b4', 2: 'tok-b-0a1b2c3d4e5f60718293a4b5' };
const atLeastLow = (fs: BuiltFinding[]) => fs.filter((f) => f.severity !== 'info');
const sentBy = (outcome: { requestsByCheck: Record<string, number> }, ids: string[]) => ids.reduce((n, id) => n + (outcome.requestsByCheck[id] ?? 0), 0);

describe('undocumented endpoints on the Acme target', () => {
  it('finds the collection route of an item route and a backup file, with proof and within budget', async () => {
    const t = await target(targetWith('undocumented-collection', 'backup-file'));
    const s = await scanChecks(t, DISCOVERY, { only: ONLY });
    expect(s.outcome.status).toBe('completed');
    const found = s.of(undocumentedEndpoints).map((f) => [f.vulnerability_name, f.method, f.path, f.severity, f.confidence]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['Undocumented route answers with data', 'GET', '/api/v2/users', 'medium', 'medium'],
        ['Backup or dump file served', 'GET', '/backup.sql', 'high', 'high'],
      ]),
    );
    expect(found).toHaveLength(2);
    const collection = s.of(undocumentedEndpoints).find((f) => f.path === '/api/v2/users')!;
    expect(collection.evidence).toMatch(/Control: a random path at the same place/);
    expect(collection.evidence).toMatch(/> GET \/api\/v2\/portcullis-[0-9a-f]+\n/);
    expect(collection.cvss_vector).toContain('PR:L');
    expect(s.of(undocumentedEndpoints).find((f) => f.path === '/backup.sql')!.cvss_vector).toContain('PR:N');
    expectWellFormed(s, s.of(undocumentedEndpoints));
    expectWithinBudget(s, DISCOVERY);
  });

  it('finds a framework debug console (API8)', async () => {
    const t = await target(targetWith('debug-console'));
    const s = await scanChecks(t, [debugConsole], { only: ['GET /me'] });
    expect(s.of(debugConsole).map((f) => [f.vulnerability_name, f.path, f.severity, f.owasp])).toEqual([['Werkzeug debugger console exposed', '/console', 'high', 'API8:2023']]);
    expectWellFormed(s, s.of(debugConsole));
  });

  it('stays silent on the hardened twin and adds at most the issue budget to a whole scan', async () => {
    const t = await target(hardened());
    const s = await scanChecks(t, DISCOVERY);
    expect(s.outcome.status).toBe('completed');
    expect(s.findings.map((f) => `${f.check_id} ${f.path}`)).toEqual([]);
    expectWithinBudget(s, DISCOVERY);
    expect(sentBy(s.outcome, DISCOVERY.map((c) => c.id))).toBeLessThanOrEqual(ISSUE_BUDGET);
    expect(undocumentedEndpoints.budget + debugConsole.budget + oldVersions.budget).toBeLessThanOrEqual(ISSUE_BUDGET);
  });

  it('stays within the issue budget on the vulnerable target with every endpoint', async () => {
    const t = await target(targetWith('undocumented-collection', 'backup-file', 'debug-console', 'old-version', 'admin-path-variants'));
    const s = await scanChecks(t, DISCOVERY);
    expect(sentBy(s.outcome, DISCOVERY.map((c) => c.id))).toBeLessThanOrEqual(ISSUE_BUDGET);
    expect(s.of(oldVersions).map((f) => f.vulnerability_name)).toContain('Old API version still answering: /api/v1/');
    expect(s.of(oldVersions).every((f) => f.path.startsWith('/api/v1/') && f.path !== '/api/v1/')).toBe(true);
    // The old version is the old-version check's finding, the admin console's content api5's: not reported twice.
    expect(s.of(undocumentedEndpoints).map((f) => f.path)).not.toContain('/admin');
    expect(s.of(undocumentedEndpoints).filter((f) => /\/api\/v1\//.test(f.path))).toEqual([]);
  });
});

describe('servers that answer every path alike', () => {
  it.each<[string, Handler]>([
    ['a catch-all 200 JSON echo', (req, res) => send(res, 200, { ok: true, path: req.url, served: 'catch-all' })],
    ['an SPA index for every path', (_req, res) => send(res, 200, '<!doctype html><html><head><title>Shop</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>', 'text/html')],
    ['a login redirect for every path', (_req, res) => send(res, 302, '', 'text/plain', { location: '/login' })],
  ])('reports nothing on %s', async (_name, handler) => {
    const { url, paths } = await serve(handler);
    const { findings, outcome } = await scanServer(url, [endpoint('GET', '/items/{id}'), endpoint('GET', '/v2/orders')], [undocumentedEndpoints, debugConsole], KEYS);
    expect(findings.map((f) => `${f.check_id} ${f.path} ${f.severity}`)).toEqual([]);
    expect(paths.some((p) => p.startsWith('GET /backup.sql'))).toBe(true);
    expect(outcome.requestsByCheck[undocumentedEndpoints.id]).toBeLessThanOrEqual(undocumentedEndpoints.budget);
  });

  it('reports a protected admin route as info only, and an open one as medium', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/internal') return send(res, 401, { error: 'unauthorized' });
      if (req.url === '/manage') return send(res, 200, { users: [{ id: 1, name: 'ann' }], jobs: 3 });
      if (req.url === '/items/7') return send(res, 200, { id: 7, name: 'seven' });
      return NOT_FOUND(res);
    });
    const { findings } = await scanServer(url, [endpoint('GET', '/items/{id}')], [undocumentedEndpoints], KEYS);
    expect(findings.map((f) => [f.vulnerability_name, f.path, f.severity]).sort()).toEqual([
      ['Undocumented admin route answers', '/manage', 'medium'],
      ['Undocumented route exists but refuses', '/internal', 'info'],
    ]);
  });

  it('finds plural/singular and item siblings from the spec', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/api/books') return send(res, 200, { books: [{ id: 41, title: 'Dune' }] });
      if (req.url === '/api/books/41') return send(res, 200, { id: 41, title: 'Dune', secret: 'first edition' });
      if (req.url === '/api/author/3') return send(res, 200, { id: 3, name: 'Frank', email: 'frank@example.net' });
      if (req.url === '/api/authors/3') return send(res, 200, { id: 3, name: 'Frank' });
      return NOT_FOUND(res);
    });
    const eps = [endpoint('GET', '/books'), endpoint('GET', '/authors/{id}', { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', example: 3 } }] })];
    const { findings } = await scanServer(`${url}/api`, eps, [undocumentedEndpoints], KEYS);
    const f = findings.find((x) => x.vulnerability_name === 'Undocumented route answers with data');
    expect(f?.evidence).toMatch(/GET \/api\/books\/41: HTTP 200/);
    expect(f?.evidence).toMatch(/GET \/api\/author\/3: HTTP 200/);
    expect(atLeastLow(findings)).toHaveLength(1);
  });

  it('reports a newer undocumented version that answers (old-version check)', async () => {
    const { url } = await serve((req, res) => (/^\/v[23]\/orders$/.test(req.url ?? '') ? send(res, 200, [{ id: 1, total: 5 }]) : NOT_FOUND(res)));
    const { findings } = await scanServer(url, [endpoint('GET', '/v2/orders')], [oldVersions], KEYS);
    expect(findings.map((f) => [f.vulnerability_name, f.path])).toEqual([['Undocumented newer API version answering: /v3/', '/v3/orders']]);
  });
});

describe('API9 precision', () => {
  const own = (extra: Record<string, unknown> = {}) => ({ openapi: '3.0.1', info: { title: 'Books', version: '1' }, paths: { '/books': { get: {} }, '/books/{id}': { get: {} }, ...extra } });

  it('the API\'s own documentation at its address is info; docs that reveal more stay low and list what', async () => {
    const docsServer = (doc: unknown) =>
      serve((req, res) => {
        if (req.url === '/openapi.json') return send(res, 200, doc);
        if (req.url === '/docs') return send(res, 200, '<html><head><title>Books - Swagger UI</title></head><body><div id="swagger-ui"></div><script>SwaggerUIBundle({url: "/openapi.json"})</script></body></html>', 'text/html');
        return req.url?.startsWith('/books') ? send(res, 200, []) : NOT_FOUND(res);
      });
    const eps = [endpoint('GET', '/books'), endpoint('GET', '/books/{id}')];
    const a = await docsServer(own());
    const ownDocs = await scanServer(a.url, eps, [exposedDocs], KEYS);
    expect(ownDocs.findings.map((f) => [f.vulnerability_name, f.path, f.severity])).toEqual([['API documentation exposed', '/openapi.json', 'info']]);
    expect(ownDocs.findings[0]!.evidence).toMatch(/GET \/docs: an interactive documentation page/);
    const b = await docsServer(own({ '/internal/export': { post: {} } }));
    const more = await scanServer(b.url, eps, [exposedDocs], KEYS);
    expect(more.findings.map((f) => [f.path, f.severity])).toEqual([['/openapi.json', 'low']]);
    expect(more.findings[0]!.description).toContain('/internal/export');
  });

  it('an Allow header that lists GET is not proof; a GET that then succeeds is', async () => {
    const allowServer = (getWorks: boolean) =>
      serve((req, res) => {
        if (req.url !== '/login') return NOT_FOUND(res);
        if (req.method === 'OPTIONS') return send(res, 200, '', 'text/html', { allow: 'HEAD, GET, POST, OPTIONS, DELETE' });
        if (req.method === 'POST') return send(res, 200, { token: 'x' });
        // Like Flask: GET /login reaches another route's handler (/{username}) and finds no such user.
        return getWorks ? send(res, 200, { sessions: [{ user: 'ann', ip: '10.0.0.7' }] }) : send(res, 404, { status: 'fail', message: 'User not found' });
      });
    const eps = [endpoint('POST', '/login', { request_body: { required: true, content_type: 'application/json', schema: { type: 'object', properties: { u: { type: 'string' } } } } })];
    const trap = await allowServer(false);
    const quiet = await scanServer(trap.url, eps, [undocumentedBehaviour], KEYS);
    expect(quiet.findings.filter((f) => f.parameter === 'undocumented-methods')).toEqual([]);
    expect(trap.paths).toContain('GET /login');
    const real = await allowServer(true);
    const loud = await scanServer(real.url, eps, [undocumentedBehaviour], KEYS);
    expect(loud.findings.filter((f) => f.parameter === 'undocumented-methods').map((f) => [f.vulnerability_name, f.severity])).toEqual([['Undocumented methods answer', 'low']]);
  });
});
