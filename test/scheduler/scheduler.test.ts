// Recurring scans with an injected clock (no real waiting): the schedule routes, catch-up after the
// app was closed, queueing behind a running scan, and runs that cannot start.

import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../electron/clock';
import type { Timer } from '../../electron/scheduler/scheduler';
import { createTestCore, openTransport, signUpAndLogin, tempDir, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';

type Json = { success: boolean; message: string; data?: Record<string, unknown> };
const DAY = 24 * 60 * 60 * 1000;

/** A timer that only records when it would wake. */
function recordingTimer(): Timer & { wakes: Date[] } {
  const wakes: Date[] = [];
  return { wakes, at: (when) => (wakes.push(when), { cancel: () => undefined }) };
}

async function waitFor<T>(read: () => Promise<T>, until: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (until(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('recurring scans', () => {
  let mini: MiniApi;
  let dataDir: string;
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let apiId: string;
  const clock = manualClock(new Date('2026-03-02T10:00:00.000Z'));
  const timer = recordingTimer();

  /** After the clock jumps, sessions have idled out (as they should): sign in again. */
  async function relogin(): Promise<void> {
    const res = await t.call<{ data: { token: string } }>('POST', '/api/auth/login', { body: { username: owner.username, password: owner.password } });
    owner.token = res.json.data.token;
  }

  const scansOf = async (core = tc.core) => core.services.repos.scans.listForApi(apiId);

  /** A scan by hand through the routes, so the owner has a configuration and keys to repeat. */
  async function manualScan(): Promise<string> {
    const created = await t.call<Json>('POST', '/api/scan/create', {
      token: owner.token,
      body: { api_id: apiId, scan_profile: 'OWASP_API_10', api_key_1: mini.users.alice.token, api_key_2: mini.users.bob.token },
    });
    expect(created.status).toBe(201);
    const started = await t.call<Json>('POST', '/api/scan/start', { token: owner.token, body: { api_id: apiId, scan_profile: 'owasp' } });
    expect(started.status).toBe(200);
    return (started.json.data as { scan_id: string }).scan_id;
  }

  beforeAll(async () => {
    mini = await startMiniApi();
    dataDir = tempDir();
    tc = await createTestCore({ dataDir, clock, schedulerTimer: timer });
    t = await openTransport('http', tc.core);
    owner = await signUpAndLogin(t, 'owner');
    reader = await signUpAndLogin(t, 'reader');
    stranger = await signUpAndLogin(t, 'stranger');
    // A fixed zone keeps the expected times independent of the machine running the test.
    await t.call('PUT', '/api/user/extended-profile', { token: owner.token, body: { timezone: 'UTC+02:00' } });
    apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(owner.id, mini.url), clock.now());
    await tc.core.store.db.insertInto('shares').values({ api_id: apiId, user_id: reader.id, permission: 'read', created_at: '', updated_at: '' }).execute();
    const first = await manualScan();
    await tc.core.services.scans.wait(first);
  });
  afterEach(async () => {
    for (const s of await scansOf()) if (s.status === 'running') await tc.core.services.scans.wait(s.id);
  });
  afterAll(async () => {
    await t.close();
    await tc.core.close();
    await mini.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe('routes', () => {
    it('has no schedule at first', async () => {
      const res = await t.call<Json>('GET', `/api/scans/schedule?api_id=${apiId}&user_id=${owner.id}`, { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.json.data).toEqual({ schedule: null });
    });

    it('validates the frequency and the flag', async () => {
      const bad = await t.call<Json>('POST', '/api/scans/schedule', { token: owner.token, body: { api_id: apiId, frequency: 'hourly', is_enabled: true } });
      expect(bad.status).toBe(400);
      expect(bad.json.message).toBe('Frequency must be daily, weekly or monthly.');
      const flag = await t.call<Json>('POST', '/api/scans/schedule', { token: owner.token, body: { api_id: apiId, frequency: 'daily', is_enabled: 'yes' } });
      expect(flag.status).toBe(400);
    });

    it('saves a schedule with its next run and arms the timer', async () => {
      const res = await t.call<Json>('POST', '/api/scans/schedule', {
        token: owner.token,
        body: { api_id: apiId, user_id: owner.id, frequency: 'weekly', is_enabled: true },
      });
      expect(res.status).toBe(200);
      expect(res.json.message).toBe('Scan scheduled weekly.');
      expect(res.json.data?.schedule).toMatchObject({
        api_id: apiId,
        frequency: 'weekly',
        is_enabled: true,
        next_run_at: '2026-03-09T10:00:00.000Z',
        last_run_at: null,
      });
      expect(tc.core.services.scheduler.nextWake()?.toISOString()).toBe('2026-03-09T10:00:00.000Z');
      const monthly = await t.call<Json>('POST', '/api/scans/schedule', { token: owner.token, body: { api_id: apiId, frequency: 'monthly', is_enabled: true } });
      expect((monthly.json.data?.schedule as { next_run_at: string }).next_run_at).toBe('2026-04-02T10:00:00.000Z');
    });

    it('is managed by the owner only', async () => {
      for (const [user, status] of [
        [reader, 403],
        [stranger, 404],
      ] as const) {
        expect((await t.call('GET', `/api/scans/schedule?api_id=${apiId}`, { token: user.token })).status).toBe(status);
        expect((await t.call('POST', '/api/scans/schedule', { token: user.token, body: { api_id: apiId, frequency: 'daily', is_enabled: true } })).status).toBe(status);
        expect((await t.call('DELETE', '/api/scans/schedule', { token: user.token, body: { api_id: apiId } })).status).toBe(status);
      }
      expect((await t.call('GET', `/api/scans/schedule?api_id=${apiId}`)).status).toBe(401);
    });

    it('disables by deleting, with the spec message', async () => {
      const res = await t.call<Json>('DELETE', '/api/scans/schedule', { token: owner.token, body: { api_id: apiId, user_id: owner.id } });
      expect(res.json).toEqual({ success: true, message: 'Schedule disabled successfully.' });
      expect(tc.core.services.scheduler.nextWake()).toBeNull();
      expect((await t.call('DELETE', '/api/scans/schedule', { token: owner.token, body: { api_id: apiId } })).status).toBe(404);
    });
  });

  describe('runs', () => {
    it('runs a missed schedule once at the next start, then continues from now', async () => {
      await t.call('POST', '/api/scans/schedule', { token: owner.token, body: { api_id: apiId, frequency: 'daily', is_enabled: true } });
      const before = (await scansOf()).length;
      // The app closes; four days pass; it starts again on the same data.
      await t.close();
      await tc.core.close();
      clock.advance(4 * DAY + 60_000);
      tc = await createTestCore({ dataDir, clock, schedulerTimer: timer });
      t = await openTransport('http', tc.core);
      const after = await waitFor(scansOf, (list) => list.length === before + 1);
      const scan = after[0]!;
      await tc.core.services.scans.wait(scan.id);
      const row = (await tc.core.services.repos.schedules.get(apiId))!;
      expect(row.last_run_at).toBe('2026-03-06T10:01:00.000Z');
      expect(row.last_scan_id).toBe(scan.id);
      expect(row.last_error).toBeNull();
      // One run for four missed days; the next one keeps the daily 10:00 UTC time.
      expect(row.next_run_at).toBe('2026-03-07T10:00:00.000Z');
      expect((await scansOf()).length).toBe(before + 1);
      const details = await tc.core.services.scans.details(scan.id);
      expect(details.status).toBe('completed');
    });

    it('does nothing before the next run is due', async () => {
      const before = (await scansOf()).length;
      clock.advance(60 * 60 * 1000);
      await tc.core.services.scheduler.runDue();
      expect((await scansOf()).length).toBe(before);
    });

    it('waits for the owner\'s running scan, then starts', async () => {
      mini.setFlaws({ delayMs: 150 });
      try {
        await relogin();
        const manual = await manualScan();
        expect(tc.core.services.scans.isRunning(manual)).toBe(true);
        clock.set(new Date('2026-03-07T10:00:30.000Z'));
        await tc.core.services.scheduler.runDue();
        expect(tc.core.services.scheduler.waitingFor(owner.id)).toEqual([apiId]);
        // The manual scan only had to be running when the schedule came due: let it finish at full speed.
        mini.setFlaws({ delayMs: 0 });
        const queuedBefore = (await scansOf()).length;
        await tc.core.services.scans.wait(manual);
        const list = await waitFor(scansOf, (l) => l.length === queuedBefore + 1);
        expect(list[0]!.id).not.toBe(manual);
        expect(tc.core.services.scheduler.waitingFor(owner.id)).toEqual([]);
        const row = (await tc.core.services.repos.schedules.get(apiId))!;
        expect(row.last_scan_id).toBe(list[0]!.id);
        expect(row.next_run_at).toBe('2026-03-08T10:00:00.000Z');
      } finally {
        mini.setFlaws({ delayMs: 0 });
      }
    });

    it('fails a run with a clear reason when the keys are gone, and keeps the schedule going', async () => {
      const holder = await tc.core.store.db
        .selectFrom('scans')
        .select('secret_ref')
        .where('api_id', '=', apiId)
        .where('secret_ref', 'is not', null)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      await tc.core.services.secrets.delete(holder.secret_ref!);
      const before = (await scansOf()).length;
      clock.set(new Date('2026-03-08T10:00:05.000Z'));
      await tc.core.services.scheduler.runDue();
      const row = (await tc.core.services.repos.schedules.get(apiId))!;
      expect(row.last_error).toBe('The keys of this scan are no longer stored; create the scan again.');
      expect(row.next_run_at).toBe('2026-03-09T10:00:00.000Z');
      expect((await scansOf()).length).toBe(before);
      await relogin();
      const res = await t.call<Json>('GET', `/api/scans/schedule?api_id=${apiId}`, { token: owner.token });
      expect(res.json.data?.schedule).toMatchObject({ last_error: 'The keys of this scan are no longer stored; create the scan again.' });
    });
  });
});
