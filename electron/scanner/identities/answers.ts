// Reading values out of a login answer: a JSON pointer into the body, a header, a Set-Cookie, a
// regular expression (the user's, run on RE2); the cookies an answer sets; and when a JWT expires.

import type { LoginAnswer } from '../../../shared/contract';
import type { ValueSource } from '../../../shared/identities';
import { compileUserPattern, searchWindow } from '../../../shared/user-pattern';
import type { Exchange } from '../http/exchange';

/** RFC 6901. undefined when the pointer does not resolve. */
export function jsonPointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  if (!pointer.startsWith('/')) return undefined;
  let cur: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
      cur = cur[Number(key)];
    } else if (cur && typeof cur === 'object' && Object.prototype.hasOwnProperty.call(cur, key)) {
      cur = (cur as Record<string, unknown>)[key];
    } else return undefined;
  }
  return cur;
}

export interface SetCookie {
  name: string;
  value: string;
  /** Max-Age 0 or an Expires in the past: the server deletes the cookie. */
  deleted: boolean;
  /** When it expires (ms since the epoch), if it says. */
  expiresAt: number | null;
}

/** The cookies an answer sets (the engine joins repeated Set-Cookie headers with "\n"). */
export function setCookies(ex: Pick<Exchange, 'header'>): SetCookie[] {
  const raw = ex.header('set-cookie');
  if (!raw) return [];
  const out: SetCookie[] = [];
  for (const line of raw.split('\n')) {
    const [pair, ...attrs] = line.split(';');
    const eq = pair?.indexOf('=') ?? -1;
    if (!pair || eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    let expiresAt: number | null = null;
    let deleted = false;
    for (const a of attrs) {
      const [k, v = ''] = a.split('=').map((x) => x.trim());
      if (!k) continue;
      if (/^max-age$/i.test(k) && /^-?\d+$/.test(v)) {
        const secs = Number(v);
        if (secs <= 0) deleted = true;
        else expiresAt = Date.now() + secs * 1000;
      } else if (/^expires$/i.test(k) && expiresAt === null) {
        const t = Date.parse(v);
        if (Number.isFinite(t)) {
          if (t <= Date.now()) deleted = true;
          else expiresAt = t;
        }
      }
    }
    out.push({ name, value, deleted, expiresAt });
  }
  return out;
}

function asText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

function headerLines(ex: Exchange): string {
  return Object.entries(ex.response?.headers ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

/** The value a source names in an answer, or null (with no exception) when it is not there. */
export function readValue(source: ValueSource, ex: Exchange): string | null {
  switch (source.from) {
    case 'body': {
      if (source.pointer === '' || source.pointer === undefined) {
        const body = ex.body.trim();
        // A bare token body, or a JSON string.
        const parsed = ex.json();
        // A JSON object or array is never the token itself: an empty pointer on one is a mistake (diagnosePointer names it).
        if (parsed !== null && typeof parsed === 'object') return null;
        return typeof parsed === 'string' ? parsed : body || null;
      }
      return asText(jsonPointer(ex.json(), source.pointer));
    }
    case 'header': {
      const v = ex.header(source.name!);
      return v === undefined ? null : v;
    }
    case 'cookie': {
      const c = setCookies(ex).find((x) => x.name === source.name && !x.deleted);
      return c ? c.value : null;
    }
    case 'regex':
      return searchPattern(source.pattern!, regexText(source, ex));
  }
}

function regexText(source: ValueSource, ex: Exchange): string {
  return source.in === 'headers' ? headerLines(ex) : ex.body;
}

/**
 * The first group (or the whole match) of a user's pattern in a text, or null. The pattern runs on
 * RE2 (linear time) over the first `searchWindow` characters only, so one search stays short
 * however large the answer and the pattern.
 */
export function searchPattern(pattern: string, text: string): string | null {
  const compiled = compileUserPattern(pattern);
  if (!compiled.ok) return null;
  const m = compiled.re.exec(text.slice(0, searchWindow(compiled.re)));
  if (!m) return null;
  return (m[1] as string | undefined) ?? (m[0] as string);
}

/**
 * What a regex source's "not in its answer" leaves out: how much of a long answer the pattern searched,
 * or why a pattern saved before patterns ran on RE2 cannot run ("" for other sources).
 */
export function whyNotFound(source: ValueSource, ex: Exchange): string {
  if (source.from !== 'regex') return '';
  const compiled = compileUserPattern(source.pattern!);
  if (!compiled.ok) return ` (${compiled.message.replace(/\.$/, '')})`;
  const window = searchWindow(compiled.re);
  return regexText(source, ex).length > window ? ` (the pattern searched the first ${window.toLocaleString('en-US')} characters of it)` : '';
}

/** "/auth_token in the body", "the X-Auth header", "cookie sid", "/regex/": for messages. */
export function describeSource(source: ValueSource): string {
  switch (source.from) {
    case 'body':
      return source.pointer ? `${source.pointer} in the body` : 'the body';
    case 'header':
      return `the ${source.name} header`;
    case 'cookie':
      return `the ${source.name} cookie`;
    case 'regex':
      return `/${source.pattern}/ in the ${source.in === 'headers' ? 'headers' : 'body'}`;
  }
}

const JWT_SHAPE = /^[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*$/;

/** The `exp` of a JWT (ms since the epoch), or null for anything else. */
export function jwtExpiry(token: string | null): number | null {
  if (!token) return null;
  const raw = token.replace(/^bearer\s+/i, '').trim();
  if (!JWT_SHAPE.test(raw)) return null;
  try {
    const payload = JSON.parse(Buffer.from(raw.split('.')[1]!, 'base64url').toString('utf8')) as { exp?: unknown; iat?: unknown };
    return typeof payload.exp === 'number' && Number.isFinite(payload.exp) ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** The `iat` of a JWT (ms), or null: with `exp` it gives the token's lifetime. */
export function jwtIssuedAt(token: string | null): number | null {
  if (!token) return null;
  const raw = token.replace(/^bearer\s+/i, '').trim();
  if (!JWT_SHAPE.test(raw)) return null;
  try {
    const payload = JSON.parse(Buffer.from(raw.split('.')[1]!, 'base64url').toString('utf8')) as { iat?: unknown };
    return typeof payload.iat === 'number' && Number.isFinite(payload.iat) ? payload.iat * 1000 : null;
  } catch {
    return null;
  }
}

/** A JSON key whose value is a secret, or names one: its value never goes into an excerpt. */
const SECRET_KEY = /pass(word|wd|phrase)?|secret|token|jwt|bearer|api[-_]?key|apikey|credential|private|session|cookie|signature|authorization|^otp$|^pin$/i;
/** A JWT anywhere in a text. */
const JWT_IN_TEXT = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}/g;
/** A long run of key-like characters with letters and digits: an opaque token, a session id, a hash. */
const OPAQUE_IN_TEXT = /(?<![A-Za-z0-9_+/=-])(?=[A-Za-z0-9_+/=-]*[0-9])(?=[A-Za-z0-9_+/=-]*[A-Za-z])[A-Za-z0-9_+/=-]{24,}(?![A-Za-z0-9_+/=-])/g;
/** How much of an answer an excerpt reads: enough for an error message, bounded for the patterns above. */
const EXCERPT_READ = 8192;
const REDACTED = '[redacted]';

function redactText(text: string): string {
  return text.replace(JWT_IN_TEXT, REDACTED).replace(OPAQUE_IN_TEXT, REDACTED);
}

function redactJson(v: unknown, key: string | null, depth = 0): unknown {
  if (key !== null && SECRET_KEY.test(key) && v !== null && typeof v !== 'object' && typeof v !== 'boolean') return REDACTED;
  if (typeof v === 'string') return redactText(v);
  if (depth > 8) return '…';
  if (Array.isArray(v)) return v.slice(0, 20).map((x) => redactJson(x, key, depth + 1));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).slice(0, 40).map(([k, x]) => [k, redactJson(x, k, depth + 1)]));
  return v;
}

/**
 * What an answer says, safe to show: a JSON body with the values of secret-named fields, JWTs and
 * opaque token-like strings replaced by "[redacted]"; an HTML page as its text; whitespace folded;
 * at most `max` characters. The scan's own secrets are redacted on top by the caller's redactor.
 */
export function safeBodyExcerpt(ex: Exchange, max = 200): string {
  const raw = ex.body.slice(0, EXCERPT_READ);
  let text: string;
  let parsed: unknown;
  try {
    parsed = raw.length === ex.body.length ? JSON.parse(raw) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined && parsed !== null && typeof parsed === 'object') text = JSON.stringify(redactJson(parsed, null));
  else {
    const html = /<\/?[a-z][^>]*>/i.test(raw) ? raw.replace(/<(script|style)\b[^>]*>[^<]*<\/\1>/gi, ' ').replace(/<[^>]{0,500}>/g, ' ') : raw;
    // key=value and "key": "value" pairs with a secret-like key lose their value.
    text = redactText(html.replace(/(["']?)([\w-]{1,60})\1(\s*[:=]\s*)("?)([^"&,;}\s]{1,4096})\4/g, (whole, q: string, k: string, sep: string, vq: string) => (SECRET_KEY.test(k) ? `${q}${k}${q}${sep}${vq}${REDACTED}${vq}` : whole)));
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** A short, safe excerpt of an answer for an error message: its status and safeBodyExcerpt (the caller redacts the scan's secrets). */
export function answerExcerpt(ex: Exchange, max = 160): string {
  if (!ex.response) return ex.error ?? 'no response';
  const body = safeBodyExcerpt(ex, max);
  return `${ex.status}${body ? ` ${body}` : ''}`;
}

/** RFC 6901: a key as one pointer segment. */
function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Field names a token is usually given (access_token, accessToken, jwt, id_token, auth_token...). */
const TOKEN_NAME = /^(access|auth|id|bearer|session|api|jwt)?[-_]?(token|jwt|key)$|^(jwt|token|bearer|accesstoken|authtoken|apikey)$/i;
const LESSER_TOKEN_NAME = /token|jwt|bearer/i;

/**
 * JSON pointers of the answer's values that look like a token: JWT-shaped strings, and strings in
 * fields named like one (token, access_token, jwt...), best first; never the values. At most `max`.
 */
export function tokenPointers(json: unknown, max = 5): string[] {
  const found: { pointer: string; rank: number; order: number }[] = [];
  let seen = 0;
  const visit = (v: unknown, pointer: string, key: string | null, depth: number) => {
    if (seen++ > 2000 || depth > 8) return;
    if (typeof v === 'string') {
      const t = v.trim();
      const jwt = JWT_SHAPE.test(t.replace(/^bearer\s+/i, ''));
      const refresh = key !== null && /refresh/i.test(key);
      const rank = jwt && !refresh ? 0 : key !== null && TOKEN_NAME.test(key) && !refresh ? 1 : key !== null && LESSER_TOKEN_NAME.test(key) && !refresh ? 2 : refresh && (jwt || t.length >= 8) ? 3 : -1;
      if (rank >= 0 && t.length >= 8) found.push({ pointer, rank, order: found.length });
      return;
    }
    if (Array.isArray(v)) v.slice(0, 50).forEach((x, n) => visit(x, `${pointer}/${n}`, key, depth + 1));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, `${pointer}/${pointerSegment(k)}`, k, depth + 1);
  };
  visit(json, '', null, 0);
  return found
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, max)
    .map((f) => f.pointer);
}

/** "/a", "/a and /b", "/a, /b and /c", each in backticks. */
function listPointers(pointers: string[]): string {
  const q = pointers.map((p) => `\`${p}\``);
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} and ${q.at(-1)}`;
}

/** What a body source that found nothing got wrong, and the token-like pointers the answer does have. */
export interface PointerDiagnosis {
  /** "the answer has no `/token`; it has `/auth_token`". */
  text: string;
  candidates: string[];
}

/**
 * Why a JSON pointer (or an empty one) finds no token in an answer, naming the pointers in the
 * answer that look like one, never a value: "the answer has no `/token`; it has `/auth_token`".
 * null when the source is not a body pointer, or the pointer reads a token.
 */
export function diagnosePointer(source: ValueSource, ex: Exchange): PointerDiagnosis | null {
  if (source.from !== 'body') return null;
  const pointer = source.pointer ?? '';
  const json = ex.json();
  const isTree = json !== null && typeof json === 'object';
  if (json === undefined) {
    const kind = ex.contentType.split(';')[0]?.trim() || 'no content type';
    if (pointer === '') return ex.body.trim() ? null : { text: 'the answer is empty', candidates: [] };
    return { text: `the answer is not JSON (${kind}), so \`${pointer}\` cannot point into it`, candidates: [] };
  }
  const candidates = isTree ? tokenPointers(json) : [];
  const has = candidates.length
    ? `it has ${listPointers(candidates)}`
    : isTree && !Array.isArray(json) && Object.keys(json).length
      ? `nothing in it looks like a token (its fields: ${listPointers(Object.keys(json).slice(0, 8).map((k) => `/${pointerSegment(k)}`))})`
      : 'nothing in it looks like a token';
  if (pointer === '') {
    if (!isTree) return null;
    return { text: `the token pointer is empty, which takes the whole answer (a JSON ${Array.isArray(json) ? 'array' : 'object'}); ${has}`, candidates };
  }
  const at = jsonPointer(json, pointer);
  if (at === undefined) return { text: `the answer has no \`${pointer}\`; ${has}`, candidates };
  if (at === null || typeof at === 'object') return { text: `\`${pointer}\` in the answer is ${at === null ? 'null' : Array.isArray(at) ? 'an array' : 'an object'}, not a token; ${has}`, candidates };
  return null;
}

/** A login's answer as a failure quotes it: the request, its status and a safe excerpt (the caller redacts the scan's secrets). */
export function loginAnswerOf(ex: Exchange): LoginAnswer {
  let request = ex.request.method;
  try {
    request = `${ex.request.method} ${new URL(ex.request.url).pathname}`;
  } catch {
    // The request's URL always parses; the method alone is still something.
  }
  return { request, status: ex.response ? ex.status : null, excerpt: ex.response ? safeBodyExcerpt(ex) || null : (ex.error ?? 'no response') };
}
