// acceptSession: a social sign-in finished by the page keeps its session like a password login.
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../../shared/constants';
import type { User } from '../../../shared/contract';
import { memoryStorage } from './storage';
import { createAuthStore } from './useAuthStore';

const grace: User = { id: 'u-9', email: 'grace@example.com', username: 'grace', firstName: 'Grace', lastName: 'Hopper', profilePicture: null };

describe('useAuthStore.acceptSession', () => {
  it('signs in at once (no loading state) and stores token and user id', () => {
    const storage = memoryStorage();
    const store = createAuthStore({
      storage,
      getProfile: async () => ({ ok: false, status: 401, message: '', errors: [] }),
      login: async () => ({ ok: false, status: 401, message: '', errors: [] }),
      loginTwoFactor: async () => ({ ok: false, status: 401, message: '', errors: [] }),
      logout: async () => undefined,
    });
    const seen: string[] = [];
    store.subscribe((s) => void seen.push(s.status));
    store.getState().acceptSession('tok-social', grace);
    expect(store.getState()).toMatchObject({ token: 'tok-social', user: grace, status: 'signedIn', signedOutBy: null });
    expect(seen).toEqual(['signedIn']);
    expect(storage.getItem(STORAGE_KEYS.authToken)).toBe('tok-social');
    expect(storage.getItem(STORAGE_KEYS.userId)).toBe('u-9');
  });
});
