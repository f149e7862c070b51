// The per-request context handed to route handlers, and the target-wide state behind it.

import type { IncomingMessage } from 'node:http';
import type { AuthResult, AuthService, UserRow } from './auth';
import type { Db, UnsafeSql } from './db';
import type { UrlFetcher } from './fetcher';
import type { FlawId } from './flaws';
import { HttpError, ValidationError } from './http';
import { CSRF_HEADER, type LoginLog, type OAuthClient, type RefreshTokens, sameToken, type SessionStore } from './identity';
import type { LegacyAccounts } from './legacy-store';
import type { WindowLimiter } from './limits';
import { type Schema, STRICT, type ValidateOptions, validate } from './validate';

export interface SentMessage {
  time: number;
  to: string;
  subject: string;
  body: string;
}

export interface TargetState {
  flaws: ReadonlySet<FlawId>;
  has(id: FlawId): boolean;
  db: Db;
  unsafe: UnsafeSql;
  auth: AuthService;
  fetcher: UrlFetcher;
  limiter: WindowLimiter;
  legacy: LegacyAccounts;
  /** Mail and SMS the target "sent" (reset links, OTP codes): nothing leaves the process. */
  outbox: SentMessage[];
  downloadsDir: string;
  webhookSecret: string;
  /** http://127.0.0.1:<port> (or https://). */
  origin: string;
  specYaml: string;
  specJson: string;
  corsOrigins: readonly string[];
  rateLimit: { limit: number; windowMs: number };
  /** Lifetime of access tokens from the login route and the OAuth2 endpoint. */
  tokenTtlSeconds: number;
  sessions: SessionStore;
  /** POST /auth/session needs the pre-login CSRF token of GET /auth/csrf. */
  loginCsrf: boolean;
  logins: LoginLog;
  oauthClients: readonly OAuthClient[];
  refreshTokens: RefreshTokens;
  startedAt: number;
  counters: { requests: number; byStatus: Map<number, number> };
}

/** A body that is not JSON. Keeps the parser's own error for the verbose-errors flaw. */
export class BodyParseError extends HttpError {
  constructor(public readonly parseError: Error) {
    super(400, 'invalid_json', 'The request body is not valid JSON.');
    this.name = 'BodyParseError';
  }
}

export function unauthorized(message = 'Authentication required.', expired = false): HttpError {
  // RFC 6750's error attribute lets a client tell "refresh your token" from "you are nobody".
  const challenge = expired ? 'Bearer realm="acme-shop", error="invalid_token", error_description="The token has expired"' : 'Bearer realm="acme-shop"';
  return new HttpError(401, 'unauthorized', message, {}, { 'www-authenticate': challenge });
}

const refused = (a: AuthResult) =>
  a.kind === 'invalid' ? unauthorized('The credentials are not valid.', a.reason === 'token expired' || a.reason === 'session expired') : unauthorized();

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const forbidden = (message = 'You are not allowed to do this.') => new HttpError(403, 'forbidden', message);
export const notFound = (what = 'Resource') => new HttpError(404, 'not_found', `${what} not found.`);

export class Ctx {
  readonly query: URLSearchParams;
  private authResult: Promise<AuthResult> | undefined;
  private parsed: { value: unknown } | undefined;

  constructor(
    readonly t: TargetState,
    readonly req: IncomingMessage,
    readonly method: string,
    /** The routed path (after any /api/v1 rewrite). */
    readonly path: string,
    readonly url: URL,
    readonly params: Record<string, string>,
    readonly rawBody: Buffer,
    readonly clientIp: string,
  ) {
    this.query = url.searchParams;
  }

  has(id: FlawId): boolean {
    return this.t.has(id);
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  }

  auth(): Promise<AuthResult> {
    this.authResult ??= this.t.auth.authenticate(this.req.headers, this.query).then((a) => {
      // A cookie rides along on forged cross-site requests; a header the page had to read does not.
      // Not a flaw: both modes check it.
      if (a.kind === 'user' && a.session && UNSAFE.has(this.method) && !sameToken(this.header(CSRF_HEADER), a.session.csrf)) {
        throw new HttpError(403, 'csrf_failed', `A signed-in session needs its CSRF token in the ${CSRF_HEADER} header.`);
      }
      return a;
    });
    return this.authResult;
  }

  /** The signed-in user, or 401. */
  async user(): Promise<UserRow> {
    const a = await this.auth();
    if (a.kind === 'user') return a.user;
    throw refused(a);
  }

  /**
   * For the object routes the auth-none and auth-garbage flaws leave open: the user when the
   * credentials verify, undefined when a flaw lets an unauthenticated caller through, else 401.
   */
  async objectCaller(): Promise<UserRow | undefined> {
    const a = await this.auth();
    if (a.kind === 'user') return a.user;
    if (a.kind === 'anonymous' && this.has('auth-none')) return undefined;
    if (a.kind === 'invalid' && this.has('auth-garbage')) return undefined;
    throw refused(a);
  }

  body(): unknown {
    if (!this.parsed) {
      const text = this.rawBody.toString('utf8');
      if (text.trim() === '') this.parsed = { value: undefined };
      else {
        try {
          this.parsed = { value: JSON.parse(text) };
        } catch (e) {
          throw new BodyParseError(e as Error);
        }
      }
    }
    return this.parsed.value;
  }

  input<T = Record<string, unknown>>(schema: Schema, opts: Partial<ValidateOptions> = {}): T {
    return validate<T>(schema, this.body(), { ...STRICT, sizeLimits: !this.has('size-limits-ignored'), ...opts });
  }

  /** An integer query parameter; `max` is skipped when `unboundedBy` is an active flaw. */
  intQuery(name: string, o: { def: number; min: number; max?: number; unboundedBy?: FlawId }): number {
    const raw = this.query.get(name);
    if (raw === null || raw === '') return o.def;
    if (!/^-?\d+$/.test(raw)) throw new ValidationError([{ field: name, message: 'must be an integer' }]);
    const n = Number(raw);
    if (n < o.min) throw new ValidationError([{ field: name, message: `must be at least ${o.min}` }]);
    if (o.max !== undefined && n > o.max && !(o.unboundedBy && this.has(o.unboundedBy))) {
      throw new ValidationError([{ field: name, message: `must be at most ${o.max}` }]);
    }
    return n;
  }

  enumQuery<T extends string>(name: string, values: readonly T[]): T | undefined {
    const raw = this.query.get(name);
    if (raw === null || raw === '') return undefined;
    if (!values.includes(raw as T)) throw new ValidationError([{ field: name, message: `must be one of ${values.join(', ')}` }]);
    return raw as T;
  }

  /** A path parameter that must be a positive integer (400 otherwise). */
  intParam(name: string): number {
    const raw = this.params[name] ?? '';
    if (!/^\d{1,15}$/.test(raw)) throw new ValidationError([{ field: name, message: 'must be an integer' }]);
    return Number(raw);
  }

  /**
   * The hardened twin's throttle for a sensitive flow: `limit` per `windowMs` per key, then 429
   * with Retry-After. Skipped entirely when the flow's flaw is on.
   */
  throttle(flaw: FlawId, key: string, limit: number, windowMs: number): void {
    if (this.has(flaw)) return;
    const s = this.t.limiter.state(key, windowMs);
    if (s.count >= limit) throw tooMany(s.resetSeconds);
    this.t.limiter.record(key);
  }
}

export function tooMany(retryAfter: number, message = 'Too many requests. Try again later.'): HttpError {
  return new HttpError(429, 'rate_limited', message, { retryAfter }, { 'retry-after': String(retryAfter) });
}
