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

/** The first sentence (up to `max` characters), for summaries. */
export function firstSentence(text: string, max = 220): string {
  const t = text.replace(/\s+/g, ' ').trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(t);
  const s = m ? m[1]! : t;
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
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
