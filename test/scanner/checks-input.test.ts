// The input checks of issue #5 (API4, API6, API7, API8 injection and transport, API9, API10) against
// the Acme test target, like ZAP's rules: each finds its flaw when only that flaw is on (scanning
// just the endpoints it needs), stays silent on the hardened twin, and keeps to its request budget.
// The time-based ones live in checks-input-timed.test.ts so the two files run in parallel.

import { afterEach, describe, expect, it } from 'vitest';
import { followsRedirects, openRedirect, unsignedWebhook } from '../../electron/scanner/checks/api10-unsafe-consumption/redirects-and-webhooks';
import { sizeLimits } from '../../electron/scanner/checks/api4-resource-consumption/input-size';
import { pageSizeAbuse } from '../../electron/scanner/checks/api4-resource-consumption/pagination';
import { noRateLimit } from '../../electron/scanner/checks/api4-resource-consumption/rate-limit';
import { FLOW_BURST, flowNotThrottled } from '../../electron/scanner/checks/api6-business-flows/flow-throttling';
import { ssrfCallback, ssrfInternal } from '../../electron/scanner/checks/api7-ssrf/ssrf';
import { nosqlInjection } from '../../electron/scanner/checks/api8-misconfiguration/nosql-injection';
import { pathTraversal } from '../../electron/scanner/checks/api8-misconfiguration/path-traversal';
import { securityHeaders } from '../../electron/scanner/checks/api8-misconfiguration/security-headers';
import { sqlFilterBypass } from '../../electron/scanner/checks/api8-misconfiguration/sql-filter-bypass';
import { sqlInjection } from '../../electron/scanner/checks/api8-misconfiguration/sql-injection';
import { templateInjection } from '../../electron/scanner/checks/api8-misconfiguration/template-injection';
import { plainHttp, traceEnabled } from '../../electron/scanner/checks/api8-misconfiguration/transport';
import { verboseErrors } from '../../electron/scanner/checks/api8-misconfiguration/verbose-errors';
import { debugEndpoints, graphqlIntrospection } from '../../electron/scanner/checks/api9-inventory/debug-endpoints';
import { exposedDocs } from '../../electron/scanner/checks/api9-inventory/exposed-docs';
import { oldVersions } from '../../electron/scanner/checks/api9-inventory/old-versions';
import { undocumentedBehaviour } from '../../electron/scanner/checks/api9-inventory/undocumented-behaviour';
import type { Check } from '../../electron/scanner/checks/types';
import { scanChecks, type CheckScan, type CheckScanOptions } from '../helpers/check-scan';
import { onlyFlaws, startTarget, type FlawId, type Target, type TargetOptions } from '../targets';
import { expectWithinBudget } from './check-harness';
import { INPUT_CHECKS, strongEnough } from './checks-input-shared';

const targets: Target[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
});

async function only(flaw: FlawId, extra: Partial<TargetOptions> = {}): Promise<Target> {
  const t = await startTarget({ mode: 'hardened', flaws: onlyFlaws(flaw), ...extra });
  targets.push(t);
  return t;
}

async function scan(t: Target, checks: Check[], opts: CheckScanOptions): Promise<CheckScan> {
  const s = await scanChecks(t, checks, opts);
  expect(s.outcome.status).toBe('completed');
  expectWithinBudget(s, INPUT_CHECKS);
  return s;
}

const where = (s: CheckScan, check: Check) => s.of(check).map((f) => `${f.method} ${f.path}`).sort();

function expectEvidence(s: CheckScan, check: Check, t: Target) {
  expect(s.of(check).length).toBeGreaterThan(0);
  for (const f of s.of(check)) {
    expect(f.evidence).toMatch(/^Method: \S+\nPath: \S+\n/);
    expect(f.evidence).toMatch(/== .+ ==\n> [A-Z]+ \//);
    expect(f.curl).toMatch(/^curl -i -X [A-Z]+ /);
    for (const secret of [t.users.alice.key, t.users.bob.key]) {
      expect(f.curl).not.toContain(secret);
      expect(f.evidence).not.toContain(secret);
    }
    expect(f.cvss_vector).toMatch(/^CVSS:3\.1\//);
    expect(f.cwe).toMatch(/^CWE-\d+$/);
    expect(f.references.length).toBeGreaterThan(0);
  }
}

describe('API4 Unrestricted Resource Consumption', () => {
  it('finds page sizes honoured past the documented maximum (page-size-unbounded)', async () => {
    const t = await only('page-size-unbounded');
    const s = await scan(t, [pageSizeAbuse], { only: ['GET /products', 'GET /activity', 'GET /orders'] });
    expect(where(s, pageSizeAbuse)).toEqual(['GET /activity', 'GET /products']);
    for (const f of s.of(pageSizeAbuse)) {
      expect(f.confidence).toBe('high');
      expect(f.description).toMatch(/past the documented maximum of (100|50)/);
    }
    expectEvidence(s, pageSizeAbuse, t);
  });

  it('finds an ordinary endpoint without any rate limit (no-rate-limit): information, as no answer carries personal data', async () => {
    const t = await only('no-rate-limit');
    const before = t.requests.count({ path: '/api/v2/integrations' });
    const s = await scan(t, [noRateLimit], { only: ['GET /integrations'], rps: 200 });
    const [f] = s.of(noRateLimit);
    expect(f).toMatchObject({ severity: 'info', confidence: 'medium', method: 'GET', path: '/integrations' });
    // The burst, the baselines and the key health check, nothing more.
    expect(t.requests.count({ path: '/api/v2/integrations' }) - before).toBeLessThanOrEqual(noRateLimit.budget + 6);
  });

  it('finds values accepted past maxLength, maxItems and maximum (size-limits-ignored)', async () => {
    const t = await only('size-limits-ignored');
    const s = await scan(t, [sizeLimits], { only: ['POST /notes', 'POST /orders'] });
    expect(where(s, sizeLimits)).toEqual(['POST /notes', 'POST /orders']);
    for (const f of s.of(sizeLimits)) expect(f.confidence).toBe('medium');
    expect(s.of(sizeLimits).find((f) => f.path === '/notes')!.parameter).toMatch(/title/);
    expect(s.of(sizeLimits).find((f) => f.path === '/orders')!.parameter).toMatch(/quantity/);
  });

  it('finds oversized input that makes the server fail (size-limit-500)', async () => {
    const t = await only('size-limit-500');
    const s = await scan(t, [sizeLimits], { only: ['PATCH /me'] });
    const crash = s.of(sizeLimits).find((f) => f.vulnerability_name === 'Oversized input causes a server error');
    expect(crash).toMatchObject({ confidence: 'high', severity: 'medium', parameter: 'displayName' });
    expect(crash!.evidence).toContain('Control: displayName exactly at its bound');
  });
});

describe('API6 Unrestricted Access to Sensitive Business Flows (medium confidence at most)', () => {
  it.each<[FlawId, string[]]>([
    ['flow-checkout', ['POST /checkout', 'POST /orders']],
    ['flow-transfer', ['POST /transfers']],
    ['flow-vote', ['POST /products/{productId}/votes']],
    ['flow-comment', ['POST /products/{productId}/reviews']],
    ['flow-signup', ['POST /auth/signup']],
    // POST /auth/otp/verify (wrong codes) is api2-short-code-brute-force's: see checks-api2-accounts.test.ts.
    ['flow-otp', ['POST /auth/otp/send']],
  ])('names the unthrottled flow (%s) and says coverage is partial', async (flaw, routes) => {
    const t = await only(flaw);
    // Sign-up on where the flow is the sign-up: with it off the scan registers nobody and sends it nothing.
    const s = await scan(t, [flowNotThrottled], { only: routes, signup: flaw === 'flow-signup' ? 'auto' : 'off' });
    expect(where(s, flowNotThrottled)).toEqual([...routes].sort());
    for (const f of s.of(flowNotThrottled)) {
      expect(f.confidence).toBe('medium');
      expect(f.evidence).toContain('Coverage of API6 is partial');
    }
    // At the target: at most the burst (+1 refused duplicate) per flow.
    for (const r of routes) {
      const path = `/api/v2${r.split(' ')[1]!.replace('{productId}', '12')}`;
      expect(t.requests.count({ method: 'POST', path })).toBeLessThanOrEqual(FLOW_BURST + 2);
    }
  });
});

describe('API7 Server-Side Request Forgery', () => {
  it('proves a fetch with the out-of-band listener (ssrf)', async () => {
    const t = await only('ssrf');
    const s = await scan(t, [ssrfCallback], { only: ['POST /link-preview', 'PUT /me/avatar'] });
    expect(where(s, ssrfCallback)).toEqual(['POST /link-preview', 'PUT /me/avatar']);
    for (const f of s.of(ssrfCallback)) {
      expect(f.confidence).toBe('high');
      expect(f.evidence).toMatch(/Listener hit for body field (url|imageUrl) \(token pcb[0-9a-f]{16}\): GET \/p\/pcb/);
    }
    // The target really fetched the listener, once per injection.
    expect(t.outbound.count((o) => /\/p\/pcb[0-9a-f]{16}$/.test(o.url) && o.outcome === 'fetched')).toBe(2);
    expect(s.of(ssrfCallback).find((f) => f.path === '/link-preview')!.vulnerability_name).toBe('Server-side request forgery (fetched content returned)');
  });

  it('finds internal content returned: the API origin over loopback (ssrf) and a local file (ssrf-file)', async () => {
    const a = await only('ssrf');
    const loop = await scan(a, [ssrfInternal], { only: ['POST /link-preview'] });
    expect(loop.of(ssrfInternal).map((f) => [f.path, f.confidence])).toEqual([['/link-preview', 'high']]);
    expect(loop.of(ssrfInternal)[0]!.description).toContain("the API's own port on 127.0.0.1");
    const b = await only('ssrf-file');
    const file = await scan(b, [ssrfInternal], { only: ['POST /link-preview'] });
    expect(file.of(ssrfInternal).map((f) => [f.vulnerability_name, f.confidence])).toEqual([['Server-side request forgery (local file read)', 'high']]);
    expect(file.of(ssrfInternal)[0]!.evidence).toMatch(/root:[^:]*:0:0:/);
  });
});

describe('API8 Security Misconfiguration: errors, injection, transport', () => {
  it('finds stack traces in error answers (verbose-errors), one finding for the API', async () => {
    const t = await only('verbose-errors');
    const s = await scan(t, [verboseErrors], { only: ['POST /notes', 'GET /orders', 'PATCH /me'] });
    const [f, ...rest] = s.of(verboseErrors);
    expect(rest).toEqual([]);
    // API-wide, shown at the first affected endpoint.
    expect(f).toMatchObject({ method: 'PATCH', path: '/me', confidence: 'high' });
    expect(f!.evidence).toContain('Node.js / JavaScript stack trace');
    expect(f!.description).toMatch(/Affected endpoints \(3\)/);
  });

  it('finds the stack trace of a lookup that crashes on an unknown, case-changed identifier (lookup-traceback)', async () => {
    const t = await only('lookup-traceback');
    const s = await scan(t, [verboseErrors], { only: ['GET /gift-cards/{code}'] });
    expect(s.of(verboseErrors).map((f) => [f.vulnerability_name, f.method, f.path])).toEqual([['Verbose error messages: stack trace for an unknown identifier', 'GET', '/gift-cards/{code}']]);
    expect(s.of(verboseErrors)[0]!.evidence).toContain('Node.js / JavaScript stack trace');
    expect(s.of(verboseErrors)[0]!.evidence).toContain('GC-7F3A-2B91');
    const h = await scan(await only('verbose-errors', { flaws: {} }), [verboseErrors], { only: ['GET /gift-cards/{code}'] });
    expect(h.of(verboseErrors)).toEqual([]);
  });

  it('finds a search term that comments out the soft-delete filter (sqli-search-hidden), and not on the hardened twin', async () => {
    const t = await only('sqli-search-hidden');
    const s = await scan(t, [sqlFilterBypass], { only: ['GET /recipes', 'GET /products'] });
    expect(s.of(sqlFilterBypass).map((f) => [f.vulnerability_name, f.path, f.parameter, f.confidence])).toEqual([
      ['SQL injection reveals soft-deleted rows (deletedAt is not null)', '/recipes', 'q', 'high'],
    ]);
    expect(s.of(sqlFilterBypass)[0]!.evidence).toContain('Control: \')) AND 1=2-- ');
    expectEvidence(s, sqlFilterBypass, t);
    const h = await scan(await only('verbose-errors', { flaws: {} }), [sqlFilterBypass], { only: ['GET /recipes', 'GET /products'] });
    expect(h.of(sqlFilterBypass)).toEqual([]);
    expect(h.sent(sqlFilterBypass)).toBeGreaterThan(0);
  });

  it('finds expressions evaluated in a message template (template-injection) with products the scan picks, and not on the hardened twin', async () => {
    const t = await only('template-injection');
    const s = await scan(t, [templateInjection], { only: ['POST /cards/preview', 'GET /products/search'] });
    const found = s.of(templateInjection);
    expect(found.map((f) => [f.vulnerability_name, f.path, f.parameter, f.confidence])).toEqual([['Server-side template injection', '/cards/preview', 'message', 'high']]);
    expect(found[0]!.description).toMatch(/"\$\{\d+\*\d+\}" came back as \d+/);
    expect(found[0]!.description).not.toMatch(/1337|\b49\b/);
    expectEvidence(s, templateInjection, t);
    const h = await scan(await only('verbose-errors', { flaws: {} }), [templateInjection], { only: ['POST /cards/preview', 'GET /products/search'] });
    expect(h.of(templateInjection)).toEqual([]);
    expect(h.sent(templateInjection)).toBeGreaterThan(0);
  });

  it('finds SQL injection from the database error (sqli-error)', async () => {
    const t = await only('sqli-error');
    const s = await scan(t, [sqlInjection], { only: ['GET /products', 'GET /products/search'] });
    expect(s.of(sqlInjection).map((f) => [f.vulnerability_name, f.method, f.path, f.parameter, f.confidence])).toEqual([
      ['SQL injection (error-based)', 'GET', '/products', 'category', 'high'],
    ]);
    expect(s.of(sqlInjection)[0]!.evidence).toContain('Control: \'\' (a valid literal)');
    expectEvidence(s, sqlInjection, t);
  });

  it('finds NoSQL operators evaluated at login (nosql-injection)', async () => {
    const t = await only('nosql-injection');
    const s = await scan(t, [nosqlInjection], { only: ['POST /auth/login', 'GET /orders'] });
    expect(s.of(nosqlInjection).map((f) => [f.path, f.confidence])).toEqual([['/auth/login', 'high']]);
    expect(s.of(nosqlInjection)[0]!.evidence).toContain('Control: {"$in": [random]}');
  });

  it('finds a numeric path id put unquoted into a server-side JavaScript filter (nosql-where-number), and not on the hardened twin', async () => {
    const t = await only('nosql-where-number');
    const s = await scan(t, [nosqlInjection], { only: ['GET /stores/{storeId}/reviews'] });
    expect(s.of(nosqlInjection).map((f) => [f.vulnerability_name, f.path, f.parameter])).toEqual([['NoSQL injection (server-side JavaScript)', '/stores/{storeId}/reviews', 'storeId']]);
    expect(s.of(nosqlInjection)[0]!.evidence).toContain('Control: 1 && 1===2');
    const h = await scan(await only('verbose-errors', { flaws: {} }), [nosqlInjection], { only: ['GET /stores/{storeId}/reviews'] });
    expect(h.of(nosqlInjection)).toEqual([]);
    expect(h.sent(nosqlInjection)).toBeGreaterThan(0);
  });

  it('finds path traversal to /etc/passwd (path-traversal)', async () => {
    const t = await only('path-traversal');
    const s = await scan(t, [pathTraversal], { only: ['GET /downloads/content', 'GET /documents/download'] });
    expect(s.of(pathTraversal).map((f) => [f.path, f.parameter, f.confidence])).toEqual([['/downloads/content', 'file', 'high']]);
  });

  it('finds TRACE echoing the request (trace-enabled)', async () => {
    const t = await only('trace-enabled');
    const s = await scan(t, [traceEnabled], { only: ['GET /me'] });
    expect(s.of(traceEnabled).map((f) => [f.method, f.path, f.confidence])).toEqual([['TRACE', '/api/v2/', 'high']]);
  });

  it('finds plain HTTP served where HTTPS exists (plain-http) and missing HSTS (missing-hsts)', async () => {
    const a = await only('plain-http', { tls: true });
    const s = await scan(a, [plainHttp, securityHeaders], { only: ['GET /products', 'GET /me'], tlsVerify: false });
    expect(s.of(plainHttp).map((f) => f.confidence)).toEqual(['high']);
    expect(s.of(securityHeaders)).toEqual([]);
    const b = await only('missing-hsts', { tls: true });
    const h = await scan(b, [plainHttp, securityHeaders], { only: ['GET /products', 'GET /me'], tlsVerify: false });
    expect(h.of(plainHttp)).toEqual([]);
    expect(h.of(securityHeaders).map((f) => f.vulnerability_name)).toEqual(['Strict-Transport-Security missing']);
  });
});

describe('API9 Improper Inventory Management', () => {
  it('finds an old version answering (old-version)', async () => {
    const t = await only('old-version');
    const s = await scan(t, [oldVersions], { only: ['GET /me', 'GET /activity'] });
    // Reported at the operation that answered, not at the version prefix.
    expect(s.of(oldVersions).map((f) => [f.method, f.path, f.confidence])).toEqual([['GET', '/api/v1/me', 'high']]);
    expect(t.requests.count({ pathPrefix: '/api/v999/' })).toBeGreaterThan(0);
  });

  it.each<[FlawId, Check, string]>([
    ['exposed-docs', exposedDocs, 'API documentation exposed'],
    ['debug-endpoints', debugEndpoints, 'Spring Boot actuator exposed'],
    ['graphql-introspection', graphqlIntrospection, 'GraphQL introspection enabled'],
  ])('finds %s', async (flaw, check, name) => {
    const t = await only(flaw);
    const s = await scan(t, [check], { only: ['GET /me'] });
    expect(s.of(check).map((f) => f.vulnerability_name)).toContain(name);
    for (const f of s.of(check)) expect(strongEnough(f.confidence)).toBe(true);
  });

  it('finds undeclared status codes (undeclared-status)', async () => {
    const t = await only('undeclared-status');
    const s = await scan(t, [undocumentedBehaviour], { only: ['POST /notes', 'GET /products/{productId}'] });
    const [f] = s.of(undocumentedBehaviour);
    expect(f).toMatchObject({ vulnerability_name: 'Undocumented status codes', severity: 'low', confidence: 'medium' });
    expect(f!.evidence).toMatch(/POST \/notes: HTTP 200 \(declared: 201/);
    expect(f!.evidence).toMatch(/GET \/products\/\{productId\}: HTTP 204 for an id that does not exist/);
  });
});

describe('API10 Unsafe Consumption of APIs (partial coverage)', () => {
  it('finds an open redirect to the listener (open-redirect)', async () => {
    const t = await only('open-redirect');
    const s = await scan(t, [openRedirect], { only: ['GET /links/out'] });
    expect(s.of(openRedirect).map((f) => [f.path, f.parameter, f.confidence])).toEqual([['/links/out', 'url', 'high']]);
    expect(s.of(openRedirect)[0]!.evidence).toMatch(/< location: http:\/\/127\.0\.0\.1:\d+\/p\/pcb/);
  });

  it('finds a fetcher following a redirect to an internal address (follow-redirects)', async () => {
    const t = await only('follow-redirects', { fetchAllowlist: ['http://127.0.0.1:*'] });
    const s = await scan(t, [followsRedirects], { only: ['POST /link-preview'] });
    expect(s.of(followsRedirects).map((f) => [f.path, f.confidence])).toEqual([['/link-preview', 'high']]);
    expect(t.outbound.count((o) => /^http:\/\/localhost:\d+\/i\/pcb/.test(o.url) && o.outcome === 'fetched')).toBe(1);
  });

  it('finds a callback that accepts unsigned payloads (unsigned-webhook)', async () => {
    const t = await only('unsigned-webhook');
    const s = await scan(t, [unsignedWebhook], { only: ['POST /webhooks/payment-provider'] });
    expect(s.of(unsignedWebhook).map((f) => [f.path, f.parameter, f.confidence])).toEqual([['/webhooks/payment-provider', 'x-acme-signature', 'high']]);
  });
});

describe('the hardened twin', () => {
  it('yields no finding from any input check, over HTTP and HTTPS, and keeps every budget', async () => {
    for (const tls of [false, true]) {
      const t = await startTarget({ mode: 'hardened', tls });
      targets.push(t);
      const s = await scan(t, INPUT_CHECKS, { tlsVerify: false });
      expect(s.findings.map((f) => `${f.check_id} ${f.method} ${f.path}`)).toEqual([]);
      expect(t.internalErrors).toEqual([]);
      // Every check ran somewhere.
      expect(s.outcome.checksRun.map((c) => c.check_id).sort()).toEqual(INPUT_CHECKS.map((c) => c.id).sort());
    }
  });

  it('does not report a redirect the fetcher refuses to follow, nor a trusted external fetch as a redirect problem', async () => {
    const t = await startTarget({ mode: 'hardened', fetchAllowlist: ['http://127.0.0.1:*'] });
    targets.push(t);
    // GET /me as well: a scan that reaches no operation with a success fails (issue 26), and both routes refuse here.
    const s = await scan(t, [followsRedirects], { only: ['POST /link-preview', 'PUT /me/avatar', 'GET /me'] });
    expect(s.of(followsRedirects)).toEqual([]);
    // The first hop was fetched (it is allowed); the hop to localhost was refused.
    expect(t.outbound.count((o) => /\/r\/pcb/.test(o.url) && o.outcome === 'fetched')).toBeGreaterThan(0);
    expect(t.outbound.count((o) => /^http:\/\/localhost:\d+\/i\/pcb/.test(o.url) && o.outcome === 'refused')).toBeGreaterThan(0);
  });
});
