// startTarget(): the Acme Shop test API, vulnerable or hardened, on 127.0.0.1 and an ephemeral port.

import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type MintOptions, AuthService, hashPassword } from './auth';
import { BodyParseError, Ctx, type SentMessage, type TargetState, tooMany } from './context';
import { buildTemplate, openDb, type SeedResult, UnsafeSql } from './db';
import { FetchAllowlist, OutboundLog, UrlFetcher } from './fetcher';
import { type FlawId, resolveFlaws, type TargetMode } from './flaws';
import { hasCredential, HttpError, listenLocal, type Reply, RequestLog, Router } from './http';
import { CSRF_COOKIE, CSRF_HEADER, LoginLog, type OAuthClient, parseCookies, RefreshTokens, SESSION_COOKIE, SessionStore } from './identity';
import { LegacyAccounts } from './legacy-store';
import { WindowLimiter } from './limits';
import { registerAccount } from './routes/account';
import { registerAdmin } from './routes/admin';
import { DOWNLOADS, registerContent } from './routes/content';
import { registerHidden } from './routes/hidden';
import { registerIdentity } from './routes/identity';
import { registerLookup } from './routes/lookup';
import { registerPinboard } from './routes/pinboard';
import { registerFeedback } from './routes/feedback';
import { registerRatings } from './routes/ratings';
import { registerBulletins } from './routes/bulletins';
import { registerMembers } from './routes/members';
import { registerRecipes } from './routes/recipes';
import { registerCards } from './routes/cards';
import { registerRewards } from './routes/rewards';
import { registerMobileLogin } from './routes/mobile-login';
import { registerStoreReviews } from './routes/store-reviews';
import { registerDirectory } from './routes/directory';
import { registerPromotions } from './routes/promotions';
import { registerTools } from './routes/tools';
import { registerOutbound, SHOP_ORIGIN } from './routes/outbound';
import { registerShop } from './routes/shop';
import { registerVerification } from './routes/verification';
import { registerCredentials } from './routes/credentials';
import { writeKeysDir } from './jwt-keys';
import { jsonpReply, registerViews } from './routes/views';
import { registerReceipts } from './routes/receipts';
import { registerSupport } from './routes/support';
import { registerLegacyFiles } from './routes/legacy-files';
import { registerAvatar } from './routes/avatar';
import { registerCartItems, registerCarts } from './routes/carts';
import { registerReservations } from './routes/reservations';
import { registerStoreTips } from './routes/store-tips';
import { registerWebClient } from './routes/web-client';
import { buildSpec } from './spec';

export interface TargetOptions {
  mode: TargetMode;
  /** Per-flaw overrides on top of the mode: vulnerable = all on, hardened = all off. */
  flaws?: Partial<Record<FlawId, boolean>>;
  /** Default 0 (ephemeral). The target always binds 127.0.0.1. */
  port?: number;
  /**
   * Origins the hardened URL policy treats as trusted external services: "http://127.0.0.1:4567",
   * or "http://127.0.0.1:*" for any port (never the target's own origin). For the follow-redirects
   * flaw, whose first hop must be allowed.
   */
  fetchAllowlist?: string[];
  /** The hardened twin's ordinary rate limit, per client and route. Default 100 per 10 s. */
  rateLimit?: { limit: number; windowMs: number };
  /** Serve HTTPS (self-signed, made with the openssl CLI) and plain HTTP on the same port. */
  tls?: boolean;
  /**
   * Lifetime of the access tokens POST /auth/login and POST /oauth/token issue (their exp and
   * expiresIn / expires_in). Default 86400 (24 h). The pre-minted users.*.key always live 24 h.
   */
  tokenTtlSeconds?: number;
  /** Lifetime of cookie sessions from POST /auth/session (absolute). Default 86400 (24 h). */
  sessionTtlSeconds?: number;
  /** POST /auth/session also needs the pre-login CSRF token of GET /auth/csrf (cookie and header). Default off. */
  loginCsrf?: boolean;
  /**
   * Serve /api/v2/support/tickets, a create that needs fields its spec (routes/support.ts, not in the
   * target's spec) does not declare. Default off.
   */
  supportTickets?: boolean;
}

/** A seeded OAuth2 client. A confidential one has a secret and acts as one user with client_credentials. */
export interface TargetOAuthClient {
  clientId: string;
  /** Undefined for the public client. */
  clientSecret?: string;
  /** The user client_credentials tokens act as (confidential clients). */
  username?: 'alice' | 'bob' | 'admin';
  grants: readonly ('password' | 'client_credentials' | 'refresh_token')[];
}

export interface TargetUser {
  id: number;
  username: string;
  password: string;
  email: string;
  /** The bearer credential: an HS256 JWT the target signed, valid for 24 h (whatever tokenTtlSeconds says). */
  key: string;
  /** The same user's API key (X-API-Key header). */
  apiKey: string;
}

export interface Target {
  /** Origin, e.g. http://127.0.0.1:43121 (https:// with the tls option). */
  url: string;
  /** The spec's server URL: url + "/api/v2". */
  baseUrl: string;
  mode: TargetMode;
  flaws: ReadonlySet<FlawId>;
  has(id: FlawId): boolean;
  /** OpenAPI 3.0 document as YAML, as JSON, and parsed. */
  specText: string;
  specJson: string;
  spec: Record<string, unknown>;
  users: { alice: TargetUser; bob: TargetUser; admin: TargetUser; carol: TargetUser };
  /** Every request received. */
  requests: RequestLog;
  /** Every URL the target fetched or tried to (SSRF evidence). */
  outbound: OutboundLog;
  /** Mail and SMS the target "sent" (reset links, OTP codes). */
  outbox: readonly SentMessage[];
  /** Errors that escaped a handler (a 500 the target did not mean to give). */
  internalErrors: readonly Error[];
  /** Every successful sign-in: login route, cookie session, OAuth2 grants (refreshes included). */
  logins: LoginLog;
  /** The effective tokenTtlSeconds and sessionTtlSeconds. */
  tokenTtlSeconds: number;
  sessionTtlSeconds: number;
  /** The OAuth2 token endpoint (absolute URL) and the seeded clients; secrets are fresh per target. */
  oauth: {
    tokenUrl: string;
    clients: { alice: TargetOAuthClient; bob: TargetOAuthClient; admin: TargetOAuthClient; web: TargetOAuthClient };
  };
  /** Cookie session names: the HttpOnly session cookie, the readable CSRF cookie, the CSRF request header. */
  session: { cookie: string; csrfCookie: string; csrfHeader: string };
  webhookSecret: string;
  /** The PEM certificate to trust when tls is on. */
  caCert?: string;
  /** A fresh token for a seeded user, e.g. mintToken('alice', { expiresIn: -3600 }) for an expired one. */
  mintToken(user: 'alice' | 'bob' | 'admin' | 'carol', opts?: MintOptions): Promise<string>;
  /** The X-Acme-Signature value for a webhook body. */
  signWebhook(rawBody: string): string;
  /** Adds an origin to the fetch allowlist at run time (e.g. a listener started after the target). */
  allowFetchOrigin(origin: string): void;
  close(): Promise<void>;
}

const HARDENED_BODY_LIMIT = 64 * 1024;
const LOOSE_BODY_LIMIT = 10 * 1024 * 1024;
const DRAIN_LIMIT = 64 * 1024 * 1024;

function flatHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function readBody(req: http.IncomingMessage, limit: number): Promise<{ body: Buffer; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) tooLarge = true;
      else chunks.push(c);
      if (size > DRAIN_LIMIT) req.destroy();
    });
    req.on('end', () => resolve({ body: Buffer.concat(chunks), tooLarge }));
    req.on('close', () => resolve({ body: Buffer.concat(chunks), tooLarge: true }));
    req.on('error', reject);
  });
}

function makeCertificate(dir: string): { key: string; cert: string } {
  const keyFile = path.join(dir, 'tls-key.pem');
  const certFile = path.join(dir, 'tls-cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8') };
}

// Seeding (and scrypt) is the slow part of a start: seed one in-memory template per process and
// write its image out for every target. API keys and integration keys are therefore shared by the
// targets of one process; JWT and webhook secrets are fresh per target.
let template: { image: Buffer; users: SeedResult['users'] } | undefined;
function seededTemplate(): { image: Buffer; users: SeedResult['users'] } {
  template ??= buildTemplate({ hashPassword });
  return template;
}

export async function startTarget(options: TargetOptions): Promise<Target> {
  const flaws = resolveFlaws(options.mode, options.flaws);
  const has = (id: FlawId) => flaws.has(id);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acme-target-'));
  const downloadsDir = path.join(dir, 'downloads');
  fs.mkdirSync(downloadsDir);
  for (const [file, d] of Object.entries(DOWNLOADS)) fs.writeFileSync(path.join(downloadsDir, file), d.content);

  const dbFile = path.join(dir, 'shop.db');
  const seeded = seededTemplate();
  fs.writeFileSync(dbFile, seeded.image);
  const db = openDb(dbFile);
  const legacy = new LegacyAccounts();
  for (const u of Object.values(seeded.users)) legacy.upsert({ userId: u.id, username: u.username, email: u.email, password: u.password });

  const secret = crypto.randomBytes(32);
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 24 * 3600;
  const sessionTtlSeconds = options.sessionTtlSeconds ?? 24 * 3600;
  const sessions = new SessionStore(sessionTtlSeconds);
  const auth = new AuthService(db, has, secret, sessions, writeKeysDir(dir, secret));
  const clientSecret = () => crypto.randomBytes(24).toString('base64url');
  const clients = {
    alice: { clientId: 'alice-service', clientSecret: clientSecret(), username: 'alice', grants: ['client_credentials', 'password', 'refresh_token'] },
    bob: { clientId: 'bob-service', clientSecret: clientSecret(), username: 'bob', grants: ['client_credentials', 'password', 'refresh_token'] },
    admin: { clientId: 'admin-service', clientSecret: clientSecret(), username: 'admin', grants: ['client_credentials', 'password', 'refresh_token'] },
    web: { clientId: 'acme-web', grants: ['password', 'refresh_token'] },
  } satisfies Target['oauth']['clients'];
  const oauthClients: OAuthClient[] = Object.values(clients).map((c) => ({
    clientId: c.clientId,
    clientSecret: 'clientSecret' in c ? c.clientSecret : undefined,
    userId: 'username' in c ? seeded.users[c.username].id : undefined,
    grants: c.grants,
  }));
  const outbound = new OutboundLog();
  const allowlist = new FetchAllowlist();
  for (const o of options.fetchAllowlist ?? []) allowlist.add(o);
  const fetcher = new UrlFetcher(has, allowlist, outbound);
  const requests = new RequestLog();
  const internalErrors: Error[] = [];
  const tlsMaterial = options.tls ? makeCertificate(dir) : undefined;

  const state: TargetState = {
    flaws,
    has,
    db,
    unsafe: new UnsafeSql(dbFile),
    auth,
    fetcher,
    limiter: new WindowLimiter(),
    legacy,
    outbox: [],
    downloadsDir,
    webhookSecret: crypto.randomBytes(24).toString('hex'),
    origin: '',
    specYaml: '',
    specJson: '',
    corsOrigins: [SHOP_ORIGIN],
    rateLimit: options.rateLimit ?? { limit: 100, windowMs: 10_000 },
    tokenTtlSeconds,
    sessions,
    loginCsrf: options.loginCsrf ?? false,
    logins: new LoginLog(),
    oauthClients,
    refreshTokens: new RefreshTokens(),
    startedAt: Date.now(),
    counters: { requests: 0, byStatus: new Map() },
  };

  const router = new Router<Ctx>();
  registerHidden(router, state);
  registerWebClient(router, state);
  registerAdmin(router, state);
  registerAccount(router, state);
  registerVerification(router, state);
  registerCredentials(router, state);
  registerIdentity(router, state);
  registerShop(router, state);
  registerLookup(router, state);
  registerContent(router);
  registerOutbound(router);
  registerViews(router);
  registerReceipts(router);
  // Off unless asked: the route is outside the spec, and scans of the whole target should not meet it.
  if (options.supportTickets) registerSupport(router);
  registerLegacyFiles(router, has);
  registerAvatar(router);
  registerCarts(router, state);
  registerCartItems(router, state);
  registerPinboard(router, state);
  registerBulletins(router, state);
  registerMembers(router, state);
  registerRecipes(router, state);
  registerCards(router, state);
  registerRewards(router, state);
  registerMobileLogin(router, state);
  registerStoreReviews(router, state);
  registerDirectory(router, state);
  registerPromotions(router, state);
  registerTools(router, state);
  registerFeedback(router, state);
  registerReservations(router, state);
  registerStoreTips(router, state);
  registerRatings(router, state);

  function errorReply(e: unknown): Reply {
    const verbose = has('verbose-errors');
    if (e instanceof BodyParseError) {
      if (verbose) return { status: 500, json: { error: e.parseError.name, message: e.parseError.message, stack: e.parseError.stack } };
      return { status: 400, json: { error: e.code, message: e.message } };
    }
    if (e instanceof HttpError) {
      const body: Record<string, unknown> = { error: e.code, message: e.message, ...e.extra };
      if (verbose) Object.assign(body, { exception: e.name, stack: e.stack });
      return { status: e.status, json: body, headers: e.headers };
    }
    const err = e instanceof Error ? e : new Error(String(e));
    internalErrors.push(err);
    if (verbose) return { status: 500, json: { error: 'internal_error', exception: err.name, message: err.message, code: (err as { code?: string }).code, stack: err.stack } };
    return { status: 500, json: { error: 'internal_error', message: 'Something went wrong.' } };
  }

  function corsHeaders(origin: string | undefined): Record<string, string> {
    if (origin !== undefined && state.corsOrigins.includes(origin)) {
      return { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
    }
    if (origin !== undefined && origin !== 'null' && has('cors-reflect')) {
      return { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
    }
    if (origin === 'null' && has('cors-null')) return { 'access-control-allow-origin': 'null', 'access-control-allow-credentials': 'true', vary: 'Origin' };
    if (has('cors-wildcard')) return { 'access-control-allow-origin': '*' };
    return origin !== undefined ? { vary: 'Origin' } : {};
  }

  async function dispatch(req: http.IncomingMessage, secure: boolean, body: { body: Buffer; tooLarge: boolean }): Promise<Reply> {
    const method = (req.method ?? 'GET').toUpperCase();
    const extra: Record<string, string> = {};
    if (options.tls && !secure && !has('plain-http')) {
      return { status: 301, headers: { location: `${state.origin}${req.url ?? '/'}` }, text: '' };
    }
    if (method === 'TRACE' && has('trace-enabled')) {
      const lines = [`TRACE ${req.url ?? '/'} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      return { status: 200, text: `${lines.join('\r\n')}\r\n\r\n`, contentType: 'message/http' };
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      throw new HttpError(400, 'bad_request', 'The request URL is not valid.');
    }
    let pathname = url.pathname;
    if (/^\/api\/v1(\/|$)/.test(pathname) && has('old-version')) {
      pathname = pathname.replace(/^\/api\/v1/, '/api/v2');
      extra.deprecation = 'true';
      extra.sunset = 'Wed, 31 Dec 2025 23:59:59 GMT';
    }
    const match = router.match(method, pathname);
    if (!match) throw new HttpError(404, 'not_found', 'No such route.');
    if (method === 'OPTIONS') {
      const headers: Record<string, string> = { allow: [...match.allowed, 'OPTIONS'].join(', ') };
      const cors = corsHeaders(req.headers.origin);
      if (cors['access-control-allow-origin'] && req.headers['access-control-request-method']) {
        headers['access-control-allow-methods'] = match.allowed.join(', ');
        headers['access-control-allow-headers'] = `Authorization, Content-Type, X-API-Key, X-Api-Token, ${CSRF_HEADER}`;
        headers['access-control-max-age'] = '600';
      }
      return { status: 204, headers };
    }
    if (!match.handler) {
      return { status: 405, json: { error: 'method_not_allowed', message: `${method} is not allowed here.` }, headers: { allow: match.allowed.join(', '), ...extra } };
    }
    if (match.opts?.rate !== 'none' && !has('no-rate-limit')) {
      const session = parseCookies(req.headers.cookie)[SESSION_COOKIE];
      const who = req.headers.authorization ?? (req.headers['x-api-key'] as string | undefined) ?? (req.headers['x-api-token'] as string | undefined) ?? session ?? req.socket.remoteAddress ?? '-';
      const key = `ordinary:${match.template}:${crypto.createHash('sha256').update(who).digest('hex').slice(0, 16)}`;
      const { limit, windowMs } = state.rateLimit;
      const s = state.limiter.state(key, windowMs);
      Object.assign(extra, {
        'ratelimit-limit': String(limit),
        'ratelimit-remaining': String(Math.max(0, limit - s.count - 1)),
        'ratelimit-reset': String(s.resetSeconds),
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(Math.max(0, limit - s.count - 1)),
      });
      if (s.count >= limit) {
        extra['ratelimit-remaining'] = '0';
        extra['x-ratelimit-remaining'] = '0';
        const r = errorReply(tooMany(s.resetSeconds));
        return { ...r, headers: { ...r.headers, ...extra } };
      }
      state.limiter.record(key);
    }
    if (body.tooLarge) {
      return { ...errorReply(new HttpError(413, 'payload_too_large', 'The request body is too large.')), headers: extra };
    }
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(match.params)) {
      try {
        params[k] = decodeURIComponent(v);
      } catch {
        throw new HttpError(400, 'bad_request', `The ${k} path parameter is not valid.`);
      }
    }
    const ctx = new Ctx(state, req, method, pathname, url, params, body.body, req.socket.remoteAddress ?? '-');
    let reply: Reply;
    try {
      reply = await match.handler(ctx);
    } catch (e) {
      reply = errorReply(e);
    }
    reply = jsonpReply(has, method, url, reply);
    return { ...reply, headers: { ...extra, ...reply.headers } };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, secure: boolean): Promise<void> {
    const started = Date.now();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const record = requests.add({ method: (req.method ?? 'GET').toUpperCase(), path: rawPath, query: q < 0 ? '' : rawUrl.slice(q + 1), headers: flatHeaders(req.headers), time: started });
    state.counters.requests++;
    let reply: Reply;
    try {
      const body = await readBody(req, has('size-limits-ignored') ? LOOSE_BODY_LIMIT : HARDENED_BODY_LIMIT);
      if (body.body.length) record.body = body.body.subarray(0, 4096).toString('utf8');
      reply = await dispatch(req, secure, body);
    } catch (e) {
      reply = errorReply(e);
    }
    const headers: Record<string, string | string[]> = {};
    let payload: Buffer | undefined;
    if (reply.body !== undefined) payload = reply.body;
    else if (reply.text !== undefined) payload = Buffer.from(reply.text);
    else if (reply.json !== undefined) payload = Buffer.from(JSON.stringify(reply.json));
    if (payload && reply.status !== 204) {
      headers['content-type'] = reply.contentType ?? 'application/json; charset=utf-8';
      headers['content-length'] = String(payload.length);
    } else {
      payload = undefined;
      if (reply.status !== 204) headers['content-length'] = '0';
    }
    // Headers that do not depend on a flaw are the same in both modes.
    headers['x-frame-options'] = 'DENY';
    headers['content-security-policy'] = "default-src 'none'; frame-ancestors 'none'";
    headers['referrer-policy'] = 'no-referrer';
    if (!has('missing-nosniff')) headers['x-content-type-options'] = 'nosniff';
    const credentialed = hasCredential(req.headers) || /[?&](access_token|api_key)=/.test(rawUrl);
    headers['cache-control'] = has('missing-no-store') && credentialed ? 'private, max-age=600' : 'no-store';
    if (secure && !has('missing-hsts')) headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
    if (has('version-disclosure')) {
      headers.server = 'AcmeShop/2.4.1';
      headers['x-powered-by'] = `Node.js/${process.version}`;
    }
    Object.assign(headers, corsHeaders(req.headers.origin), reply.headers ?? {});
    state.counters.byStatus.set(reply.status, (state.counters.byStatus.get(reply.status) ?? 0) + 1);
    record.status = reply.status;
    record.durationMs = Date.now() - started;
    if (res.destroyed) return;
    res.writeHead(reply.status, headers);
    res.end(req.method === 'HEAD' ? undefined : payload);
  }

  const serverOptions: http.ServerOptions = { maxHeaderSize: 1024 * 1024, keepAliveTimeout: 5000 };
  const onRequest = (secure: boolean) => (req: http.IncomingMessage, res: http.ServerResponse) => {
    handle(req, res, secure).catch((e: unknown) => {
      internalErrors.push(e instanceof Error ? e : new Error(String(e)));
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
  const plain = http.createServer(serverOptions, onRequest(false));
  const secured = tlsMaterial ? https.createServer({ ...serverOptions, ...tlsMaterial }, onRequest(true)) : undefined;
  // With tls on, one port speaks both: a TLS ClientHello starts with byte 0x16.
  const front: net.Server =
    secured !== undefined
      ? net.createServer((socket) => {
          socket.once('data', (buf: Buffer) => {
            socket.pause();
            socket.unshift(buf);
            (buf[0] === 0x16 ? secured : plain).emit('connection', socket);
            process.nextTick(() => socket.resume());
          });
        })
      : plain;
  let stopFront: () => Promise<void>;
  try {
    stopFront = await listenLocal(front, options.port);
  } catch (e) {
    await fetcher.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const port = (front.address() as net.AddressInfo).port;
  const origin = `${tlsMaterial ? 'https' : 'http'}://127.0.0.1:${port}`;
  state.origin = origin;
  allowlist.self = origin;
  const spec = buildSpec(origin);
  state.specYaml = spec.yaml;
  state.specJson = spec.json;

  const users = {} as Target['users'];
  for (const name of ['alice', 'bob', 'admin', 'carol'] as const) {
    const u = seeded.users[name];
    users[name] = { id: u.id, username: u.username, password: u.password, email: u.email, apiKey: u.apiKey, key: await auth.mint({ id: u.id, username: u.username, role: u.role }, { expiresIn: 24 * 3600 }) };
  }

  let closed = false;
  return {
    url: origin,
    baseUrl: `${origin}/api/v2`,
    mode: options.mode,
    flaws,
    has,
    specText: spec.yaml,
    specJson: spec.json,
    spec: spec.object,
    users,
    requests,
    outbound,
    outbox: state.outbox,
    internalErrors,
    logins: state.logins,
    tokenTtlSeconds,
    sessionTtlSeconds,
    oauth: { tokenUrl: `${origin}/api/v2/oauth/token`, clients },
    session: { cookie: SESSION_COOKIE, csrfCookie: CSRF_COOKIE, csrfHeader: CSRF_HEADER },
    webhookSecret: state.webhookSecret,
    caCert: tlsMaterial?.cert,
    mintToken: (name, opts) => {
      const u = auth.userById(seeded.users[name].id)!;
      return auth.mint(u, opts);
    },
    signWebhook: (rawBody) => `sha256=${crypto.createHmac('sha256', state.webhookSecret).update(rawBody).digest('hex')}`,
    allowFetchOrigin: (o) => {
      allowlist.add(o);
    },
    async close() {
      if (closed) return;
      closed = true;
      await stopFront();
      await state.unsafe.close();
      await fetcher.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
