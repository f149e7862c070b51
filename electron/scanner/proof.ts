// What a replay of a finding's curl text must show again (issue 29, item 4): the proving request's step,
// its status and a marker. A check names the marker its technique looks for (an echoed payload, a
// computed product, an answer field); otherwise one is derived by rules that hold on any instance of the
// API: a value the request sent and the answer echoes, else a field name of the JSON answer.

import type { FindingProof } from '../../shared/contract';
import type { Exchange } from './http/exchange';
import type { Redactor } from './redact';

/** What a check says about its proof; each field left out is derived from the proving exchange. */
export interface ProofDraft {
  /** The statuses that show the flaw (default: the proving answer's). */
  status?: number[];
  /**
   * Text of the proving answer (its body or a header value) that any instance of the API answers alike
   * to the same request; null when the status alone proves the finding; undefined (or a text the answer
   * lacks): derived. Never an id, a time or a value the API generated.
   */
  marker?: string | null;
}

/** Markers are short: a replay looks for them in its output. */
export const MAX_MARKER = 160;
const MIN_ECHO = 4;

// Names of values that differ between two instances or two answers (ids, times, tokens): never a value marker, a field marker last.
const VOLATILE_KEY = /(^|[_-])(id|ids|uuid|guid|token|jwt|nonce|csrf|etag|date|time|timestamp|expires?|exp|iat|nbf|jti|created_?at|updated_?at|issued_?at|request_?id|trace_?id|took|elapsed|duration|ms|version|count|total)$|At$|Id$/i;

// Values that look generated (times, UUIDs, long hex or base64 runs, numbers with a unit of time): never a value marker.
const VOLATILE_VALUE = /\d{4}-\d{2}-\d{2}|[0-9a-f]{8}-[0-9a-f]{4}-|[0-9a-f]{16}|[A-Za-z0-9+/_-]{32}|\d+(\.\d+)?\s?(ms|s|seconds)\b|\/tmp\/|[A-Z]:\\/i;

/** The words a shell reads as `value` inside single quotes (curlFor's quoting). */
function shellQuoted(value: string): string {
  return value.replace(/'/g, `'\\''`);
}

/** Whether the curl text sends `value` as is (in a JSON body, a form or a URL), not through a variable. */
function inCurl(curl: string, value: string): boolean {
  const forms = [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), encodeURI(value)];
  return forms.some((f) => curl.includes(shellQuoted(f)));
}

/** `value` as the answer's text holds it (as is, or JSON-escaped inside a string); null when it does not. */
export function asAnswered(ex: Exchange, value: string): string | null {
  const body = ex.body;
  if (body.includes(value)) return value;
  const escaped = JSON.stringify(value).slice(1, -1);
  if (escaped !== value && body.includes(escaped)) return escaped;
  return null;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** The member `"key": value` as the JSON answer writes it (its own spacing); null when the answer has no such member. */
export function memberMarker(ex: Exchange, key: string, value: unknown): string | null {
  if (value === undefined || (value !== null && typeof value === 'object')) return null;
  const m = new RegExp(`${escapeRegExp(JSON.stringify(key))}\\s*:\\s*${escapeRegExp(JSON.stringify(value))}(?![\\w.])`).exec(ex.body);
  return m && m[0].length <= MAX_MARKER ? m[0] : null;
}

/** The members of a JSON request body whose values are numbers or booleans (by key, outer ones first). */
function sentMembers(ex: Exchange): [string, unknown][] {
  const out: [string, unknown][] = [];
  const walk = (v: unknown, depth = 0): void => {
    if (depth > 4 || !v || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.slice(0, 5).forEach((x) => walk(x, depth + 1));
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (typeof x === 'number' || typeof x === 'boolean') out.push([k, x]);
      else walk(x, depth + 1);
    }
  };
  try {
    walk(JSON.parse(ex.request.body ?? ''));
  } catch {
    // Not a JSON body: no members.
  }
  return out;
}

/** The values a request sent: JSON body leaves and form or query values, longest first. */
function sentValues(ex: Exchange): string[] {
  const out = new Set<string>();
  const leaves = (v: unknown, depth = 0): void => {
    if (depth > 5) return;
    if (typeof v === 'string') out.add(v);
    else if (Array.isArray(v)) v.slice(0, 20).forEach((x) => leaves(x, depth + 1));
    else if (v && typeof v === 'object') Object.values(v).forEach((x) => leaves(x, depth + 1));
  };
  const body = ex.request.body;
  if (body) {
    try {
      leaves(JSON.parse(body));
    } catch {
      if (/^[^=&\s]+=/.test(body)) for (const v of new URLSearchParams(body).values()) out.add(v);
    }
  }
  for (const v of new URL(ex.request.url).searchParams.values()) out.add(v);
  return [...out].sort((a, b) => b.length - a.length);
}

/** The path's segments that are values (not in the route's template): "name1" of /users/v1/name1 for /users/v1/{username}. */
function pathValues(ex: Exchange, template: string): string[] {
  const fixed = new Set(template.split('/'));
  return new URL(ex.request.url).pathname
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    })
    .filter((s) => s && !fixed.has(s));
}

/**
 * A value the request sent that the answer holds, sent by the curl text as is (not through a variable
 * that takes another value on a replay): the longest such value.
 */
function echoedValue(ex: Exchange, curl: string, template: string, ok: (m: string) => boolean): string | null {
  for (const v of [...sentValues(ex), ...pathValues(ex, template)]) {
    // A time or a generated value sent back may come back rewritten (another precision, the server's clock).
    if (v.length < MIN_ECHO || v.length > MAX_MARKER || !/[A-Za-z]/.test(v) || VOLATILE_VALUE.test(v)) continue;
    if (!inCurl(curl, v)) continue;
    const found = asAnswered(ex, v);
    if (found && ok(found)) return found;
  }
  // A number or a flag the request set and the answer kept ("isAdmin": true), under a name that is no id or counter.
  for (const [k, v] of sentMembers(ex)) {
    const found = VOLATILE_KEY.test(k) ? null : memberMarker(ex, k, v);
    if (found && ok(found)) return found;
  }
  return null;
}

/** Field names of a JSON value, outer ones first (objects, and the first element of arrays). */
function fieldNames(v: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 4 || out.length > 60) return out;
  if (Array.isArray(v)) return v.length ? fieldNames(v[0], depth + 1, out) : out;
  if (!v || typeof v !== 'object') return out;
  const entries = Object.entries(v as Record<string, unknown>);
  for (const [k] of entries) out.push(k);
  for (const [, x] of entries) fieldNames(x, depth + 1, out);
  return out;
}

/** String values of a JSON value that name no id, time or token, outer ones first. */
function stableStrings(v: unknown, key = '', depth = 0, out: string[] = []): string[] {
  if (depth > 4 || out.length > 60) return out;
  if (typeof v === 'string') {
    if (!VOLATILE_KEY.test(key) && v.length >= MIN_ECHO && v.length <= 80 && /[A-Za-z]{3}/.test(v) && !VOLATILE_VALUE.test(v)) out.push(v);
  } else if (Array.isArray(v)) v.slice(0, 5).forEach((x) => stableStrings(x, key, depth + 1, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v as Record<string, unknown>)) stableStrings(x, k, depth + 1, out);
  return out;
}

/**
 * A field name of the JSON answer that `other` (a refused answer) lacks, outer ones first and names of ids
 * and times last, quoted as the answer has it: a structural marker.
 */
function fieldName(ex: Exchange, json: unknown = ex.json(), other = ''): string | null {
  const names = fieldNames(json).filter((k) => k.length <= MAX_MARKER - 2 && !other.includes(JSON.stringify(k)) && ex.body.includes(JSON.stringify(k)));
  const key = names.find((k) => !VOLATILE_KEY.test(k)) ?? names[0];
  return key === undefined ? null : JSON.stringify(key);
}

/**
 * The marker of a difference (an attack accepted where a control was refused, more data for an
 * always-true input): a field name the accepted answer has and the refused one lacks, else a value of
 * it that the refused one lacks (no id, time or token); null when only the statuses differ.
 */
export function differenceMarker(accepted: Exchange, refused: Exchange | null | undefined): string | null {
  const json = accepted.json();
  if (json === undefined) return null;
  const other = refused?.body ?? '';
  const key = fieldName(accepted, json, other);
  if (key !== null) return key;
  for (const v of stableStrings(json)) {
    const text = asAnswered(accepted, v);
    if (text && !other.includes(text)) return text;
  }
  return null;
}

/** Whether `marker` can stand in a finding: short, in the proving answer (body or a header value), no secret in it. */
export function usableMarker(marker: string, ex: Exchange, redactor: Redactor): boolean {
  if (!marker.trim() || marker.length > MAX_MARKER || redactor.leaks(marker)) return false;
  return ex.body.includes(marker) || Object.values(ex.response?.headers ?? {}).some((v) => v.includes(marker));
}

/**
 * The finding's proof: step `step` of its curl text (1 for a single command) answered as `proof` did.
 * A check's marker is kept when it is usable; otherwise (or when the check named none) one is derived.
 * Null when the proving request got no answer (a replay has no status to compare with).
 */
export function findingProof(proof: Exchange, step: number, draft: ProofDraft | undefined, curl: string, template: string, redactor: Redactor): FindingProof | null {
  if (!proof.response || !curl) return null;
  const ok = (m: string) => usableMarker(m, proof, redactor);
  const status = draft?.status?.length ? [...new Set(draft.status)] : [proof.status];
  const chosen = draft?.marker;
  if (chosen === null || (chosen !== undefined && ok(chosen))) return { step, status, marker: chosen };
  const derived = echoedValue(proof, curl, template, ok) ?? fieldName(proof);
  return { step, status, marker: derived && ok(derived) ? derived : null };
}
