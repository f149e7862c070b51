// Identifiers that are a number or a short key wrapped in base64 (standard or url-safe) or hex
// ("MTAwMQ==" is "1001", "dXNlcjo0Mg" is "user:42"): decoded, changed (the next and previous
// number, another user's known key) and encoded again exactly as the API wrote them, so the BOLA
// swaps can guess other users' ids the way an attacker would.

export type IdEncoding = 'base64' | 'base64url' | 'hex';

export interface EncodedId {
  /** The value as the API wrote it. */
  raw: string;
  encoding: IdEncoding;
  /** What it stands for: "1001", "user:42". */
  plain: string;
  /** base64 written with its "=" padding. */
  padded: boolean;
  /** hex written in capitals. */
  upper: boolean;
}

/** A number, or a short key made of words, separators and digits: what an encoded id stands for. */
const KEY_LIKE = /^[A-Za-z0-9][A-Za-z0-9_:.\-|/#@]{0,63}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const HEX = /^(?:[0-9a-f]{2})+$|^(?:[0-9A-F]{2})+$/;

/** Decoded bytes worth treating as an id: printable text shaped like a number or a key, never binary or prose. */
function plainKey(bytes: Buffer): string | null {
  if (bytes.length < 1 || bytes.some((b) => b < 0x20 || b > 0x7e)) return null;
  const text = bytes.toString('latin1');
  return KEY_LIKE.test(text) ? text : null;
}

function encodeAs(plain: string, like: Omit<EncodedId, 'raw' | 'plain'>): string {
  const bytes = Buffer.from(plain, 'latin1');
  if (like.encoding === 'hex') {
    const hex = bytes.toString('hex');
    return like.upper ? hex.toUpperCase() : hex;
  }
  const b64 = bytes.toString(like.encoding);
  if (like.encoding === 'base64url') return like.padded ? b64 + '='.repeat((4 - (b64.length % 4)) % 4) : b64;
  return like.padded ? b64 : b64.replace(/=+$/, '');
}

/**
 * The id decoded, when it is base64, base64url or hex of a number or a short key and encodes back
 * to exactly itself (so a value that merely uses the alphabet, or decodes to noise, is not one).
 * Plain numbers and words stay undecoded: "1001" is hex of two control bytes, "alice" no base64 at all.
 */
export function decodeId(raw: string): EncodedId | null {
  if (raw.length < 4 || raw.length > 128) return null;
  if (HEX.test(raw) && !/^\d+$/.test(raw)) {
    const plain = plainKey(Buffer.from(raw, 'hex'));
    if (plain) return { raw, encoding: 'hex', plain, padded: false, upper: raw === raw.toUpperCase() };
  }
  const body = raw.replace(/=+$/, '');
  const padded = body !== raw;
  if (body.length % 4 === 1) return null;
  const kinds: IdEncoding[] = [];
  if (BASE64.test(raw)) kinds.push('base64');
  if (BASE64URL.test(body) && /[_-]/.test(body)) kinds.unshift('base64url');
  else if (BASE64URL.test(body)) kinds.push('base64url');
  for (const encoding of kinds) {
    const plain = plainKey(Buffer.from(body, encoding === 'base64' ? 'base64' : 'base64url'));
    if (!plain) continue;
    const id: EncodedId = { raw, encoding, plain, padded, upper: false };
    if (encodeAs(plain, id) === raw) return id;
  }
  return null;
}

/** Another plain value written the way `like` was written. */
export function encodeLike(plain: string, like: EncodedId): string {
  return encodeAs(plain, like);
}

/** The last run of digits in the plain value, with its place. */
function lastNumber(plain: string): { start: number; digits: string } | null {
  const m = /(\d+)(?!.*\d)/.exec(plain);
  return m ? { start: m.index, digits: m[1]! } : null;
}

/** The plain value with its last number moved by `delta` (zero padding kept); null below zero or past 15 digits. */
export function shiftNumber(plain: string, delta: number): string | null {
  const n = lastNumber(plain);
  if (!n || n.digits.length > 15) return null;
  const next = Number(n.digits) + delta;
  if (next < 0) return null;
  const text = String(next).padStart(n.digits.length, '0');
  return plain.slice(0, n.start) + text + plain.slice(n.start + n.digits.length);
}

/** The plain value with one user's key (a whole token: "user:42", not "1420") replaced by another's. */
export function swapKey(plain: string, own: string, other: string): string | null {
  if (!own || !other || own === other) return null;
  const escaped = own.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(^|[^A-Za-z0-9])${escaped}(?![A-Za-z0-9])`);
  if (!re.test(plain)) return null;
  return plain.replace(re, (_, lead: string) => `${lead}${other}`);
}

export interface EncodedCandidate {
  /** The value to send, encoded like the original. */
  value: string;
  /** What it stands for, for texts ("1002"). */
  plain: string;
  /** How it was derived, for texts. */
  how: string;
}

/**
 * Values an attacker would try next to an encoded id: the other user's key put in place of its
 * own (when the id carries it), then the next and the previous number. Encoded like the original.
 */
export function encodedNeighbours(id: EncodedId, keys: { own?: string | null; other?: string | null } = {}): EncodedCandidate[] {
  const out: EncodedCandidate[] = [];
  const add = (plain: string | null, how: string) => {
    if (plain === null || plain === id.plain || out.some((c) => c.plain === plain)) return;
    out.push({ value: encodeLike(plain, id), plain, how });
  };
  if (keys.own && keys.other) add(swapKey(id.plain, keys.own, keys.other), `the other user's key ${keys.other} in place of ${keys.own}`);
  add(shiftNumber(id.plain, 1), 'the next number');
  add(shiftNumber(id.plain, -1), 'the previous number');
  return out;
}

/** "base64 of \"1001\"", for texts. */
export function describeEncoding(id: Pick<EncodedId, 'encoding' | 'plain'>): string {
  const name = id.encoding === 'base64url' ? 'url-safe base64' : id.encoding;
  return `${name} of "${id.plain}"`;
}

// ---------------------------------------------------------------- encoded content

const ENCODED_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
const MAX_RUNS = 40;
const MAX_DECODED = 256 * 1024;

/** Decoded bytes that read as text (a page, a file): valid UTF-8, almost only printable characters. */
function asText(bytes: Buffer): string | null {
  if (bytes.length < 8) return null;
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD')) return null;
  const printable = text.replace(/[^\t\n\r\x20-\x7e\u00a0-\uffff]/g, '').length;
  return printable / text.length >= 0.95 ? text : null;
}

/**
 * Text an answer carries encoded: every run of 16 or more base64, url-safe base64 or hex characters
 * that decodes to readable text (a fetched page returned as `{"content": "<base64>"}`). Runs that
 * decode to binary or noise are left out.
 */
export function decodedTexts(text: string): string[] {
  const out: string[] = [];
  let total = 0;
  for (const m of text.slice(0, 4 * MAX_DECODED).match(ENCODED_RUN)?.slice(0, MAX_RUNS) ?? []) {
    const hex = /^(?:[0-9a-fA-F]{2})+$/.test(m) ? asText(Buffer.from(m, 'hex')) : null;
    const body = m.replace(/=+$/, '');
    const b64 = hex === null && body.length % 4 !== 1 ? asText(Buffer.from(body, /[_-]/.test(body) ? 'base64url' : 'base64')) : null;
    const decoded = hex ?? b64;
    if (decoded === null) continue;
    out.push(decoded);
    total += decoded.length;
    if (total > MAX_DECODED) break;
  }
  return out;
}
