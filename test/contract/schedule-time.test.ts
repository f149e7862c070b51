// POST /api/scans/schedule with a time of day and a time zone (issue 17), over both transports: the
// next run is at that wall-clock time in that zone (weekly on the weekday, monthly on the day), the
// schedule says so back, and bad times, zones and fields are refused with a reason.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schedule } from '../../shared/contract';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';

type Json<T = Record<string, unknown>> = { success: boolean; message: string; data: T; errors?: { field: string; message: string }[] };

describe.each(['http', 'ipc'] as const)('schedule times over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let apiId: string;
  const save = (body: Record<string, unknown>) => t.call<Json<{ schedule: Schedule }>>('POST', '/api/scans/schedule', { token: owner.token, body: { api_id: apiId, is_enabled: true, ...body } });

  beforeAll(async () => {
    tc = await createTestCore(); // the clock reads 2026-03-02T10:00:00Z, a Monday
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'scheduler');
    const res = await t.call<Json<{ api: { id: string } }>>('POST', '/api/apis/manual', {
      token: owner.token,
      body: { name: 'Nightly API', base_url: 'https://api.example.com', endpoints: [{ method: 'GET', path: '/items' }] },
    });
    apiId = res.json.data.api.id;
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  it('runs daily at the time asked for, in the zone asked for', async () => {
    const res = await save({ frequency: 'daily', time_of_day: '09:30', time_zone: 'Europe/Berlin' });
    expect(res.status).toBe(200);
    // 09:30 in Berlin (UTC+1 in March before the change) is 08:30Z: today's has passed, so tomorrow.
    expect(res.json.data.schedule).toMatchObject({ frequency: 'daily', time_of_day: '09:30', time_zone: 'Europe/Berlin', weekday: null, day_of_month: null, next_run_at: '2026-03-03T08:30:00.000Z' });
    const got = await t.call<Json<{ schedule: Schedule }>>('GET', `/api/scans/schedule?api_id=${apiId}`, { token: owner.token });
    expect(got.json.data.schedule).toMatchObject({ time_of_day: '09:30', time_zone: 'Europe/Berlin' });
  });

  it('runs weekly on the weekday, monthly on the day (the last day of a shorter month)', async () => {
    const weekly = await save({ frequency: 'weekly', time_of_day: '18:00', time_zone: 'UTC+02:00', weekday: 5 });
    expect(weekly.json.data.schedule).toMatchObject({ weekday: 5, time_of_day: '18:00', time_zone: 'Etc/GMT-2', next_run_at: '2026-03-06T16:00:00.000Z' });
    const monthly = await save({ frequency: 'monthly', time_of_day: '07:00', time_zone: 'UTC', day_of_month: 31 });
    expect(monthly.json.data.schedule).toMatchObject({ day_of_month: 31, next_run_at: '2026-03-31T07:00:00.000Z' });
  });

  it("shows on the owner's API list, to nobody else, and not once disabled", async () => {
    await save({ frequency: 'weekly', time_of_day: '18:00', time_zone: 'Europe/Berlin', weekday: 2 });
    const apis = async (u: TestUser) =>
      (await t.call<Json<{ apis: { id: string; schedule?: unknown }[] }>>('GET', '/api/apis', { token: u.token })).json.data.apis.find((a) => a.id === apiId);
    expect((await apis(owner))?.schedule).toEqual({ frequency: 'weekly', time_of_day: '18:00', time_zone: 'Europe/Berlin', weekday: 2, day_of_month: null, next_run_at: '2026-03-03T17:00:00.000Z' });
    const reader = await signUpAndLogin(t, 'reader');
    await tc.core.services.repos.shares.upsert(apiId, reader.id, 'read', tc.clock.now());
    expect((await apis(reader))?.schedule).toBeNull();
    await save({ frequency: 'weekly', is_enabled: false });
    expect((await apis(owner))?.schedule).toBeNull();
  });

  it('keeps the time of saving when none is given', async () => {
    const res = await save({ frequency: 'daily', time_zone: 'UTC' });
    expect(res.json.data.schedule).toMatchObject({ time_of_day: '10:00', next_run_at: '2026-03-03T10:00:00.000Z' });
  });

  it('refuses bad times, unknown zones and fields of another frequency', async () => {
    for (const [body, field] of [
      [{ frequency: 'daily', time_of_day: '24:00' }, 'time_of_day'],
      [{ frequency: 'daily', time_of_day: '9:30' }, 'time_of_day'],
      [{ frequency: 'daily', time_zone: 'Mars/Olympus' }, 'time_zone'],
      [{ frequency: 'daily', weekday: 2 }, 'weekday'],
      [{ frequency: 'weekly', day_of_month: 3 }, 'day_of_month'],
      [{ frequency: 'weekly', weekday: 8 }, 'weekday'],
    ] as const) {
      const res = await save(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errors?.map((e) => e.field) ?? [], `${JSON.stringify(body)}: ${res.json.message}`).toContain(field);
    }
  });
});
