// When a recurring scan runs next: at the schedule's wall-clock time in the owner's time zone,
// every day, every week on the same weekday, or every month on the same day (the month's last day
// when it is shorter). Local time survives daylight-saving changes; a time that does not exist on
// the day clocks spring forward runs at the first valid minute after it.

import { DateTime } from 'luxon';
import type { ScheduleFrequency } from '../../shared/constants';

/** The first run strictly after `after`, keeping the local time (and weekday or day) of `anchor`. */
export function nextRunAt(frequency: ScheduleFrequency, anchor: Date, after: Date, zone: string): Date {
  const a = DateTime.fromJSDate(anchor, { zone });
  if (!a.isValid) throw new Error(`Unknown time zone "${zone}".`);
  const base = DateTime.fromJSDate(after, { zone });
  const at = (day: DateTime) => day.set({ hour: a.hour, minute: a.minute, second: 0, millisecond: 0 });
  const later = (d: DateTime) => d.toMillis() > after.getTime();

  if (frequency === 'daily') {
    const today = at(base.startOf('day'));
    return (later(today) ? today : at(base.startOf('day').plus({ days: 1 }))).toJSDate();
  }
  if (frequency === 'weekly') {
    const ahead = (a.weekday - base.weekday + 7) % 7;
    const first = at(base.startOf('day').plus({ days: ahead }));
    return (later(first) ? first : at(base.startOf('day').plus({ days: ahead + 7 }))).toJSDate();
  }
  for (let k = 0; k < 3; k += 1) {
    const month = base.startOf('month').plus({ months: k });
    const candidate = at(month.set({ day: Math.min(a.day, month.daysInMonth!) }));
    if (later(candidate)) return candidate.toJSDate();
  }
  throw new Error('unreachable: a month always has a later run within three months');
}
