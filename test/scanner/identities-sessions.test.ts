// Identities against real APIs: login recipes whose tokens expire within seconds (the scan completes
// and counts its refreshes), one login for a burst of 401s and none for an endpoint's own refusals,
// OAuth2 grants, cookie sessions with CSRF, per-request credential headers from a Postman
// collection, and the clear refusals: a login that fails, two identities that are one user.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { importApiDocument } from '../../electron/importer/index';
import { createMemoryLogger } from '../../electron/log';
import { bolaCreateSteal } from '../../electron/scanner/checks/api1-object-authorization/created-objects';
import { bolaTokenSwap } from '../../electron/scanner/checks/api1-object-authorization/id-swaps';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { AS_KEY1 } from '../../electron/scanner/http/exchange';
import { runScan } from '../../electron/scanner/run';
import type { Endpoint } from '../../shared/contract';
import type { IdentityInput } from '../../shared/identities';
import { scanChecks } from '../helpers/check-scan';
import { sessionEngine } from '../helpers/identity-session';
import { buildPostmanCollection, startTarget, type Target, type TargetOptions } from '../targets';
import { AUTH_CHECKS, BOLA_CHECKS } from './check-groups';

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function target(o: TargetOptions): Promise<Target> {
  const t = await startTarget(o);
  open.push(t);
  return t;
}

type Seeded = 'alice' | 'bob' | 'admin' | 'carol';

/** A login recipe identity for a seeded user of the test target. */
function loginRecipe(t: Target, user: Seeded, name: string = user): IdentityInput {
  const u = t.users[user];
  return { name, login: { request: { method: 'POST', path: '/auth/login', json: { username: u.username, password: u.password } }, token: { from: 'body', pointer: '/accessToken' } } };
}

function cookieSession(t: Target, user: Seeded, csrf: { from: 'cookie' | 'header' | 'body'; name?: string; pointer?: string }): IdentityInput {
  const u = t.users[user];
  return { name: user, cookie: { request: { method: 'POST', path: '/auth/session', json: { username: u.username, password: u.password } }, csrf: { ...csrf, header: t.session.csrfHeader } } };
}

const EXPIRY_FLAWS_OFF = { 'jwt-exp-ignored': false, 'auth-garbage': false, 'jwt-sig-unverified': false } as const;
const NOTES = ['GET /me', 'POST /notes', 'GET /notes', 'GET /notes/{noteId}', 'PUT /notes/{noteId}', 'DELETE /notes/{noteId}'];

describe('login recipes with tokens that expire within seconds', () => {
  it('complete the scan, renewing each identity before its token expires, and count the refreshes', async () => {
    const t = await target({ mode: 'vulnerable', tokenTtlSeconds: 3, flaws: EXPIRY_FLAWS_OFF });
    const started = Date.now();
    const s = await scanChecks(t, [...BOLA_CHECKS, ...AUTH_CHECKS], {
      identities: [loginRecipe(t, 'alice'), loginRecipe(t, 'bob')],
      only: [...NOTES, 'GET /orders', 'GET /orders/{orderId}', 'GET /me/addresses'],
      rps: 12,
    });
    expect(Date.now() - started).toBeGreaterThan(4000);
    expect(s.outcome.status).toBe('completed');
    const [alice, bob] = s.outcome.identities;
    expect(alice).toMatchObject({ name: 'alice', obtained: 'login recipe (POST /auth/login)', verified_as: 'alice (GET /me)', failures: 0 });
    expect(bob).toMatchObject({ name: 'bob', verified_as: 'bob (GET /me)', failures: 0 });
    expect(alice!.refreshes).toBeGreaterThanOrEqual(1);
    expect(s.outcome.refreshes).toBe(alice!.refreshes + bob!.refreshes);
    expect(t.logins.count({ username: 'alice', grant: 'login' })).toBe(1 + alice!.refreshes);
    expect(s.outcome.errors.join('\n')).toMatch(/Credentials were renewed \d+ times? during the scan \(alice: \d+/);
    // The findings name the identities, not the slots.
    expect(s.of(bolaCreateSteal).length).toBeGreaterThan(0);
    expect(s.of(bolaCreateSteal)[0]!.description).toMatch(/\bbob\b/);
    expect(s.of(bolaCreateSteal)[0]!.description).not.toMatch(/\bkey [12]\b/);
  }, 60_000);

  it('a static key that expires still stops the scan, saying so', async () => {
    const t = await target({ mode: 'hardened', tokenTtlSeconds: 2 });
    const short = await t.mintToken('alice', { expiresIn: 2 });
    const s = await scanChecks(t, BOLA_CHECKS, { key1: short, only: NOTES, rps: 5 });
    expect(s.outcome.status).toBe('failed');
    expect(s.outcome.failureReason).toMatch(/^Key 1 stopped working during the scan: GET \/me answered 401 where it answered 200 earlier/);
  }, 30_000);
});

/** An engine speaking as one session, outside a scan: to count logins exactly. */
async function oneSession(t: Pick<Target, 'baseUrl'>, identity: IdentityInput) {
  const made = await sessionEngine(t.baseUrl, identity);
  open.push({ close: () => made.engine.close() });
  return made;
}

describe('renewal', () => {
  it('a burst of 401s (the session was logged out behind the scan) causes exactly one login, and every request is answered', async () => {
    const t = await target({ mode: 'hardened' });
    const { engine, session } = await oneSession(t, cookieSession(t, 'alice', { from: 'cookie', name: t.session.csrfCookie }));
    const c = session.credential!;
    // Another check logged the session out.
    const out = await fetch(`${t.baseUrl}/auth/session`, { method: 'DELETE', headers: { cookie: Object.entries(c.cookies).map(([k, v]) => `${k}=${v}`).join('; '), ...c.headers } });
    expect(out.status).toBeLessThan(300);
    const before = t.logins.count({ username: 'alice', grant: 'session' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => engine.send({ method: 'GET', url: engine.resolve('/me'), auth: AS_KEY1 })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(t.logins.count({ username: 'alice', grant: 'session' }) - before).toBe(1);
    expect(session.refreshes).toBe(1);
  });

  it('a token about to expire is renewed once before requests go out with it', async () => {
    const t = await target({ mode: 'hardened', tokenTtlSeconds: 2 });
    const { engine, session } = await oneSession(t, loginRecipe(t, 'alice'));
    await new Promise((r) => setTimeout(r, 1700));
    const answers = await Promise.all(Array.from({ length: 20 }, () => engine.send({ method: 'GET', url: engine.resolve('/me'), auth: AS_KEY1 })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(t.logins.count({ username: 'alice', grant: 'login' })).toBe(2);
    expect(session.refreshes).toBe(1);
  });

  it("an endpoint's own 401 (the canary still works) causes no login and no retry", async () => {
    let logins = 0;
    let secretHits = 0;
    const server = http.createServer((req, res) => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/login') {
        logins += 1;
        return send(200, { token: `tok-${logins}-aaaaaaaaaaaaaaaaaaaa` });
      }
      if (req.url === '/me') return req.headers.authorization?.startsWith('Bearer tok-') ? send(200, { id: 7, username: 'u' }) : send(401, { error: 'no' });
      secretHits += 1;
      return send(401, { error: 'not for you' });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    open.push({ close: () => new Promise<void>((r) => server.close(() => r())) });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { engine, session } = await oneSession({ baseUrl: base }, { name: 'u', login: { request: { path: '/login', json: {} }, token: { from: 'body', pointer: '/token' } } });
    const answers = await Promise.all(Array.from({ length: 10 }, () => engine.send({ method: 'GET', url: engine.resolve('/secret'), auth: AS_KEY1 })));
    expect(answers.every((a) => a.status === 401)).toBe(true);
    expect(secretHits).toBe(10);
    expect(logins).toBe(1);
    expect(session.refreshes).toBe(0);
  });
});

describe('OAuth2 grants', () => {
  it('client credentials: each client logs in as its user, is verified, and the scan finds what static keys find', async () => {
    const t = await target({ mode: 'hardened', flaws: { 'bola-path': true } });
    const client = (who: 'alice' | 'bob'): IdentityInput => ({ name: who, oauth2: { grant: 'client_credentials', client_id: t.oauth.clients[who].clientId, client_secret: t.oauth.clients[who].clientSecret! } });
    const s = await scanChecks(t, [bolaTokenSwap], { identities: [client('alice'), client('bob')], only: ['GET /me', 'GET /orders', 'GET /orders/{orderId}'] });
    expect(s.outcome.status).toBe('completed');
    expect(s.outcome.identities.map((i) => [i.name, i.obtained, i.verified_as])).toEqual([
      ['alice', 'OAuth2 client credentials grant', 'alice (GET /me)'],
      ['bob', 'OAuth2 client credentials grant', 'bob (GET /me)'],
    ]);
    expect(s.of(bolaTokenSwap).map((f) => f.path)).toEqual(['/orders/{orderId}']);
    // The token URL came from the spec's security scheme: no token_url was given.
    expect(t.logins.count({ grant: 'client_credentials' })).toBe(2);
  });

  it('password and refresh-token grants, with the rotated refresh token handed back for the next scan', async () => {
    const t = await target({ mode: 'hardened' });
    const web = t.oauth.clients.web.clientId;
    const first = await fetch(t.oauth.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: 'bob', password: t.users.bob.password, client_id: web }).toString(),
    }).then((r) => r.json() as Promise<{ refresh_token: string }>);
    const s = await scanChecks(t, [bolaTokenSwap], {
      identities: [
        { name: 'alice', oauth2: { grant: 'password', client_id: web, username: 'alice', password: t.users.alice.password, token_url: t.oauth.tokenUrl } },
        { name: 'bob', oauth2: { grant: 'refresh_token', client_id: web, refresh_token: first.refresh_token } },
      ],
      only: ['GET /me', 'GET /orders', 'GET /orders/{orderId}'],
    });
    expect(s.outcome.status).toBe('completed');
    expect(s.outcome.identities.map((i) => i.verified_as)).toEqual(['alice (GET /me)', 'bob (GET /me)']);
    const rotated = s.outcome.rotatedRefreshTokens.bob;
    expect(rotated).toBeTruthy();
    expect(rotated).not.toBe(first.refresh_token);
    expect(s.findings).toEqual([]);
  });
});

describe('cookie sessions with a CSRF token', () => {
  it.each([
    ['cookie', { from: 'cookie' as const, name: 'acme_csrf' }],
    ['header', { from: 'header' as const, name: 'X-CSRF-Token' }],
    ['body', { from: 'body' as const, pointer: '/csrfToken' }],
  ])('take the token from a %s and echo it on writes', async (_how, csrf) => {
    const t = await target({ mode: 'hardened', flaws: { 'bola-create-read': true } });
    const s = await scanChecks(t, [bolaCreateSteal], { identities: [cookieSession(t, 'alice', csrf), { ...cookieSession(t, 'bob', csrf), name: 'bob' }], only: NOTES });
    expect(s.outcome.status).toBe('completed');
    expect(s.outcome.identities[0]).toMatchObject({ name: 'alice', verified_as: 'alice (GET /me)' });
    expect(s.of(bolaCreateSteal).length).toBeGreaterThan(0);
    // Writes carried the token: the notes were created with the session.
    const writes = t.requests.all().filter((r) => r.method === 'POST' && r.path.endsWith('/notes'));
    expect(writes.length).toBeGreaterThan(0);
    for (const w of writes) expect(w.headers['x-csrf-token']).toBeTruthy();
  });

  it('say clearly when the CSRF token is not where the configuration says', async () => {
    const t = await target({ mode: 'hardened' });
    const s = await scanChecks(t, [bolaTokenSwap], { identities: [cookieSession(t, 'alice', { from: 'cookie', name: 'no_such_cookie' })], only: NOTES });
    expect(s.outcome.status).toBe('failed');
    expect(s.outcome.failureReason).toBe('Identity "alice" could not log in: The session started, but no CSRF token was found (a no_such_cookie cookie).');
  });
});

describe('a Postman collection whose requests carry the credential in their own header', () => {
  it('puts the scan credential in that header, so the authenticated checks find their flaws', async () => {
    const t = await target({ mode: 'hardened', flaws: { 'bola-path': true } });
    const imported = importApiDocument(new TextEncoder().encode(JSON.stringify(buildPostmanCollection(t))), { filename: 'acme.postman_collection.json' });
    expect(Object.values(imported.security.schemes)).toContainEqual({ type: 'apiKey', in: 'header', name: 'X-Api-Token' });
    const findings: BuiltFinding[] = [];
    const endpoints: Endpoint[] = imported.endpoints.map((e, i) => ({ ...e, id: `p${i}` }));
    const outcome = await runScan(
      {
        scanId: '00000000-0000-4000-8000-0000000000aa',
        api: { id: 'pm', name: imported.name, baseUrl: t.baseUrl, security: imported.security },
        endpoints,
        keys: { 1: t.users.alice.key, 2: t.users.bob.key },
        engine: { concurrency: 4, rps: 0, timeoutMs: 5000, retries: 0, maxBodyBytes: 1 << 20, maxRequestsPerScan: 5000, maxRequestsPerEndpoint: 200, tlsVerify: true, allowLocal: true },
        options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
        checks: [bolaTokenSwap],
        signal: new AbortController().signal,
      },
      { logger: createMemoryLogger('warn'), progress: () => undefined, finding: async (f) => (findings.push(f), true) },
    );
    expect(outcome.status).toBe('completed');
    expect(outcome.identities.map((i) => i.verified_as)).toEqual(['alice (GET /me)', 'bob (GET /me)']);
    expect(findings.map((f) => `${f.method} ${f.path}`)).toContain('GET /orders/{orderId}');
    const asAlice = t.requests.all().filter((r) => r.headers['x-api-token'] === t.users.alice.key);
    expect(asAlice.length).toBeGreaterThan(0);
    expect(t.requests.all().filter((r) => r.headers.authorization)).toEqual([]);
  });
});

describe('refusals before any check runs', () => {
  it('a login that fails names the request and its answer, and never the password', async () => {
    const t = await target({ mode: 'hardened' });
    const wrong = { ...loginRecipe(t, 'alice') };
    wrong.login = { ...wrong.login!, request: { ...wrong.login!.request!, json: { username: 'alice', password: 'Not-Alices-Password-1' } } };
    const s = await scanChecks(t, BOLA_CHECKS, { identities: [wrong], only: NOTES });
    expect(s.outcome.status).toBe('failed');
    expect(s.outcome.failureReason).toMatch(/^Identity "alice" could not log in: POST \/api\/v2\/auth\/login answered 401 /);
    expect(s.outcome.failureReason).not.toContain('Not-Alices-Password-1');
    expect(s.outcome.progress.done).toBe(0);
  });

  it('a login server that refuses the connection is named as such, not taken for the API', async () => {
    const t = await target({ mode: 'hardened' });
    // A port nothing listens on: the OAuth2 token endpoint of another host is down.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const identity: IdentityInput = { name: 'alice', oauth2: { grant: 'client_credentials', token_url: `http://127.0.0.1:${port}/oauth/token`, client_id: t.oauth.clients.alice.clientId, client_secret: t.oauth.clients.alice.clientSecret! } };
    const s = await scanChecks(t, BOLA_CHECKS, { identities: [identity], only: NOTES });
    expect(s.outcome.status).toBe('failed');
    expect(s.outcome.failureReason).toBe(
      `Identity "alice" could not log in: its login server 127.0.0.1:${port} did not answer (connection refused). Check that http://127.0.0.1:${port} is running and that the scanner can reach it.`,
    );
    expect(s.outcome.failureReason).not.toContain(t.oauth.clients.alice.clientSecret!);
  });

  it('two identities that log in as the same user are refused', async () => {
    const t = await target({ mode: 'hardened' });
    const s = await scanChecks(t, BOLA_CHECKS, { identities: [loginRecipe(t, 'alice'), loginRecipe(t, 'alice', 'alice-again')], only: NOTES });
    expect(s.outcome.status).toBe('failed');
    expect(s.outcome.failureReason).toBe(`Alice and alice-again are the same user (GET /me returned ${t.users.alice.id} for both). Each identity needs its own account: give alice-again another user's credential.`);
  });

  it('logging in and verifying four identities takes well under 2 s on loopback', async () => {
    const t = await target({ mode: 'hardened' });
    const started = performance.now();
    const s = await scanChecks(t, [], { identities: [loginRecipe(t, 'alice'), loginRecipe(t, 'bob'), { ...loginRecipe(t, 'admin'), role: 'privileged' }, { ...loginRecipe(t, 'carol'), role: 'lower' }] });
    expect(s.outcome.status).toBe('completed');
    expect(s.outcome.identities.map((i) => i.verified_as)).toEqual(['alice (GET /me)', 'bob (GET /me)', 'admin (GET /me)', 'carol (GET /me)']);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});


describe('a first login the API refuses once (still seeding or resetting its data)', () => {
  it('is tried once more after a pause, and the session starts', async () => {
    let logins = 0;
    const server = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/login') {
        logins += 1;
        // Like VAmPI while /createdb runs: 200, but no token.
        res.end(JSON.stringify(logins === 1 ? { status: 'fail', message: 'User not found' } : { status: 'success', auth_token: 'tok-after-retry' }));
        return;
      }
      res.statusCode = req.headers.authorization === 'Bearer tok-after-retry' ? 200 : 401;
      res.end(JSON.stringify({ username: 'ada' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    open.push({ close: () => new Promise<void>((r) => server.close(() => r())) });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const started = Date.now();
    const { session } = await sessionEngine(base, { name: 'ada', login: { request: { method: 'POST', path: '/login', json: { username: 'ada', password: 'pw' } }, token: { from: 'body', pointer: '/auth_token' } } });
    expect(logins).toBe(2);
    expect(session.token).toBe('tok-after-retry');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
