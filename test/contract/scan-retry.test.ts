// Live scans and Retry over both transports (issue 17 item 3): progress events and the details of a
// running scan name the current check and endpoint (never afterwards); a scan whose target does not
// answer fails with its reason, shown on the API's summary and in the scan list; POST /api/scan/retry
// runs a failed or cancelled scan again with its configuration and keys (owner and manage; read 403,
// strangers 404, anonymous 401) — a completed one too (the scan page's "Scan again") — and 409 for a
// scan that has not ended, while one of the caller's scans runs, and for a caller with no configuration
// of their own to repeat.

import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSummary, ScanDetails, ScanSummary } from '../../shared/contract';
import { SCAN_MESSAGES } from '../../shared/messages';
import type { ScanEvent } from '../../electron/scanner/events';
import { SCAN_TEXT } from '../../electron/scanner/service';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { miniApiEndpoints, miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';
import { seedScan } from '../helpers/seed';

type Json<T = Record<string, unknown>> = { success: boolean; message: string; data: T };

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe.each(['http', 'ipc'] as const)('live scans and retry over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let mini: MiniApi;
  let owner: TestUser;
  let manager: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let deadApiId: string;
  let liveApiId: string;
  let failedScanId: string;

  const call = <T>(u: TestUser | null, path: string, body: unknown) => t.call<Json<T>>('POST', path, { token: u?.token, body });
  const details = async (scanId: string) => (await call<ScanDetails>(owner, '/api/scan/details', { scan_id: scanId })).json.data;
  const retry = (u: TestUser | null, body: unknown) => call<{ scan_id: string; status: string }>(u, '/api/scan/retry', body);

  async function runScan(u: TestUser, apiId: string): Promise<string> {
    const created = await call<{ scan_id: string }>(u, '/api/scan/create', { api_id: apiId, scan_profile: 'owasp', api_key_1: mini.users.alice.token, rps: 0 });
    expect(created.status, created.text).toBe(201);
    const started = await call<{ scan_id: string }>(u, '/api/scan/start', { api_id: apiId, scan_id: created.json.data.scan_id });
    expect(started.status, started.text).toBe(200);
    await tc.core.services.scans.wait(started.json.data.scan_id);
    return started.json.data.scan_id;
  }

  beforeAll(async () => {
    mini = await startMiniApi();
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'owner');
    manager = await signUpAndLogin(t, 'manager');
    reader = await signUpAndLogin(t, 'reader');
    stranger = await signUpAndLogin(t, 'stranger');
    const { repos } = tc.core.services;
    deadApiId = await repos.apis.createWithEndpoints(miniApiInput(owner.id, `http://127.0.0.1:${await closedPort()}`), tc.clock.now());
    // Two endpoints: a short scan, held mid-task by the target below.
    liveApiId = await repos.apis.createWithEndpoints(miniApiInput(owner.id, mini.url, miniApiEndpoints().slice(0, 2)), tc.clock.now());
    await tc.core.store.db
      .insertInto('shares')
      .values([
        { api_id: deadApiId, user_id: reader.id, permission: 'read', created_at: '', updated_at: '' },
        { api_id: deadApiId, user_id: manager.id, permission: 'manage', created_at: '', updated_at: '' },
      ])
      .execute();
  });

  afterAll(async () => {
    await t?.close();
    await tc?.close();
    await mini?.close();
  });

  it('names the current check and endpoint while the scan runs, in its events and details, and forgets them when it ends', async () => {
    // Held on events, not on the clock: once the tasks are planned (the event with more than the sign-in
    // task), the target holds every request; a progress event then names the task that waits, the details
    // are read while it waits, and only then does the target answer.
    const seen: ScanEvent[] = [];
    let release!: () => void;
    let heldOne!: () => void;
    let named!: (e: ScanEvent) => void;
    const held = new Promise<void>((r) => (heldOne = r));
    const namedEvent = new Promise<ScanEvent>((r) => (named = r));
    let gated = false;
    const off = tc.core.services.scans.events.subscribe((e) => {
      seen.push(e);
      if (e.type !== 'scan:progress') return;
      if (e.total > 1 && !gated) {
        gated = true;
        mini.gate = new Promise<void>((r) => (release = r));
        mini.onHeld = () => heldOne();
      }
      if (e.current?.endpoint) named(e);
    });
    try {
      const created = await call<{ scan_id: string }>(owner, '/api/scan/create', { api_id: liveApiId, scan_profile: 'owasp', api_key_1: mini.users.alice.token, rps: 0 });
      expect(created.status, created.text).toBe(201);
      const started = await call<{ scan_id: string }>(owner, '/api/scan/start', { api_id: liveApiId, scan_id: created.json.data.scan_id });
      expect(started.status, started.text).toBe(200);
      const scanId = started.json.data.scan_id;
      await held;
      const event = await namedEvent;
      expect(event).toMatchObject({ scanId, current: { check: expect.stringMatching(/\S/), endpoint: expect.stringMatching(/^(GET|POST|PUT|PATCH|DELETE) \//) } });
      // The pace rides along: requests in flight allowed now and the configured most.
      expect((event as Extract<ScanEvent, { type: 'scan:progress' }>).pace).toMatchObject({ limit: expect.any(Number), max: expect.any(Number), alone: false });
      // Another node reads the live state from the shared database, written a moment after the event.
      await expect.poll(async () => (await details(scanId)).results.scan_info.current?.check, { timeout: 15_000 }).toMatch(/\S/);
      const running = await details(scanId);
      expect(running.status).toBe('running');
      expect(running.results.scan_info.pace?.max).toBeGreaterThan(0);
      mini.gate = null;
      mini.onHeld = null;
      release();
      await tc.core.services.scans.wait(scanId);
      const progress = seen.filter((e): e is Extract<ScanEvent, { type: 'scan:progress' }> => e.type === 'scan:progress' && e.scanId === scanId);
      for (const e of progress.filter((x) => x.current?.endpoint)) expect(e.current!.endpoint).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \//);
      // No secret rides along: the key the scan used appears in no event.
      expect(JSON.stringify(progress)).not.toContain(mini.users.alice.token);
      const done = await details(scanId);
      expect(done.status).toBe('completed');
      expect(done.results.scan_info.current ?? null).toBeNull();
      expect(done.results.scan_info.pace ?? null).toBeNull();
    } finally {
      off();
      mini.gate = null;
      mini.onHeld = null;
      release?.();
    }
  });

  it('a scan whose target does not answer fails with its reason, on the summary and in the list', async () => {
    failedScanId = await runScan(owner, deadApiId);
    const d = await details(failedScanId);
    expect(d.status).toBe('failed');
    expect(d.results.scan_info.failure_reason).toMatch(/\S/);
    const reason = d.results.scan_info.failure_reason;
    const apis = (await t.call<Json<{ apis: ApiSummary[] }>>('GET', '/api/apis', { token: owner.token })).json.data.apis;
    expect(apis.find((a) => a.id === deadApiId)).toMatchObject({ scanStatus: 'Failed', lastFailureReason: reason });
    expect(apis.find((a) => a.id === liveApiId)?.lastFailureReason).toBeNull();
    const list = (await t.call<Json<{ scans: ScanSummary[] }>>('GET', `/api/scan/list?api_id=${deadApiId}`, { token: owner.token })).json.data.scans;
    expect(list.find((s) => s.id === failedScanId)).toMatchObject({ status: 'failed', failure_reason: reason });
  });

  it('refuses callers who may not scan and bodies without a scan id', async () => {
    expect((await retry(null, { scan_id: failedScanId })).status).toBe(401);
    expect((await retry(stranger, { scan_id: failedScanId })).status).toBe(404);
    expect((await retry(reader, { scan_id: failedScanId })).status).toBe(403);
    expect((await retry(owner, {})).status).toBe(400);
    expect((await retry(owner, { scan_id: 42 })).status).toBe(400);
    expect((await retry(owner, { scan_id: 'no-such-scan' })).status).toBe(404);
  });

  it('runs the failed scan again with its configuration and keys', async () => {
    const before = await details(failedScanId);
    const res = await retry(owner, { scan_id: failedScanId });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.status).toBe('running');
    const nextId = res.json.data.scan_id;
    expect(nextId).not.toBe(failedScanId);
    await tc.core.services.scans.wait(nextId);
    const next = await details(nextId);
    expect(next.api_id).toBe(deadApiId);
    expect(next.status).toBe('failed');
    expect(next.results.scan_info.identities.map((i) => [i.name, i.role])).toEqual(before.results.scan_info.identities.map((i) => [i.name, i.role]));
    const row = (await tc.core.services.repos.scans.findById(nextId))!;
    expect(row.user_id).toBe(owner.id);
    expect(JSON.parse(row.config)).toMatchObject({ rps: 0 });
    // The keys moved to the new scan (the old one no longer holds them) and are never in the answer.
    expect((await tc.core.services.repos.scans.findById(failedScanId))!.secret_ref).toBeNull();
    expect(res.text).not.toContain(mini.users.alice.token);
    failedScanId = nextId;
  });

  it('409 for a scan that has not ended, while a scan of the caller runs, and for a caller with nothing of their own to repeat', async () => {
    const created = await seedScan(tc.core.store.db, deadApiId, owner.id, { status: 'created', created_at: '2026-03-01T09:00:00.000Z' });
    const notEnded = await retry(owner, { scan_id: created });
    expect(notEnded.status).toBe(409);
    expect(notEnded.json.message).toBe(SCAN_TEXT.notRetryable);
    await tc.core.store.db.deleteFrom('scans').where('id', '=', created).execute();

    // A manager retrying the owner's scan repeats their own configuration: they have none yet.
    const none = await retry(manager, { scan_id: failedScanId });
    expect(none.status).toBe(409);
    expect(none.json.message).toBe(SCAN_TEXT.nothingToRepeat);

    const running = await seedScan(tc.core.store.db, liveApiId, owner.id, { status: 'running', created_at: '2026-03-02T09:59:00.000Z' });
    const busy = await retry(owner, { scan_id: failedScanId });
    expect(busy.status).toBe(409);
    expect(busy.json.message).toBe(SCAN_MESSAGES.anotherInProgress);
    await tc.core.store.db.updateTable('scans').set({ status: 'cancelled', failure_reason: 'Cancelled by the user.' }).where('id', '=', running).execute();

    // A cancelled scan may be retried too.
    const again = await retry(owner, { scan_id: running });
    expect(again.status, again.text).toBe(200);
    await tc.core.services.scans.wait(again.json.data.scan_id);
    expect((await details(again.json.data.scan_id)).status).toBe('completed');

    // And a completed one scanned again, with the same configuration.
    const rescan = await retry(owner, { scan_id: again.json.data.scan_id });
    expect(rescan.status, rescan.text).toBe(200);
    expect(rescan.json.data.scan_id).not.toBe(again.json.data.scan_id);
    await tc.core.services.scans.wait(rescan.json.data.scan_id);
    expect((await details(rescan.json.data.scan_id)).status).toBe('completed');
  });
});
