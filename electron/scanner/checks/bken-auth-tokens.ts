// API2:2023 Broken Authentication, the token side: tampered JWTs, unthrottled login / token /
// password-reset routes, keys accepted in the URL, and tokens in responses that should not carry
// them. Part of the BKEN_AUTH family (bken-auth.ts registers them).

import { createHmac } from 'node:crypto';
import type { Endpoint, JsonSchema } from '../../../shared/contract';
import type { Exchange, RequestAuth } from '../http/exchange';
import { isMeLike } from '../identities/verify';
import { randomAlnum, randomBase64url } from '../random';
import { mutate, pathParamNames, type PreparedRequest } from '../requests';
import { isEmptyBody } from '../similarity';
import { defineCheck, describeEndpoint } from './helpers';
import { carriesDataOf, identityMarks, isObj, looksLikeError, maskBody, marksIn, schemaShape, type Json } from './objects';
import type { CheckContext, FindingDraft } from './types';

const OWASP_API2 = 'https://owasp.org/API-Security/editions/2023/en/0xa2-broken-authentication/';

// ---------------------------------------------------------------- the endpoint auth checks probe

interface AuthProbe {
  endpoint: Endpoint;
  request: PreparedRequest;
  key1: Exchange;
  anon: Exchange;
  /**
   * Does the answer carry key 1's data? Baselines are snapshots and other checks may have changed key 1's
   * record since (a PATCH /me): on a mismatch, key 1 reads again once and that read is compared too.
   */
  asKey1(ex: Exchange): Promise<boolean>;
}

/**
 * A GET that proves who is calling: key 1 gets content, a request without credentials is refused
 * (401/403). A /me-like endpoint first. Its exchanges are baselines (no request charged).
 */
async function authProbe(ctx: CheckContext): Promise<AuthProbe | null> {
  const candidates = ctx.endpoints
    .filter((e) => e.method === 'GET' && pathParamNames(e.path).length === 0)
    .map((e, i) => ({ e, rank: isMeLike(e) ? 0 : 1, i }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .slice(0, 4)
    .map((x) => x.e);
  for (const endpoint of candidates) {
    const key1 = await ctx.baseline('key1', endpoint);
    if (!key1?.ok || isEmptyBody(key1) || looksLikeError(key1)) continue;
    const anon = await ctx.baseline('anonymous', endpoint);
    if (anon?.status !== 401 && anon?.status !== 403) continue;
    const request = await ctx.baselineRequest(endpoint, 'key1');
    if (!request) continue;
    let fresh: Exchange | null | undefined;
    const asKey1 = async (ex: Exchange): Promise<boolean> => {
      if (!ex.ok || looksLikeError(ex)) return false;
      if (carriesDataOf(ex, key1)) return true;
      if (fresh === undefined) fresh = ctx.budgetLeft() > 0 ? await ctx.sendPrepared(request, { kind: 'key', key: 1 }) : null;
      return !!fresh?.ok && carriesDataOf(ex, fresh);
    };
    return { endpoint, request, key1, anon, asKey1 };
  }
  return null;
}

// ---------------------------------------------------------------- JWT tampering

interface Jwt {
  header: Json;
  payload: Json;
  h: string;
  p: string;
  sig: string;
}

const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

export function parseJwt(raw: string | null): Jwt | null {
  if (!raw) return null;
  const token = raw.replace(/^bearer\s+/i, '').trim();
  const parts = token.split('.');
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]+$/.test(parts[0]!) || !/^[A-Za-z0-9_-]+$/.test(parts[1]!)) return null;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as unknown;
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    if (!isObj(header) || !isObj(payload) || typeof header.alg !== 'string') return null;
    return { header, payload, h: parts[0]!, p: parts[1]!, sig: parts[2]! };
  } catch {
    return null;
  }
}

const HMAC: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

function sign(alg: string, secret: string, input: string): string {
  return createHmac(HMAC[alg]!, secret).update(input).digest('base64url');
}

/** Secrets found in tutorials, defaults and leaked configs; tried offline against the key's own signature. */
export const WEAK_JWT_SECRETS = [
  'secret', 'Secret', 'SECRET', 'secretkey', 'secret_key', 'secret-key', 'mysecret', 'my_secret', 'mysecretkey', 'supersecret', 'super-secret',
  'topsecret', 'jwt', 'jwtsecret', 'jwt_secret', 'jwt-secret', 'JWT_SECRET', 'jwtkey', 'key', 'private', 'password', 'passw0rd', 'changeme',
  'change-me', 'changeit', '123456', '12345678', '1234567890', 'qwerty', 'admin', 'test', 'testing', 'dev', 'development', 'default', 'token',
  'app_secret', 'appsecret', 'your-256-bit-secret', 'your-secret-key', 'your_jwt_secret', 'keyboard cat', 'shhhhh', 's3cr3t', 'random',
  'hello', 'letmein', 'example', 'api', 'apikey', 'secret123', 'secretsecret', 'thisismysecret', 'gsk', '',
];

/** The key's HMAC secret when it is one of the well-known ones. */
export function crackJwt(jwt: Jwt): string | null {
  const alg = String(jwt.header.alg).toUpperCase();
  if (!HMAC[alg]) return null;
  const input = `${jwt.h}.${jwt.p}`;
  for (const s of WEAK_JWT_SECRETS) if (sign(alg, s, input) === jwt.sig) return s;
  return null;
}

/** The claim holding the user (its value is one of key 1's identity values), to swap for key 2's. */
function userClaim(ctx: CheckContext, payload: Json): { claim: string; value: unknown } | null {
  const id1 = ctx.identities.key1.values;
  const id2 = ctx.identities.key2?.values;
  if (!id2) return null;
  for (const claim of ['sub', 'user_id', 'userId', 'uid', 'id', 'username', 'preferred_username', 'email', 'name', 'login']) {
    const v = payload[claim];
    if (v === undefined || v === null || typeof v === 'object') continue;
    for (const [field, value] of Object.entries(id1)) {
      if (String(v) !== value || !id2[field] || id2[field] === value) continue;
      const other = id2[field]!;
      return { claim, value: typeof v === 'number' && /^\d+$/.test(other) ? Number(other) : other };
    }
  }
  return null;
}

const JWT_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N';
const JWT_REFS = [
  OWASP_API2,
  'https://cwe.mitre.org/data/definitions/347.html',
  'https://portswigger.net/web-security/jwt',
  'https://cheatsheetseries.owasp.org/cheatsheets/JSON_Web_Token_for_Java_Cheat_Sheet.html',
];

interface Variant {
  id: string;
  name: string;
  token: string;
  what: string;
  /** Accepted means acting as key 2 (changed subject) rather than as key 1. */
  asKey2?: boolean;
  severity?: 'high' | 'medium';
  cvss?: string;
}

export const jwtTampering = defineCheck({
  id: 'api2-jwt-tampering',
  title: 'Tampered JWT accepted',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-347',
  severity: 'high',
  confidence: 'high',
  cvss: JWT_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 14,
  needsKey2: false,
  techniques: ['API2.2'],
  description:
    'When key 1 is a JWT: on an endpoint where key 1 gets content and a request without credentials is refused (a /me-like one first), sends ' +
    'key 1\'s token with its signature stripped, rebuilt with `alg: none` (also "None"/"NONE"; not reported when a stripped signature already passes), with the signature altered, with `exp` in the ' +
    'past, and with the user claim (sub, user_id...) changed to key 2\'s id; tries well-known HMAC secrets offline against the token\'s own ' +
    'signature and, when one matches, sends a token re-signed with it. A random JWT-shaped token is sent first as a control. Finding: a ' +
    'tampered token answered 2xx with key 1\'s data (key 2\'s data for the changed subject) while the control is refused. A key that is ' +
    'itself past its `exp` and still accepted is reported without a request.',
  coverage:
    'Only when key 1 is a JWT sent as a bearer token (or in the header the spec names). An expired token can only be tested properly signed ' +
    'when the secret is guessable or when the key given is already expired; otherwise the expired variant with the original signature shows ' +
    'missing signature checks rather than a missing expiry check. Key confusion (RS256 public key as HMAC secret, `jku`/`kid` injection) is not tried.',
  remediation:
    'Verify every token with a library that pins the expected algorithm(s) (never `none`, never the algorithm the token names), checks the ' +
    'signature over header and payload, and enforces `exp`, `nbf`, issuer and audience. Use a long random HMAC secret (≥ 256 bits) from a ' +
    'secret store, or asymmetric keys; never cache verification results by signature.',
  references: JWT_REFS,
  async *run(ctx) {
    const jwt = parseJwt(ctx.credential(1));
    if (!jwt) {
      ctx.skip('Key 1 is not a JWT, so there is no token to tamper with.');
      return;
    }
    const probe = await authProbe(ctx);
    if (!probe) {
      ctx.note('JWT tampering: no GET endpoint where key 1 gets content and a request without credentials is refused; not tested.');
      return;
    }
    const send = (token: string, label: string) => ctx.sendPrepared(probe.request, { kind: 'credential', value: token, label } satisfies RequestAuth);
    const acceptedAsKey1 = (ex: Exchange) => probe.asKey1(ex);
    const now = Math.floor(Date.now() / 1000);
    const ep = probe.endpoint;
    const claims = (p: Json) => JSON.stringify(p).slice(0, 300);
    const finding = (v: Variant, ex: Exchange, control: Exchange, extra: string[] = []): FindingDraft => ({
      endpoint: ep,
      parameter: v.id,
      name: v.name,
      severity: v.severity,
      cvss: v.cvss,
      description:
        `${describeEndpoint(ep)} accepted key 1's JWT ${v.what} and answered ${ex.status} with ${v.asKey2 ? 'key 2\'s' : 'key 1\'s'} data, while a made-up ` +
        `token is refused (HTTP ${control.status}). The API does not verify its tokens properly: anyone can ${v.asKey2 ? 'act as any user' : 'forge or keep using tokens'}.`,
      notes: [`Token header: ${JSON.stringify(jwt.header)}; claims: ${claims(jwt.payload)}.`, ...extra],
      exchanges: [
        { label: 'Baseline', exchange: probe.key1 },
        { label: 'Baseline', exchange: probe.anon },
        { label: 'Control: a made-up JWT', exchange: control },
        { label: `Attack: ${v.id}`, exchange: ex },
      ],
      reproduce: ex,
    });

    // A key past its own expiry that still works needs no request at all.
    const exp = typeof jwt.payload.exp === 'number' ? jwt.payload.exp : null;
    if (exp !== null && exp < now - 60) {
      yield {
        endpoint: ep,
        parameter: 'expired',
        name: 'Expired JWT accepted',
        severity: 'medium',
        cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
        description:
          `Key 1 is a JWT whose exp (${new Date(exp * 1000).toISOString()}) passed ${Math.round((now - exp) / 60)} minutes before the scan, yet ` +
          `${describeEndpoint(ep)} answered ${probe.key1.status} with its data while a request without credentials is refused. The API ignores ` +
          'token expiry: a stolen token works for ever.',
        notes: [`Token claims: ${claims(jwt.payload)}.`],
        exchanges: [
          { label: 'Baseline: the expired key 1', exchange: probe.key1 },
          { label: 'Baseline', exchange: probe.anon },
        ],
        reproduce: probe.key1,
      };
    }

    const controlHeader = enc({ alg: String(jwt.header.alg), typ: 'JWT' });
    const control = await send(`${controlHeader}.${enc({ ...jwt.payload, sub: `portcullis-${randomAlnum(8)}`, jti: randomAlnum(12) })}.${randomBase64url(32)}`, 'made-up JWT');
    if (control.ok) {
      ctx.note(`JWT tampering: ${describeEndpoint(ep)} accepts a made-up JWT (HTTP ${control.status}); the missing-credentials check covers it.`);
      return;
    }

    const variants: Variant[] = [];
    // The stripped signature first: when an empty signature passes, "alg": "none" (which has none either) proves nothing more.
    variants.push({ id: 'signature-stripped', name: 'JWT without signature accepted', token: `${jwt.h}.${jwt.p}.`, what: 'with its signature removed' });
    for (const alg of ['none', 'None', 'NONE']) variants.push({ id: 'alg-none', name: 'JWT with "alg": "none" accepted', token: `${enc({ ...jwt.header, alg })}.${jwt.p}.`, what: `rebuilt with "alg": "${alg}" and no signature` });
    const flipped = jwt.sig.length > 4 ? `${jwt.sig.slice(0, -4)}${[...jwt.sig.slice(-4)].map((c) => (c === 'A' ? 'B' : 'A')).join('')}` : randomBase64url(32);
    variants.push({ id: 'signature-altered', name: 'JWT with an altered signature accepted', token: `${jwt.h}.${jwt.p}.${flipped}`, what: 'with its signature altered' });
    const expiredClaims = { ...jwt.payload, exp: now - 86_400, ...(typeof jwt.payload.iat === 'number' ? { iat: now - 90_000 } : {}), ...(typeof jwt.payload.nbf === 'number' ? { nbf: now - 90_000 } : {}) };
    variants.push({
      id: 'expired-unsigned',
      name: 'JWT with an edited, past expiry accepted',
      token: `${jwt.h}.${enc(expiredClaims)}.${jwt.sig}`,
      what: 'with `exp` edited to a day in the past (the original signature kept)',
    });
    const swap = ctx.hasKey2 ? userClaim(ctx, jwt.payload) : null;
    if (swap) {
      variants.push({
        id: 'claims-changed',
        name: 'JWT with another user\'s subject accepted',
        token: `${jwt.h}.${enc({ ...jwt.payload, [swap.claim]: swap.value })}.${jwt.sig}`,
        what: `with its "${swap.claim}" claim changed to key 2's (${String(swap.value)}) and the original signature kept`,
        asKey2: true,
      });
    }

    const key2Marks = identityMarks(ctx, 2);
    const key1Marks = identityMarks(ctx, 1);
    const key2Probe = swap ? await ctx.baseline('key2', ep) : null;
    const reported = new Set<string>();
    for (const v of variants) {
      if (reported.has(v.id) || ctx.budgetLeft() <= 0) continue;
      if (v.id === 'alg-none' && reported.has('signature-stripped')) continue;
      const ex = await send(v.token, `tampered JWT (${v.id})`);
      const ok = v.asKey2
        ? ex.ok && !looksLikeError(ex) && ((!!key2Probe && carriesDataOf(ex, key2Probe)) || marksIn(key2Marks, ex.body).length > 0) && marksIn(key1Marks, ex.body).length === 0
        : await acceptedAsKey1(ex);
      if (!ok) continue;
      reported.add(v.id);
      yield finding(v, ex, control);
    }

    // A guessable HMAC secret: forge a token of our own, and with it test expiry properly.
    const secret = crackJwt(jwt);
    if (secret !== null && ctx.budgetLeft() > 0) {
      const alg = String(jwt.header.alg).toUpperCase();
      const forge = (payload: Json) => {
        const p = enc(payload);
        return `${jwt.h}.${p}.${sign(alg, secret, `${jwt.h}.${p}`)}`;
      };
      const masked = secret === '' ? '(empty)' : `"${secret.slice(0, 2)}${'*'.repeat(Math.max(0, secret.length - 2))}"`;
      const forged = await send(forge({ ...jwt.payload, jti: `portcullis-${randomAlnum(10)}`, ...(exp !== null ? { exp: now + 600 } : {}) }), 'JWT re-signed with the guessed secret');
      if (await acceptedAsKey1(forged)) {
        yield finding(
          { id: 'weak-secret', name: 'JWT signed with a guessable secret', token: '', what: `re-signed with a well-known HMAC secret (${masked}, ${secret.length} characters) after editing its claims` },
          forged,
          control,
          ['The secret was found offline by checking a list of well-known secrets against key 1\'s own signature; with it anyone can mint tokens for any user.'],
        );
        if (!reported.has('expired-unsigned') && exp !== null && ctx.budgetLeft() > 0) {
          const expired = await send(forge(expiredClaims), 'expired JWT signed with the guessed secret');
          if (await acceptedAsKey1(expired)) {
            yield finding(
              { id: 'expired', name: 'Expired JWT accepted', token: '', what: 'correctly signed but with `exp` a day in the past', severity: 'medium', cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N' },
              expired,
              control,
            );
          }
        }
      }
    }
  },
});

// ---------------------------------------------------------------- brute force on login / token / reset

const ROUTE_LOGIN = /(^|[^a-z])(log-?in|sign-?in|signon|authenticate|auth|token|tokens|session|sessions|oauth)([^a-z]|$)/i;
const ROUTE_RESET = /(^|[^a-z])(reset|forgot|forget|forgotten|recover|recovery|password)([^a-z]|$)/i;
const ROUTE_EXCLUDED = /(^|[^a-z])(sign-?up|register|registration|logout|log-out|sign-?out|refresh|revoke|introspect)([^a-z]|$)/i;
/** One-time-code routes are API6 flows, unless the code sets a new password (a reset confirmation). */
const ROUTE_OTP = /(^|[^a-z])(otp|mfa|2fa|one-?time)([^a-z]|$)/i;
const PASSWORD_FIELD = /^(password|passwd|pass|pwd|passphrase|secret|pin|client_?secret)$/i;
const USER_FIELD = /^(username|user_?name|user|login|email|e-?mail|phone|identifier|account|client_?id|handle)$/i;
const TOKEN_FIELD = /^(token|reset_?token|code|reset_?code|verification_?code|otp|key|reset_?key)$/i;

type AuthRoute = { kind: 'login'; secret: string } | { kind: 'reset-request' } | { kind: 'reset-confirm'; secret: string };

function routeWords(e: Endpoint): string {
  const literals = e.path.split('/').filter((s) => s && !s.includes('{')).slice(-3).join(' ');
  return `${literals} ${e.operation_id ?? ''} ${e.summary}`.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/** What kind of credential route this is, from its path, operation and body fields. */
export function authRoute(e: Endpoint): AuthRoute | null {
  if (e.method !== 'POST') return null;
  const words = routeWords(e);
  if (ROUTE_EXCLUDED.test(words)) return null;
  const props = Object.keys(schemaShape(e.request_body?.schema ?? null).props);
  const password = props.find((p) => PASSWORD_FIELD.test(p) || /password$/i.test(p));
  const user = props.find((p) => USER_FIELD.test(p));
  const token = props.find((p) => TOKEN_FIELD.test(p));
  // A code together with a (new) password confirms a reset (POST /auth/password-reset/confirm, POST /auth/check-otp).
  const confirms = /reset|forgo|recover|verify|check|confirm/i.test(words) || ROUTE_OTP.test(words) || /^new[-_]?password$/i.test(password ?? '');
  if (token && password && confirms) return { kind: 'reset-confirm', secret: token };
  if (ROUTE_OTP.test(words)) return null;
  if (ROUTE_RESET.test(words) && /reset|forgo|recover/i.test(words)) {
    if (token) return { kind: 'reset-confirm', secret: token };
    if (user && !password) return { kind: 'reset-request' };
    return null;
  }
  if (ROUTE_LOGIN.test(words) && password && user) return { kind: 'login', secret: password };
  return null;
}

const THROTTLED_TEXT = /too many|rate.?limit|locked|lockout|try again (later|in)|captcha|temporarily (blocked|disabled|suspended)|slow down|throttl/i;

/** Signs that the API limits attempts: 429/423/503, Retry-After, a small rate limit, a lockout message. */
function throttleSign(ex: Exchange): string | null {
  if (!ex.response) return null;
  if (ex.status === 429 || ex.status === 423 || ex.status === 503) return `HTTP ${ex.status}`;
  if (ex.header('retry-after')) return `Retry-After: ${ex.header('retry-after')}`;
  for (const h of ['ratelimit-remaining', 'x-ratelimit-remaining', 'x-rate-limit-remaining']) {
    const v = ex.header(h);
    if (v !== undefined && Number(v) <= 0) return `${h}: ${v}`;
  }
  for (const h of ['ratelimit-limit', 'x-ratelimit-limit', 'x-rate-limit-limit']) {
    const v = Number((ex.header(h) ?? '').split(/[,;]/)[0]);
    if (Number.isFinite(v) && v > 0 && v <= 20) return `${h}: ${ex.header(h)}`;
  }
  if (THROTTLED_TEXT.test(ex.body.slice(0, 2000))) return 'a lockout or rate-limit message';
  return null;
}

const BURST = 10;

/** The body with its user fields (username, e-mail...) set to key 1's own, from its /me-like identity. */
/**
 * Whose account the burst aims at: a user the scan registered for it (a lockout harms nobody),
 * else key 1's own when its credential needs no new login (a static key), else none of the scan's
 * identities (a lockout of a logging-in identity would stop the scan: the spec's example user then).
 */
async function burstUser(ctx: CheckContext): Promise<Record<string, string> | null> {
  if (ctx.accounts) {
    const r = await ctx.accounts.register('target of the login-throttling check');
    if (!('error' in r)) return { ...(r.account.username ? { username: r.account.username } : {}), ...(r.account.email ? { email: r.account.email } : {}) };
  }
  return ctx.identities.key1.renewable ? null : ctx.identities.key1.values;
}

function asUser(ep: Endpoint, body: Json, ident: Record<string, string>): Json {
  const out: Json = { ...body };
  for (const k of Object.keys(schemaShape(ep.request_body?.schema ?? null).props)) {
    if (!USER_FIELD.test(k)) continue;
    const own = /mail/i.test(k) ? ident.email : (ident.username ?? ident.login ?? (ident.email?.includes('@') ? undefined : ident.email));
    if (own) out[k] = own;
  }
  return out;
}

function wrongSecret(schema: JsonSchema | null | undefined, i: number): string {
  const min = typeof schema?.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema?.maxLength === 'number' ? schema.maxLength : 64;
  let v = `Wrong-${randomAlnum(Math.max(8, Math.min(24, min)))}-${i}`;
  if (schema?.pattern && /\[0-9\]|\\d/.test(String(schema.pattern)) && !/[a-z]/i.test(String(schema.pattern).replace(/\\d/g, ''))) v = String(100000 + ((i * 7919) % 900000));
  while (v.length < min) v += randomAlnum(1);
  return v.slice(0, max);
}

export const authBruteForce = defineCheck({
  id: 'api2-auth-brute-force',
  title: 'No throttling of login, token or password-reset attempts',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-307',
  severity: 'medium',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  last: true,
  budget: BURST,
  needsKey2: false,
  techniques: ['API2.3'],
  description:
    `On login and token routes (a POST with a user field and a password field) and password-reset routes (request: a user or e-mail field; ` +
    `confirm: a token or code field), sends ${BURST} attempts in a row for one user (a user the scan registered for it where it may; else ` +
    'key 1\'s username or e-mail when key 1 is a static key; else the spec\'s example) with wrong passwords, the same reset request, or ' +
    'wrong reset tokens. Finding: every attempt is processed the same way ' +
    '(no 429, 423 or 503, no Retry-After, no rate-limit header at 0 or sized for logins, no lockout or CAPTCHA message). Medium: a rate limit ' +
    'may sit in front of the application and not show at this volume.',
  coverage:
    `A burst of ${BURST} finds missing limits, not weak ones (a limit of 50 attempts per minute passes). A limit enforced per source address ` +
    'by a gateway in front of a staging API may not apply to the scanner. The attempts may lock the targeted account or send reset mails to ' +
    'it; an identity that logs in during the scan is never the target. ' +
    'OTP and sign-up flows are left to the API6 checks.',
  remediation:
    'Limit failed attempts per account and per client (e.g. 5 per 15 minutes per account, with exponential back-off), answer 429 with ' +
    'Retry-After, add a CAPTCHA or step-up after repeated failures, limit reset requests per address, expire reset tokens quickly, and alert ' +
    'on credential-stuffing patterns.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/307.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#protect-against-automated-attacks'],
  appliesTo: (e) => e.flags.includes('BKEN_AUTH') && authRoute(e) !== null,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const route = authRoute(ep);
    if (!route) return;
    // Baselines first: the burst may trip a limit, and other checks compare with them.
    await ctx.baseline('key1');
    await ctx.baseline('anonymous');
    const base = await ctx.prepare(ep, 1, 'write');
    if (!base || !isObj(base.bodyValue)) return;
    const props = schemaShape(ep.request_body?.schema ?? null).props;
    // One user for every attempt, so a per-account limit would show.
    const user = await burstUser(ctx);
    const body = user ? asUser(ep, base.bodyValue, user) : base.bodyValue;
    const attempts: Exchange[] = [];
    for (let i = 0; i < BURST; i += 1) {
      if (ctx.budgetLeft() <= 0) return;
      const value = route.kind === 'reset-request' ? body : { ...body, [route.secret]: wrongSecret(props[route.secret], i) };
      const ex = await ctx.sendPrepared(mutate(base, { bodyValue: value }), { kind: 'none' });
      if (!ex.response || ex.status >= 500) return;
      if (throttleSign(ex)) return;
      attempts.push(ex);
    }
    const statuses = [...new Set(attempts.map((a) => a.status))];
    if (statuses.length !== 1) return;
    const status = statuses[0]!;
    // The attempts must have reached the credential check: a refusal of the credential, or an accepted reset request.
    const processed =
      route.kind === 'reset-request'
        ? status >= 200 && status < 300
        : status === 401 || status === 403 || (status >= 200 && status < 300 && looksLikeError(attempts[0]!)) || ((status === 400 || status === 422) && /password|credential|invalid|incorrect|wrong|token|expired|code/i.test(attempts[0]!.body));
    if (!processed) return;
    const what = route.kind === 'login' ? 'wrong passwords' : route.kind === 'reset-confirm' ? 'wrong reset tokens' : 'password-reset requests for the same account';
    const ms = Math.round(attempts[attempts.length - 1]!.durationMs);
    yield {
      parameter: route.kind === 'reset-request' ? null : route.secret,
      description:
        `${describeEndpoint(ep)} processed ${BURST} ${what} in a row, each answered HTTP ${status}, with no sign of throttling (no 429, no ` +
        `Retry-After, no lockout). ${route.kind === 'login' ? 'Passwords can be guessed or stuffed at full speed.' : route.kind === 'reset-confirm' ? 'Reset tokens can be guessed at full speed.' : 'An attacker can flood a user with reset mails and probe accounts.'} ` +
        'A rate limit in front of the application (a gateway, a WAF) may still exist: confirm before closing.',
      notes: [`Statuses: ${attempts.map((a) => a.status).join(', ')}. Last response time: ${ms} ms.`],
      exchanges: [
        { label: 'Attempt 1', exchange: attempts[0]! },
        { label: `Attack: attempt ${BURST}`, exchange: attempts[attempts.length - 1]! },
      ],
    };
  },
});

// ---------------------------------------------------------------- credentials in the URL

const QUERY_NAMES = ['access_token', 'api_key', 'apikey', 'token', 'key', 'apiKey', 'accessToken', 'auth', 'jwt', 'auth_token', 'api-key', 'x-api-key'];

export const credentialsInUrl = defineCheck({
  id: 'api2-credentials-in-url',
  title: 'Credentials accepted in the URL',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-598',
  severity: 'medium',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: QUERY_NAMES.length + 1,
  needsKey2: false,
  techniques: ['API2.4'],
  description:
    `On an endpoint where key 1 gets content and a request without credentials is refused (a /me-like one first), sends key 1 in the query ` +
    `string instead of its header, under the usual names (${QUERY_NAMES.slice(0, 6).join(', ')}...), until one works; then the same name with a ` +
    'made-up value as a control. Finding: the key in the URL answers 2xx with key 1\'s data and the made-up value is refused.',
  coverage:
    'Tests one endpoint (the API\'s authentication is normally shared); APIs whose spec declares a query-string key are reported only for ' +
    'names it does not declare. The test itself puts key 1 in URLs, so it lands in the target\'s access logs: scan with a test account\'s key.',
  remediation:
    'Accept credentials only in the Authorization header (or a cookie for browsers); ignore them in query strings. URLs end up in server and ' +
    'proxy logs, browser history and Referer headers.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/598.html', 'https://owasp.org/www-community/vulnerabilities/Information_exposure_through_query_strings_in_url'],
  async *run(ctx) {
    const raw = ctx.credential(1);
    if (!raw) return;
    const key = raw.replace(/^(bearer|token)\s+/i, '').trim();
    const probe = await authProbe(ctx);
    if (!probe) {
      ctx.note('Credentials in the URL: no GET endpoint where key 1 gets content and a request without credentials is refused; not tested.');
      return;
    }
    const declared = new Set(ctx.authSpec(probe.endpoint).placements.filter((p) => p.in === 'query').map((p) => p.name.toLowerCase()));
    for (const name of QUERY_NAMES) {
      if (declared.has(name.toLowerCase()) || ctx.budgetLeft() < 2) continue;
      const req = mutate(probe.request, { query: { [name]: key } });
      const ex = await ctx.sendPrepared(req, { kind: 'none' });
      if (!(await probe.asKey1(ex))) continue;
      const control = await ctx.sendPrepared(mutate(probe.request, { query: { [name]: randomAlnum(Math.max(16, Math.min(key.length, 64))) } }), { kind: 'none' });
      if (control.ok) return;
      yield {
        endpoint: probe.endpoint,
        parameter: name,
        description:
          `${describeEndpoint(probe.endpoint)} accepts key 1 in the query string (?${name}=...) and answers ${ex.status} with key 1's data, while a ` +
          `request without credentials gets ${probe.anon.status} and a made-up ${name} gets ${control.status}. Keys in URLs are written to server, ` +
          'proxy and browser logs and leak through Referer headers.',
        exchanges: [
          { label: 'Baseline', exchange: probe.key1 },
          { label: 'Baseline', exchange: probe.anon },
          { label: `Attack: key 1 in ?${name}`, exchange: ex },
          { label: `Control: a made-up ${name}`, exchange: control },
        ],
        reproduce: ex,
      };
      return;
    }
  },
});

// ---------------------------------------------------------------- tokens in responses

const ISSUING_ROUTE = /(^|[^a-z])(log-?in|sign-?in|signon|sign-?up|register|registration|token|tokens|oauth2?|authenticate|authorize|session|sessions|refresh|sso|callback|exchange|impersonat\w*|api-?keys?|credentials?)([^a-z]|$)/i;
const TOKEN_KEY = /token|jwt|session_?id|^sid$|otp|one_?time|magic_?link|reset_?(code|key|link|url)|verification_?code|confirm(ation)?_?code|^code$/i;
const JWT_VALUE = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{10,}/;

function highEntropy(v: string): boolean {
  if (v.length < 16 || v.length > 4096 || /\s/.test(v) || /^https?:/i.test(v) || /^\d{4}-\d{2}-\d{2}/.test(v)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((r) => r.test(v)).length;
  return classes >= 2 && new Set(v).size >= 10 && !/^(.)\1+$/.test(v) && !/[*•…]|x{4,}/i.test(v);
}

interface TokenHit {
  path: string;
  value: string;
  kind: 'reset' | 'otp' | 'session' | 'jwt';
}

/** Token-like values in a body: by property name and value shape, or JWTs anywhere; never what the request sent. */
function findTokens(value: unknown, sentText: string): TokenHit[] {
  const hits: TokenHit[] = [];
  const walk = (v: unknown, path: string, depth: number) => {
    if (depth > 6 || hits.length > 10) return;
    if (Array.isArray(v)) {
      v.slice(0, 20).forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1));
      return;
    }
    if (isObj(v)) {
      for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k, depth + 1);
      return;
    }
    if (typeof v !== 'string' && typeof v !== 'number') return;
    const s = String(v);
    if (!s || sentText.includes(s)) return;
    const key = path.split('.').pop()!.replace(/\[\d+\]$/, '');
    if (JWT_VALUE.test(s)) return void hits.push({ path, value: s, kind: 'jwt' });
    if (!TOKEN_KEY.test(key) || /type|expir|ttl|hint|url$|uri$|length|count|format|method|status/i.test(key)) return;
    const otpLike = /otp|one_?time|code/i.test(key) && /^\d{4,8}$/.test(s);
    if (!otpLike && !highEntropy(s)) return;
    hits.push({ path, value: s, kind: /reset|magic|verification|confirm/i.test(key) ? 'reset' : otpLike || /otp|one_?time|^code$/i.test(key) ? 'otp' : 'session' });
  };
  walk(value, '', 0);
  return hits;
}

export const tokenInResponse = defineCheck({
  id: 'api2-token-in-response',
  title: 'Token exposed in a response',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-640',
  severity: 'high',
  confidence: 'medium',
  cvss: JWT_CVSS,
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 1,
  needsKey2: false,
  techniques: ['API2.4'],
  description:
    'Reads each endpoint\'s baseline answers (key 1, and without credentials for public routes), and on password-reset and code-sending ' +
    'routes sends one request for key 1\'s own account (its e-mail or username from /me), looking for credentials that should ' +
    'reach the user another way or not at all: password-reset tokens and codes, one-time codes, session tokens and JWTs. A value counts when its property is named like a token and it looks like one (random, ≥ 16 characters; a 4-8 digit ' +
    'code for OTPs), or a JWT, and is not something the request itself sent: that is a finding. Routes whose job is to issue tokens (login, ' +
    'sign-up, token, OAuth, session, refresh) are not reported.',
  coverage:
    'Other routes are read passively: a token returned only for some inputs is found only when the baseline hits that case. The reset ' +
    'request for key 1\'s account may send it a reset mail.',
  remediation:
    'Send reset links and one-time codes only through the out-of-band channel (mail, SMS) and answer the API call with the same generic ' +
    'message whatever the input. Never echo credentials; return session tokens only from the endpoints that issue them.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/640.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Forgot_Password_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('BKEN_AUTH') && !ISSUING_ROUTE.test(routeWords(e)),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const answers: { ex: Exchange | null; who: string }[] = [];
    const key1 = await ctx.baseline('key1');
    answers.push({ ex: key1, who: 'key 1' });
    if (!ctx.authSpec().declaredSecured) answers.push({ ex: await ctx.baseline('anonymous'), who: 'no credentials' });
    // Reset and code-sending routes answer differently for a registered account: ask for key 1's own.
    const route = authRoute(ep);
    if ((route?.kind === 'reset-request' || /(^|[^a-z])(otp|code|verification)([^a-z]|$)/i.test(routeWords(ep))) && ctx.budgetLeft() > 0) {
      const base = await ctx.prepare(ep, 1, 'write');
      if (base && isObj(base.bodyValue)) {
        const body = asUser(ep, base.bodyValue, ctx.identities.key1.values);
        if (JSON.stringify(body) !== JSON.stringify(base.bodyValue) || ep.request_body === null) {
          const auth = ctx.authSpec().declaredSecured ? ({ kind: 'key', key: 1 } as const) : ({ kind: 'none' } as const);
          answers.push({ ex: await ctx.sendPrepared(mutate(base, { bodyValue: body }), auth), who: 'key 1\'s own account' });
        }
      }
    }
    for (const { ex, who } of answers) {
      if (!ex?.ok) continue;
      const json = ex.json();
      if (json === undefined) continue;
      const sent = `${ex.request.url} ${ex.request.body ?? ''}`;
      const hits = findTokens(json, sent);
      if (!hits.length) continue;
      const hit = hits.find((h) => h.kind === 'reset') ?? hits.find((h) => h.kind === 'otp') ?? hits[0]!;
      const severe = hit.kind === 'reset' || hit.kind === 'otp';
      const what =
        hit.kind === 'reset'
          ? 'a password-reset token'
          : hit.kind === 'otp'
            ? 'a one-time code'
            : hit.kind === 'jwt'
              ? 'a JWT'
              : 'a session token';
      yield {
        parameter: hit.path,
        severity: severe ? 'high' : 'medium',
        cvss: severe ? JWT_CVSS : 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N',
        description:
          `${describeEndpoint(ep)} returns ${what} in its response body (${hit.path}) to a request ${who === 'no credentials' ? 'without credentials' : `as ${who}`}. ` +
          (severe
            ? 'Whoever calls it for a victim\'s account receives what should only reach the victim\'s inbox or phone, and can take the account over.'
            : 'Credentials in responses of endpoints that do not issue them end up in logs, caches and client code.'),
        notes: [`Found: ${hits.map((h) => `${h.path} (${h.kind}, ${h.value.length} characters)`).join(', ')}. The values are masked in the exchange below.`],
        exchanges: [{ label: `Attack: request as ${who}`, exchange: maskBody(ex, hits.map((h) => ({ value: h.value, mask: `${h.value.slice(0, Math.min(4, Math.floor(h.value.length / 4)))}…[masked by Portcullis]` }))) }],
        reproduce: ex,
      };
      return;
    }
  },
});

export const TOKEN_CHECKS = [jwtTampering, tokenInResponse, credentialsInUrl, authBruteForce];
