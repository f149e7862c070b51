// /api/scans/schedule: the owner's recurring scan of an API (daily, weekly or monthly).

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
import { notFound } from '../errors';
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
});

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
    const zone = await zoneOf(s, me.id);
    const row = await s.repos.schedules.save(
      {
        apiId: api.id,
        userId: me.id,
        frequency: input.frequency,
        enabled: input.is_enabled,
        anchorAt: now,
        zone,
        nextRunAt: input.is_enabled ? nextRunAt(input.frequency, now, now, zone) : null,
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
