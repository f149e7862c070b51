// Script content (stored and reflected XSS), JSONP, and privilege-asserting request headers: each
// finds its flaw on the test target, stays silent on the hardened twin and within its budget, and
// stays silent on the traps of a small hand-written API (escaped HTML, JSON with nosniff, a login
// page or the same body for any header value), where a real flaw next to them shows the scan reached them.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privilegeHeaders } from '../../electron/scanner/checks/api5-function-authorization/privilege-headers';
import { jsonpCallback } from '../../electron/scanner/checks/api8-misconfiguration/jsonp';
import { scriptContent } from '../../electron/scanner/checks/api8-misconfiguration/script-content';
import { storedContentSweep } from '../../electron/scanner/checks/api8-misconfiguration/stored-content-sweep';
import type { BuiltFinding } from '../../electron/scanner/findings';
import type { IdentityInput } from '../../shared/identities';
import { scanChecks } from '../helpers/check-scan';
import type { Target } from '../targets';
import { endpoint, expectWellFormed, expectWithinBudget, hardened, scanServer, targetWith } from './check-harness';

const NOTES = ['POST /notes', 'GET /notes', 'GET /notes/{noteId}', 'PUT /notes/{noteId}', 'GET /notes/{noteId}/print'];
const ADMIN = ['GET /admin/users', 'GET /admin/stats', 'GET /me', 'GET /orders'];

const open: Target[] = [];
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()));
});
const keep = async (p: Promise<Target>) => {
  const t = await p;
  open.push(t);
  return t;
};

function cookieSession(t: Target): IdentityInput {
  const u = t.users.alice;
  return { name: 'alice', cookie: { request: { method: 'POST', path: '/auth/session', json: { username: u.username, password: u.password } }, csrf: { from: 'cookie', name: t.session.csrfCookie, header: t.session.csrfHeader } } };
}

describe('api8-script-content', () => {
  it('finds markup stored through the notes and served unescaped by the print view, once', async () => {
    const t = await keep(targetWith('stored-html'));
    const s = await scanChecks(t, [scriptContent], { only: NOTES, key2: false });
    const found = s.of(scriptContent);
    expect(found.map((f) => `${f.method} ${f.path}`)).toEqual(['GET /notes/{noteId}/print']);
    expect(found[0]!).toMatchObject({ severity: 'high', confidence: 'high' });
    expect(found[0]!.description).toMatch(/served as text\/html/);
    expect(found[0]!.evidence).toMatch(/1\. (POST|PUT) \/api\/v2\/notes/);
    expectWellFormed(s, found);
    expectWithinBudget(s, [scriptContent]);
  }, 30_000);

  it('is silent on the hardened twin, which escapes the fields, but for the markup its JSON returns as stored (informational)', async () => {
    const t = await keep(hardened());
    const s = await scanChecks(t, [scriptContent], { only: NOTES, key2: false });
    const found = s.of(scriptContent);
    expect(found.filter((f) => f.severity !== 'info')).toEqual([]);
    // One note for the reader, whichever write (the create or the update) stored it first.
    expect(found.map((f) => [f.vulnerability_name, `${f.method} ${f.path}`])).toEqual([['Stored HTML markup returned verbatim (HTML injection in clients)', expect.stringMatching(/^(POST \/notes|PUT \/notes\/\{noteId\})$/)]]);
    expect(found[0]!.description).toMatch(/verbatim in a JSON answer/);
    expect(s.sent(scriptContent)).toBeGreaterThan(0);
    expectWithinBudget(s, [scriptContent]);
  }, 30_000);

  it('reads a collection back with the query parameters its own request carries (a format=html view)', async () => {
    const t = await keep(targetWith('pinboard-html'));
    const s = await scanChecks(t, [scriptContent], { only: ['POST /pins', 'GET /pins'], key2: false });
    const found = s.of(scriptContent).filter((f) => f.severity !== 'info');
    expect(found.map((f) => [f.vulnerability_name, f.method, f.path, f.parameter])).toEqual([['Stored script content served as HTML (XSS)', 'GET', '/pins', 'text']]);
    expect(found[0]!.evidence).toMatch(/GET \/api\/v2\/pins\?format=html/);
    expectWellFormed(s, found);
  }, 30_000);

  it('finds what a write stored on another route\'s HTML page at the end of the scan (api8-stored-content-sweep)', async () => {
    const t = await keep(targetWith('pinboard-html'));
    const s = await scanChecks(t, [scriptContent, storedContentSweep], { only: ['POST /pins', 'GET /pinboard'], key2: false });
    expect(s.of(scriptContent).filter((f) => f.severity !== 'info')).toEqual([]);
    // Low: the target's strict Content-Security-Policy stops inline scripts on this page (HTML injection).
    const found = s.of(storedContentSweep);
    expect(found.map((f) => [f.vulnerability_name, f.method, f.path, f.parameter, f.severity])).toEqual([['Stored script content served as HTML (XSS)', 'GET', '/pinboard', 'text', 'low']]);
    expect(found[0]!.evidence).toMatch(/1\. POST \/api\/v2\/pins/);
    expectWellFormed(s, found);
    expectWithinBudget(s, [scriptContent, storedContentSweep]);
  }, 30_000);

  it('the sweep is silent on the hardened twin, which escapes the pins, and sends nothing when nothing was stored', async () => {
    const t = await keep(hardened());
    const s = await scanChecks(t, [scriptContent, storedContentSweep], { only: ['POST /pins', 'GET /pinboard', 'GET /pins'], key2: false });
    expect(s.of(storedContentSweep)).toEqual([]);
    expect(s.sent(storedContentSweep)).toBeGreaterThan(0);
    const alone = await scanChecks(t, [storedContentSweep], { only: ['GET /pinboard', 'GET /pins'], key2: false });
    expect(alone.sent(storedContentSweep)).toBe(0);
  }, 30_000);
});

describe('api8-jsonp', () => {
  it('finds the callback wrapping the caller\'s data: low behind bearer tokens, info for public data', async () => {
    const t = await keep(targetWith('jsonp-callback'));
    const s = await scanChecks(t, [jsonpCallback], { only: ['GET /me', 'GET /products'], key2: false });
    const bySeverity = Object.fromEntries(s.of(jsonpCallback).map((f) => [`${f.method} ${f.path}`, f.severity]));
    expect(bySeverity).toEqual({ 'GET /me': 'low', 'GET /products': 'info' });
    expectWellFormed(s, s.of(jsonpCallback));
    expectWithinBudget(s, [jsonpCallback]);
  }, 30_000);

  it('is medium (the caller\'s data, CVSS 6.5) when the caller is signed in by a cookie session', async () => {
    const t = await keep(targetWith('jsonp-callback'));
    const s = await scanChecks(t, [jsonpCallback], { only: ['GET /me'], identities: [cookieSession(t)] });
    expect(s.of(jsonpCallback).map((f) => [f.path, f.severity, f.parameter])).toEqual([['/me', 'medium', 'callback']]);
  }, 30_000);

  it('is silent on the hardened twin, which ignores the parameter', async () => {
    const t = await keep(hardened());
    const s = await scanChecks(t, [jsonpCallback], { only: ['GET /me', 'GET /products'], key2: false });
    expect(s.of(jsonpCallback)).toEqual([]);
    expectWithinBudget(s, [jsonpCallback]);
  }, 30_000);
});

describe('api5-privilege-headers', () => {
  it('finds the admin routes that trust X-Forwarded-For: 127.0.0.1, narrowed to that header', async () => {
    const t = await keep(targetWith('trusted-client-ip'));
    const s = await scanChecks(t, [privilegeHeaders], { only: ADMIN });
    const found = s.of(privilegeHeaders);
    expect(found.map((f) => f.parameter)).toEqual(['client-ip']);
    expect(found[0]!.path).toMatch(/^\/admin\/(users|stats)$/);
    expect(found[0]!.description).toMatch(/X-Forwarded-For: 127\.0\.0\.1/);
    expect(found[0]!.description).toMatch(/also opens: GET \/admin\/(users|stats)/);
    expect(found[0]!.curl).toMatch(/X-Forwarded-For: 127\.0\.0\.1/i);
    expectWellFormed(s, found);
    expectWithinBudget(s, [privilegeHeaders]);
  }, 30_000);

  it('has high confidence when a privileged identity gets the same data', async () => {
    const t = await keep(targetWith('trusted-client-ip'));
    const identities: IdentityInput[] = [
      { name: 'alice', token: t.users.alice.key },
      { name: 'admin', role: 'privileged', token: t.users.admin.key },
    ];
    const s = await scanChecks(t, [privilegeHeaders], { only: ADMIN, identities });
    expect(s.of(privilegeHeaders).map((f) => [f.parameter, f.confidence])).toEqual([['client-ip', 'high']]);
  }, 30_000);

  it('is silent on the hardened twin', async () => {
    const t = await keep(hardened());
    const s = await scanChecks(t, [privilegeHeaders], { only: ADMIN });
    expect(s.of(privilegeHeaders)).toEqual([]);
    expect(s.sent(privilegeHeaders)).toBeGreaterThan(0);
    expectWithinBudget(s, [privilegeHeaders]);
  }, 30_000);
});

// ---------------------------------------------------------------- traps

const TOKEN = 'tok-trap-7c1d2e3f4a5b6c7d8e9f';
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const anyPrivilegeHeader = (h: http.IncomingHttpHeaders) => Object.keys(h).some((k) => /^x-(forwarded-for|real-ip|client-ip|role|admin|user-role|is-admin)$/.test(k));

function trapServer() {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    const q = url.searchParams.get('q') ?? '';
    const signedIn = req.headers.authorization === `Bearer ${TOKEN}`;
    switch (url.pathname) {
      case '/api/me':
        return signedIn ? send(200, 'application/json', JSON.stringify({ id: 7, username: 'trap.user' })) : send(401, 'application/json', '{"error":"unauthorized"}');
      // Traps: the query escaped in HTML, raw in JSON with nosniff.
      case '/api/search':
        return send(200, 'text/html; charset=utf-8', `<!doctype html><p>Results for ${escape(q)}</p>`);
      case '/api/echo':
        return send(200, 'application/json', JSON.stringify({ query: q, results: [] }), { 'x-content-type-options': 'nosniff' });
      // The real flaws next to them: raw in an HTML page, and JSON served as text/html (a framework's default type).
      case '/api/preview':
        return send(200, 'text/html; charset=utf-8', `<!doctype html><p>Preview: ${q}</p>`);
      case '/api/lookup':
        return send(200, 'text/html; charset=utf-8', JSON.stringify({ query: q, results: [] }));
      // Traps: an "internal" caller is sent to the single sign-on page; any privilege header gets the same body whatever its value.
      case '/api/admin/report':
        return req.headers['x-real-ip'] === '127.0.0.1' || req.headers['x-role'] === 'admin'
          ? send(200, 'text/html', '<!doctype html><form><input name="user"><input type="password" name="pw"><button>Sign in</button></form>')
          : send(403, 'application/json', '{"error":"forbidden"}');
      case '/api/admin/audit':
        return anyPrivilegeHeader(req.headers)
          ? send(200, 'application/json', JSON.stringify({ items: [{ id: 9001, event: 'export', actor: 'ops-bot' }, { id: 9002, event: 'login', actor: 'root-user' }] }))
          : send(403, 'application/json', '{"error":"forbidden"}');
      // The real flaw next to them: X-Real-IP 127.0.0.1 is "internal".
      case '/api/admin/keys':
        return req.headers['x-real-ip'] === '127.0.0.1'
          ? send(200, 'application/json', JSON.stringify({ keys: [{ id: 'k-31', owner: 'billing', created: '2026-01-02' }, { id: 'k-32', owner: 'search', created: '2026-02-03' }] }))
          : send(403, 'application/json', '{"error":"forbidden"}');
      default:
        return send(404, 'application/json', '{"error":"not_found"}');
    }
  });
}

describe('traps', () => {
  let server: http.Server;
  let base = '';
  let findings: BuiltFinding[] = [];
  beforeAll(async () => {
    server = trapServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const q = { parameters: [{ name: 'q', in: 'query' as const, required: true, schema: { type: 'string', example: 'lamp' } }] };
    const endpoints = [
      endpoint('GET', '/me'),
      endpoint('GET', '/search', q),
      endpoint('GET', '/echo', q),
      endpoint('GET', '/preview', q),
      endpoint('GET', '/lookup', q),
      // The real flaw first: the traps are then tried with a header already proven, the laxer case.
      endpoint('GET', '/admin/keys'),
      endpoint('GET', '/admin/report'),
      endpoint('GET', '/admin/audit'),
    ];
    ({ findings } = await scanServer(base, endpoints, [scriptContent, jsonpCallback, privilegeHeaders], { 1: TOKEN }));
  }, 30_000);
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('a payload that comes back escaped, or raw in JSON with nosniff, is silent; raw in HTML is found', () => {
    const xss = findings.filter((f) => f.check_id === scriptContent.id);
    expect(xss.map((f) => `${f.method} ${f.path} ${f.parameter} ${f.severity}`).sort()).toEqual(['GET /lookup q medium', 'GET /preview q medium']);
  });

  it('a 200 that is a sign-in page, or the same body whatever the header says, is silent; a header that really opens is found', () => {
    const hdr = findings.filter((f) => f.check_id === privilegeHeaders.id);
    expect(hdr.map((f) => `${f.method} ${f.path} ${f.parameter}`)).toEqual(['GET /admin/keys client-ip']);
    expect(hdr[0]!.description).toMatch(/X-Real-IP: 127\.0\.0\.1/);
    expect(hdr[0]!.description).not.toMatch(/admin\/(report|audit)/);
    expect(findings.filter((f) => f.check_id === jsonpCallback.id)).toEqual([]);
  });
});
