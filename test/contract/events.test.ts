// GET /api/events over real HTTP: the owner's stream carries the scan's progress and finish; a
// stranger's stream carries nothing of it; no token, no stream; a stream ends with its session.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, httpTransport, signUpAndLogin, type TestCore, type TestUser } from '../helpers/core';
import { openEventStream, type EventStream } from '../helpers/event-stream';
import { miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';
import { subscribeScanEvents, type ScanEvent } from '../../renderer/src/api/events';
import { setServerUrl } from '../../renderer/src/api/request';

describe('scan events stream', () => {
  let tc: TestCore;
  let http: Awaited<ReturnType<typeof httpTransport>>;
  let mini: MiniApi;
  let owner: TestUser;
  let stranger: TestUser;
  let apiId: string;
  beforeAll(async () => {
    mini = await startMiniApi();
    tc = await createTestCore();
    http = await httpTransport(tc.core);
    owner = await signUpAndLogin(http, 'owner');
    stranger = await signUpAndLogin(http, 'stranger');
    apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(owner.id, mini.url), tc.clock.now());
  });
  afterAll(async () => {
    await http.close();
    await tc.close();
    await mini.close();
  });

  it('refuses anonymous callers', async () => {
    expect((await fetch(`${http.server.url}/api/events`)).status).toBe(401);
  });

  it('streams the owner\'s scan to the owner only', async () => {
    const mine = await openEventStream(http.server.url, owner.token);
    const theirs = await openEventStream(http.server.url, stranger.token);
    await mine.until((e) => e.event === 'ready');
    await theirs.until((e) => e.event === 'ready');
    await http.call('POST', '/api/scan/create', { token: owner.token, body: { api_id: apiId, scan_profile: 'owasp', api_key_1: mini.users.alice.token, rps: 0 } });
    const started = await http.call<{ data: { scan_id: string } }>('POST', '/api/scan/start', { token: owner.token, body: { api_id: apiId, scan_profile: 'owasp' } });
    const scanId = started.json.data.scan_id;
    await mine.until((e) => e.event === 'scan:finished' && (e.data as { scanId: string }).scanId === scanId);
    const finished = mine.events.find((e) => e.event === 'scan:finished')!.data as Record<string, unknown>;
    expect(finished).toMatchObject({ type: 'scan:finished', scanId, apiId, status: 'completed' });
    expect(mine.events.some((e) => e.event === 'scan:progress')).toBe(true);
    // Give the stranger's stream the same chance to (wrongly) receive it.
    await new Promise((r) => setTimeout(r, 300));
    expect(theirs.events.filter((e) => e.event.startsWith('scan:'))).toEqual([]);
    // Keys never travel in events.
    expect(JSON.stringify(mine.events)).not.toContain(mini.users.alice.token);
    mine.close();
    theirs.close();
  });

  it('reaches the renderer through subscribeScanEvents() over HTTP', async () => {
    setServerUrl(http.server.url);
    const got: ScanEvent[] = [];
    const off = subscribeScanEvents((e) => got.push(e), () => owner.token);
    try {
      // Let the stream connect before the scan starts.
      await new Promise((r) => setTimeout(r, 300));
      await http.call('POST', '/api/scan/create', { token: owner.token, body: { api_id: apiId, scan_profile: 'owasp', api_key_1: mini.users.alice.token, rps: 0 } });
      const started = await http.call<{ data: { scan_id: string } }>('POST', '/api/scan/start', { token: owner.token, body: { api_id: apiId, scan_profile: 'owasp' } });
      const end = Date.now() + 20_000;
      while (!got.some((e) => e.type === 'scan:finished' && e.scanId === started.json.data.scan_id)) {
        if (Date.now() > end) throw new Error('no finished event');
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      off();
      setServerUrl('');
    }
  });
});

// Issue 18: a stream kept receiving a shared API's scan events after its session was signed out.
describe('scan events stream and the session', () => {
  let tc: TestCore;
  let http: Awaited<ReturnType<typeof httpTransport>>;
  let mini: MiniApi;
  let owner: TestUser;
  let apiId: string;
  beforeAll(async () => {
    mini = await startMiniApi();
    tc = await createTestCore();
    http = await httpTransport(tc.core);
    owner = await signUpAndLogin(http, 'owner');
    apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(owner.id, mini.url), tc.clock.now());
  });
  afterAll(async () => {
    await http.close();
    await tc.close();
    await mini.close();
  });

  async function sharedWith(): Promise<{ user: TestUser; login(): Promise<string> }> {
    const user = await signUpAndLogin(http, 'viewer');
    const shared = await http.call('POST', '/api/apis/share', { token: owner.token, body: { api_id: apiId, email: user.email, permission: 'read' } });
    expect(shared.status).toBe(201);
    const login = async () => {
      const res = await http.call<{ data: { token: string } }>('POST', '/api/auth/login', { body: { username: user.username, password: user.password } });
      expect(res.status).toBe(200);
      return res.json.data.token;
    };
    return { user, login };
  }

  /** Runs a scan of the shared API; `control` (a live session's stream) must see it finish. */
  async function scanSeenBy(control: EventStream): Promise<void> {
    await http.call('POST', '/api/scan/create', { token: owner.token, body: { api_id: apiId, scan_profile: 'owasp', api_key_1: mini.users.alice.token, rps: 0 } });
    const started = await http.call<{ data: { scan_id: string } }>('POST', '/api/scan/start', { token: owner.token, body: { api_id: apiId, scan_profile: 'owasp' } });
    expect(started.status).toBe(200);
    await control.until((e) => e.event === 'scan:finished' && (e.data as { scanId: string }).scanId === started.json.data.scan_id);
  }

  async function endsSoon(sse: EventStream): Promise<boolean> {
    return Promise.race([sse.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 3_000))]);
  }

  it('closes on logout and sends nothing after it', async () => {
    const viewer = await sharedWith();
    const other = await viewer.login();
    const gone = await openEventStream(http.server.url, viewer.user.token);
    const control = await openEventStream(http.server.url, other);
    await gone.until((e) => e.event === 'ready');
    await control.until((e) => e.event === 'ready');
    expect((await http.call('POST', '/api/auth/logout', { token: viewer.user.token })).status).toBe(200);
    const closed = await endsSoon(gone);
    await scanSeenBy(control);
    expect(gone.events.filter((e) => e.event.startsWith('scan:'))).toEqual([]);
    expect(closed).toBe(true);
    gone.close();
    control.close();
  });

  it('closes when another session signs out the others, and sends nothing after it', async () => {
    const viewer = await sharedWith();
    const other = await viewer.login();
    const gone = await openEventStream(http.server.url, viewer.user.token);
    const control = await openEventStream(http.server.url, other);
    await gone.until((e) => e.event === 'ready');
    await control.until((e) => e.event === 'ready');
    expect((await http.call('POST', '/api/user/sessions/revoke-others', { token: other })).status).toBe(200);
    const closed = await endsSoon(gone);
    await scanSeenBy(control);
    expect(gone.events.filter((e) => e.event.startsWith('scan:'))).toEqual([]);
    expect(closed).toBe(true);
    gone.close();
    control.close();
  });
});
