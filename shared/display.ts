// Display helpers of spec sections 3, 4, 7 and 9: names, initials, greeting, timestamps, report
// filenames and card status. Severity buckets and levels are in severity.ts.

import { DEFAULT_TIMEZONE, DURATION_DECIMALS, GREETING_HOURS, type PdfReportType, type ReportType } from './constants';
import { CARD_STATUS } from './messages';
import type { GraphqlOperation } from './contract';

export interface NamedUser {
  firstName?: string | null;
  lastName?: string | null;
  username?: string | null;
  email?: string | null;
}

const clean = (v: string | null | undefined): string => (v ?? '').trim();

/** First plus last; else first; else last; else username; else "User"; "Guest" when nobody is signed in. */
export function displayName(user: NamedUser | null | undefined): string {
  if (!user) return 'Guest';
  const first = clean(user.firstName);
  const last = clean(user.lastName);
  if (first && last) return `${first} ${last}`;
  return first || last || clean(user.username) || 'User';
}

/** First letters of first and last name; else the first letter of first, last, username or email; else "U". */
export function initials(user: NamedUser | null | undefined): string {
  const first = clean(user?.firstName);
  const last = clean(user?.lastName);
  if (first && last) return (first[0]! + last[0]!).toUpperCase();
  const one = first || last || clean(user?.username) || clean(user?.email);
  return one ? one[0]!.toUpperCase() : 'U';
}

/** Morning before 12, afternoon before 18, otherwise evening. */
export function greeting(hour: number): string {
  if (hour < GREETING_HOURS.afternoonFrom) return 'Good morning';
  if (hour < GREETING_HOURS.eveningFrom) return 'Good afternoon';
  return 'Good evening';
}

/**
 * Turns a Settings timezone ("UTC+02:00") or an IANA name into a zone Intl understands.
 * Whole-hour offsets map to Etc/GMT zones (whose sign is inverted); others are passed through.
 */
export function toIntlTimeZone(zone: string): string {
  const m = /^UTC([+-])(\d{2}):(\d{2})$/.exec(zone);
  if (!m) return zone;
  const hours = Number(m[2]);
  if (m[3] !== '00') return `${m[1]}${m[2]}:${m[3]}`;
  if (hours === 0) return 'Etc/UTC';
  return `Etc/GMT${m[1] === '+' ? '-' : '+'}${hours}`;
}

/** The zone of this runtime, else the spec's fallback UTC+02:00. */
export function defaultTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIMEZONE;
  } catch {
    return DEFAULT_TIMEZONE;
  }
}

/** One formatter per zone: building one costs far more than formatting with it (a list of dates, a PDF). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-GB', {
      timeZone: toIntlTimeZone(timeZone),
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    // A zone the user typed is kept only once it is known to work (a bad one throws above).
    if (formatters.size < 64) formatters.set(timeZone, fmt);
  }
  return fmt;
}

function parts(date: Date, timeZone: string): Record<string, string> {
  const fmt = formatterFor(timeZone);
  const out: Record<string, string> = {};
  for (const p of fmt.formatToParts(date)) out[p.type] = p.value;
  return out;
}

/**
 * Year-month-day plus short time ("2025-09-27 14:05") in the given zone.
 * "N/A" when the date or the zone is missing; "Invalid Date" when it cannot be formatted.
 */
export function formatTimestamp(value: string | number | Date | null | undefined, timeZone: string | null | undefined): string {
  if (value === null || value === undefined || value === '' || !timeZone) return 'N/A';
  try {
    const date = value instanceof Date ? value : new Date(value);
    if (Number.isNaN(date.getTime())) return 'Invalid Date';
    const p = parts(date, timeZone);
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
  } catch {
    return 'Invalid Date';
  }
}

/** Seconds with two decimals, from ISO start and end times ("12.35"); "N/A" without both. */
export function formatDurationSeconds(startedAt: string | null | undefined, completedAt: string | null | undefined): string {
  if (!startedAt || !completedAt) return 'N/A';
  const ms = new Date(completedAt).getTime() - new Date(startedAt).getTime();
  if (Number.isNaN(ms)) return 'N/A';
  return (Math.max(0, ms) / 1000).toFixed(DURATION_DECIMALS);
}

/** Report labels used in file names and titles. */
export const REPORT_LABELS: Record<PdfReportType, string> = {
  executive: 'Executive Report',
  technical: 'Technical Report',
};

/**
 * Characters no desktop file system accepts in a file name, whitespace, and control and bidi
 * characters (which can disguise a name's extension): all become underscores.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const UNSAFE_FILENAME = /[\s/\\:*?"<>|\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Keeps the whole name under common 255-byte file-name limits, even in UTF-8. */
const FILENAME_NAME_MAX = 60;

/**
 * "YYYY-MM-DD_HHMM - Executive|Technical Report - {api name with underscores}.pdf" (spec section 7),
 * the date and time taken in `timeZone` (default: the runtime's zone).
 */
export function reportFilename(apiName: string, type: PdfReportType, at: Date, timeZone?: string): string {
  return reportFileName(apiName, type, at, timeZone);
}

/** Labels and extensions of the exports, named like the PDFs ("... - SARIF Results - Name.sarif"). */
export const EXPORT_FILE_PARTS: Record<Exclude<ReportType, PdfReportType>, { label: string; ext: string }> = {
  json: { label: 'Scan Results', ext: 'json' },
  sarif: { label: 'SARIF Results', ext: 'sarif' },
  html: { label: 'Security Report', ext: 'html' },
  junit: { label: 'JUnit Results', ext: 'xml' },
};

/** The PDF file name of spec section 7, and the same pattern for the exports. */
export function reportFileName(apiName: string, type: ReportType, at: Date, timeZone?: string): string {
  const p = parts(at, timeZone ?? defaultTimeZone());
  const name = [...apiName.trim().replace(UNSAFE_FILENAME, '_')].slice(0, FILENAME_NAME_MAX).join('') || 'API';
  const { label, ext } = type === 'executive' || type === 'technical' ? { label: REPORT_LABELS[type], ext: 'pdf' } : EXPORT_FILE_PARTS[type];
  return `${p.year}-${p.month}-${p.day}_${p.hour}${p.minute} - ${label} - ${name}.${ext}`;
}

/** A scan's traffic, named like the reports: "YYYY-MM-DD_HHMM - Scan Traffic - {api name}.har". */
export function trafficFileName(apiName: string, at: Date, timeZone?: string): string {
  const p = parts(at, timeZone ?? defaultTimeZone());
  const name = [...apiName.trim().replace(UNSAFE_FILENAME, '_')].slice(0, FILENAME_NAME_MAX).join('') || 'API';
  return `${p.year}-${p.month}-${p.day}_${p.hour}${p.minute} - Scan Traffic - ${name}.har`;
}

/** LOCAL badge: the base URL names localhost or an IP address. */
export function isLocalBaseUrl(baseUrl: string | null | undefined): boolean {
  if (!baseUrl) return false;
  return /localhost/i.test(baseUrl) || /(^|[/@])(\d{1,3}\.){3}\d{1,3}(?=[:/]|$)/.test(baseUrl) || /\[[0-9a-f:]+\]/i.test(baseUrl);
}

/** Card status pill: "Scanning..." while running; "Completed" with vulnerabilities; else scanStatus or "Ready". */
export function cardStatus(api: { scanStatus?: string | null; vulnerabilitiesFound?: number | null }, running: boolean): string {
  if (running) return CARD_STATUS.scanning;
  if ((api.vulnerabilitiesFound ?? 0) > 0) return CARD_STATUS.completed;
  return api.scanStatus || CARD_STATUS.ready;
}

const GRAPHQL_KIND_WORD = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as const;

/** A GraphQL operation's name as screens, reports and findings show it: "Query.pastes", "Mutation.createUser". */
export function graphqlOperationName(op: Pick<GraphqlOperation, 'kind' | 'field'>): string {
  return `${GRAPHQL_KIND_WORD[op.kind] ?? 'Query'}.${op.field}`;
}
