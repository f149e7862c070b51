// Created users' credentials built the way key 1's is. Some APIs have no login at all: the credential
// is the user's own name and password, base64-encoded into a header (HTTP Basic, or a header of the
// API's own). A user the scan registers there cannot "log in"; it can only send its own name and
// password the same way. The scan recognises that shape in key 1's own value: HTTP Basic by its
// placement, any other header only when the decoded value names key 1 itself (its user name or
// e-mail as the API shows it), so an opaque key that happens to decode to "a:b" is never taken for one.

import type { CreatedAccount } from './session';

export interface CredentialShape {
  /** Which of the account's names goes before the colon. */
  name: 'username' | 'email';
  encoding: 'base64' | 'base64url' | 'plain';
  /** Kept from key 1's value ("Basic "), or "". */
  prefix: string;
  padded: boolean;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
/** "name:password": a name without spaces or colons, then anything printable. */
const USER_PASS = /^([^:\s]{1,254}):([\x20-\x7e\u00a0-\uffff]{1,256})$/;

function decoded(body: string): { text: string; encoding: 'base64' | 'base64url' } | null {
  if (body.length < 8) return null;
  const encoding = BASE64.test(body) ? 'base64' : BASE64URL.test(body) ? 'base64url' : null;
  if (!encoding) return null;
  const text = Buffer.from(body, encoding).toString('utf8');
  // A round trip proves the value was base64 of that text, not a token that merely uses its alphabet.
  const again = Buffer.from(text, 'utf8').toString(encoding).replace(/=+$/, '');
  return again === body.replace(/=+$/, '') ? { text, encoding } : null;
}

/**
 * The shape of key 1's credential when it is built from a user name and password; null when it is
 * not recognisably so. `knownNames` are key 1's own names (its user name, e-mail, login) as the API
 * or the configuration shows them; `basic` says the credential goes out as HTTP Basic.
 */
export function recognizeCredentialShape(token: string, knownNames: readonly string[], basic: boolean): CredentialShape | null {
  const m = /^(?:([A-Za-z][\w-]*)\s+)?(\S+)$/.exec(token.trim());
  if (!m) return null;
  const prefix = m[1] ? `${m[1]} ` : '';
  const body = m[2]!;
  const known = new Set(knownNames.filter(Boolean).map((n) => n.toLowerCase()));
  const nameOf = (user: string): CredentialShape['name'] => (user.includes('@') ? 'email' : 'username');
  if (basic && !prefix) {
    const plain = USER_PASS.exec(body);
    if (plain) return { name: nameOf(plain[1]!), encoding: 'plain', prefix: '', padded: false };
  }
  const d = decoded(body);
  const pair = d && USER_PASS.exec(d.text);
  if (!d || !pair) return null;
  const user = pair[1]!;
  if (!basic && !known.has(user.toLowerCase())) return null;
  return { name: nameOf(user), encoding: d.encoding, prefix, padded: body.endsWith('=') || (d.encoding === 'base64' && body.length % 4 === 0) };
}

/** A created user's credential in the shape of key 1's: its own name and password, encoded alike. */
export function buildCredential(shape: CredentialShape, account: Pick<CreatedAccount, 'username' | 'email' | 'password'>): string {
  const user = shape.name === 'email' ? (account.email ?? account.username ?? '') : (account.username ?? account.email ?? '');
  const raw = `${user}:${account.password}`;
  if (shape.encoding === 'plain') return raw;
  const encoded = Buffer.from(raw, 'utf8').toString(shape.encoding);
  const body = shape.padded ? encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '=') : encoded.replace(/=+$/, '');
  return `${shape.prefix}${body}`;
}
