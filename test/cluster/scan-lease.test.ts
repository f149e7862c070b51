// Two real `portcullis serve` nodes on one PostgreSQL database (issue 19): a scan runs on the node that
// started it, is seen live from the other, survives the other node's start, and when its node is killed
// (SIGKILL, mid-scan) the other node fails it with a reason once the lease expires — nothing else is
// lost, the other node keeps serving and the user can scan again.

import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanDetails, ScanSummary } from '../../shared/contract';
import { SCAN_TEXT } from '../../electron/scanner/service';
import { openStore, type OpenedStore } from '../../electron/store/database';
import { createRepos } from '../../electron/store/index';
import { newTestDatabase, TEST_SHARED_SECRET_KEY, tempDir } from '../helpers/core';
import { miniApiEndpoints, miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';
import { postgresSkipReason } from '../helpers/postgres';
import { callServe, startServe, type ServeProcess } from '../helpers/serve-process';

/** Short enough for a test, long enough that a busy machine's heartbeats (every LEASE_MS / 6) keep it. */
const LEASE_MS = 3_000;

const call = callServe;

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(skip ?? 'scans across two serve nodes', () => {
  const dirs: string[] = [];
  let databaseUrl: string;
  let store: OpenedStore;
  let target: MiniApi;
  const nodes: { a?: ServeProcess; b?: ServeProcess } = {};
  let token: string;
  let userId: string;
  let fastApi: string;
  let slowApi: string;

  /** A node of the cluster, with its node id (the serve banner names it). */
  async function startNode(): Promise<ServeProcess & { nodeId: string }> {
    const dir = tempDir('portcullis-node-');
    dirs.push(dir);
    const node = await startServe(['--port', '0', '--data-dir', dir, '--database-url', databaseUrl], {
      PORTCULLIS_SECRET_KEY: TEST_SHARED_SECRET_KEY,
      PORTCULLIS_ALLOW_LOCAL_SCANS: '1',
      PORTCULLIS_SCAN_LEASE_MS: String(LEASE_MS),
    });
    // The banner's next lines may come in a later chunk than the "listening" one.
    const nodeIdOf = () => /\(node (\S+)\)/.exec(node.stdout())?.[1];
    for (let i = 0; i < 100 && !nodeIdOf(); i++) await new Promise((r) => setTimeout(r, 50));
    return Object.assign(node, { nodeId: nodeIdOf()! });
  }

  const details = async (node: ServeProcess, scanId: string) => {
    const res = await call<ScanDetails>(node, 'POST', '/api/scan/details', token, { scan_id: scanId });
    expect(res.status).toBe(200);
    return res.json.data;
  };

  async function startScan(node: ServeProcess, apiId: string): Promise<string> {
    const created = await call<{ scan_id: string }>(node, 'POST', '/api/scan/create', token, { api_id: apiId, scan_profile: 'owasp', api_key_1: target.users.alice.token, rps: 0, concurrency: 2 });
    expect(created.status, created.json.message).toBe(201);
    const started = await call<{ scan_id: string }>(node, 'POST', '/api/scan/start', token, { api_id: apiId, scan_id: created.json.data.scan_id });
    expect(started.status, started.json.message).toBe(200);
    return started.json.data.scan_id;
  }

  beforeAll(async () => {
    databaseUrl = await newTestDatabase();
    target = await startMiniApi({ anyToken: true, weakHeaders: true });
    nodes.a = await startNode();
    const user = { firstName: 'Node', lastName: 'Test', email: 'nodes@example.com', username: 'nodes', password: 'Passw0rd!long' };
    expect((await call(nodes.a, 'POST', '/api/auth/signup', undefined, user)).status).toBe(201);
    const login = await call<{ token: string; user: { id: string } }>(nodes.a, 'POST', '/api/auth/login', undefined, { username: user.username, password: user.password });
    token = login.json.data.token;
    userId = login.json.data.user.id;
    // The APIs go in through the store (importing a definition is not what this test is about).
    store = await openStore(databaseUrl);
    const repos = createRepos(store.db);
    fastApi = await repos.apis.createWithEndpoints({ ...miniApiInput(userId, target.url, miniApiEndpoints().slice(0, 3)), name: 'Fast pets' }, new Date());
    slowApi = await repos.apis.createWithEndpoints({ ...miniApiInput(userId, target.url), name: 'Slow pets' }, new Date());
  }, 60_000);

  afterAll(async () => {
    await nodes.b?.stop();
    await nodes.a?.stop();
    await store?.close();
    await target?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fails the scan of a killed node on the other node once its lease expires, and loses nothing else', async () => {
    const a = nodes.a!;
    // An earlier scan, completed with findings.
    const earlier = await startScan(a, fastApi);
    await expect.poll(async () => (await details(a, earlier)).status, { timeout: 30_000 }).toBe('completed');
    const earlierDone = await details(a, earlier);
    expect(earlierDone.results.results.length).toBeGreaterThan(0);

    // A slow scan on node A.
    target.setFlaws({ delayMs: 150 });
    const scanId = await startScan(a, slowApi);
    await expect.poll(async () => (await details(a, scanId)).results.scan_info.progress.done, { timeout: 20_000 }).toBeGreaterThan(0);

    // Node B starts while it runs: its start-up recovery leaves the live scan alone, and B shows it live.
    const b = await startNode();
    nodes.b = b;
    const row = await createRepos(store.db).scans.findById(scanId);
    expect(row).toMatchObject({ status: 'running', owner_node: (a as ServeProcess & { nodeId: string }).nodeId });
    await expect.poll(async () => (await details(b, scanId)).results.scan_info.current?.check, { timeout: 10_000 }).toMatch(/\S/);
    expect((await details(b, scanId)).status).toBe('running');
    // Only one scan per user, whichever node is asked.
    const busy = await call(b, 'POST', '/api/scan/retry', token, { scan_id: scanId });
    expect(busy.status).toBe(409);

    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));
    const killedAt = Date.now();
    // The lease still holds a moment after the kill: B does not take a slow node for a dead one at once.
    expect((await details(b, scanId)).status).toBe('running');

    await expect.poll(async () => (await details(b, scanId)).status, { timeout: LEASE_MS * 4, interval: 100 }).toBe('failed');
    const failedAfter = Date.now() - killedAt;
    const failed = await details(b, scanId);
    expect(failed.results.scan_info.failure_reason).toBe(SCAN_TEXT.nodeLost);
    expect(failed.results.scan_info.current ?? null).toBeNull();
    expect(failed.results.scan_info.completed_at).toBeTruthy();
    // Within a lease and a sweep of the kill (the last renewal came at most a heartbeat before it).
    expect(failedAfter).toBeLessThan(LEASE_MS * 2 + 1_000);
    expect(b.stdout() + b.stderr()).toContain('Scan marked failed: the node running it stopped');

    // Nothing else is lost: the user, the APIs, the earlier scan and its findings, on the surviving node.
    const relogin = await call<{ token: string }>(b, 'POST', '/api/auth/login', undefined, { username: 'nodes', password: 'Passw0rd!long' });
    expect(relogin.status).toBe(200);
    const apis = await call<{ apis: { id: string }[] }>(b, 'GET', '/api/apis', token);
    expect(apis.json.data.apis.map((x) => x.id).sort()).toEqual([fastApi, slowApi].sort());
    const again = await details(b, earlier);
    expect(again.status).toBe('completed');
    expect(again.results.results.map((f) => f.id).sort()).toEqual(earlierDone.results.results.map((f) => f.id).sort());
    const list = await call<{ scans: ScanSummary[] }>(b, 'GET', `/api/scan/list?api_id=${slowApi}`, token);
    expect(list.json.data.scans.find((s) => s.id === scanId)).toMatchObject({ status: 'failed', failure_reason: SCAN_TEXT.nodeLost });

    // And the user scans again, on the node that is left.
    target.setFlaws({ delayMs: 0 });
    const next = await startScan(b, fastApi);
    await expect.poll(async () => (await details(b, next)).status, { timeout: 30_000 }).toBe('completed');
  }, 120_000);
});
