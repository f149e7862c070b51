// Wording shared by every report format: dates in the reader's zone, durations, counts, the
// first sentence of a longer text, and how identities and registered users are named.

import type { CreatedUserReport } from '../../shared/contract';
import { formatTimestamp, toIntlTimeZone } from '../../shared/display';
import type { IdentityRole } from '../../shared/identities';

export interface RenderOptions {
  /** IANA zone or a Settings zone ("UTC+02:00") for the dates a report prints and its file name. */
  timeZone: string;
}

export const DEFAULT_RENDER_OPTIONS: RenderOptions = { timeZone: 'UTC' };

/** "2026-03-02 10:00 (UTC)"; "—" without a date. */
export function when(value: string | null | undefined, opts: RenderOptions): string {
  if (!value) return '—';
  const t = formatTimestamp(value, opts.timeZone);
  return t === 'N/A' || t === 'Invalid Date' ? '—' : `${t} (${opts.timeZone})`;
}

/** "2026-03-02"; "—" without a date. */
export function day(value: string | null | undefined, opts: RenderOptions): string {
  if (!value) return '—';
  const t = formatTimestamp(value, opts.timeZone);
  return t === 'N/A' || t === 'Invalid Date' ? '—' : t.slice(0, 10);
}

export function seconds(value: number | null): string {
  if (value === null) return '—';
  if (value < 120) return `${value.toFixed(2)} s`;
  const m = Math.floor(value / 60);
  const s = Math.round(value % 60);
  return m < 60 ? `${m} min ${s} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** Words whose final dot never ends a sentence ("e.g.", "i.e.", "etc.", "vs."). */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|incl|approx|esp|resp|fig)\.$/i;

/**
 * Where the first sentence of `t` ends (the index after its final mark), or -1: a ".", "!" or "?"
 * followed by a space, outside parentheses, brackets and `code`, and not the dot of an abbreviation
 * such as "e.g." (a summary once stopped at "(e.g.").
 */
function sentenceEnd(t: string): number {
  let depth = 0;
  let code = false;
  for (let i = 0; i < t.length; i += 1) {
    const c = t[i]!;
    if (c === '`') code = !code;
    if (code) continue;
    if (c === '(' || c === '[') depth += 1;
    else if ((c === ')' || c === ']') && depth > 0) depth -= 1;
    else if ((c === '.' || c === '!' || c === '?') && depth === 0 && (i + 1 === t.length || t[i + 1] === ' ')) {
      if (c === '.' && ABBREVIATION.test(t.slice(Math.max(0, i - 8), i + 1))) continue;
      return i + 1;
    }
  }
  return -1;
}

/**
 * `text` cut to at most `max` characters at a word boundary, with an ellipsis: never inside an
 * open "(" or "[" or a `code` span, and without a dangling comma. One word longer than `max` is cut
 * hard.
 */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  if (space > 0) cut = cut.slice(0, space);
  // Drop back to before the last unbalanced opener (a "(" or "`" whose close was cut off).
  for (;;) {
    let depth = 0;
    let open = -1;
    let tick = -1;
    for (let i = 0; i < cut.length; i += 1) {
      const c = cut[i]!;
      if (c === '`') tick = tick < 0 ? i : -1;
      else if (tick >= 0) continue;
      else if (c === '(' || c === '[') {
        if (depth === 0) open = i;
        depth += 1;
      } else if ((c === ')' || c === ']') && depth > 0) depth -= 1;
    }
    const at = tick >= 0 ? tick : depth > 0 ? open : -1;
    if (at <= 0) break;
    cut = cut.slice(0, at);
  }
  cut = cut.replace(/[\s,;:\-–—(]+$/, '');
  return `${cut || text.slice(0, max - 1)}…`;
}

/** The whole first sentence, for summaries; shortened at a word boundary (with "…") only past `max` characters. */
export function firstSentence(text: string, max = 220): string {
  const t = text.replace(/\s+/g, ' ').trim();
  const end = sentenceEnd(t);
  return shorten(end > 0 ? t.slice(0, end) : t, max);
}

export const ROLE_LABELS: Record<IdentityRole, string> = { user: 'user', privileged: 'privileged', lower: 'lower privilege' };

/** How an identity's credential was obtained, saying when the scan created the user (the engine's text usually does). */
export function identityObtained(i: { obtained: string; created: boolean }): string {
  return i.created && !/created by the scan/i.test(i.obtained) ? `${i.obtained} (user created by the scan)` : i.obtained;
}

/** The username of a user the scan registered, else its e-mail. */
export function createdUserLabel(u: Pick<CreatedUserReport, 'username' | 'email'>): string {
  return u.username ?? u.email ?? '—';
}

/** "3 identities; 2 users registered by the scan"; null when the scan recorded neither. */
export function identitySummary(scan: { identities: unknown[]; created_users: unknown[] }): string | null {
  const parts = [
    scan.identities.length ? plural(scan.identities.length, 'identity', 'identities') : '',
    scan.created_users.length ? `${plural(scan.created_users.length, 'user')} registered by the scan` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : null;
}

/** "GET /users/{id}". */
export function endpointLabel(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

/** Where a finding is: "Query.loan (POST /graphql)" for a GraphQL operation, else "METHOD path". */
export function findingLocation(f: { method: string; path: string; graphql?: { operation: string | null } | null }): string {
  const where = endpointLabel(f.method, f.path);
  return f.graphql?.operation ? `${f.graphql.operation} (${where})` : where;
}

/** Only http(s) URLs become links; anything else (javascript:, data:, file:) stays plain text. */
export function safeUrl(value: string): string | null {
  try {
    const u = new URL(value.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/** The zone if Intl knows it (IANA name or a Settings "UTC+02:00"), else the fallback. */
export function resolveTimeZone(candidate: string | null | undefined, fallback: string): string {
  if (!candidate) return fallback;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: toIntlTimeZone(candidate) }).format(0);
    return candidate;
  } catch {
    return fallback;
  }
}

/** Bidi controls: invisible, and able to reorder what a reader sees. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Spells out bidi control characters ("[U+202E]") so text from a scanned API cannot reorder what a
 * report shows (the "Trojan Source" trick); used by the PDFs and the HTML export.
 */
export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`);
}
