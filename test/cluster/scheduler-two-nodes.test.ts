// Two team-server nodes on one PostgreSQL database, one clock, each with its own scheduler timer:
// when both timers fire for the same due schedules, every schedule runs once (one scan), on whichever
// node claimed it, round after round; a schedule saved on one node arms the other node's timer too.

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../electron/clock';
import type { Timer } from '../../electron/scheduler/scheduler';
import { createTestCore, newTestDatabase, openTransport, signUpAndLogin, TEST_SHARED_SECRET_KEY, type TestCore, type Transport } from '../helpers/core';
import { miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';
import { postgresSkipReason } from '../helpers/postgres';

const SCHEDULES = 4;
const ROUNDS = 5;
const DAY = 24 * 60 * 60 * 1000;

/** A timer the test fires by hand: what the node armed, and the wake-ups at or before a time. */
function manualTimer(): Timer & { fire(now: Date): number; armedAt(): Date[] } {
  const armed = new Set<{ when: Date; run: () => void }>();
  return {
    at(when, run) {
      const entry = { when, run };
      armed.add(entry);
      return { cancel: () => void armed.delete(entry) };
    },
    fire(now) {
      const due = [...armed].filter((e) => e.when <= now);
      for (const e of due) {
        armed.delete(e);
        e.run();
      }
      return due.length;
    },
    armedAt: () => [...armed].map((e) => e.when),
  };
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const skip = postgresSkipReason();

describe.skipIf(skip !== null)('the scheduler on two nodes of one database', () => {
  const clock = manualClock(new Date('2026-03-02T10:00:00.000Z'));
  const timers = [manualTimer(), manualTimer()];
  let nodes: TestCore[] = [];
  let mini: MiniApi;
  let t: Transport;
  const apiIds: string[] = [];
  const owners: string[] = [];

  beforeAll(async () => {
    mini = await startMiniApi();
    const databaseUrl = await newTestDatabase();
    for (const timer of timers) nodes.push(await createTestCore({ databaseUrl, secretKey: TEST_SHARED_SECRET_KEY, clock, schedulerTimer: timer }));
    t = await openTransport('ipc', nodes[0]!.core);
    // One owner per schedule: an owner runs one scan at a time, and a second run would wait, not race.
    for (let i = 0; i < SCHEDULES; i++) {
      const owner = await signUpAndLogin(t, `owner${i}`);
      const apiId = await nodes[0]!.core.services.repos.apis.createWithEndpoints(miniApiInput(owner.id, mini.url), clock.now());
      // A scan created by hand holds the configuration and key the scheduled runs repeat.
      const created = await t.call('POST', '/api/scan/create', { token: owner.token, body: { api_id: apiId, scan_profile: 'owasp', api_key_1: mini.users.alice.token, rps: 1000 } });
      expect(created.status).toBe(201);
      const saved = await t.call('POST', '/api/scans/schedule', { token: owner.token, body: { api_id: apiId, frequency: 'daily', is_enabled: true, time_of_day: '10:00', time_zone: 'UTC' } });
      expect(saved.status).toBe(200);
      apiIds.push(apiId);
      owners.push(owner.id);
    }
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    for (const node of nodes) await node.close();
    nodes = [];
    await mini?.close();
  });

  it('arms both nodes for a schedule saved on one', async () => {
    const first = '2026-03-03T10:00:00.000Z';
    // The second node hears of the schedules through the database's notifications.
    await until(async () => nodes.every((n) => n.core.services.scheduler.nextWake()?.toISOString() === first), 'both nodes to arm');
    for (const timer of timers) expect(timer.armedAt().map((d) => d.toISOString())).toEqual([first]);
  });

  it('runs each due schedule once when both timers fire, round after round', async () => {
    const db = nodes[0]!.core.store.db;
    for (let round = 1; round <= ROUNDS; round++) {
      const from = new Date(Date.parse('2026-03-02T10:00:30.000Z') + round * DAY);
      clock.set(from);
      // Both nodes wake at once, as two servers would.
      expect(timers.map((timer) => timer.fire(from))).toEqual([1, 1]);
      // Each scheduler's runs are serial: this one starts after the fired one has finished.
      await Promise.all(nodes.map((n) => n.core.services.scheduler.runDue()));
      // Then every scan settles, and nothing waits behind one (a duplicate would start then).
      await until(async () => {
        const running = await db.selectFrom('scans').select('id').where('status', 'in', ['created', 'running']).where('created_at', '>=', from.toISOString()).execute();
        return running.length === 0 && nodes.every((n) => owners.every((o) => n.core.services.scheduler.waitingFor(o).length === 0));
      }, `round ${round}'s scans to finish`);
      const { rows } = await sql<{ api_id: string; n: number }>`SELECT api_id, count(*)::int AS n FROM scans WHERE created_at >= ${from.toISOString()} GROUP BY api_id ORDER BY api_id`.execute(db);
      expect(rows, `round ${round}`).toEqual([...apiIds].sort().map((api_id) => ({ api_id, n: 1 })));
      for (const apiId of apiIds) {
        const row = (await nodes[1]!.core.services.repos.schedules.get(apiId))!;
        expect(row.last_run_at, `round ${round}`).toBe(from.toISOString());
        expect(row.next_run_at).toBe(new Date(Date.parse('2026-03-02T10:00:00.000Z') + (round + 1) * DAY).toISOString());
        expect(row.last_error).toBeNull();
      }
    }
  }, 300_000);

  it('runs a run missed while both nodes were down once, when both start again', async () => {
    const databaseUrl = nodes[0]!.core.config.databaseUrl!;
    for (const node of nodes) await node.close();
    nodes = [];
    const from = new Date(Date.parse('2026-03-02T10:00:30.000Z') + (ROUNDS + 3) * DAY);
    clock.set(from);
    // Both start at once; each catches up on runs missed while closed.
    nodes = await Promise.all(timers.map((timer) => createTestCore({ databaseUrl, secretKey: TEST_SHARED_SECRET_KEY, clock, schedulerTimer: timer })));
    const fresh = nodes[0]!.core.store.db;
    await until(async () => {
      const running = await fresh.selectFrom('scans').select('id').where('status', 'in', ['created', 'running']).where('created_at', '>=', from.toISOString()).execute();
      return running.length === 0 && nodes.every((n) => owners.every((o) => n.core.services.scheduler.waitingFor(o).length === 0));
    }, 'the catch-up scans to finish');
    const { rows } = await sql<{ api_id: string; n: number }>`SELECT api_id, count(*)::int AS n FROM scans WHERE created_at >= ${from.toISOString()} GROUP BY api_id ORDER BY api_id`.execute(fresh);
    expect(rows).toEqual([...apiIds].sort().map((api_id) => ({ api_id, n: 1 })));
  }, 120_000);
});
