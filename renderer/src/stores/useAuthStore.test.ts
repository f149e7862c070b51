import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../../shared/constants';
import type { User } from '../../../shared/contract';
import { NetworkError } from '../api/client';
import { createAuthStore, type AuthDeps } from './useAuthStore';
import { memoryStorage } from './storage';

const ada: User = {
  id: 'u-1',
  email: 'ada@example.com',
  username: 'ada',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profilePicture: null,
};

function deps(overrides: Partial<AuthDeps> = {}, stored: Record<string, string> = {}): AuthDeps {
  return {
    storage: memoryStorage(stored),
    getProfile: vi.fn(async () => ({ ok: true as const, status: 200, message: 'ok', data: { user: ada } })),
    login: vi.fn(async () => ({ ok: true as const, status: 200, message: 'ok', data: { token: 'tok-2', user: ada } })),
    loginTwoFactor: vi.fn(async () => ({ ok: true as const, status: 200, message: 'ok', data: { token: 'tok-3', user: ada } })),
    logout: vi.fn(async () => undefined),
    ...overrides,
  };
}

describe('useAuthStore', () => {
  it('starts signed out without a stored token and never asks for the profile', async () => {
    const d = deps();
    const store = createAuthStore(d);
    expect(store.getState().status).toBe('signedOut');
    await store.getState().restore();
    expect(store.getState().status).toBe('signedOut');
    expect(d.getProfile).not.toHaveBeenCalled();
  });

  it('restores the session from a stored token through the profile', async () => {
    const d = deps({}, { [STORAGE_KEYS.authToken]: 'tok-1' });
    const store = createAuthStore(d);
    expect(store.getState().status).toBe('loading');
    await store.getState().restore();
    expect(d.getProfile).toHaveBeenCalledWith('tok-1');
    expect(store.getState()).toMatchObject({ status: 'signedIn', token: 'tok-1', user: ada });
    expect(d.storage.getItem(STORAGE_KEYS.userId)).toBe('u-1');
  });

  it('clears token and user when the profile answers 401', async () => {
    const d = deps(
      { getProfile: vi.fn(async () => ({ ok: false as const, status: 401, message: 'Session expired. Please log in again.', errors: [] })) },
      { [STORAGE_KEYS.authToken]: 'stale', [STORAGE_KEYS.userId]: 'u-1' },
    );
    const store = createAuthStore(d);
    await store.getState().restore();
    expect(store.getState()).toMatchObject({ status: 'signedOut', token: null, user: null });
    expect(d.storage.getItem(STORAGE_KEYS.authToken)).toBeNull();
    expect(d.storage.getItem(STORAGE_KEYS.userId)).toBeNull();
  });

  it('clears the session when the profile call fails outright', async () => {
    const d = deps(
      { getProfile: vi.fn(async () => Promise.reject(new NetworkError(new TypeError('Failed to fetch')))) },
      { [STORAGE_KEYS.authToken]: 'tok-1' },
    );
    const store = createAuthStore(d);
    await store.getState().restore();
    expect(store.getState().status).toBe('signedOut');
    expect(d.storage.getItem(STORAGE_KEYS.authToken)).toBeNull();
  });

  it('stores token and user id on login', async () => {
    const d = deps();
    const store = createAuthStore(d);
    const outcome = await store.getState().login({ username: 'ada', password: 'correct horse' });
    expect(outcome).toEqual({ ok: true, user: ada });
    expect(store.getState()).toMatchObject({ status: 'signedIn', token: 'tok-2', signedOutBy: null });
    expect(d.storage.getItem(STORAGE_KEYS.authToken)).toBe('tok-2');
    expect(d.storage.getItem(STORAGE_KEYS.userId)).toBe('u-1');
  });

  it('reports a refused login with the server message and keeps the user signed out', async () => {
    const store = createAuthStore(
      deps({ login: vi.fn(async () => ({ ok: false as const, status: 401, message: 'Invalid username/email or password.', errors: [] })) }),
    );
    const outcome = await store.getState().login({ email: 'ada@example.com', password: 'nope' });
    expect(outcome).toEqual({ ok: false, reason: 'rejected', message: 'Invalid username/email or password.', status: 401 });
    expect(store.getState().status).toBe('signedOut');
  });

  it('reports a login without an answer as a network failure', async () => {
    const store = createAuthStore(deps({ login: vi.fn(async () => Promise.reject(new NetworkError(new TypeError('x')))) }));
    const outcome = await store.getState().login({ email: 'ada@example.com', password: 'pw' });
    expect(outcome).toMatchObject({ ok: false, reason: 'network' });
  });

  it('logout clears everything at once, remembers why, and tells the server', async () => {
    const d = deps({}, { [STORAGE_KEYS.authToken]: 'tok-1' });
    const store = createAuthStore(d);
    await store.getState().restore();
    store.getState().setRedirectPending(true);
    store.getState().logout();
    expect(store.getState()).toMatchObject({ status: 'signedOut', token: null, user: null, signedOutBy: 'logout', redirectPending: false });
    expect(d.storage.getItem(STORAGE_KEYS.authToken)).toBeNull();
    expect(d.logout).toHaveBeenCalledWith('tok-1');
  });

  it('ignores a profile answer that arrives after a logout', async () => {
    let answer!: (v: Awaited<ReturnType<AuthDeps['getProfile']>>) => void;
    const d = deps({ getProfile: vi.fn((): ReturnType<AuthDeps['getProfile']> => new Promise((r) => (answer = r))) }, { [STORAGE_KEYS.authToken]: 'tok-1' });
    const store = createAuthStore(d);
    const pending = store.getState().restore();
    store.getState().logout();
    answer({ ok: true, status: 200, message: 'ok', data: { user: ada } });
    await pending;
    expect(store.getState()).toMatchObject({ status: 'signedOut', user: null });
  });

  it('holds back the session until a two-factor code answers the challenge', async () => {
    const d = deps({
      login: vi.fn(async () => ({ ok: true as const, status: 200, message: 'Enter the code', data: { two_factor_required: true as const, challenge: 'ch-1' } })),
    });
    const store = createAuthStore(d);
    const first = await store.getState().login({ username: 'ada', password: 'pw' });
    expect(first).toMatchObject({ ok: false, reason: 'two-factor', challenge: 'ch-1' });
    expect(store.getState().status).toBe('signedOut');
    expect(store.getState().token).toBeNull();
    const second = await store.getState().completeTwoFactor('ch-1', '123456');
    expect(second).toEqual({ ok: true, user: ada });
    expect(d.loginTwoFactor).toHaveBeenCalledWith('ch-1', '123456');
    expect(store.getState()).toMatchObject({ status: 'signedIn', token: 'tok-3' });
  });

  it('reports a refused two-factor code without signing in', async () => {
    const d = deps({ loginTwoFactor: vi.fn(async () => ({ ok: false as const, status: 401, message: 'Invalid code. Please try again.', errors: [] })) });
    const store = createAuthStore(d);
    const res = await store.getState().completeTwoFactor('ch-1', '000000');
    expect(res).toMatchObject({ ok: false, reason: 'rejected', message: 'Invalid code. Please try again.', status: 401 });
    expect(store.getState().status).toBe('signedOut');
  });
  it('waits out a server busy with other sign-ins (503 with Retry-After) and signs in, telling the page of each wait', async () => {
    const busy = { ok: false as const, status: 503, message: 'Server error. Please try again later.', errors: [], retryAfterMs: 1000 };
    const answers = [busy, busy, { ok: true as const, status: 200, message: 'ok', data: { token: 'tok-9', user: ada } }];
    const waits: number[] = [];
    const d = deps({
      login: vi.fn(async () => answers.shift()!),
      busyRetry: { sleep: async (ms) => void waits.push(ms), now: () => waits.reduce((a, b) => a + b, 0), random: () => 0 },
    });
    const store = createAuthStore(d);
    const told: number[] = [];
    const outcome = await store.getState().login({ username: 'ada', password: 'pw' }, (ms) => told.push(ms));
    expect(outcome).toEqual({ ok: true, user: ada });
    expect(d.login).toHaveBeenCalledTimes(3);
    expect([waits, told]).toEqual([
      [1000, 1000],
      [1000, 1000],
    ]);
    expect(store.getState()).toMatchObject({ status: 'signedIn', token: 'tok-9' });
  });

  it('gives the server message once a busy server stays busy past the cap', async () => {
    const busy = { ok: false as const, status: 503, message: 'Server error. Please try again later.', errors: [], retryAfterMs: 5000 };
    let clock = 0;
    const d = deps({ login: vi.fn(async () => busy), busyRetry: { sleep: async (ms) => void (clock += ms), now: () => clock, random: () => 0 } });
    const outcome = await createAuthStore(d).getState().login({ username: 'ada', password: 'pw' });
    expect(outcome).toEqual({ ok: false, reason: 'rejected', message: busy.message, status: 503 });
    expect(clock).toBeLessThanOrEqual(30_000);
  });
});
