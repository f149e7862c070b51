// Two cores on one PostgreSQL database (issue 19), in this process: a node starting (its recovery) and
// every node's periodic sweep leave another node's live scan alone; a cancel on the node that does not
// run the scan stops it on its owner within a heartbeat or two, and the user may start the next scan at
// once, on either node.

import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../electron/core';
import { createMemoryLogger } from '../../electron/log';
import type { ScanEvent } from '../../electron/scanner/events';
import { newTestDatabase, TEST_SCRYPT, TEST_SHARED_SECRET_KEY, tempDir } from '../helpers/core';
import { miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';
import { postgresSkipReason } from '../helpers/postgres';

const LEASE_MS = 2_500;

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(skip ?? 'scans across two nodes in one process', () => {
  const dirs: string[] = [];
  let databaseUrl: string;
  let target: MiniApi;
  let a: Core;
  let b: Core;
  let userId: string;
  let apiId: string;

  async function node(): Promise<Core> {
    const dataDir = tempDir('portcullis-node-');
    dirs.push(dataDir);
    return createCore({
      shell: 'server',
      dataDir,
      databaseUrl,
      secretKey: TEST_SHARED_SECRET_KEY,
      allowLocalScans: true,
      scryptCost: TEST_SCRYPT,
      logger: createMemoryLogger('warn'),
      scanLease: { leaseMs: LEASE_MS },
    });
  }

  async function startSlowScan(on: Core): Promise<string> {
    const scanId = await on.services.scans.create(userId, { apiId, profile: 'owasp', key1: target.users.alice.token, rps: 0, concurrency: 1 });
    await on.services.scans.start(userId, { apiId, scanId });
    return scanId;
  }

  beforeAll(async () => {
    databaseUrl = await newTestDatabase();
    target = await startMiniApi({ anyToken: true, delayMs: 100 });
    a = await node();
    const user = await a.services.repos.users.create({ email: 'n@example.com', username: 'n', firstName: 'N', lastName: 'N', passwordHash: null }, new Date());
    userId = user.id;
    apiId = await a.services.repos.apis.createWithEndpoints(miniApiInput(userId, target.url), new Date());
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await target?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("leaves another node's live scan running through its start and its sweeps", async () => {
    const scanId = await startSlowScan(a);
    b = await node();
    // Several leases long: B sweeps every half lease, A renews every sixth.
    await new Promise((r) => setTimeout(r, LEASE_MS * 3));
    const row = await b.services.repos.scans.findById(scanId);
    expect(row).toMatchObject({ status: 'running', owner_node: a.config.nodeId, failure_reason: null });
    expect(new Date(row!.lease_until!).getTime()).toBeGreaterThan(Date.now());
    expect(a.services.scans.isRunning(scanId)).toBe(true);
    await b.services.scans.cancel(scanId);
    await a.services.scans.wait(scanId);
  }, 30_000);

  it('stops a scan cancelled on the other node within a few heartbeats, and lets the user start the next at once', async () => {
    const events: ScanEvent[] = [];
    const off = a.services.scanEvents.subscribe((e) => events.push(e));
    const scanId = await startSlowScan(a);
    await expect.poll(async () => (await b.services.repos.scans.findById(scanId))?.progress_done ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);

    expect(await b.services.scans.cancel(scanId)).toEqual({ status: 'cancelled', stopped: true });
    const cancelledAt = Date.now();
    // The next scan of the user starts at once, here on the node that still winds the old one down.
    target.setFlaws({ delayMs: 0 });
    const next = await a.services.scans.create(userId, { apiId, profile: 'owasp', key1: target.users.alice.token, rps: 0 });
    expect(await a.services.scans.start(userId, { apiId, scanId: next })).toEqual({ scanId: next, status: 'running' });

    await expect.poll(() => a.services.scans.isRunning(scanId), { timeout: 5_000, interval: 20 }).toBe(false);
    expect(Date.now() - cancelledAt).toBeLessThan(LEASE_MS * 2);
    const stopped = await b.services.scans.details(scanId);
    expect(stopped.status).toBe('cancelled');
    expect(stopped.results.scan_info.failure_reason).toBe('Cancelled by the user.');
    // The owner announces it (the node that cancelled does not run it).
    expect(events).toContainEqual(expect.objectContaining({ type: 'scan:finished', scanId, status: 'cancelled' }));
    off();

    await b.services.scans.wait(next);
    expect((await b.services.scans.details(next)).status).toBe('completed');
  }, 30_000);

  it("keeps a scan key another node stored moments ago, before its scan row exists, and sweeps old orphans", async () => {
    // Node A is between storing a new scan's key and writing the scan (service.create's two steps).
    await a.services.secrets.set('scan:on-its-way', 'key material');
    await a.services.repos.secrets.put('scan:long-gone', 'aes-256-gcm', 'x', new Date(Date.now() - 2 * 60 * 60 * 1000));
    const c = await node();
    try {
      const refs = (await c.services.repos.secrets.list()).map((r) => r.ref);
      expect(refs).toContain('scan:on-its-way');
      expect(refs).not.toContain('scan:long-gone');
    } finally {
      await c.close();
    }
  }, 30_000);
});
