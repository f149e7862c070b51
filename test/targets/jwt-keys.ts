// The target's RS256 signing key (tokens for partner clients, published as a JWKS at
// /.well-known/jwks.json like any OpenID provider's) and the header-driven key lookups real JWT
// verifiers have shipped: the public key used as an HMAC secret (algorithm confusion), a `kid` read as
// a file name, a key embedded in the header (`jwk`), a key set fetched from the header's `jku`, and a
// certificate taken from the header (`x5c`) or fetched from its `x5u`, its key used without checking
// that a certificate authority the API trusts issued it.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { compactVerify, importJWK, type JWK } from 'jose';
import type { FlawId } from './flaws';

export const RS_KID = 'acme-rs1';
/** The file the HS256 key id names in the keys folder. */
export const HS_KID = 'acme-hs1';

/** One key pair per process: generating RSA keys costs tens of milliseconds per start. */
let pair: { privateKey: crypto.KeyObject; publicKey: crypto.KeyObject } | null = null;

export function rsaKeys(): { privateKey: crypto.KeyObject; publicKey: crypto.KeyObject } {
  pair ??= crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return pair;
}

/** The published key set: what /.well-known/jwks.json answers. */
export function publicJwks(): { keys: JWK[] } {
  return { keys: [{ ...(rsaKeys().publicKey.export({ format: 'jwk' }) as JWK), kid: RS_KID, use: 'sig', alg: 'RS256' }] };
}

/** The public key as PEM (SPKI), the text many libraries are handed as the "secret" of every token. */
export function publicPem(): string {
  return rsaKeys().publicKey.export({ type: 'spki', format: 'pem' }).toString();
}

const hmac = (key: crypto.BinaryLike, input: string) => crypto.createHmac('sha256', key).update(input).digest('base64url');

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

async function verifiesWith(token: string, jwk: unknown): Promise<boolean> {
  if (!jwk || typeof jwk !== 'object') return false;
  try {
    await compactVerify(token, await importJWK(jwk as JWK, 'RS256'));
    return true;
  } catch {
    return false;
  }
}

/** A key set fetched from a URL the token names (a second at most, JSON only). */
async function fetchKeySet(url: string): Promise<JWK[]> {
  if (!/^https?:\/\//i.test(url)) return [];
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000), redirect: 'manual' });
    const body = (await res.json()) as { keys?: unknown };
    return Array.isArray(body.keys) ? (body.keys as JWK[]) : [];
  } catch {
    return [];
  }
}

/** The leaf certificate's key, or null when the text is no certificate. */
function certificateKey(cert: string | Buffer): crypto.KeyObject | null {
  try {
    return new crypto.X509Certificate(cert).publicKey;
  } catch {
    return null;
  }
}

function rs256Verifies(input: string, sig: string, key: crypto.KeyObject | null): boolean {
  return !!key && key.asymmetricKeyType === 'rsa' && crypto.verify('sha256', Buffer.from(input), key, Buffer.from(sig, 'base64url'));
}

/**
 * The certificate an `x5u` names (PEM, per RFC 7515), fetched only from this machine: the target
 * never reaches out past loopback, even when a scan or a probe names another host.
 */
async function fetchCertificate(url: string): Promise<string | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  if (target.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) return null;
  try {
    const res = await fetch(target, { signal: AbortSignal.timeout(2000), redirect: 'manual' });
    return res.ok ? (await res.text()).slice(0, 100_000) : null;
  } catch {
    return null;
  }
}

/**
 * Whether one of the header-driven flaws accepts the token's signature (the claims are the caller's
 * to check). Each flaw is a lookup that trusts what the token says about its own key.
 */
export async function headerKeyAccepts(token: string, header: Record<string, unknown>, has: (id: FlawId) => boolean, keysDir: string): Promise<boolean> {
  const [h, p, sig] = token.split('.') as [string, string, string];
  const input = `${h}.${p}`;
  const alg = String(header.alg);
  // Algorithm confusion: the verifier is handed the public key and lets the token pick HMAC.
  if (has('jwt-key-confusion') && alg === 'HS256' && equal(hmac(publicPem(), input), sig)) return true;
  // The key id names a file in the keys folder, joined without a check: ../../dev/null is an empty key.
  if (has('jwt-kid-path') && alg === 'HS256' && typeof header.kid === 'string') {
    try {
      const key = fs.readFileSync(path.join(keysDir, header.kid));
      if (equal(hmac(key, input), sig)) return true;
    } catch {
      // no such key
    }
  }
  if (has('jwt-embedded-jwk') && alg === 'RS256' && (await verifiesWith(token, header.jwk))) return true;
  if (has('jwt-jku-trusted') && alg === 'RS256' && typeof header.jku === 'string') {
    const keys = await fetchKeySet(header.jku);
    const key = keys.find((k) => k.kid === header.kid) ?? keys[0];
    if (await verifiesWith(token, key)) return true;
  }
  // The first certificate of the chain gives the key; nothing checks who issued it.
  if (has('jwt-x5c') && alg === 'RS256' && Array.isArray(header.x5c) && typeof header.x5c[0] === 'string') {
    if (rs256Verifies(input, sig, certificateKey(Buffer.from(header.x5c[0], 'base64')))) return true;
  }
  if (has('jwt-x5u') && alg === 'RS256' && typeof header.x5u === 'string') {
    const pem = await fetchCertificate(header.x5u);
    if (pem !== null && rs256Verifies(input, sig, certificateKey(pem))) return true;
  }
  return false;
}

/** The keys folder of one target: its HS256 key under its key id. */
export function writeKeysDir(dir: string, secret: Uint8Array): string {
  const keys = path.join(dir, 'keys');
  fs.mkdirSync(keys, { recursive: true });
  fs.writeFileSync(path.join(keys, HS_KID), secret);
  return keys;
}
