// Whole days in a time zone (issue 31, item 6): an accepted risk ends at the end of the day the user
// picked in their Settings zone, and that day is shown back whatever zone the browser runs in.

import { defaultTimeZone, toIntlTimeZone } from './display';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const HOUR_MS = 60 * 60 * 1000;

/** Whether Intl knows the zone (an IANA name, or a Settings "UTC+02:00"). */
export function isKnownTimeZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: toIntlTimeZone(zone) }).format(0);
    return true;
  } catch {
    return false;
  }
}

/** The zone if Intl knows it, in Intl's spelling; else the fallback's; else UTC. */
export function usableTimeZone(candidate: string | null | undefined, fallback: string = defaultTimeZone()): string {
  if (isKnownTimeZone(candidate)) return toIntlTimeZone(candidate);
  return isKnownTimeZone(fallback) ? toIntlTimeZone(fallback) : 'Etc/UTC';
}

/** The calendar day ("YYYY-MM-DD") an instant falls on in the zone. */
export function dayInZone(at: Date | number, zone: string): string {
  const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: toIntlTimeZone(zone), year: 'numeric', month: '2-digit', day: '2-digit' });
  const p: Record<string, string> = {};
  for (const part of fmt.formatToParts(typeof at === 'number' ? new Date(at) : at)) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day}`;
}

/** Whether the text is a real "YYYY-MM-DD" date (2026-02-30 is not). */
export function isCalendarDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** The day `n` days after a "YYYY-MM-DD" day (calendar arithmetic, no zone involved). */
export function addDays(day: string, n: number): string {
  const m = DAY.exec(day);
  if (!m) return day;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + n)).toISOString().slice(0, 10);
}

/** Milliseconds the zone is ahead of UTC at an instant. */
function offsetMs(at: number, zone: string): number {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const p: Record<string, number> = {};
  for (const part of fmt.formatToParts(new Date(at))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return wall - Math.floor(at / 1000) * 1000;
}

/**
 * The first instant after the day ends in the zone (the next day's first moment), or null for a text
 * that is not a day. Where a zone skips its midnight (a DST change at 00:00), that is the first
 * instant the next day exists; the day before it is always `day`.
 */
export function endOfDayInZone(day: string, zone: string): Date | null {
  if (!isCalendarDay(day)) return null;
  const intl = toIntlTimeZone(zone);
  const next = addDays(day, 1);
  const m = DAY.exec(next)!;
  const wallMidnight = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  let at = wallMidnight - offsetMs(wallMidnight, intl);
  at = wallMidnight - offsetMs(at, intl);
  // Exact for most days; around a DST change at midnight, the first instant of the next day lies within
  // a few hours of the guess: find it to the millisecond (the day only grows with time).
  if (dayInZone(at - 1, intl) === day && dayInZone(at, intl) > day) return new Date(at);
  let lo = at - 6 * HOUR_MS;
  let hi = at + 6 * HOUR_MS;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (dayInZone(mid, intl) > day) hi = mid;
    else lo = mid;
  }
  at = hi;
  return new Date(at);
}

/** The day whose end an instant marks in the zone: the inverse of endOfDayInZone. */
export function dayEndingAt(end: string | Date, zone: string): string {
  const at = typeof end === 'string' ? new Date(end).getTime() : end.getTime();
  return dayInZone(at - 1, zone);
}
