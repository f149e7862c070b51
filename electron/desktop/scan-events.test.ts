import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, httpTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../../test/helpers/core';
import { EVENT_CHANNEL } from '../ipc-bridge';
import { coreLookups, forwardScanEvents, notifyFinishedScans, type ScanEventLike, type ScanEventSource } from './scan-events';

/** A scan event source with the core emitter's subscribe() shape. */
function source(): ScanEventSource & { emit(e: ScanEventLike): void } {
  const listeners = new Set<(e: ScanEventLike) => void>();
  return {
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
    emit: (e) => listeners.forEach((l) => l(e)),
  };
}

const progress = (userId: string): ScanEventLike => ({ type: 'scan:progress', scanId: 's1', apiId: 'a1', userId, done: 3, total: 10, findings: 1 });
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

  it('forwards progress and finished events to the window on the one event channel, copying only known fields', () => {
    const s = source();
    const sent: [string, unknown][] = [];
    const stop = forwardScanEvents(s, () => ({ send: (c, p) => void sent.push([c, p]) }));
    s.emit({ ...progress('u1'), secret: 'key-1' } as unknown as ScanEventLike);
    s.emit(finished('u1', 'a1'));
    s.emit({ type: 'other' } as unknown as ScanEventLike);
    stop();
    s.emit(progress('u1'));
    expect(sent).toEqual([
      [EVENT_CHANNEL, { type: 'scan:progress', scanId: 's1', apiId: 'a1', userId: 'u1', done: 3, total: 10, findings: 1 }],
      [EVENT_CHANNEL, { type: 'scan:finished', scanId: 's1', apiId: 'a1', userId: 'u1', status: 'completed', findings: 2, score: 70 }],
    ]);
  });

  it('drops events while there is no window', () => {
    const s = source();
    forwardScanEvents(s, () => null);
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
    expect(shown[0]).toEqual({ title: 'Scan finished', body: 'Scan for "Pet Store" has finished. 2 findings.' });

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
});
