// Sign-in state beyond the JWT itself: the log of successful sign-ins tests count, cookie sessions
// with their CSRF tokens, and the OAuth2 clients and rotating refresh tokens. Same in both modes.

import crypto from 'node:crypto';

// ---- sign-in log --------------------------------------------------------------------------------

/** How a credential was obtained: POST /auth/login, POST /auth/session, or an OAuth2 grant. */
export type LoginGrant = 'login' | 'session' | 'password' | 'client_credentials' | 'refresh_token';

export interface LoginRecord {
  seq: number;
  /** Epoch ms. */
  time: number;
  username: string;
  userId: number;
  grant: LoginGrant;
  /** The OAuth2 client, for the OAuth2 grants. */
  clientId?: string;
}

export type LoginFilter = ((r: LoginRecord) => boolean) | { username?: string; grant?: LoginGrant; clientId?: string; since?: number };

/** Every successful sign-in, so a test can assert "a burst of 401s caused exactly one login". */
export class LoginLog {
  private records: LoginRecord[] = [];
  private seq = 0;

  /** @internal */
  add(r: Omit<LoginRecord, 'seq' | 'time'>): void {
    this.records.push({ ...r, seq: ++this.seq, time: Date.now() });
  }

  all(): readonly LoginRecord[] {
    return this.records;
  }

  count(f?: LoginFilter): number {
    return this.records.filter((r) => matches(r, f)).length;
  }

  /** Successful sign-ins per username. */
  byUser(): Partial<Record<string, number>> {
    return tally(this.records.map((r) => r.username));
  }

  /** Successful sign-ins per grant. */
  byGrant(): Partial<Record<LoginGrant, number>> {
    return tally(this.records.map((r) => r.grant));
  }

  reset(): void {
    this.records = [];
  }
}

function matches(r: LoginRecord, f: LoginFilter | undefined): boolean {
  if (!f) return true;
  if (typeof f === 'function') return f(r);
  return (
    (f.username === undefined || r.username === f.username) &&
    (f.grant === undefined || r.grant === f.grant) &&
    (f.clientId === undefined || r.clientId === f.clientId) &&
    (f.since === undefined || r.time >= f.since)
  );
}

function tally<K extends string>(keys: K[]): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}

// ---- cookie sessions -----------------------------------------------------------------------------

export const SESSION_COOKIE = 'acme_session';
/** Readable by the page (not HttpOnly): the double-submit half of the CSRF defence. */
export const CSRF_COOKIE = 'acme_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

export interface Session {
  id: string;
  userId: number;
  csrf: string;
  /** Epoch ms; absolute, not sliding. */
  expiresAt: number;
}

const token = () => crypto.randomBytes(24).toString('base64url');

export function parseCookies(header: string | string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of Array.isArray(header) ? header : header ? [header] : []) {
    for (const part of line.split(';')) {
      const i = part.indexOf('=');
      if (i <= 0) continue;
      const name = part.slice(0, i).trim();
      // The first cookie of a name wins, as most frameworks do.
      if (!(name in out)) out[name] = part.slice(i + 1).trim();
    }
  }
  return out;
}

export function setCookie(name: string, value: string, o: { maxAge: number; httpOnly: boolean; secure: boolean }): string {
  return [`${name}=${value}`, 'Path=/', `Max-Age=${o.maxAge}`, 'SameSite=Lax', ...(o.httpOnly ? ['HttpOnly'] : []), ...(o.secure ? ['Secure'] : [])].join('; ');
}

export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** Server-side sessions (the cookie carries only a random id) and pre-login CSRF tokens. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  /** Tokens from GET /auth/csrf, for the optional login CSRF check: token -> expiry. */
  private readonly preLogin = new Map<string, number>();

  constructor(readonly ttlSeconds: number) {}

  create(userId: number): Session {
    const s = { id: token(), userId, csrf: token(), expiresAt: Date.now() + this.ttlSeconds * 1000 };
    this.sessions.set(s.id, s);
    return s;
  }

  /** The live session, or undefined (expired sessions are dropped). */
  get(id: string): Session | undefined {
    const s = this.sessions.get(id);
    if (s && s.expiresAt <= Date.now()) this.sessions.delete(id);
    return s && s.expiresAt > Date.now() ? s : undefined;
  }

  destroy(id: string): void {
    this.sessions.delete(id);
  }

  issuePreLogin(): string {
    const t = token();
    this.preLogin.set(t, Date.now() + 3600_000);
    return t;
  }

  /** Double submit before login: the cookie and the header carry the same token, and we issued it. */
  checkPreLogin(cookie: string | undefined, header: string | undefined): boolean {
    if (!sameToken(cookie, header)) return false;
    const exp = this.preLogin.get(cookie!);
    return exp !== undefined && exp > Date.now();
  }
}

// ---- OAuth2 clients and refresh tokens -----------------------------------------------------------

export type OAuthGrant = 'password' | 'client_credentials' | 'refresh_token';
export const OAUTH_SCOPES = ['read', 'write'] as const;

export interface OAuthClient {
  clientId: string;
  /** Undefined: a public client (identifies itself with client_id only, cannot use client_credentials). */
  clientSecret?: string;
  /** The seeded user a client_credentials token acts as. */
  userId?: number;
  grants: readonly OAuthGrant[];
}

/** Refresh tokens live a day; each use replaces it (rotation). */
export const REFRESH_TTL_SECONDS = 24 * 3600;

export interface RefreshGrant {
  userId: number;
  clientId: string;
  scope: string;
  /** Tokens descended from one sign-in; a replayed token revokes them all. */
  family: string;
  expiresAt: number;
  used: boolean;
}

export type RefreshLookup = { ok: true; grant: RefreshGrant } | { ok: false; reason: 'unknown' | 'expired' | 'reused' | 'other-client' };

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export class RefreshTokens {
  /** By SHA-256 of the token: the store never holds a usable token. */
  private readonly byHash = new Map<string, RefreshGrant>();

  issue(userId: number, clientId: string, scope: string, family: string = crypto.randomUUID()): string {
    const t = token();
    this.byHash.set(sha256(t), { userId, clientId, scope, family, expiresAt: Date.now() + REFRESH_TTL_SECONDS * 1000, used: false });
    return t;
  }

  /**
   * The grant behind a token, not yet used up (see consume). A token presented again after its
   * use is a stolen copy or a race: its whole family is revoked. A token shown by another client
   * than its own is refused and left as it was.
   */
  find(t: string, clientId: string): RefreshLookup {
    const g = this.byHash.get(sha256(t));
    if (!g) return { ok: false, reason: 'unknown' };
    if (g.clientId !== clientId) return { ok: false, reason: 'other-client' };
    if (g.used) {
      for (const other of this.byHash.values()) if (other.family === g.family) other.used = true;
      return { ok: false, reason: 'reused' };
    }
    if (g.expiresAt <= Date.now()) return { ok: false, reason: 'expired' };
    return { ok: true, grant: g };
  }

  /** Single use: once its successor is issued, the token is spent. */
  consume(g: RefreshGrant): void {
    g.used = true;
  }
}
