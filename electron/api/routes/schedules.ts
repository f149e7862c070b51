// /api/scans/schedule: the owner's recurring scan of an API (daily, weekly or monthly), at a time of
// day in a time zone (weekly on a weekday, monthly on a day).

import type { Hono } from 'hono';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { SCHEDULE_FREQUENCIES } from '../../../shared/constants';
import { defaultTimeZone, toIntlTimeZone } from '../../../shared/display';
import { API_MESSAGES } from '../../../shared/messages';
import { nextRunAt } from '../../scheduler/next-run';
import { toSchedule } from '../../store/schedules';
import type { Services } from '../../services';
import { requireApiAccess } from '../access';
import type { AppEnv } from '../env';
import { badRequest, notFound } from '../errors';
import { idField, parseBody, parseQuery } from '../input';
import { ok } from '../respond';

export const SCHEDULE_TEXT = {
  loaded: 'Schedule loaded',
  none: 'No schedule for this API.',
  saved: (frequency: string) => `Scan scheduled ${frequency}.`,
  paused: 'Schedule saved (disabled).',
} as const;

const apiOnly = z.object({ api_id: idField('api_id') });
const saveSchema = z.object({
  api_id: idField('api_id'),
  frequency: z.enum(SCHEDULE_FREQUENCIES, { error: 'Frequency must be daily, weekly or monthly.' }),
  is_enabled: z.boolean({ error: 'is_enabled must be true or false.' }),
  time_of_day: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'time_of_day must be HH:MM (24-hour), for example 09:30.' }).optional(),
  time_zone: z.string().trim().min(1).max(64, { error: 'time_zone is too long.' }).optional(),
  weekday: z.number().int().min(1).max(7, { error: 'weekday must be 1 (Monday) to 7 (Sunday).' }).optional(),
  day_of_month: z.number().int().min(1).max(31, { error: 'day_of_month must be 1 to 31.' }).optional(),
});

/** A zone luxon knows, from an IANA name or a Settings offset ("UTC+02:00"); null when neither. */
function knownZone(value: string): string | null {
  const zone = toIntlTimeZone(value);
  return DateTime.now().setZone(zone).isValid ? zone : null;
}

/**
 * The anchor runs keep: a reference instant whose wall-clock time (and weekday or day) in `zone` is
 * the one asked for. January 2026 starts on a Thursday and has 31 days, so any weekday and day fit;
 * nextRunAt reads only the anchor's local time, weekday and day.
 */
export function scheduleAnchor(input: { time: { hour: number; minute: number }; weekday: number | null; day: number | null }, zone: string): Date {
  const day = input.day ?? (input.weekday ? 4 + input.weekday : 5); // 2026-01-05 is a Monday
  return DateTime.fromObject({ year: 2026, month: 1, day, hour: input.time.hour, minute: input.time.minute }, { zone }).toJSDate();
}

/** The zone a user's runs are computed in: their Settings time zone, else this machine's. */
async function zoneOf(s: Services, userId: string): Promise<string> {
  const chosen = (await s.repos.userSettings.getProfile(userId)).timezone;
  for (const candidate of [chosen, defaultTimeZone()]) {
    if (!candidate) continue;
    const zone = toIntlTimeZone(candidate);
    if (DateTime.now().setZone(zone).isValid) return zone;
  }
  return 'UTC';
}

export function registerScheduleRoutes(app: Hono<AppEnv>, s: Services): void {
  app.get('/api/scans/schedule', async (c) => {
    const { api_id } = parseQuery(c, apiOnly);
    const { api } = await requireApiAccess(s.repos, c.get('user').id, api_id, 'admin');
    const row = await s.repos.schedules.get(api.id);
    return ok(c, row ? SCHEDULE_TEXT.loaded : SCHEDULE_TEXT.none, { schedule: row ? toSchedule(row) : null });
  });

  app.post('/api/scans/schedule', async (c) => {
    const me = c.get('user');
    const input = await parseBody(c, saveSchema);
    const { api } = await requireApiAccess(s.repos, me.id, input.api_id, 'admin');
    const now = s.clock.now();
    let zone: string;
    if (input.time_zone !== undefined) {
      const known = knownZone(input.time_zone);
      if (!known) throw badRequest(`Unknown time zone "${input.time_zone}": use a name such as Europe/Berlin, or UTC+02:00.`, 'time_zone');
      zone = known;
    } else zone = await zoneOf(s, me.id);
    if (input.weekday !== undefined && input.frequency !== 'weekly') throw badRequest('weekday applies to weekly schedules only.', 'weekday');
    if (input.day_of_month !== undefined && input.frequency !== 'monthly') throw badRequest('day_of_month applies to monthly schedules only.', 'day_of_month');
    // Unless told otherwise, runs keep the time (and weekday or day) of saving, in the zone.
    const local = DateTime.fromJSDate(now, { zone });
    const [hour, minute] = input.time_of_day ? input.time_of_day.split(':').map(Number) : [local.hour, local.minute];
    const anchorAt = scheduleAnchor(
      {
        time: { hour: hour!, minute: minute! },
        weekday: input.frequency === 'weekly' ? (input.weekday ?? local.weekday) : null,
        day: input.frequency === 'monthly' ? (input.day_of_month ?? local.day) : null,
      },
      zone,
    );
    const row = await s.repos.schedules.save(
      {
        apiId: api.id,
        userId: me.id,
        frequency: input.frequency,
        enabled: input.is_enabled,
        anchorAt,
        zone,
        nextRunAt: input.is_enabled ? nextRunAt(input.frequency, anchorAt, now, zone) : null,
      },
      now,
    );
    await s.scheduler.changed(api.id);
    s.logger.info('Schedule saved', { api_id: api.id, frequency: input.frequency, enabled: input.is_enabled });
    return ok(c, input.is_enabled ? SCHEDULE_TEXT.saved(input.frequency) : SCHEDULE_TEXT.paused, { schedule: toSchedule(row) });
  });

  app.delete('/api/scans/schedule', async (c) => {
    const input = await parseBody(c, apiOnly);
    const { api } = await requireApiAccess(s.repos, c.get('user').id, input.api_id, 'admin');
    if (!(await s.repos.schedules.delete(api.id))) throw notFound(SCHEDULE_TEXT.none);
    await s.scheduler.changed(api.id);
    return ok(c, API_MESSAGES.scheduleDisabled);
  });
}
