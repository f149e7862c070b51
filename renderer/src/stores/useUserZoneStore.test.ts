import { describe, expect, it } from 'vitest';
import { createUserZoneStore } from './useUserZoneStore';

describe('the user zone store', () => {
  it('holds the Settings zone, not the browser one; reads once per user; follows Settings', async () => {
    let auth = { token: 't1', userId: 'u1' };
    const reads: string[] = [];
    const zones: Record<string, string | null> = { t1: 'UTC+09:00', t2: '' };
    const store = createUserZoneStore({
      auth: () => auth,
      readZone: async (token) => {
        reads.push(token);
        return zones[token] ?? null;
      },
      browserZone: () => 'Pacific/Honolulu',
    });
    expect(store.getState().zone).toBe('Pacific/Honolulu');
    await store.getState().load();
    expect(store.getState()).toMatchObject({ zone: 'Etc/GMT-9', label: 'UTC+09:00' });
    await store.getState().load();
    expect(reads).toEqual(['t1']);
    store.getState().setFromSettings('Europe/Berlin');
    expect(store.getState()).toMatchObject({ zone: 'Europe/Berlin', label: 'Europe/Berlin' });
    // Another user without a zone in Settings: the browser's.
    auth = { token: 't2', userId: 'u2' };
    await store.getState().load();
    expect(store.getState()).toMatchObject({ zone: 'Pacific/Honolulu', label: 'Pacific/Honolulu' });
  });

  it('keeps the browser zone after a failed read and reads again next time', async () => {
    let answer: string | null = null;
    let reads = 0;
    const store = createUserZoneStore({
      auth: () => ({ token: 't', userId: 'u' }),
      readZone: async () => {
        reads++;
        return answer;
      },
      browserZone: () => 'Europe/Berlin',
    });
    await store.getState().load();
    expect(store.getState().zone).toBe('Europe/Berlin');
    answer = 'Pacific/Kiritimati';
    await store.getState().load();
    expect([reads, store.getState().zone]).toEqual([2, 'Pacific/Kiritimati']);
  });
});
