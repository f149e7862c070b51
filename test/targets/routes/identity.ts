// The other ways to sign in, for scanners that obtain credentials by themselves: the OAuth2 token
// endpoint (RFC 6749: password, client_credentials, rotating refresh tokens) and cookie sessions
// with a CSRF token. None of it is a flaw: both modes behave the same.

import type { UserRow } from '../auth';
import { type Ctx, type TargetState, unauthorized } from '../context';
import { HttpError, json, type Reply, type Router } from '../http';
import { CSRF_COOKIE, CSRF_HEADER, type OAuthClient, type OAuthGrant, OAUTH_SCOPES, parseCookies, sameToken, SESSION_COOKIE, setCookie } from '../identity';
import { SCHEMAS } from '../schemas';
import { passwordSignIn, signedIn } from './account';

/** An RFC 6749 section 5.2 error: `code` is the `error` value. */
const oauthError = (status: number, code: string, description: string, headers: Record<string, string> = {}) => new HttpError(status, code, description, {}, headers);
const invalidRequest = (d: string) => oauthError(400, 'invalid_request', d);
const invalidClient = (d: string) => oauthError(401, 'invalid_client', d, { 'www-authenticate': 'Basic realm="acme-shop"' });
const invalidGrant = (d: string) => oauthError(400, 'invalid_grant', d);

// Token responses carry credentials: never cached, whatever the missing-no-store flaw does elsewhere.
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** The token request's parameters: a form (the RFC's encoding) or, leniently, a JSON object of strings. */
function tokenParams(ctx: Ctx): Record<string, string> {
  const type = (ctx.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const text = ctx.rawBody.toString('utf8');
  const out: Record<string, string> = {};
  if (type === 'application/x-www-form-urlencoded') {
    for (const [k, v] of new URLSearchParams(text)) {
      // Section 3.2: a parameter without a value is omitted; none may be repeated.
      if (k in out) throw invalidRequest(`The ${k} parameter is repeated.`);
      if (v !== '') out[k] = v;
    }
    return out;
  }
  if (type === 'application/json') {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw invalidRequest('The request body is not valid JSON.');
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('The request body must be an object.');
    for (const [k, v] of Object.entries(body)) {
      if (typeof v !== 'string') throw invalidRequest(`The ${k} parameter must be a string.`);
      if (v !== '') out[k] = v;
    }
    return out;
  }
  throw invalidRequest('The body must be application/x-www-form-urlencoded (or application/json).');
}

/** Basic credentials are form-encoded before base64 (section 2.3.1). */
function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** The client that is calling: HTTP Basic or client_id/client_secret in the body, never both. */
function callingClient(t: TargetState, ctx: Ctx, p: Record<string, string>): OAuthClient {
  let id = p.client_id;
  let secret = p.client_secret;
  const basic = /^Basic\s+(\S+)\s*$/i.exec(ctx.header('authorization') ?? '');
  if (basic) {
    if (secret !== undefined) throw invalidRequest('Use one client authentication method, not HTTP Basic and client_secret both.');
    const pair = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = pair.indexOf(':');
    if (colon < 0) throw invalidClient('The Basic credentials must be client_id:client_secret.');
    if (id !== undefined && id !== formDecode(pair.slice(0, colon))) throw invalidClient('client_id does not match the authenticated client.');
    id = formDecode(pair.slice(0, colon));
    secret = formDecode(pair.slice(colon + 1));
  }
  if (id === undefined) throw invalidClient('Client authentication is required (HTTP Basic, or client_id for a public client).');
  const client = t.oauthClients.find((c) => c.clientId === id);
  if (!client) throw invalidClient('Unknown client.');
  if (client.clientSecret === undefined ? secret !== undefined : !sameToken(secret, client.clientSecret)) throw invalidClient('Client authentication failed.');
  return client;
}

/** The granted scope: the requested one when every scope in it is known, else all of `allowed`. */
function grantedScope(requested: string | undefined, allowed: readonly string[]): string {
  if (requested === undefined) return allowed.join(' ');
  const wanted = requested.split(' ').filter(Boolean);
  const unknown = wanted.filter((s) => !allowed.includes(s));
  if (unknown.length || wanted.length === 0) throw oauthError(400, 'invalid_scope', `Scope not available: ${unknown.join(' ') || '(empty)'}.`);
  return [...new Set(wanted)].join(' ');
}

async function issue(t: TargetState, ctx: Ctx, user: UserRow, client: OAuthClient, grant: OAuthGrant, scope: string, family?: string): Promise<Reply> {
  const body: Record<string, unknown> = {
    access_token: await t.auth.mint(user, { expiresIn: t.tokenTtlSeconds, claims: { scope, client_id: client.clientId } }),
    token_type: 'Bearer',
    expires_in: t.tokenTtlSeconds,
  };
  // Section 4.4.3: no refresh token for client_credentials (the client can always ask again).
  if (grant !== 'client_credentials') body.refresh_token = t.refreshTokens.issue(user.id, client.clientId, scope, family);
  body.scope = scope;
  signedIn(ctx, user, grant, client.clientId);
  return json(200, body, NO_STORE);
}

async function token(t: TargetState, ctx: Ctx): Promise<Reply> {
  const p = tokenParams(ctx);
  const grant = p.grant_type;
  if (grant === undefined) throw invalidRequest('grant_type is required.');
  if (grant !== 'password' && grant !== 'client_credentials' && grant !== 'refresh_token') throw oauthError(400, 'unsupported_grant_type', `The ${grant} grant is not supported.`);
  const client = callingClient(t, ctx, p);
  if (!client.grants.includes(grant)) throw oauthError(400, 'unauthorized_client', `This client may not use the ${grant} grant.`);

  if (grant === 'password') {
    if (p.username === undefined || p.password === undefined) throw invalidRequest('The password grant needs username and password.');
    const scope = grantedScope(p.scope, OAUTH_SCOPES);
    const user = passwordSignIn(ctx, p.username, p.password);
    if (!user) throw invalidGrant('Wrong username or password.');
    return issue(t, ctx, user, client, grant, scope);
  }
  if (grant === 'client_credentials') {
    const scope = grantedScope(p.scope, OAUTH_SCOPES);
    const user = client.userId === undefined ? undefined : t.auth.userById(client.userId);
    if (!user) throw invalidGrant('The account of this client no longer exists.');
    return issue(t, ctx, user, client, grant, scope);
  }
  if (p.refresh_token === undefined) throw invalidRequest('refresh_token is required.');
  const r = t.refreshTokens.find(p.refresh_token, client.clientId);
  if (!r.ok) {
    const why = { unknown: 'is not valid', expired: 'has expired', reused: 'was already used (its successors are revoked too)', 'other-client': 'was issued to another client' }[r.reason];
    throw invalidGrant(`The refresh token ${why}.`);
  }
  // A refresh may narrow the scope, never widen it (section 6).
  const scope = grantedScope(p.scope, r.grant.scope.split(' '));
  const user = t.auth.userById(r.grant.userId);
  if (!user) throw invalidGrant('The account no longer exists.');
  // Spent only now: a refused request (a wider scope, say) leaves the client its token.
  t.refreshTokens.consume(r.grant);
  return issue(t, ctx, user, client, grant, scope, r.grant.family);
}

export function registerIdentity(r: Router<Ctx>, t: TargetState): void {
  r.post('/api/v2/oauth/token', async (ctx) => {
    try {
      return await token(t, ctx);
    } catch (e) {
      // Only the protocol's own errors take its shape; the sign-in throttle's 429 stays the API's.
      if (!(e instanceof HttpError) || (e.status !== 400 && e.status !== 401)) throw e;
      return { status: e.status, json: { error: e.code, error_description: e.message }, headers: { ...e.headers, ...NO_STORE } };
    }
  });

  const secure = () => t.origin.startsWith('https:');
  const cookies = (ctx: Ctx) => parseCookies(ctx.req.headers.cookie);
  const csrfFailed = () => new HttpError(403, 'csrf_failed', `The ${CSRF_HEADER} header must carry the CSRF token.`);

  // Optional first step of a two-step login: a CSRF token before there is a session.
  r.get('/api/v2/auth/csrf', () => {
    const token = t.sessions.issuePreLogin();
    return json(200, { csrfToken: token }, { 'set-cookie': setCookie(CSRF_COOKIE, token, { maxAge: 3600, httpOnly: false, secure: secure() }), [CSRF_HEADER.toLowerCase()]: token });
  });

  r.post('/api/v2/auth/session', (ctx) => {
    if (t.loginCsrf && !t.sessions.checkPreLogin(cookies(ctx)[CSRF_COOKIE], ctx.header(CSRF_HEADER))) throw csrfFailed();
    const input = ctx.input<{ username: string; password: string }>(SCHEMAS.LoginRequest);
    const user = passwordSignIn(ctx, input.username, input.password);
    if (!user) throw new HttpError(401, 'invalid_credentials', 'Wrong username or password.');
    // A new session id at every sign-in, so an id planted before it (fixation) is worth nothing.
    const old = cookies(ctx)[SESSION_COOKIE];
    if (old !== undefined) t.sessions.destroy(old);
    const s = t.sessions.create(user.id);
    signedIn(ctx, user, 'session');
    const maxAge = t.sessions.ttlSeconds;
    return json(
      200,
      { csrfToken: s.csrf, expiresIn: maxAge, user: { id: user.id, username: user.username } },
      {
        'set-cookie': [setCookie(SESSION_COOKIE, s.id, { maxAge, httpOnly: true, secure: secure() }), setCookie(CSRF_COOKIE, s.csrf, { maxAge, httpOnly: false, secure: secure() })],
        [CSRF_HEADER.toLowerCase()]: s.csrf,
      },
    );
  });

  r.delete('/api/v2/auth/session', (ctx) => {
    const id = cookies(ctx)[SESSION_COOKIE];
    if (id === undefined) throw unauthorized('There is no session to end.');
    const s = t.sessions.get(id);
    // Logging someone out is a state change like any other: it needs the token too.
    if (s && !sameToken(ctx.header(CSRF_HEADER), s.csrf)) throw csrfFailed();
    t.sessions.destroy(id);
    const clear = (name: string, httpOnly: boolean) => setCookie(name, '', { maxAge: 0, httpOnly, secure: secure() });
    return { status: 204, headers: { 'set-cookie': [clear(SESSION_COOKIE, true), clear(CSRF_COOKIE, false)] } };
  });
}
