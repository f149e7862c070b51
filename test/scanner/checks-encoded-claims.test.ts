// Encoded ids swapped (API1), sensitive claims in the tokens the API issues (API3), SSRF answers
// that return the fetched content base64-encoded (API7), and data-wiping routes that answer
// without credentials (API5): each found on the target with its flaw, silent on the hardened twin,
// within budget, and a trap for each precision rule on a small API of its own.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bolaEncodedIdSwap } from '../../electron/scanner/checks/api1-object-authorization/encoded-id-swap';
import { bolaCreateSteal } from '../../electron/scanner/checks/api1-object-authorization/created-objects';
import { noOrInvalidCredentials } from '../../electron/scanner/checks/api2-authentication/credentials-not-enforced';
import { tokenClaims } from '../../electron/scanner/checks/api3-property-authorization/token-claims';
import { unauthenticatedReset } from '../../electron/scanner/checks/api5-function-authorization/destructive-routes';
import { ssrfInternal } from '../../electron/scanner/checks/api7-ssrf/ssrf';
import type { IdentityInput } from '../../shared/identities';
import { scanChecks } from '../helpers/check-scan';
import type { Target } from '../targets';
import { endpoint, expectWellFormed, expectWithinBudget, hardened, scanServer, targetWith } from './check-harness';

const targets: Target[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
});
async function keep(p: Promise<Target>): Promise<Target> {
  const t = await p;
  targets.push(t);
  return t;
}

const JWT_TEXT = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{10,}/;
const login = (t: Target, user: 'alice' | 'bob'): IdentityInput => ({
  name: user,
  login: { request: { method: 'POST', path: '/auth/login', json: { username: t.users[user].username, password: t.users[user].password } }, token: { from: 'body', pointer: '/accessToken' } },
});

describe('encoded ids (api1-bola-encoded-id-swap)', () => {
  const ROUTES = ['GET /receipts/{receiptId}', 'GET /me'];

  it('decodes the base64 receipt id, takes its neighbours and reads the other user\'s receipt', async () => {
    const t = await keep(targetWith('bola-encoded-id'));
    const s = await scanChecks(t, [bolaEncodedIdSwap], { only: ROUTES });
    const found = s.of(bolaEncodedIdSwap);
    expect(found.map((f) => `${f.method} ${f.path} ${f.parameter}`)).toEqual(['GET /receipts/{receiptId} receiptId']);
    expect(found[0]!.confidence).toBe('high');
    expect(found[0]!.description).toMatch(/base64 of "100\d"/);
    expect(found[0]!.evidence).toContain(t.users.alice.email);
    expectWellFormed(s, found);
    expectWithinBudget(s, [bolaEncodedIdSwap]);
  });

  it('is silent on the hardened twin', async () => {
    const t = await keep(hardened());
    const s = await scanChecks(t, [bolaEncodedIdSwap], { only: ROUTES });
    expect(s.of(bolaEncodedIdSwap)).toEqual([]);
    expectWithinBudget(s, [bolaEncodedIdSwap]);
  });
});

describe('token claims (api3-token-claims)', () => {
  it('reads the password hash from the JWT the login issues, never showing the token', async () => {
    const t = await keep(targetWith('token-claims-secret'));
    const s = await scanChecks(t, [tokenClaims], { only: ['POST /auth/login', 'GET /me'], identities: [login(t, 'alice'), login(t, 'bob')] });
    const found = s.of(tokenClaims);
    expect(found.map((f) => `${f.vulnerability_name} | ${f.method} ${f.path}`)).toEqual(['Token issued by the API carries password hashes | POST /auth/login']);
    const f = found[0]!;
    expect(f.evidence).toMatch(/Claims of the token: .*pwdHash = \$scr…/);
    for (const text of [f.evidence, f.curl, f.description]) {
      expect(text).not.toMatch(JWT_TEXT);
      expect(text).not.toContain('$scrypt$ln=');
      expect(text).not.toContain(t.users.alice.password);
    }
    expectWellFormed(s, found);
    expect(s.sent(tokenClaims)).toBe(0);
  });

  it('is silent on the hardened twin, whose tokens carry sub, exp and the usual claims', async () => {
    const t = await keep(hardened());
    const s = await scanChecks(t, [tokenClaims], { only: ['POST /auth/login', 'GET /me'], identities: [login(t, 'alice'), login(t, 'bob')] });
    expect(s.of(tokenClaims)).toEqual([]);
  });
});

describe('SSRF content returned encoded (api7-ssrf-internal-targets)', () => {
  it('decodes {"content": base64(fetched)} before seeking the markers', async () => {
    const t = await keep(targetWith('ssrf-encoded'));
    const s = await scanChecks(t, [ssrfInternal], { only: ['POST /link-archive'] });
    const found = s.of(ssrfInternal);
    expect(found.map((f) => [f.path, f.confidence])).toEqual([['/link-archive', 'high']]);
    expect(found[0]!.description).toContain('base64- or hex-encoded');
    expectWellFormed(s, found);
    expectWithinBudget(s, [ssrfInternal]);
  });

  it('is silent on the hardened twin', async () => {
    const t = await keep(hardened());
    const s = await scanChecks(t, [ssrfInternal], { only: ['POST /link-archive'] });
    expect(s.of(ssrfInternal)).toEqual([]);
  });
});

describe('unauthenticated writes and reset routes', () => {
  const ROUTES = ['GET /maintenance/reset', 'POST /notes', 'GET /notes/{noteId}', 'PUT /notes/{noteId}', 'DELETE /notes/{noteId}'];

  // The user's consent: writes to existing objects, and the reset route named (a loopback target is no exception).
  const CONSENT = { allowExistingObjects: true, namedOperations: ['GET /maintenance/reset'] };

  it('never calls a reset route without the user\'s consent, on loopback too', async () => {
    const t = await keep(targetWith('unauth-reset'));
    const s = await scanChecks(t, [unauthenticatedReset, bolaCreateSteal, noOrInvalidCredentials], { only: ROUTES, allowExistingObjects: true });
    expect(t.requests.count({ path: '/api/v2/maintenance/reset' })).toBe(0);
    expect(s.outcome.errors.some((e) => e.includes('GET /maintenance/reset') && e.includes('destructive:'))).toBe(true);
  });

  it('proves a reset route once, after every other check: the object key 1 created is gone', async () => {
    const t = await keep(targetWith('unauth-reset'));
    const s = await scanChecks(t, [unauthenticatedReset, bolaCreateSteal, noOrInvalidCredentials], { only: ROUTES, ...CONSENT });
    const found = s.of(unauthenticatedReset);
    expect(found.map((f) => `${f.method} ${f.path} ${f.owasp} ${f.confidence}`)).toEqual(['GET /maintenance/reset API5:2023 high']);
    expect(found[0]!.cvss_vector).toContain('PR:N');
    expect(found[0]!.cvss_vector).toContain('I:H/A:H');
    expect(found[0]!.evidence).toMatch(/== After: key 1 reads the same object[^\n]*==\n> GET [^\n]+\n[\s\S]*?< HTTP 404/);
    expectWellFormed(s, found);
    expectWithinBudget(s, [unauthenticatedReset]);
    // Sent once, and after every other request of the scan but the re-read that proves it.
    const all = t.requests.all();
    const resets = all.filter((r) => r.path.endsWith('/maintenance/reset'));
    expect(resets.length).toBe(1);
    expect(all.slice(all.indexOf(resets[0]!) + 1).every((r) => /\/notes\//.test(r.path) && r.method === 'GET')).toBe(true);
    // The credentials check never sent it: baselines skip routes named so.
    expect(s.of(noOrInvalidCredentials)).toEqual([]);
  });

  it('is silent on the hardened twin, which refuses the reset without credentials (and sends it once)', async () => {
    const t = await keep(hardened());
    const s = await scanChecks(t, [unauthenticatedReset, noOrInvalidCredentials], { only: ROUTES, ...CONSENT });
    expect(s.findings).toEqual([]);
    expect(t.requests.count({ path: '/api/v2/maintenance/reset' })).toBeLessThanOrEqual(1);
  });

  it('says a write without credentials is one, and scores it as such (auth-none on a write)', async () => {
    const server = await trapServer();
    const r = await scanServer(server.url, [endpoint('GET', '/me'), endpoint('POST', '/things', { responses: { '201': { description: 'created', content_type: 'application/json', schema: null } } })], [noOrInvalidCredentials], { 1: ALICE });
    const f = r.findings.find((x) => x.path === '/things');
    expect(f?.vulnerability_name).toBe('Write operation accepts requests without credentials');
    expect(f?.description).toContain('It is a write operation (POST)');
    expect(f?.cvss_vector).toMatch(/PR:N\/UI:N\/S:U\/C:N\/I:H/);
    await server.close();
  });
});

// ---------------------------------------------------------------- traps on a small API

const USERS: Record<string, { id: number; username: string; email: string }> = {
  'tok-alice-5f1b2c3d4e5f60718293a4b5': { id: 41, username: 'alice.w', email: 'alice.w@example.org' },
  'tok-bob-9a8b7c6d5e4f30211203f4e5': { id: 42, username: 'bob.k', email: 'bob.k@example.org' },
};
const [ALICE, BOB] = Object.keys(USERS) as [string, string];
const jwt = (payload: object) => `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.c2lnbmF0dXJlLW9mLXRoZS1zZXJ2ZXI`;

/** Things anyone signed in reads by any id (the trap is that its ids only look encoded), sessions with tokens, an archive returning base64 pages, a write without auth. */
async function trapServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const user = USERS[(req.headers.authorization ?? '').replace(/^Bearer /, '')];
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/') return json(200, { service: 'Trap inventory API', status: 'ok' });
      if (req.method === 'POST' && url.pathname === '/things') return json(201, { id: 7, name: 'a thing', createdAt: '2026-01-01' });
      if (req.method === 'POST' && url.pathname === '/archive') return json(200, { content: Buffer.from('<html><title>Archived copy</title><p>Nothing internal here.</p></html>').toString('base64') });
      if (!user) return json(401, { error: 'unauthorized' });
      if (url.pathname === '/me') return json(200, user);
      if (url.pathname === '/session') return json(200, { user: user.username, token: jwt({ sub: String(user.id), exp: 1893456000, iat: 1767225600 }) });
      // Any id reads bob's thing: a swap would be a finding, but the id decodes to noise.
      if (url.pathname.startsWith('/things/')) return json(200, { id: url.pathname.split('/')[2], owner: 'bob.k@example.org', name: 'Bob\'s private thing', value: 1234 });
      return json(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('traps', () => {
  let server: Awaited<ReturnType<typeof trapServer>>;
  beforeAll(async () => {
    server = await trapServer();
  });
  afterAll(() => server.close());

  it('does not swap an id that merely looks like base64 (it decodes to noise)', async () => {
    const things = endpoint('GET', '/things/{thingId}');
    things.parameters = [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string', example: 'k8Jz2QvN5mX1pL7r' } }];
    const r = await scanServer(server.url, [endpoint('GET', '/me'), things], [bolaEncodedIdSwap], { 1: ALICE, 2: BOB });
    expect(r.findings).toEqual([]);
    expect(r.outcome.requestsByCheck[bolaEncodedIdSwap.id] ?? 0).toBe(0);
  });

  it('is silent on a JWT with only sub, exp and iat', async () => {
    const r = await scanServer(server.url, [endpoint('GET', '/me'), endpoint('GET', '/session')], [tokenClaims], { 1: ALICE, 2: BOB });
    expect(r.outcome.checksRun.map((c) => c.check_id)).toContain(tokenClaims.id);
    expect(r.findings).toEqual([]);
  });

  it('is silent on plain base64 of a page that carries no marker', async () => {
    const archive = endpoint('POST', '/archive', {
      flags: ['SSRF'],
      request_body: { required: true, content_type: 'application/json', schema: { type: 'object', properties: { url: { type: 'string', format: 'uri', example: 'https://example.com/' } }, required: ['url'] } },
    });
    const r = await scanServer(server.url, [endpoint('GET', '/me'), archive], [ssrfInternal], { 1: ALICE });
    expect(r.outcome.requestsByCheck[ssrfInternal.id] ?? 0).toBeGreaterThan(1);
    expect(r.findings).toEqual([]);
  });
});
