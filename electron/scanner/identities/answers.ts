// Reading values out of a login answer: a JSON pointer into the body, a header, a Set-Cookie, a
// regular expression (the user's, run on RE2); the cookies an answer sets; and when a JWT expires.

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

/** A short, safe excerpt of an answer for an error message (the caller redacts it). */
export function answerExcerpt(ex: Exchange, max = 160): string {
  if (!ex.response) return ex.error ?? 'no response';
  const body = ex.body.replace(/\s+/g, ' ').trim();
  return `${ex.status}${body ? ` ${body.length > max ? `${body.slice(0, max)}...` : body}` : ''}`;
}
