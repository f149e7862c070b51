// Credentials of the target: scrypt password hashes, HS256 JWTs signed with a per-start secret,
// and API keys. The hardened path is jose's jwtVerify; each JWT flaw adds one specific fallback
// that real services have shipped.

import crypto from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Db } from './db';
import type { FlawId } from './flaws';
import { parseCookies, type Session, SESSION_COOKIE, type SessionStore } from './identity';
import { headerKeyAccepts, RS_KID, rsaKeys } from './jwt-keys';

export const ISSUER = 'https://auth.acme-shop.test';
export const AUDIENCE = 'acme-shop-api';

export interface UserRow {
  id: number;
  username: string;
  email: string;
  display_name: string;
  phone: string | null;
  role: string;
  is_admin: number;
  verified: number;
  balance_cents: number;
  credits: number;
  password_hash: string;
  api_key: string;
  vat_id: string | null;
  avatar_url: string | null;
  last_login_ip: string | null;
  created_at: string;
}

export type AuthResult =
  | { kind: 'user'; user: UserRow; via: 'bearer' | 'api-key' | 'api-token' | 'query' | 'session'; session?: Session }
  | { kind: 'anonymous' }
  | { kind: 'invalid'; reason: string };

export function isAdmin(u: UserRow): boolean {
  return u.role === 'admin' || u.is_admin === 1;
}

const SCRYPT = { N: 2 ** 12, r: 8, p: 1 };

export function hashPassword(password: string): string {
  const salt = crypto.randomBytes(16);
  const hash = crypto.scryptSync(password, salt, 32, SCRYPT);
  return `$scrypt$ln=12,r=${SCRYPT.r},p=${SCRYPT.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export function verifyPassword(password: string, stored: string): boolean {
  const m = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!m) return false;
  const expected = Buffer.from(m[5]!, 'base64url');
  const got = crypto.scryptSync(password, Buffer.from(m[4]!, 'base64url'), expected.length, { N: 2 ** Number(m[1]), r: Number(m[2]), p: Number(m[3]) });
  return crypto.timingSafeEqual(expected, got);
}

function decodeSegment(seg: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(seg, 'base64url').toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export interface MintOptions {
  /** Seconds from now; negative gives an already expired token. Default 24 h. */
  expiresIn?: number;
  /** Extra or overriding claims. */
  claims?: Record<string, unknown>;
  /** RS256: a partner token signed with the target's RSA key (its public half at /.well-known/jwks.json). Default HS256. */
  alg?: 'HS256' | 'RS256';
}

export class AuthService {
  /** Signatures of tokens that verified once (only consulted by the jwt-sub-swap flaw). */
  private readonly verifiedSignatures = new Set<string>();
  private readonly key: Uint8Array;

  constructor(
    private readonly db: Db,
    private readonly has: (id: FlawId) => boolean,
    secret: Uint8Array,
    private readonly sessions: SessionStore,
    /** The folder the HS256 key lives in, under its key id (jwt-keys.ts). */
    private readonly keysDir = '',
  ) {
    this.key = secret;
  }

  userById(id: number): UserRow | undefined {
    return this.db.prepare<[number], UserRow>('SELECT * FROM users WHERE id = ?').get(id);
  }

  async mint(user: Pick<UserRow, 'id' | 'username' | 'role'>, opts: MintOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + (opts.expiresIn ?? 24 * 3600);
    const rs = opts.alg === 'RS256';
    return new SignJWT({ username: user.username, role: user.role, ...opts.claims })
      .setProtectedHeader(rs ? { alg: 'RS256', typ: 'JWT', kid: RS_KID } : { alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.id))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      // iat stays "now" for short lifetimes (exp - iat is how clients learn them); an already
      // expired token gets an iat before its exp.
      .setIssuedAt(exp > now ? now : exp - 60)
      .setExpirationTime(exp)
      .setJti(crypto.randomUUID())
      .sign(rs ? rsaKeys().privateKey : this.key);
  }

  private bySubject(sub: unknown): AuthResult {
    const id = typeof sub === 'string' && /^\d+$/.test(sub) ? Number(sub) : typeof sub === 'number' ? sub : NaN;
    const user = Number.isSafeInteger(id) ? this.userById(id) : undefined;
    return user ? { kind: 'user', user, via: 'bearer' } : { kind: 'invalid', reason: 'unknown subject' };
  }

  async verifyJwt(token: string): Promise<AuthResult> {
    const parts = token.split('.');
    if (parts.length !== 3) return { kind: 'invalid', reason: 'malformed token' };
    try {
      // The algorithm is pinned per key: the RSA key verifies RS256 only, the secret HS256 only.
      const rs = decodeSegment(parts[0]!)?.alg === 'RS256';
      const { payload } = rs
        ? await jwtVerify(token, rsaKeys().publicKey, { algorithms: ['RS256'], issuer: ISSUER, audience: AUDIENCE })
        : await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
      this.verifiedSignatures.add(parts[2]!);
      return this.bySubject(payload.sub);
    } catch (e) {
      const code = (e as { code?: string }).code;
      const header = decodeSegment(parts[0]!);
      const payload = decodeSegment(parts[1]!);
      if (!header || !payload) return { kind: 'invalid', reason: 'malformed token' };
      const expired = typeof payload.exp === 'number' && payload.exp * 1000 < Date.now();
      const expOk = !expired || this.has('jwt-exp-ignored');
      // jose checks the signature before the claims: an expiry error means the signature was good.
      if (code === 'ERR_JWT_EXPIRED' && this.has('jwt-exp-ignored')) return this.bySubject(payload.sub);
      if (expOk && String(header.alg).toLowerCase() === 'none' && this.has('jwt-alg-none')) return this.bySubject(payload.sub);
      if (expOk && parts[2] === '' && this.has('jwt-sig-stripped')) return this.bySubject(payload.sub);
      if (expOk && this.has('jwt-sig-unverified')) return this.bySubject(payload.sub);
      if (expOk && this.has('jwt-sub-swap') && this.verifiedSignatures.has(parts[2]!)) return this.bySubject(payload.sub);
      if (expOk && (await headerKeyAccepts(token, header, this.has, this.keysDir))) return this.bySubject(payload.sub);
      return { kind: 'invalid', reason: code === 'ERR_JWT_EXPIRED' ? 'token expired' : 'invalid token' };
    }
  }

  byApiKey(key: string): AuthResult {
    const user = this.db.prepare<[string], UserRow>('SELECT * FROM users WHERE api_key = ?').get(key);
    return user ? { kind: 'user', user, via: 'api-key' } : { kind: 'invalid', reason: 'unknown API key' };
  }

  private bySession(id: string): AuthResult {
    const session = this.sessions.get(id);
    const user = session ? this.userById(session.userId) : undefined;
    if (!session) return { kind: 'invalid', reason: 'session expired' };
    return user ? { kind: 'user', user, via: 'session', session } : { kind: 'invalid', reason: 'unknown subject' };
  }

  /**
   * The caller's identity from, in this order: Authorization: Bearer, X-API-Key, X-Api-Token, the
   * session cookie, then (key-in-query flaw) the query string. The CSRF check of cookie sessions
   * is the request context's (it depends on the method).
   */
  async authenticate(headers: Record<string, string | string[] | undefined>, query: URLSearchParams): Promise<AuthResult> {
    const authz = headers.authorization;
    if (typeof authz === 'string') {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(authz);
      return m ? this.verifyJwt(m[1]!) : { kind: 'invalid', reason: 'unsupported authorization scheme' };
    }
    const apiKey = headers['x-api-key'];
    if (typeof apiKey === 'string') return this.byApiKey(apiKey);
    // The header Postman collections often use: it carries either kind of credential.
    const apiToken = headers['x-api-token'];
    if (typeof apiToken === 'string') {
      const r = apiToken.split('.').length === 3 ? await this.verifyJwt(apiToken) : this.byApiKey(apiToken);
      return r.kind === 'user' ? { ...r, via: 'api-token' } : r;
    }
    const sid = parseCookies(headers.cookie)[SESSION_COOKIE];
    if (sid !== undefined) return this.bySession(sid);
    if (this.has('key-in-query')) {
      const t = query.get('access_token');
      if (t) {
        const r = await this.verifyJwt(t);
        return r.kind === 'user' ? { ...r, via: 'query' } : r;
      }
      const k = query.get('api_key');
      if (k) {
        const r = this.byApiKey(k);
        return r.kind === 'user' ? { ...r, via: 'query' } : r;
      }
    }
    return { kind: 'anonymous' };
  }
}
