// /api/scan/* over HTTP and IPC: shapes of spec section 7, the permission table of section 6, one
// running scan per user, cancel, the local-scan refusal, and the API list following the scans.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanDetails, ScanSummary } from '../../shared/contract';
import { SCAN_MESSAGES } from '../../shared/messages';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';

interface Env<T> {
  success: boolean;
  message: string;
  data: T;
}

async function until(fn: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(['http', 'ipc'] as const)('scan routes over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let target: MiniApi;
  let owner: TestUser;
  let manager: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let apiId: string;

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    target = await startMiniApi({ weakHeaders: true });
    [owner, manager, reader, stranger] = [await signUpAndLogin(t, 'owner'), await signUpAndLogin(t, 'manager'), await signUpAndLogin(t, 'reader'), await signUpAndLogin(t, 'stranger')];
    apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(owner.id, target.url), new Date());
    const now = new Date().toISOString();
    await tc.core.services.db
      .insertInto('shares')
      .values([
        { api_id: apiId, user_id: manager.id, permission: 'manage', created_at: now, updated_at: now },
        { api_id: apiId, user_id: reader.id, permission: 'read', created_at: now, updated_at: now },
      ])
      .execute();
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
    await target.close();
  });

  const create = (u: TestUser, body: Record<string, unknown> = {}) =>
    t.call<Env<{ scan_id: string }>>('POST', '/api/scan/create', {
      token: u.token,
      body: { user_id: u.id, api_id: apiId, scan_profile: 'OWASP_API_10', api_key_1: target.users.alice.token, api_key_2: target.users.bob.token, rps: 0, ...body },
    });
  const start = (u: TestUser, body: Record<string, unknown> = {}) =>
    t.call<Env<{ scan_id: string; status: string }>>('POST', '/api/scan/start', { token: u.token, body: { api_id: apiId, scan_profile: 'OWASP_API_10', user_id: u.id, ...body } });
  const details = (u: TestUser, scanId: string) => t.call<Env<ScanDetails>>('POST', '/api/scan/details', { token: u.token, body: { scan_id: scanId } });
  const cancel = (u: TestUser, scanId: string) => t.call<Env<{ status: string }>>('POST', '/api/scan/cancel', { token: u.token, body: { scan_id: scanId } });
  const list = (u: TestUser) => t.call<Env<{ scans: ScanSummary[] }>>('GET', `/api/scan/list?user_id=${u.id}&api_id=${apiId}`, { token: u.token });

  it('validates create', async () => {
    const noKey = await create(owner, { api_key_1: '   ' });
    expect(noKey.status).toBe(400);
    expect(noKey.json.message).toBe('A primary API key is required.');
    const badProfile = await create(owner, { scan_profile: 'quick' });
    expect(badProfile.status).toBe(400);
    expect((await t.call('POST', '/api/scan/create', { token: owner.token, body: { api_id: apiId, scan_profile: 'owasp', api_key_1: 'k', rps: -1 } })).status).toBe(400);
    const noSession = await t.call('POST', '/api/scan/create', { body: { api_id: apiId, scan_profile: 'owasp', api_key_1: 'k' } });
    expect(noSession.status).toBe(401);
    const otherUserId = await t.call('POST', '/api/scan/create', { token: owner.token, body: { user_id: stranger.id, api_id: apiId, scan_profile: 'owasp', api_key_1: 'k' } });
    expect(otherUserId.status).toBe(403);
  });

  it('creates, starts and completes a scan with either profile value, and reports it', async () => {
    for (const profile of ['OWASP_API_10', 'owasp']) {
      const c = await create(owner, { scan_profile: profile });
      expect(c.status).toBe(201);
      expect(c.json.data.scan_id).toMatch(/^[0-9a-f-]{36}$/);
      const s = await start(owner, { scan_profile: profile });
      expect(s.status).toBe(200);
      expect(s.json.data).toEqual({ scan_id: c.json.data.scan_id, status: 'running' });
      const summary = await tc.core.services.repos.apis.summary(owner.id, apiId);
      expect(['Running', 'Completed']).toContain(summary?.scanStatus);
      await tc.core.services.scans.wait(c.json.data.scan_id);
      const d = await details(owner, c.json.data.scan_id);
      expect(d.status).toBe(200);
      expect(d.json.data.status).toBe('completed');
      const info = d.json.data.results.scan_info;
      expect(info.started_at).toBeTruthy();
      expect(info.completed_at).toBeTruthy();
      expect(info.progress.done).toBe(info.progress.total);
      expect(info.progress.total).toBeGreaterThan(1);
      expect(info.requests_sent).toBeGreaterThan(0);
      expect(info.score).toBeGreaterThanOrEqual(0);
      expect(Array.isArray(d.json.data.results.results)).toBe(true);
      const findings = d.json.data.results.results;
      expect(findings.length).toBeGreaterThan(0);
      for (const f of findings) {
        expect(f.evidence).toMatch(/^Method: \S+\nPath: \S+/);
        expect(['high', 'medium', 'low', 'info']).toContain(f.severity);
      }
      expect(d.text).not.toContain(target.users.alice.token);
      expect(d.text).not.toContain(target.users.bob.token);
    }
    const summary = await tc.core.services.repos.apis.summary(owner.id, apiId);
    const scans = (await list(owner)).json.data.scans;
    expect(scans[0]!.status).toBe('completed');
    expect(summary).toMatchObject({ scanStatus: 'Completed', lastScanned: scans[0]!.completed_at, vulnerabilitiesFound: scans[0]!.vulnerabilities });
    expect(scans[0]!.vulnerabilities).toBeGreaterThan(0);
  });

  it('allows one running scan per user and cancels cleanly', async () => {
    const slow = await create(owner, { rps: 4 });
    const started = await start(owner, { scan_id: slow.json.data.scan_id });
    expect(started.status).toBe(200);
    // Start pressed again with nothing new created (the spec's client sends only api_id): the spec's text.
    const twice = await start(owner);
    expect(twice.status).toBe(409);
    expect(twice.json.message).toBe(SCAN_MESSAGES.anotherInProgress);
    // A second start (another scan of the same user) while it runs:
    await create(owner);
    const again = await start(owner);
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(SCAN_MESSAGES.anotherInProgress);
    expect((await start(owner, { scan_id: slow.json.data.scan_id })).status).toBe(409);
    // Another user is not blocked by it.
    const byManager = await create(manager, { rps: 0 });
    expect((await start(manager)).status).toBe(200);
    await tc.core.services.scans.wait(byManager.json.data.scan_id);

    await until(async () => (await details(owner, slow.json.data.scan_id)).json.data.results.scan_info.requests_sent > 2);
    const c = await cancel(owner, slow.json.data.scan_id);
    expect(c.status).toBe(200);
    expect(c.json.data.status).toBe('cancelled');
    const count = target.requests.length;
    await new Promise((r) => setTimeout(r, 600));
    expect(target.requests.length).toBe(count);
    const d = (await details(owner, slow.json.data.scan_id)).json.data;
    expect(d.status).toBe('cancelled');
    expect(d.results.scan_info.failure_reason).toBe('Cancelled by the user.');
    expect((await cancel(owner, slow.json.data.scan_id)).status).toBe(409);
    // The created one can start now.
    const next = await start(owner);
    expect(next.status).toBe(200);
    await tc.core.services.scans.wait(next.json.data.scan_id);
  });

  it('says what is missing when nothing was created', async () => {
    const s = await start(manager);
    expect(s.status).toBe(409);
    expect(s.json.message).toBe('No scan of this API is waiting to start: create one first.');
  });

  it('enforces the permission table', async () => {
    const scanId = (await list(owner)).json.data.scans[0]!.id;
    // read: may look, may not scan or cancel.
    expect((await create(reader)).status).toBe(403);
    expect((await start(reader)).status).toBe(403);
    expect((await cancel(reader, scanId)).status).toBe(403);
    expect((await details(reader, scanId)).status).toBe(200);
    expect((await list(reader)).status).toBe(200);
    // manage: may scan.
    expect((await create(manager)).status).toBe(201);
    // strangers: the API and its scans do not exist.
    for (const res of [await create(stranger), await start(stranger), await details(stranger, scanId), await cancel(stranger, scanId), await list(stranger)]) {
      expect(res.status).toBe(404);
    }
    expect((await details(stranger, scanId)).json.message).toBe('Scan not found.');
    expect((await details(owner, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('local scans disabled (team server default)', () => {
  let tc: TestCore;
  let t: Transport;
  let target: MiniApi;
  beforeAll(async () => {
    tc = await createTestCore({ allowLocalScans: false });
    t = await openTransport('http', tc.core);
    target = await startMiniApi();
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
    await target.close();
  });

  it('refuses loopback targets, by address and by a name that resolves to one', async () => {
    const u = await signUpAndLogin(t);
    const env = await t.call<Env<{ localScans: boolean }>>('GET', '/api/environment');
    expect(env.json.data.localScans).toBe(false);
    for (const base of [target.url, target.url.replace('127.0.0.1', 'localhost'), target.url.replace('127.0.0.1', '[::ffff:127.0.0.1]')]) {
      const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(u.id, base), new Date());
      const res = await t.call<Env<unknown>>('POST', '/api/scan/create', { token: u.token, body: { api_id: apiId, scan_profile: 'owasp', api_key_1: 'k' } });
      expect(res.status).toBe(403);
      expect(res.json.message).toBe(SCAN_MESSAGES.localDisabled);
    }
    expect(target.requests).toHaveLength(0);
  });

  it('refuses IPv4 carried in IPv6 and special-purpose ranges, at create and at start (issue 18)', async () => {
    const u = await signUpAndLogin(t);
    const port = new URL(target.url).port;
    // Each points back at the mini API's loopback address or at a range that is never routed; none is connected to.
    const local = ['[::7f00:1]', '[::127.0.0.1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::1]', '[::ffff:0:7f00:1]', '[2001:0:4136:e378:8000:63bf:80ff:fffe]', '192.0.2.1', '[2001:db8::1]'].map(
      (host) => `http://${host}:${port}/api`,
    );
    for (const base of local) {
      const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(u.id, base), new Date());
      const res = await t.call<Env<unknown>>('POST', '/api/scan/create', { token: u.token, body: { api_id: apiId, scan_profile: 'owasp', api_key_1: 'k' } });
      expect(res.status, base).toBe(403);
      expect(res.json.message).toBe(SCAN_MESSAGES.localDisabled);
    }
    // A scan created while the base URL was a public literal (create connects to nothing), then re-pointed.
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(u.id, 'http://93.184.215.14/api'), new Date());
    const created = await t.call<Env<{ scan_id: string }>>('POST', '/api/scan/create', { token: u.token, body: { api_id: apiId, scan_profile: 'owasp', api_key_1: 'k' } });
    expect(created.status).toBe(201);
    await tc.core.services.db.updateTable('apis').set({ base_url: local[0]! }).where('id', '=', apiId).execute();
    const started = await t.call<Env<unknown>>('POST', '/api/scan/start', { token: u.token, body: { api_id: apiId, scan_id: created.json.data.scan_id } });
    expect(started.status).toBe(403);
    expect(started.json.message).toBe(SCAN_MESSAGES.localDisabled);
    expect(target.requests).toHaveLength(0);
  });
});
