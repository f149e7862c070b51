// Issue 30 item 4: a cancel sent to a node that does not run the scan answers only once the node that
// runs it has stopped sending requests. Two real `portcullis serve` nodes on one PostgreSQL database and
// a target that logs every request it receives: after the cancel's answer, not one more arrives. A node
// that cannot confirm in time (frozen with SIGSTOP) gets a bounded wait and a 202 that says so.
// Before, the other node marked the row and answered at once; the owner went on sending until its next
// progress save or heartbeat noticed.

import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanDetails } from '../../shared/contract';
import { SCAN_TEXT } from '../../electron/scanner/service';
import { openStore, type OpenedStore } from '../../electron/store/database';
import { createRepos } from '../../electron/store/index';
import { newTestDatabase, TEST_SHARED_SECRET_KEY, tempDir } from '../helpers/core';
import { miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';
import { postgresSkipReason } from '../helpers/postgres';
import { callServe, startServe, type ServeProcess } from '../helpers/serve-process';

/** Heartbeats every 500 ms; a cancel waits at most two of them, and never less than 2 s. */
const LEASE_MS = 3_000;
const CANCEL_WAIT_MS = 2_000;

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(skip ?? 'a cancel sent to the node that does not run the scan', () => {
  const dirs: string[] = [];
  let databaseUrl: string;
  let store: OpenedStore;
  let target: MiniApi;
  let a: ServeProcess;
  let b: ServeProcess;
  let token: string;
  let apiId: string;

  async function startNode(): Promise<ServeProcess> {
    const dir = tempDir('portcullis-node-');
    dirs.push(dir);
    return startServe(['--port', '0', '--data-dir', dir, '--database-url', databaseUrl], {
      PORTCULLIS_SECRET_KEY: TEST_SHARED_SECRET_KEY,
      PORTCULLIS_ALLOW_LOCAL_SCANS: '1',
      PORTCULLIS_SCAN_LEASE_MS: String(LEASE_MS),
    });
  }

  /** A scan on `node` that keeps sending for a while: four requests at a time, each answered after 80 ms. */
  async function startSlowScan(node: ServeProcess): Promise<string> {
    const created = await callServe<{ scan_id: string }>(node, 'POST', '/api/scan/create', token, { api_id: apiId, scan_profile: 'owasp', api_key_1: target.users.alice.token, rps: 0, concurrency: 4 });
    expect(created.status, created.json.message).toBe(201);
    const started = await callServe(node, 'POST', '/api/scan/start', token, { api_id: apiId, scan_id: created.json.data.scan_id });
    expect(started.status, started.json.message).toBe(200);
    const sentBefore = target.requests.length;
    await expect.poll(() => target.requests.length - sentBefore, { timeout: 20_000 }).toBeGreaterThan(20);
    return created.json.data.scan_id;
  }

  const cancelOn = (node: ServeProcess, scanId: string) => callServe<{ scan_id: string; status: string; stopped: boolean }>(node, 'POST', '/api/scan/cancel', token, { scan_id: scanId });

  beforeAll(async () => {
    databaseUrl = await newTestDatabase();
    target = await startMiniApi({ anyToken: true, delayMs: 80 });
    [a, b] = await Promise.all([startNode(), startNode()]);
    const user = { firstName: 'Can', lastName: 'Cel', email: 'cancel@example.com', username: 'cancel', password: 'Passw0rd!long' };
    expect((await callServe(a, 'POST', '/api/auth/signup', undefined, user)).status).toBe(201);
    const login = await callServe<{ token: string; user: { id: string } }>(a, 'POST', '/api/auth/login', undefined, { username: user.username, password: user.password });
    token = login.json.data.token;
    store = await openStore(databaseUrl);
    apiId = await createRepos(store.db).apis.createWithEndpoints(miniApiInput(login.json.data.user.id, target.url), new Date());
  }, 60_000);

  afterAll(async () => {
    a?.child.kill('SIGCONT');
    await b?.stop();
    await a?.stop();
    await store?.close();
    await target?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers once the owner has stopped sending: after the answer, no request reaches the target', async () => {
    const scanId = await startSlowScan(a);

    const cancelled = await cancelOn(b, scanId);
    const sentAtAnswer = target.requests.length;
    expect(cancelled.status, cancelled.json.message).toBe(200);

    // Several of the owner's heartbeats later: nothing more was sent.
    await new Promise((r) => setTimeout(r, LEASE_MS / 2));
    expect(target.requests.length - sentAtAnswer).toBe(0);
    expect(cancelled.json).toMatchObject({ message: SCAN_TEXT.cancelled, data: { scan_id: scanId, status: 'cancelled', stopped: true } });
    const details = await callServe<ScanDetails>(a, 'POST', '/api/scan/details', token, { scan_id: scanId });
    expect(details.json.data).toMatchObject({ status: 'cancelled', results: { scan_info: { failure_reason: SCAN_TEXT.userCancelled } } });
  }, 60_000);

  it('waits a bounded time for an owner that cannot confirm, and says so; the owner stops once it can', async () => {
    const scanId = await startSlowScan(a);
    a.child.kill('SIGSTOP');
    const asked = performance.now();
    const cancelled = await cancelOn(b, scanId);
    const waited = performance.now() - asked;
    expect(cancelled.status, cancelled.json.message).toBe(202);
    expect(cancelled.json).toMatchObject({ success: true, message: SCAN_TEXT.cancelUnconfirmed, data: { scan_id: scanId, status: 'cancelled', stopped: false } });
    expect(waited).toBeGreaterThanOrEqual(CANCEL_WAIT_MS - 100);
    expect(waited).toBeLessThan(CANCEL_WAIT_MS + 2_000);

    // Thawed, the owner sees the row at its next heartbeat, stops, and lets go of the lease.
    a.child.kill('SIGCONT');
    const repos = createRepos(store.db);
    await expect.poll(() => repos.scans.leaseState(scanId), { timeout: LEASE_MS * 2, interval: 100 }).toBe('released');
    const sentWhenReleased = target.requests.length;
    await new Promise((r) => setTimeout(r, LEASE_MS / 2));
    expect(target.requests.length).toBe(sentWhenReleased);
    expect((await repos.scans.findById(scanId))?.status).toBe('cancelled');
  }, 60_000);
});
