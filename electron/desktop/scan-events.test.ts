import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, httpTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../../test/helpers/core';
import { EVENT_CHANNEL } from '../ipc-bridge';
import { ScanEvents } from '../scanner/events';
import { coreLookups, forwardScanEvents, notifyFinishedScans, windowUserGate, type ScanEventLike } from './scan-events';

/** The core's own emitter. */
function source(): ScanEvents & { emit(e: ScanEventLike): void } {
  return new ScanEvents() as ScanEvents & { emit(e: ScanEventLike): void };
}
const everyone = async () => true;

const progress = (userId: string): Extract<ScanEventLike, { type: 'scan:progress' }> => ({ type: 'scan:progress', scanId: 's1', apiId: 'a1', userId, done: 3, total: 10, findings: 1 });
const finished = (userId: string, apiId: string, status = 'completed'): ScanEventLike => ({
  type: 'scan:finished',
  scanId: 's1',
  apiId,
  userId,
  status,
  findings: 2,
  score: 70,
  failureReason: null,
});

describe('scan events in the desktop shell', () => {
  let tc: TestCore;
  let t: Transport;
  let user: TestUser;
  let apiId: string;
  beforeAll(async () => {
    tc = await createTestCore();
    t = await httpTransport(tc.core);
    user = await signUpAndLogin(t, 'notified');
    const created = await t.call<{ data: { api: { id: string } } }>('POST', '/api/apis/manual', {
      token: user.token,
      body: { name: 'Pet Store', base_url: 'https://petstore.example', endpoints: [{ method: 'GET', path: '/pets' }] },
    });
    expect(created.status, created.text).toBe(201);
    apiId = created.json.data.api.id;
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  it('forwards progress and finished events to the window on the one event channel, copying only known fields', async () => {
    const s = source();
    const sent: [string, unknown][] = [];
    const stop = forwardScanEvents(s, () => ({ send: (c, p) => void sent.push([c, p]) }), everyone);
    s.emit({ ...progress('u1'), requestsSent: 7, secret: 'key-1' } as unknown as ScanEventLike);
    s.emit(finished('u1', 'a1'));
    s.emit({ type: 'other' } as unknown as ScanEventLike);
    stop();
    s.emit(progress('u1'));
    await expect.poll(() => sent.length).toBe(2);
    expect(sent).toEqual([
      [EVENT_CHANNEL, { type: 'scan:progress', scanId: 's1', apiId: 'a1', userId: 'u1', done: 3, total: 10, requestsSent: 7, findings: 1 }],
      [EVENT_CHANNEL, { type: 'scan:finished', scanId: 's1', apiId: 'a1', userId: 'u1', status: 'completed', failureReason: null, findings: 2, score: 70 }],
    ]);
  });

  it('thins progress per scan, never the finish, and keeps the order', async () => {
    const s = source();
    const sent: Record<string, unknown>[] = [];
    let t = 0;
    // A slow gate for the first event: the later ones must still arrive after it.
    let first = true;
    const gate = async () => {
      if (first) {
        first = false;
        await new Promise((r) => setTimeout(r, 30));
      }
      return true;
    };
    forwardScanEvents(s, () => ({ send: (_c, p) => void sent.push(p as Record<string, unknown>) }), gate, () => t);
    for (const at of [0, 100, 249, 250, 400, 600]) {
      t = at;
      s.emit({ ...progress('u1'), done: at });
    }
    s.emit(finished('u1', 'a1'));
    await expect.poll(() => sent.length).toBe(4);
    expect(sent.map((e) => (e.type === 'scan:progress' ? e.done : e.type))).toEqual([0, 250, 600, 'scan:finished']);
  });

  it('drops events while there is no window', async () => {
    const s = source();
    forwardScanEvents(s, () => null, everyone);
    expect(() => s.emit(progress('u1'))).not.toThrow();
  });

  it('notifies a finished scan with the spec\'s text when the owner wants it, and not when they turned it off', async () => {
    const s = source();
    const shown: { title: string; body: string }[] = [];
    const lookups = coreLookups(tc.core.services.repos);
    const decisions: boolean[] = [];
    notifyFinishedScans({
      source: s,
      ...lookups,
      wantsScanNotifications: async (id) => {
        const wants = await lookups.wantsScanNotifications(id);
        decisions.push(wants);
        return wants;
      },
      notify: (n) => void shown.push(n),
    });

    s.emit(progress(user.id));
    s.emit(finished(user.id, apiId));
    await expect.poll(() => shown.length).toBe(1);
    expect(shown[0]).toEqual({ title: 'Scan finished', body: 'Scan for "Pet Store" has finished. 2 vulnerabilities.' });

    const prefs = await t.call<{ data: { preferences: Record<string, Record<string, unknown>> } }>('GET', '/api/user/preferences', { token: user.token });
    const preferences = prefs.json.data.preferences;
    const off = await t.call('PUT', '/api/user/preferences', {
      token: user.token,
      body: { preferences: { ...preferences, notifications: { ...preferences.notifications, scanCompleted: false } } },
    });
    expect(off.status, off.text).toBe(200);
    s.emit(finished(user.id, apiId, 'failed'));
    await expect.poll(() => decisions).toEqual([true, false]);
    expect(shown.length).toBe(1);
    // Turned back on: the next one shows again (so the silence above is the preference, not a delay).
    await t.call('PUT', '/api/user/preferences', {
      token: user.token,
      body: { preferences: { ...preferences, notifications: { ...preferences.notifications, scanCompleted: true } } },
    });
    s.emit(finished(user.id, apiId, 'failed'));
    await expect.poll(() => shown.length).toBe(2);
    expect(decisions).toEqual([true, false, true]);
    expect(shown[1]).toEqual({ title: 'Scan failed', body: 'Scan for "Pet Store" has finished.' });
  });

  it('sends the window only events of APIs its signed-in user can see, and none once signed out', async () => {
    const owner = user;
    const other = await signUpAndLogin(t, 'stranger');
    const viewer = await signUpAndLogin(t, 'viewer');
    const share = await t.call('POST', '/api/apis/share', { token: owner.token, body: { owner_user_id: owner.id, api_id: apiId, email: viewer.email, permission: 'read' } });
    expect(share.status, share.text).toBe(201);
    const s = source();
    const sent: unknown[] = [];
    let windowToken: string | null = null;
    forwardScanEvents(
      s,
      () => ({ send: (_c, p) => void sent.push(p) }),
      windowUserGate({ currentToken: () => windowToken, repos: tc.core.services.repos, clock: tc.clock }),
    );
    const send = async (token: string | null) => {
      windowToken = token;
      const before = sent.length;
      s.emit(finished(owner.id, apiId));
      // The gate is two SQLite reads; 50 ms is ample for it to decide.
      await new Promise((r) => setTimeout(r, 50));
      return sent.length - before;
    };
    expect(await send(null)).toBe(0);
    expect(await send(other.token)).toBe(0);
    expect(await send(owner.token)).toBe(1);
    expect(await send(viewer.token)).toBe(1);
    expect((await t.call('POST', '/api/auth/logout', { token: viewer.token, body: {} })).status).toBe(200);
    expect(await send(viewer.token)).toBe(0);
    // An idle session stops the flow too, and checking it does not keep it alive.
    tc.clock.advance(31 * 60_000);
    expect(await send(owner.token)).toBe(0);
    expect((await t.call('GET', '/api/user/profile', { token: owner.token })).status).toBe(401);
  });
});
