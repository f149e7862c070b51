// Route discovery (issue 28): routes the spec does not describe, found in robots.txt, directory listings,
// the scripts a page loads, links in answers and published descriptions, become endpoints every later check
// scans — shown as discovered in the coverage — within the phase's budget; and the readers each source
// needs, with their traps (a regex or a comment is not a route, another origin is not the API's).

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { noOrInvalidCredentials } from '../../electron/scanner/checks/api2-authentication/credentials-not-enforced';
import { undocumentedEndpoints } from '../../electron/scanner/checks/api9-inventory/discovery';
import { exposedFiles } from '../../electron/scanner/checks/api9-inventory/exposed-files';
import { openRedirect } from '../../electron/scanner/checks/api10-unsafe-consumption/redirects-and-webhooks';
import { bundlePaths, isStaticAsset } from '../../electron/scanner/route-discovery/bundle-paths';
import { discoveredEndpoint, templateOf } from '../../electron/scanner/route-discovery/discovered-endpoint';
import type { Exchange } from '../../electron/scanner/http/exchange';
import { fileKind, jsonListingNames } from '../../electron/scanner/route-discovery/listing';
import { jsonLinks, robotsPaths, sitemapPaths } from '../../electron/scanner/route-discovery/sources';
import { COMMON_PATHS } from '../../electron/scanner/route-discovery/common-paths';
import { COMMON_PATHS_BUDGET, DISCOVERY_PHASE_BUDGET } from '../../electron/scanner/run-discovery';
import { scanChecks } from '../helpers/check-scan';
import type { Target } from '../targets';
import { endpoint, hardened, scanServer, targetWith } from './check-harness';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function target(t: Promise<Target>): Promise<Target> {
  const x = await t;
  open.push(x);
  return x;
}

const CHECKS = [undocumentedEndpoints, exposedFiles, openRedirect, noOrInvalidCredentials];
const KEYS = { 1: 'tok-a-5f1e2d3c4b5a69788796a5b4', 2: 'tok-b-0a1b2c3d4e5f60718293a4b5' };

describe('routes beyond the spec on the Acme target', () => {
  it('scans a folder only robots.txt names and a route only the page\'s script names, marked discovered', async () => {
    const t = await target(targetWith('robots-listing', 'client-bundle-route'));
    const s = await scanChecks(t, CHECKS, { only: ['GET /me'] });
    expect(s.outcome.status).toBe('completed');
    const files = s.of(exposedFiles).map((f) => [f.vulnerability_name, f.path, f.severity]);
    expect(files).toEqual(
      expect.arrayContaining([
        ['Directory listing exposes backup, log or confidential files', '/api/v2/exports/', 'medium'],
        ['Backup file served', '/api/v2/exports/orders-2024.sql.bak', 'high'],
      ]),
    );
    expect(files).toHaveLength(2);
    // The redirect route is in no spec: the open-redirect check reached it through the script.
    expect(s.of(openRedirect).map((f) => [f.method, f.path])).toEqual([['GET', '/outbound']]);
    const discovered = s.outcome.coverage.operations.filter((o) => o.discovered);
    expect(discovered.map((o) => `${o.method} ${o.path}`)).toEqual(expect.arrayContaining(['GET /exports/', 'GET /exports/orders-2024.sql.bak', 'GET /outbound']));
    expect(discovered.find((o) => o.path === '/outbound')!.discovered).toBe('the script /static/app.js');
    expect(discovered.find((o) => o.path === '/exports/')!.discovered).toBe('robots.txt');
    expect(discovered.find((o) => o.path === '/outbound')!.ran).toContain(openRedirect.id);
    // A public file found beyond the spec is not "an endpoint that accepts missing credentials": nothing said it needs them.
    expect(s.of(noOrInvalidCredentials)).toEqual([]);
    expect(s.outcome.errors.join('\n')).toMatch(/Route discovery found 4 routes beyond the API description/);
  });

  it('finds nothing beyond the spec on the hardened twin', async () => {
    const t = await target(hardened());
    const s = await scanChecks(t, CHECKS, { only: ['GET /me'] });
    expect(s.findings.filter((f) => f.check_id !== undocumentedEndpoints.id)).toEqual([]);
    expect(s.outcome.coverage.operations.filter((o) => o.discovered)).toEqual([]);
  });
});

describe('the discovery phase on a small server', () => {
  it('follows links in answers and a published description, keeps to its budget, and never writes', async () => {
    const methods: string[] = [];
    const server = http.createServer((req, res) => {
      methods.push(`${req.method} ${req.url}`);
      const send = (status: number, body: unknown, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      const base = `http://${req.headers.host}`;
      if (req.url === '/v1/orders') return send(200, { items: [{ id: 7, _links: { self: { href: `${base}/v1/orders/7` }, invoice: { href: '/v1/invoices/7' } } }] });
      if (req.url === '/v1/invoices/7') return send(200, { id: 7, total: 12 });
      if (req.url === '/v1/orders/7') return send(200, { id: 7, lines: 2 });
      if (req.url === '/robots.txt') return send(200, 'User-agent: *\nDisallow: /files\n', 'text/plain');
      // A listing served without a trailing slash links its files relative to the folder's own name.
      if (req.url === '/files') return send(200, '<html><head><title>listing directory /files</title></head><body><a href="files/db.sql.bak">db.sql.bak</a> <a href="files/notes.md">notes.md</a></body></html>', 'text/html');
      if (req.url === '/files/db.sql.bak') return send(200, 'CREATE TABLE t (id int);', 'application/octet-stream');
      if (req.url === '/openapi.json') return send(200, { openapi: '3.0.0', info: { title: 'x', version: '1' }, paths: { '/v1/reports': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { from: { type: 'string' } } } } } }, responses: { 200: { description: 'ok' } } } } } });
      return send(404, { error: 'not found' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise((resolve) => server.close(resolve)) });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { outcome } = await scanServer(url, [endpoint('GET', '/v1/orders')], [undocumentedEndpoints], KEYS);
    const discovered = outcome.coverage.operations.filter((o) => o.discovered).map((o) => `${o.method} ${o.path} <- ${o.discovered}`);
    expect(discovered).toEqual(
      expect.arrayContaining([
        'GET /v1/invoices/{id} <- a link in the answer of GET /v1/orders',
        'POST /v1/reports <- the API description at /openapi.json',
        'GET /files <- robots.txt',
        'GET /files/db.sql.bak <- the directory listing at /files',
        'GET /files/notes.md <- the directory listing at /files',
      ]),
    );
    // /v1/orders/7 is the documented collection's item: a link to it is kept (the spec has no item route).
    expect(discovered.some((d) => d.startsWith('GET /v1/orders/{id}'))).toBe(true);
    // GETs only, but for the harmless POSTs the common-path list sends to upload and fetch spellings (an empty form or "{}").
    const phase = methods.filter((m) => !m.startsWith('GET /v1/orders'));
    expect(phase.filter((m) => !m.startsWith('GET ') && !COMMON_PATHS.some((c) => c.kind !== 'read' && m === `POST ${c.path}`) && !/^POST \/portcullis-/.test(m))).toEqual([]);
    expect(methods.length).toBeLessThanOrEqual(DISCOVERY_PHASE_BUDGET + COMMON_PATHS_BUDGET + undocumentedEndpoints.budget + 20);
  });
});

describe('a listing behind a single-page app that answers every path with its index', () => {
  it('is kept by its title and reported with the sensitive names it lists, while the index itself is not', async () => {
    const server = http.createServer((req, res) => {
      const send = (status: number, body: string, type: string) => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      };
      if (req.url === '/robots.txt') return send(200, 'User-agent: *\nDisallow: /docs\n', 'text/plain');
      if (req.url === '/docs') return send(200, `<html><head><title>listing directory /docs</title></head><body>${'<p>listing</p>'.repeat(5)}<a href="docs/plan.md">plan.md</a> <a href="docs/site.tar.gz">site.tar.gz</a> <a href="docs/archive">archive</a></body></html>`, 'text/html');
      if (req.url === '/docs/plan.md') return send(200, '# Plan\n', 'text/markdown');
      // A sub-folder listed as JSON names; other names in the folder are refused, and the app's index answers the rest.
      if (req.url === '/docs/archive') return send(200, '["old.sql","notes.txt"]', 'application/json');
      if (req.url === '/docs/archive/old.sql') return send(200, 'CREATE TABLE t (id int);', 'application/sql');
      if (/^\/docs\/(archive\/)?[^/]+$/.test(req.url ?? '') && !/\.(md|gz)$/.test(req.url ?? '') && req.url !== '/docs/archives') return send(403, '{"error":"Only .md files"}', 'application/json');
      if (req.url === '/docs/site.tar.gz' || /\.gz$/.test(req.url ?? '')) return send(403, '<html><body>Only .md files</body></html>', 'text/html');
      if (req.url === '/v1/items') return send(200, '[{"id":1}]', 'application/json');
      return send(200, '<!doctype html><html><head><title>Shop</title></head><body><app-root></app-root></body></html>', 'text/html');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise((resolve) => server.close(resolve)) });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { findings, outcome } = await scanServer(url, [endpoint('GET', '/v1/items')], [undocumentedEndpoints, exposedFiles], KEYS);
    // One level of listings is followed; the sub-folder's own listing is judged by the check.
    expect(outcome.coverage.operations.filter((o) => o.discovered).map((o) => o.path)).toEqual(['/docs', '/docs/plan.md', '/docs/site.tar.gz', '/docs/archive']);
    const files = findings.filter((f) => f.check_id === exposedFiles.id);
    expect(files.map((f) => [f.vulnerability_name, f.path, f.severity])).toEqual([['Directory listing exposes backup, log or confidential files', '/docs', 'medium']]);
    expect(files[0]!.evidence).toContain('old.sql');
    // "/docs/archives" (the app's index, where other names there are refused) is no sibling route: discovered routes get no sibling guesses.
    expect(findings.map((f) => f.path)).not.toContain('/docs/archives');
  });
});

describe('readers', () => {
  it('takes route literals from a script, not its comments, regular expressions or assets', () => {
    const js = `// fetch("/commented/out")\nvar r=/\\/api\\/x"y/;var a="/api/users",b='/static/logo.svg';/* "/in/block" */\nconst c=\`/api/orders/\${id}/items\`; x = 4 / 2; y = "/rest/basket/" + id; z="//cdn.test/x"; w='/a'`;
    expect(bundlePaths(js)).toEqual(['/api/users', '/api/orders/', '/rest/basket/']);
  });

  it('reads robots.txt rules and sitemap locations on the origin only', () => {
    expect(robotsPaths('User-agent: *\nDisallow: /ftp\nDisallow: /search*?q=\nAllow: /\nSitemap: http://o.test/map.xml\n# Disallow: /hidden', 'http://o.test')).toEqual({ paths: ['/ftp', '/search'], sitemaps: ['/map.xml'] });
    expect(sitemapPaths('<urlset><url><loc>http://o.test/a/b</loc></url><url><loc>http://other.test/c</loc></url></urlset>', 'http://o.test')).toEqual(['/a/b']);
  });

  it('takes same-origin links from JSON: HAL, JSON:API, plain URLs and two-segment paths, not dates or other hosts', () => {
    const body = { data: { links: { self: '/things/1' } }, _links: { next: { href: 'http://o.test/things?page=2' } }, at: '/2024', photo: 'http://cdn.test/p.png', path: '/files/report.pdf' };
    expect(jsonLinks(body, 'http://o.test').sort()).toEqual(['/files/report.pdf', '/things/1', '/things?page=2']);
    expect(['/img/a.png', '/fonts/x.woff2', '/api/x', '/files/report.pdf'].map(isStaticAsset)).toEqual([true, true, false, false]);
  });

  it('makes id segments path parameters and keeps query names', () => {
    expect(templateOf('/users/42/files/0f8fad5b-d9cb-469f-a165-70867728950e')).toEqual({ path: '/users/{id}/files/{id2}', values: { id: '42', id2: '0f8fad5b-d9cb-469f-a165-70867728950e' } });
    const e = discoveredEndpoint({ method: 'GET', url: '/api/v2/go?url=https://x.test/', source: 'robots.txt' }, '/api/v2', { schemes: {}, default: [] })!;
    expect(e).toMatchObject({ path: '/go', discovered: 'robots.txt', parameters: [{ name: 'url', in: 'query', example: 'https://x.test/' }] });
    expect(e.flags).toContain('SSRF');
    // Answered without credentials: public as far as the scan knows (no requirement for the authentication checks to hold it to).
    expect(e.security).toEqual([]);
    expect(discoveredEndpoint({ method: 'GET', url: '/api/v2/go', source: 'robots.txt', refusesAnonymous: true }, '/api/v2', { schemes: {}, default: [] })!.security).toBeNull();
    expect(discoveredEndpoint({ method: 'GET', url: '/elsewhere', source: 'robots.txt' }, '/api/v2', { schemes: {}, default: [] })).toBeNull();
  });

  it('reads a folder listed as JSON names, and nothing else as one', () => {
    const ex = (body: string, type = 'application/json') => ({ ok: true, contentType: type, json: () => JSON.parse(body) as unknown }) as unknown as Exchange;
    expect(jsonListingNames(ex('["a.bak","sub/",{"name":"b.md","type":"file"}]'))).toEqual(['a.bak', 'sub/', 'b.md']);
    expect(jsonListingNames(ex('["red","green"]'))).toBeNull();
    expect(jsonListingNames(ex('["a b.txt"]'))).toBeNull();
    expect(jsonListingNames(ex('{"files":["a.txt"]}'))).toBeNull();
  });

  it('tells backups, logs and confidential files by their names', () => {
    expect(['/ftp/package.json.bak', '/x/app.log', '/ftp/incident-support.kdbx', '/ftp/legal.md', '/ftp/', '/.env'].map(fileKind)).toEqual(['backup', 'log', 'confidential', null, null, 'confidential']);
  });
});
