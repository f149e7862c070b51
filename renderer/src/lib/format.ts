// Small display helpers of the signed-in screens that the spec does not name.

import type { Schedule } from '../../../shared/contract';
import { defaultTimeZone, formatTimestamp } from '../../../shared/display';

/** A timestamp in the viewer's zone, "YYYY-MM-DD HH:MM" (spec section 9); "Never" and "N/A" pass through. */
export function when(value: string | null | undefined): string {
  if (value === 'Never') return 'Never';
  return formatTimestamp(value, defaultTimeZone());
}

/** "Mon 17" for a "YYYY-MM-DD" day of the dashboard (days are UTC dates). */
export function dayLabel(day: string): { short: string; long: string } {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return { short: day, long: day };
  const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' }).format(date);
  const long = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(date);
  return { short: `${weekday} ${date.getUTCDate()}`, long };
}

/** "completed" -> "Completed". */
export function capitalize(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/** The pill style of a scan status. */
export function statusTone(status: string): 'success' | 'running' | 'danger' | 'warning' | 'ready' {
  const s = status.toLowerCase();
  if (s === 'completed') return 'success';
  if (s === 'running' || s === 'scanning...') return 'running';
  if (s === 'failed') return 'danger';
  return 'ready';
}

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** "Daily at 09:30", "Weekly on Friday at 18:00", "Monthly on day 31 at 07:00", with the zone. */
export function describeSchedule(s: Pick<Schedule, 'frequency' | 'time_of_day' | 'time_zone' | 'weekday' | 'day_of_month'>): string {
  const on = s.frequency === 'weekly' && s.weekday ? ` on ${WEEKDAYS[s.weekday - 1]}` : s.frequency === 'monthly' && s.day_of_month ? ` on day ${s.day_of_month}` : '';
  return `${capitalize(s.frequency)}${on} at ${s.time_of_day} (${s.time_zone})`;
}
