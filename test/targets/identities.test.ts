// What the target gives a scanner that signs in by itself: short-lived tokens, the sign-in log,
// the OAuth2 token endpoint, cookie sessions with CSRF, and the X-Api-Token header of Postman
// collections. Real HTTP, both modes where the behaviour is the same in both.

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPostmanCollection, POSTMAN_FIXTURE_BASE_URL, SEED, startTarget, type Target, type TargetOptions } from '.';
import { type AnyJson, call, type CallOptions, type CallResult, jwtParts } from './testing';

const open: Target[] = [];
const start = async (o: TargetOptions) => {
  const t = await startTarget(o);
  open.push(t);
  return t;
};
afterEach(async () => {
  for (const t of open) expect(t.internalErrors).toEqual([]);
  await Promise.all(open.splice(0).map((t) => t.close()));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Until the JWT's exp second has passed (jose refuses a token from its exp second on). */
const untilExpired = async (token: string) => sleep(Math.max(0, (jwtParts(token).payload.exp as number) * 1000 - Date.now() + 50));

const login = (t: Target, username: string, password: string) => call(t, 'POST', '/api/v2/auth/login', { body: { username, password } });
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const token = (t: Target, form: Record<string, string>, o: CallOptions = {}) => call(t, 'POST', '/api/v2/oauth/token', { form, ...o });

/** Cookie name -> value from the Set-Cookie headers of a response. */
const cookieValues = (c: CallResult) => Object.fromEntries(c.setCookies.map((s) => s.split(';')[0]!.split('=') as [string, string]));
const cookieHeader = (values: Record<string, string>) => Object.entries(values).map(([k, v]) => `${k}=${v}`).join('; ');

// With these flaws on, expired or broken tokens are accepted by design: the expiry tests of the
// vulnerable target switch them off.
const EXPIRY_FLAWS_OFF = { 'jwt-exp-ignored': false, 'auth-garbage': false, 'jwt-sig-unverified': false } as const;

describe('short-lived tokens', () => {
  for (const mode of ['hardened', 'vulnerable'] as const) {
    it(`${mode}: a login token with a 2-second TTL says so, works, then gets 401 everywhere`, async () => {
      const t = await start({ mode, tokenTtlSeconds: 2, flaws: mode === 'vulnerable' ? EXPIRY_FLAWS_OFF : {} });
      const res = await login(t, 'alice', t.users.alice.password);
      expect(res.json).toMatchObject({ tokenType: 'Bearer', expiresIn: 2 });
      const key = res.json.accessToken as string;
      const { payload } = jwtParts(key);
      expect((payload.exp as number) - (payload.iat as number)).toBe(2);
      expect((await call(t, 'GET', '/api/v2/me', { key })).status).toBe(200);
      await untilExpired(key);
      for (const [method, p, body] of [
        ['GET', '/api/v2/me'],
        ['GET', `/api/v2/orders/${SEED.orders.alice[0]}`],
        ['GET', '/api/v2/orders'],
        ['POST', '/api/v2/notes', { title: 'too late' }],
        ['PUT', '/api/v2/me/password', { currentPassword: t.users.alice.password, newPassword: 'never-applied-password' }],
      ] as const) {
        const c = await call(t, method, p, { key, body });
        expect(c.status, `${method} ${p}`).toBe(401);
        expect(c.headers['www-authenticate'], `${method} ${p}`).toMatch(/^Bearer .*error="invalid_token"/);
      }
      // As X-Api-Token too; and the pre-minted keys keep their 24 h.
      expect((await call(t, 'GET', '/api/v2/me', { headers: { 'x-api-token': key } })).status).toBe(401);
      expect((jwtParts(t.users.alice.key).payload.exp as number) * 1000).toBeGreaterThan(Date.now() + 23 * 3600_000);
      expect((await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key })).status).toBe(200);
    });
  }

  it('the jwt-exp-ignored flaw still accepts the expired token (that is the flaw)', async () => {
    const t = await start({ mode: 'hardened', tokenTtlSeconds: 1, flaws: { 'jwt-exp-ignored': true } });
    const key = (await login(t, 'bob', t.users.bob.password)).json.accessToken as string;
    await untilExpired(key);
    expect((await call(t, 'GET', '/api/v2/me', { key })).json.username).toBe('bob');
  });

  it('OAuth2 access tokens have the same TTL, and the default is still 24 h', async () => {
    const t = await start({ mode: 'hardened', tokenTtlSeconds: 1 });
    const c = t.oauth.clients.alice;
    const res = await token(t, { grant_type: 'client_credentials' }, { headers: { authorization: basic(c.clientId, c.clientSecret!) } });
    expect(res.json.expires_in).toBe(1);
    await untilExpired(res.json.access_token);
    expect((await call(t, 'GET', '/api/v2/me', { key: res.json.access_token })).status).toBe(401);

    const d = await start({ mode: 'hardened' });
    expect(d.tokenTtlSeconds).toBe(86400);
    expect((await login(d, 'alice', d.users.alice.password)).json.expiresIn).toBe(86400);
  });

  it('counts successful sign-ins per username and grant, not failures', async () => {
    const t = await start({ mode: 'hardened' });
    await login(t, 'alice', t.users.alice.password);
    await login(t, 'alice', 'wrong-password');
    await login(t, 'bob', t.users.bob.password);
    await call(t, 'POST', '/api/v2/auth/session', { body: { username: 'alice', password: t.users.alice.password } });
    const c = t.oauth.clients.bob;
    await token(t, { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret! });
    expect(t.logins.count()).toBe(4);
    expect(t.logins.count({ username: 'alice' })).toBe(2);
    expect(t.logins.count({ username: 'alice', grant: 'login' })).toBe(1);
    expect(t.logins.byUser()).toEqual({ alice: 2, bob: 2 });
    expect(t.logins.byGrant()).toEqual({ login: 2, session: 1, client_credentials: 1 });
    expect(t.logins.all().at(-1)).toMatchObject({ username: 'bob', userId: t.users.bob.id, grant: 'client_credentials', clientId: 'bob-service' });
    t.logins.reset();
    expect(t.logins.count()).toBe(0);
  });
});

describe('OAuth2 token endpoint', () => {
  const rfcError = (c: CallResult, status: number, error: string) => {
    expect([c.status, c.json?.error], c.text).toEqual([status, error]);
    expect(Object.keys(c.json).sort()).toEqual(['error', 'error_description']);
    expect(c.headers['cache-control']).toBe('no-store');
  };

  for (const mode of ['hardened', 'vulnerable'] as const) {
    it(`${mode}: client_credentials (HTTP Basic, body, JSON) acts as the client's user`, async () => {
      const t = await start({ mode });
      const a = t.oauth.clients.alice;
      const b = t.oauth.clients.bob;
      const viaBasic = await token(t, { grant_type: 'client_credentials' }, { headers: { authorization: basic(a.clientId, a.clientSecret!) } });
      expect(viaBasic.status).toBe(200);
      expect(viaBasic.json).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 86400, scope: 'read write' });
      expect(viaBasic.headers['cache-control']).toBe('no-store');
      expect(viaBasic.headers.pragma).toBe('no-cache');
      expect(jwtParts(viaBasic.json.access_token).payload).toMatchObject({ sub: String(t.users.alice.id), client_id: 'alice-service', scope: 'read write' });
      expect((await call(t, 'GET', '/api/v2/me', { key: viaBasic.json.access_token })).json.username).toBe('alice');

      const viaBody = await token(t, { grant_type: 'client_credentials', client_id: b.clientId, client_secret: b.clientSecret!, scope: 'read' });
      expect(viaBody.json.scope).toBe('read');
      expect((await call(t, 'GET', '/api/v2/me', { key: viaBody.json.access_token })).json.username).toBe('bob');

      const viaJson = await call(t, 'POST', '/api/v2/oauth/token', { body: { grant_type: 'client_credentials', client_id: 'admin-service', client_secret: t.oauth.clients.admin.clientSecret } });
      expect((await call(t, 'GET', '/api/v2/admin/users', { key: viaJson.json.access_token })).status).toBe(200);
    });
  }

  it('password grant with the public client, and refresh tokens that rotate', async () => {
    const t = await start({ mode: 'hardened' });
    const first = await token(t, { grant_type: 'password', username: 'alice', password: t.users.alice.password, client_id: 'acme-web' });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ token_type: 'Bearer', expires_in: 86400, scope: 'read write', refresh_token: expect.any(String) });
    expect((await call(t, 'GET', '/api/v2/orders', { key: first.json.access_token })).status).toBe(200);

    const second = await token(t, { grant_type: 'refresh_token', refresh_token: first.json.refresh_token, client_id: 'acme-web' });
    expect(second.status).toBe(200);
    expect(second.json.refresh_token).not.toBe(first.json.refresh_token);
    expect(second.json.access_token).not.toBe(first.json.access_token);
    expect((await call(t, 'GET', '/api/v2/me', { key: second.json.access_token })).json.username).toBe('alice');
    // A refresh may narrow the scope, never widen it.
    const third = await token(t, { grant_type: 'refresh_token', refresh_token: second.json.refresh_token, client_id: 'acme-web', scope: 'read' });
    expect(third.json.scope).toBe('read');
    rfcError(await token(t, { grant_type: 'refresh_token', refresh_token: third.json.refresh_token, client_id: 'acme-web', scope: 'read write' }), 400, 'invalid_scope');

    // The used token is dead; replaying it also revokes its live successor.
    const replay = await token(t, { grant_type: 'refresh_token', refresh_token: first.json.refresh_token, client_id: 'acme-web' });
    rfcError(replay, 400, 'invalid_grant');
    rfcError(await token(t, { grant_type: 'refresh_token', refresh_token: third.json.refresh_token, client_id: 'acme-web' }), 400, 'invalid_grant');
    expect(t.logins.byGrant()).toEqual({ password: 1, refresh_token: 2 });
  });

  it('a confidential client may use the password grant; a refresh token stays with its client', async () => {
    const t = await start({ mode: 'hardened' });
    const a = t.oauth.clients.alice;
    const auth = { headers: { authorization: basic(a.clientId, a.clientSecret!) } };
    const res = await token(t, { grant_type: 'password', username: 'bob', password: t.users.bob.password }, auth);
    expect((await call(t, 'GET', '/api/v2/me', { key: res.json.access_token })).json.username).toBe('bob');
    rfcError(await token(t, { grant_type: 'refresh_token', refresh_token: res.json.refresh_token, client_id: 'acme-web' }), 400, 'invalid_grant');
    // Refused for the wrong client, not burnt: its own client can still use it.
    expect((await token(t, { grant_type: 'refresh_token', refresh_token: res.json.refresh_token }, auth)).status).toBe(200);
    // A confidential client must authenticate to refresh.
    rfcError(await token(t, { grant_type: 'refresh_token', refresh_token: res.json.refresh_token, client_id: a.clientId }), 401, 'invalid_client');
  });

  it('answers errors as RFC 6749 section 5.2 says', async () => {
    const t = await start({ mode: 'hardened' });
    const a = t.oauth.clients.alice;
    const badSecret = await token(t, { grant_type: 'client_credentials' }, { headers: { authorization: basic(a.clientId, 'wrong') } });
    rfcError(badSecret, 401, 'invalid_client');
    expect(badSecret.headers['www-authenticate']).toMatch(/^Basic /);
    rfcError(await token(t, { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' }), 401, 'invalid_client');
    rfcError(await token(t, { grant_type: 'client_credentials' }), 401, 'invalid_client');
    rfcError(await token(t, { grant_type: 'password', username: 'alice', password: t.users.alice.password, client_id: 'acme-web', client_secret: 'x' }), 401, 'invalid_client');
    rfcError(await token(t, { grant_type: 'client_credentials', client_secret: a.clientSecret! }, { headers: { authorization: basic(a.clientId, a.clientSecret!) } }), 400, 'invalid_request');
    rfcError(await token(t, { grant_type: 'password', username: 'alice', password: 'wrong-password', client_id: 'acme-web' }), 400, 'invalid_grant');
    rfcError(await token(t, { grant_type: 'password', username: 'alice', client_id: 'acme-web' }), 400, 'invalid_request');
    rfcError(await token(t, { grant_type: 'refresh_token', refresh_token: 'not-a-token', client_id: 'acme-web' }), 400, 'invalid_grant');
    rfcError(await token(t, { grant_type: 'authorization_code', code: 'x', client_id: 'acme-web' }), 400, 'unsupported_grant_type');
    rfcError(await token(t, { client_id: 'acme-web' }), 400, 'invalid_request');
    rfcError(await token(t, { grant_type: 'client_credentials', client_id: 'acme-web' }), 400, 'unauthorized_client');
    rfcError(await token(t, { grant_type: 'client_credentials', scope: 'admin' }, { headers: { authorization: basic(a.clientId, a.clientSecret!) } }), 400, 'invalid_scope');
    rfcError(await call(t, 'POST', '/api/v2/oauth/token', { raw: 'grant_type=client_credentials', headers: { 'content-type': 'text/plain' } }), 400, 'invalid_request');
    rfcError(await call(t, 'POST', '/api/v2/oauth/token', { raw: 'grant_type=password&grant_type=refresh_token', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 400, 'invalid_request');
    rfcError(await call(t, 'POST', '/api/v2/oauth/token', { body: { grant_type: 'password', username: 'alice', password: { $ne: null }, client_id: 'acme-web' } }), 400, 'invalid_request');
    expect((await call(t, 'GET', '/api/v2/oauth/token')).status).toBe(405);
    expect(t.logins.count()).toBe(0);
  });

  it('is declared in the spec as an oauth2 scheme, an alternative to the others', () => {
    return start({ mode: 'hardened' }).then((t) => {
      const c = t.spec.components as AnyJson;
      expect(c.securitySchemes.oauth2.flows.password.tokenUrl).toBe(t.oauth.tokenUrl);
      expect(c.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe(t.oauth.tokenUrl);
      expect(t.oauth.tokenUrl).toBe(`${t.baseUrl}/oauth/token`);
      expect(c.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'acme_session' });
      expect(c.securitySchemes.apiTokenAuth).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Token' });
      expect(t.spec.security).toEqual([{ bearerAuth: [] }, { apiKeyAuth: [] }, { apiTokenAuth: [] }, { oauth2: [] }, { sessionCookie: [] }]);
      const op = (t.spec.paths as AnyJson)['/oauth/token'].post;
      expect(op.security).toEqual([]);
      expect(Object.keys(op.requestBody.content)).toEqual(['application/x-www-form-urlencoded', 'application/json']);
    });
  });
});

describe('cookie sessions with CSRF', () => {
  const signIn = async (t: Target, name: 'alice' | 'bob' = 'alice') => {
    const res = await call(t, 'POST', '/api/v2/auth/session', { body: { username: name, password: t.users[name].password } });
    expect(res.status, res.text).toBe(200);
    return res;
  };

  for (const mode of ['hardened', 'vulnerable'] as const) {
    it(`${mode}: signs in with an HttpOnly session cookie and a readable CSRF token (cookie, header and body)`, async () => {
      const t = await start({ mode });
      const res = await signIn(t);
      const [session, csrf] = [res.setCookies.find((s) => s.startsWith('acme_session='))!, res.setCookies.find((s) => s.startsWith('acme_csrf='))!];
      expect(session).toMatch(/; HttpOnly/);
      expect(session).toMatch(/; SameSite=Lax/);
      expect(session).toMatch(/; Max-Age=86400/);
      expect(csrf).not.toMatch(/HttpOnly/);
      const values = cookieValues(res);
      expect(res.json).toEqual({ csrfToken: values.acme_csrf, expiresIn: 86400, user: { id: t.users.alice.id, username: 'alice' } });
      expect(res.headers['x-csrf-token']).toBe(values.acme_csrf);
      expect(t.logins.count({ username: 'alice', grant: 'session' })).toBe(1);

      const cookie = cookieHeader(values);
      expect((await call(t, 'GET', '/api/v2/me', { headers: { cookie } })).json.username).toBe('alice');
      expect((await call(t, 'GET', `/api/v2/orders/${SEED.orders.alice[0]}`, { headers: { cookie } })).status).toBe(200);
    });

    it(`${mode}: unsafe methods with the session cookie need the CSRF header (403 csrf_failed otherwise)`, async () => {
      const t = await start({ mode });
      const values = cookieValues(await signIn(t));
      const cookie = cookieHeader(values);
      const bobsToken = (await signIn(t, 'bob')).json.csrfToken as string;
      const attempts: Record<string, string>[] = [{ cookie }, { cookie, 'x-csrf-token': 'forged' }, { cookie: `acme_session=${values.acme_session}`, 'x-csrf-token': bobsToken }];
      for (const headers of attempts) {
        const res = await call(t, 'POST', '/api/v2/notes', { headers, body: { title: 'no token' } });
        expect([res.status, res.json.error]).toEqual([403, 'csrf_failed']);
        expect((await call(t, 'PATCH', '/api/v2/me', { headers, body: { displayName: 'x' } })).status).toBe(403);
        expect((await call(t, 'DELETE', `/api/v2/notes/${SEED.notes.alice[0]}`, { headers })).status).toBe(403);
      }
      const ok = await call(t, 'POST', '/api/v2/notes', { headers: { cookie, 'x-csrf-token': values.acme_csrf! }, body: { title: 'with token' } });
      expect(ok.status).toBeLessThan(300);
      expect(ok.json.title).toBe('with token');
      // A bearer token is not ambient: with one, the cookie is not what signs the request in.
      expect((await call(t, 'POST', '/api/v2/notes', { key: t.users.alice.key, headers: { cookie }, body: { title: 'bearer' } })).status).toBeLessThan(300);
      expect((await call(t, 'GET', '/api/v2/notes/' + SEED.notes.alice[0], { headers: { cookie } })).status).toBe(200);
    });
  }

  it('logs out (with the CSRF token), clearing both cookies; the session is dead', async () => {
    const t = await start({ mode: 'hardened' });
    const values = cookieValues(await signIn(t));
    const cookie = cookieHeader(values);
    expect((await call(t, 'DELETE', '/api/v2/auth/session', { headers: { cookie } })).status).toBe(403);
    const out = await call(t, 'DELETE', '/api/v2/auth/session', { headers: { cookie, 'x-csrf-token': values.acme_csrf! } });
    expect(out.status).toBe(204);
    expect(out.setCookies.map((s) => s.split(';').slice(0, 3).join(';'))).toEqual(['acme_session=; Path=/; Max-Age=0', 'acme_csrf=; Path=/; Max-Age=0']);
    expect((await call(t, 'GET', '/api/v2/me', { headers: { cookie } })).status).toBe(401);
    expect((await call(t, 'DELETE', '/api/v2/auth/session', { key: t.users.alice.key })).status).toBe(401);
  });

  it('expires sessions after sessionTtlSeconds, and gives a fresh session id at every sign-in', async () => {
    const t = await start({ mode: 'hardened', sessionTtlSeconds: 1 });
    const planted = 'planted-session-id';
    const res = await call(t, 'POST', '/api/v2/auth/session', { headers: { cookie: `acme_session=${planted}` }, body: { username: 'alice', password: t.users.alice.password } });
    const values = cookieValues(res);
    expect(values.acme_session).not.toBe(planted);
    expect(res.json.expiresIn).toBe(1);
    const cookie = cookieHeader(values);
    expect((await call(t, 'GET', '/api/v2/me', { headers: { cookie } })).status).toBe(200);
    await sleep(1100);
    const late = await call(t, 'GET', '/api/v2/me', { headers: { cookie } });
    expect(late.status).toBe(401);
    expect(late.headers['www-authenticate']).toMatch(/error="invalid_token"/);
  });

  it('with loginCsrf, signing in takes two steps: GET /auth/csrf, then the token in cookie and header', async () => {
    const t = await start({ mode: 'hardened', loginCsrf: true });
    const body = { username: 'alice', password: t.users.alice.password };
    expect((await call(t, 'POST', '/api/v2/auth/session', { body })).json.error).toBe('csrf_failed');
    const pre = await call(t, 'GET', '/api/v2/auth/csrf');
    const token = pre.json.csrfToken as string;
    expect(cookieValues(pre).acme_csrf).toBe(token);
    expect(pre.headers['x-csrf-token']).toBe(token);
    expect((await call(t, 'POST', '/api/v2/auth/session', { headers: { cookie: `acme_csrf=${token}` }, body })).status).toBe(403);
    expect((await call(t, 'POST', '/api/v2/auth/session', { headers: { cookie: 'acme_csrf=made-up', 'x-csrf-token': 'made-up' }, body })).status).toBe(403);
    const res = await call(t, 'POST', '/api/v2/auth/session', { headers: { cookie: `acme_csrf=${token}`, 'x-csrf-token': token }, body });
    expect(res.status).toBe(200);
    // The session gets a token of its own.
    expect(res.json.csrfToken).not.toBe(token);
  });
});

describe('X-Api-Token and the Postman collection', () => {
  for (const mode of ['hardened', 'vulnerable'] as const) {
    it(`${mode}: X-Api-Token takes a JWT or an API key`, async () => {
      const t = await start({ mode });
      expect((await call(t, 'GET', '/api/v2/me', { headers: { 'x-api-token': t.users.bob.key } })).json.username).toBe('bob');
      expect((await call(t, 'GET', '/api/v2/me', { headers: { 'x-api-token': t.users.bob.apiKey } })).json.username).toBe('bob');
      expect((await call(t, 'POST', '/api/v2/notes', { headers: { 'x-api-token': t.users.bob.apiKey }, body: { title: 'via header' } })).status).toBeLessThan(300);
      expect(t.requests.count({ authenticated: true })).toBe(3);
    });
  }

  it('hardened: a garbage X-Api-Token is 401', async () => {
    const t = await start({ mode: 'hardened' });
    expect((await call(t, 'GET', '/api/v2/me', { headers: { 'x-api-token': 'not-a-credential' } })).status).toBe(401);
    expect((await call(t, 'GET', `/api/v2/orders/${SEED.orders.alice[0]}`, { headers: { 'x-api-token': 'a.b.c' } })).status).toBe(401);
  });

  /** Runs one collection request: {{variables}}, :path variables and the header as written. */
  const runItem = (t: Target, vars: Record<string, string>, req: AnyJson) => {
    const fill = (s: string) => s.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => vars[k] ?? '');
    let url = fill(req.url.raw as string);
    for (const v of req.url.variable ?? []) url = url.replace(`:${v.key}`, v.value);
    const headers = Object.fromEntries((req.header as { key: string; value: string }[]).map((h) => [h.key.toLowerCase(), fill(h.value)]));
    return call(t, req.method, url, { headers, raw: req.body?.raw });
  };

  it('every request of the collection works with the credential in its own header, and only with it', async () => {
    const t = await start({ mode: 'hardened' });
    const col = buildPostmanCollection(t, { token: t.users.alice.key }) as AnyJson;
    expect(col.auth).toBeUndefined();
    const vars = Object.fromEntries((col.variable as { key: string; value: string }[]).map((v) => [v.key, v.value]));
    expect(vars).toEqual({ baseUrl: t.baseUrl, token: t.users.alice.key });
    const requests = (col.item as AnyJson[]).flatMap((folder) => folder.item.map((i: AnyJson) => i.request));
    expect(requests.length).toBeGreaterThanOrEqual(8);
    expect(requests.some((r: AnyJson) => r.method === 'POST' && r.url.path.join('/') === 'notes')).toBe(true);
    for (const req of requests) {
      expect(req.auth).toBeUndefined();
      expect(req.header).toContainEqual({ key: 'X-Api-Token', value: '{{token}}', type: 'text' });
      const ok = await runItem(t, vars, req);
      expect(ok.status, `${req.method} ${req.url.raw}: ${ok.text.slice(0, 200)}`).toBeLessThan(300);
      const anonymous = await runItem(t, { ...vars, token: '' }, req);
      expect(anonymous.status, `${req.method} ${req.url.raw} without a token`).toBe(401);
    }
    // An API key in the same variable works as well.
    expect((await runItem(t, { ...vars, token: t.users.alice.apiKey }, requests[0])).json.username).toBe('alice');
  });

  it('the static copy under test/fixtures/identities is the generator output (UPDATE_FIXTURES=1 rewrites it)', () => {
    const file = path.resolve(import.meta.dirname, '../fixtures/identities/acme-shop.postman_collection.json');
    const expected = `${JSON.stringify(buildPostmanCollection({ baseUrl: POSTMAN_FIXTURE_BASE_URL }), null, 2)}\n`;
    if (process.env.UPDATE_FIXTURES) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, expected);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(expected);
  });
});
