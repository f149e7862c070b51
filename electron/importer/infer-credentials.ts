// Credentials a request carries by itself rather than through a declared scheme: a Postman
// request's own header, query parameter or cookie ({{token}}, a pasted key) and the headers, query
// strings and cookies of recorded HAR traffic. Each becomes a security scheme named after where it
// goes, so the scanner puts the scan's credential there; the values themselves are never kept.

import type { SecurityRequirement, SecurityScheme } from '../../shared/contract';
import { looksLikeJwt, SECRET_NAME } from './infer-schema';
import type { Warnings } from './warnings';
import { clampText, hasOwn } from './values';

export { looksLikeJwt };

export type CredentialPlace = 'header' | 'query' | 'cookie';

/** A credential found on one request: the scheme it stands for, before it is given its final name. */
export interface CredentialCandidate {
  /** The readable name it would like ("xApiToken", "sessionCookie", "bearerAuth"). */
  suggested: string;
  scheme: SecurityScheme;
  place: CredentialPlace;
  /** The header, query parameter or cookie name as written. */
  field: string;
  /** What a warning may show: the value with its variables ("Token {{token}}"), or a stand-in for a real value. */
  shown: string;
}

const VARIABLE = /\{\{([^{}]{1,200})\}\}/g;
const MAX_VALUE = 8_192;
const MAX_TEMPLATE_TEXT = 40;

/** Headers that are never credentials, whatever they hold. */
const NEVER_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-disposition',
  'accept',
  'user-agent',
  'host',
  'connection',
  'cache-control',
  'pragma',
  'origin',
  'referer',
  'range',
  'dnt',
  'te',
  'upgrade',
  'via',
  'expect',
  'forwarded',
  'keep-alive',
  'priority',
  'traceparent',
  'tracestate',
  'baggage',
  'x-requested-with',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'proxy-authorization',
]);
const NEVER_HEADER_PREFIX = /^(accept-|content-|sec-|if-|access-control-|:)/i;
/** Words that make a name something else than a credential: pagination cursors, anti-CSRF tokens, trace ids... */
const NOT_CREDENTIAL_WORDS = new Set([
  'page',
  'pagination',
  'paging',
  'next',
  'prev',
  'previous',
  'continuation',
  'cursor',
  'sync',
  'refresh',
  'nonce',
  'state',
  'challenge',
  'verifier',
  'public',
  'publishable',
  'request',
  'correlation',
  'trace',
  'span',
  'cache',
  'sort',
  'partition',
  'primary',
  'foreign',
  'reset',
  'invite',
  'invitation',
  'confirmation',
  'verification',
  'unsubscribe',
  'upload',
  'push',
  'device',
  'websocket',
  'locale',
]);
const NOT_CREDENTIAL_PARTS = /csrf|xsrf|captcha|idempoten/i;
/** Words that name a credential. */
const CREDENTIAL_WORDS = new Set([
  'token',
  'key',
  'apikey',
  'auth',
  'authorization',
  'authentication',
  'authn',
  'authtoken',
  'authkey',
  'session',
  'sess',
  'sid',
  'secret',
  'jwt',
  'bearer',
  'credential',
  'credentials',
  'passkey',
]);
/** Headers that hold a key by their name alone (any non-empty value). */
const KEY_HEADERS = /^(x-api-key|api-key|apikey|x-apikey|x-auth-token|x-access-token|x-api-token|x-auth-key)$/i;
/** HTTP authentication schemes (RFC 9110 registry and common ones): `Authorization: <scheme> ...`. */
const HTTP_AUTH_SCHEMES = new Set(['bearer', 'basic', 'digest', 'negotiate', 'ntlm', 'hoba', 'mutual', 'vapid', 'scram-sha-1', 'scram-sha-256', 'hawk', 'oauth', 'aws4-hmac-sha256']);
const TOKEN_CHARS = /^[A-Za-z0-9._~+/=:%-]+$/;

/** "X-API-Key" -> ["x", "api", "key"]; "accessToken" -> ["access", "token"]. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** "X-API-Key" -> "xApiKey", "connect.sid" -> "connectSid": stable, readable, [A-Za-z0-9] only. */
export function camelName(name: string): string {
  const words = nameWords(name).slice(0, 8);
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('').slice(0, 60);
}

function notCredential(name: string): boolean {
  if (NOT_CREDENTIAL_PARTS.test(name)) return true;
  return nameWords(name).some((w) => NOT_CREDENTIAL_WORDS.has(w));
}

/** A name that says "credential": token, key, auth, session, secret, apikey, x-api-... (and not a cursor or a CSRF token). */
export function isCredentialName(name: string): boolean {
  if (!name || notCredential(name)) return false;
  if (KEY_HEADERS.test(name)) return true;
  return nameWords(name).some((w) => CREDENTIAL_WORDS.has(w) || /token$|apikey|secret|sessionid$|sessid$/.test(w));
}

/** session, sid, connect.sid, JSESSIONID, PHPSESSID, laravel_session, *sess*... */
export function isSessionCookieName(name: string): boolean {
  if (!name || notCredential(name)) return false;
  return /(^|[^a-z])sess/i.test(name) || /sess(ion)?id/i.test(name) || /(^|[^a-z])sid$/i.test(name);
}

/** A header whose value can never be a credential. */
export function isNeverCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return NEVER_HEADERS.has(lower) || NEVER_HEADER_PREFIX.test(lower) || notCredential(name);
}

/** A long random-looking string: 16+ token characters mixing letters and digits (or cases), not a word, date or URL. */
export function looksRandom(value: string): boolean {
  if (value.length < 16 || value.length > MAX_VALUE || !TOKEN_CHARS.test(value)) return false;
  if (/^\d{4}-\d{2}-\d{2}/.test(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((r) => r.test(value)).length;
  if (classes < 2) return false;
  return new Set(value).size >= 8;
}

/** A value that must never be stored as an example: a JWT anywhere, or a random-looking string under a credential-like name. */
export function looksLikeSecret(name: string, value: string): boolean {
  const v = value.trim().slice(0, MAX_VALUE);
  if (looksLikeJwt(v)) return true;
  if (!isCredentialName(name) && !isSessionCookieName(name) && !SECRET_NAME.test(name)) return false;
  return looksRandom(v) || v.split(/\s+/).some((part) => looksRandom(part) || looksLikeJwt(part));
}

const MEDIA_TYPE = /^[a-z]+\/[a-z0-9.+*-]+\s*(;.*)?$/i;

function variablesOf(value: string): string[] {
  return [...value.matchAll(VARIABLE)].map((m) => m[1]!.trim());
}

/** The text of a value around its variables is short and holds no secret of its own ("Bearer ", "Token "). */
function plainAround(value: string): boolean {
  // split with a capture group: text, name, text, name, text...
  const text = value.split(VARIABLE).filter((_, i) => i % 2 === 0).join(' ');
  return text.trim().length <= MAX_TEMPLATE_TEXT && !text.split(/\s+/).some((p) => looksRandom(p) || looksLikeJwt(p));
}

/** The template of a value with one credential variable: "Token {{token}}" -> "Token {token}"; null when the rest is not plain text. */
function templateOf(value: string, variable: string): string | null {
  if (!plainAround(value)) return null;
  const template = value.replace(VARIABLE, (whole, name: string) => (name.trim() === variable ? '{token}' : whole)).trim();
  if (template.includes('{{')) return null;
  return template === '{token}' ? '' : template;
}

function apiKey(place: CredentialPlace, field: string, template: string): SecurityScheme {
  const scheme: SecurityScheme = { type: 'apiKey', in: place, name: clampText(field, 200) };
  if (template) scheme.template = clampText(template, 100);
  return scheme;
}

function suggestedName(place: CredentialPlace, field: string): string {
  const base = camelName(field) || 'credential';
  return place === 'header' ? base : `${base}${place === 'query' ? 'Query' : 'Cookie'}`;
}

/** `Authorization: <value>`: a scheme word and a credential, or a bare credential. */
function fromAuthorization(field: string, value: string, templated: boolean): CredentialCandidate | null {
  const m = /^([A-Za-z][A-Za-z0-9._-]{0,40})\s+(\S[\s\S]*)$/.exec(value);
  if (!m) {
    if (templated) {
      const vars = variablesOf(value).filter((v) => !v.startsWith('$'));
      if (vars.length !== 1 || templateOf(value, vars[0]!) !== '') return null;
    } else if (value.length < 8) return null;
    return { suggested: 'authorization', scheme: apiKey('header', field, ''), place: 'header', field, shown: templated ? clampText(value, 100) : looksLikeJwt(value) ? '<JWT>' : '<secret>' };
  }
  const word = m[1]!;
  const rest = m[2]!;
  const lower = word.toLowerCase();
  const shown = templated ? clampText(value, 100) : `${word} ${looksLikeJwt(rest) ? '<JWT>' : '<secret>'}`;
  if (templated && (variablesOf(rest).every((v) => v.startsWith('$')) || !plainAround(value))) return null;
  if (HTTP_AUTH_SCHEMES.has(lower)) return { suggested: `${camelName(lower)}Auth`, scheme: { type: 'http', scheme: lower }, place: 'header', field, shown };
  // "Token x", "JWT x", "SSWS x": a fixed word before the credential, which the scanner writes back.
  let template = `${word} {token}`;
  if (templated) {
    const vars = variablesOf(rest).filter((v) => !v.startsWith('$'));
    if (vars.length !== 1) return null;
    const t = templateOf(value, vars[0]!);
    if (!t) return null;
    template = t;
  } else if (/\s/.test(rest)) return null;
  return { suggested: `${camelName(word) || 'token'}Auth`, scheme: apiKey('header', field, template), place: 'header', field, shown };
}

/**
 * The credential a header, query parameter or cookie carries, or null. A value with `{{variables}}`
 * (Postman) counts when the name or its variable is credential-like; a literal value (Postman or
 * recorded HAR traffic) when it looks like one: a JWT, a session cookie, a known key header, or a
 * random-looking string under a credential-like name.
 */
export function inferCredential(place: CredentialPlace, rawField: string, rawValue: string): CredentialCandidate | null {
  const field = rawField.trim();
  const value = rawValue.trim();
  if (!field || !value || value.length > MAX_VALUE || field.length > 200) return null;
  if (place === 'header' && (isNeverCredentialHeader(field) || field.toLowerCase() === 'cookie')) return null;
  if (place !== 'header' && notCredential(field)) return null;
  const templated = value.includes('{{');
  if (place === 'header' && field.toLowerCase() === 'authorization') return fromAuthorization(field, value, templated);
  if (MEDIA_TYPE.test(value)) return null;

  if (templated) {
    const vars = variablesOf(value);
    const own = vars.filter((v) => !v.startsWith('$'));
    if (own.length !== 1 || own.length !== vars.length) return null;
    const variable = own[0]!;
    if (notCredential(variable)) return null;
    const named = isCredentialName(field) || (place === 'cookie' && isSessionCookieName(field));
    if (!named && !isCredentialName(variable)) return null;
    const template = templateOf(value, variable);
    if (template === null) return null;
    return { suggested: suggestedName(place, field), scheme: apiKey(place, field, template), place, field, shown: clampText(value, 100) };
  }

  const jwt = looksLikeJwt(value);
  let credential = jwt;
  if (!credential && place === 'cookie') credential = isSessionCookieName(field) && value.length >= 8 && TOKEN_CHARS.test(value);
  if (!credential && place === 'header' && KEY_HEADERS.test(field)) credential = true;
  if (!credential && (isCredentialName(field) || isSessionCookieName(field))) credential = looksRandom(value);
  if (credential) return { suggested: suggestedName(place, field), scheme: apiKey(place, field, ''), place, field, shown: jwt ? '<JWT>' : '<secret>' };
  // "X-Auth: Token <random>" under a credential-like header name.
  const m = /^([A-Za-z][A-Za-z0-9._-]{0,40})\s+(\S+)$/.exec(value);
  if (m && place === 'header' && isCredentialName(field) && (looksRandom(m[2]!) || looksLikeJwt(m[2]!)))
    return { suggested: suggestedName(place, field), scheme: apiKey(place, field, `${m[1]} {token}`), place, field, shown: `${m[1]} <secret>` };
  return null;
}

/** `Cookie: a=1; session=...` -> its name/value pairs. */
export function cookiePairs(header: string): [string, string][] {
  const out: [string, string][] = [];
  for (const part of header.slice(0, MAX_VALUE).split(';').slice(0, 100)) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    out.push([part.slice(0, i).trim(), part.slice(i + 1).trim()]);
  }
  return out;
}

/** Schemes one import may infer: a recording cannot make the stored security grow without bound. */
export const MAX_INFERRED_SCHEMES = 20;

const PLACE_RANK: Record<CredentialPlace, number> = { header: 1, query: 2, cookie: 3 };

/** Authorization first, then other headers, query parameters and cookies: the order of a request's alternatives. */
export function credentialRank(c: CredentialCandidate): number {
  return c.place === 'header' && c.field.toLowerCase() === 'authorization' ? 0 : PLACE_RANK[c.place];
}

function sameScheme(a: SecurityScheme, b: SecurityScheme): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Identity of a placement: header names are case-insensitive, query and cookie names are not. */
function identity(c: CredentialCandidate): string {
  const s = c.scheme;
  if (s.type === 'apiKey') return JSON.stringify(['apiKey', s.in, s.in === 'header' ? s.name.toLowerCase() : s.name, s.template ?? '']);
  return JSON.stringify(s);
}

interface Registered {
  candidate: CredentialCandidate;
  requests: number;
  where: string;
}

/**
 * The schemes inferred over one import: each found placement registered once under a stable name
 * (suffixed when a declared scheme already has it), the requests that use it counted, and one
 * warning per scheme so the user sees what was inferred.
 */
export class CredentialInference {
  private readonly byIdentity = new Map<string, string>();
  private readonly registered = new Map<string, Registered>();
  private readonly left = new Set<string>();

  constructor(private readonly schemes: Record<string, SecurityScheme>) {}

  /** The security of one request that sends these credentials (an OR list, Authorization first), or null when it sends none. */
  use(found: CredentialCandidate[], where: string): SecurityRequirement[] | null {
    if (!found.length) return null;
    const names: string[] = [];
    for (const c of [...found].sort((a, b) => credentialRank(a) - credentialRank(b))) {
      const name = this.nameOf(c, where);
      if (name && !names.includes(name)) names.push(name);
    }
    for (const name of names) this.registered.get(name)!.requests += 1;
    return names.length ? names.slice(0, 5).map((n) => ({ [n]: [] })) : null;
  }

  get size(): number {
    return this.registered.size;
  }

  private nameOf(c: CredentialCandidate, where: string): string | null {
    const id = identity(c);
    const known = this.byIdentity.get(id);
    if (known) return known;
    if (this.registered.size >= MAX_INFERRED_SCHEMES) {
      if (this.left.size < 10_000) this.left.add(id);
      return null;
    }
    const base = c.suggested || 'credential';
    let name = base;
    for (let n = 2; hasOwn(this.schemes, name) && !sameScheme(this.schemes[name]!, c.scheme); n += 1) name = `${base}${n}`;
    this.schemes[name] = c.scheme;
    this.byIdentity.set(id, name);
    this.registered.set(name, { candidate: c, requests: 0, where });
    return name;
  }

  /**
   * Warns once per inferred scheme and answers the API's default: the scheme most of the `total`
   * requests send (more than half), else [].
   */
  finish(total: number, warnings: Warnings): SecurityRequirement[] {
    let best: [string, number] | null = null;
    for (const [name, r] of this.registered) {
      const c = r.candidate;
      const field = clampText(c.field, 100);
      const place = c.place === 'header' ? `the ${field} header` : c.place === 'query' ? `the ${field} query parameter` : `the ${field} cookie`;
      const count = `${r.requests} of ${total} request${total === 1 ? '' : 's'} send${r.requests === 1 ? 's' : ''}`;
      warnings.add(r.where, `Credentials inferred: ${count} a credential in ${place} (${c.shown}); the scanner will place the scan's credential there.`);
      if (!best || r.requests > best[1]) best = [name, r.requests];
    }
    if (this.left.size)
      warnings.add('', `${this.left.size} more credential placements were not inferred: an import infers at most ${MAX_INFERRED_SCHEMES} schemes.`);
    return best && best[1] * 2 > total ? [{ [best[0]]: [] }] : [];
  }
}
