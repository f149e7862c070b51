// The session: token in local storage, the current user, and how the app got into that state.
// On start a stored token is checked against GET /api/user/profile; any failure clears it (spec section 4).
// A sign-in the server refuses as busy (503 with Retry-After) is tried again after the wait it names.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { SIGN_IN_BUSY_RETRY, STORAGE_KEYS } from '../../../shared/constants';
import type { LoginData, LoginRequest, SignInData, User } from '../../../shared/contract';
import * as authApi from '../api/auth';
import { NetworkError, type ApiResult } from '../api/client';
import * as userApi from '../api/user';
import { retryWhileBusy, type BusyRetryDeps } from '../lib/busy-retry';
import { browserStorage, type KeyValueStorage } from './storage';

/** loading: a stored token is being checked; nothing may be decided about access until it is. */
export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

export type LoginOutcome =
  | { ok: true; user: User }
  /** The password was right and the account has two-factor sign-in: answer the challenge with a code. */
  | { ok: false; reason: 'two-factor'; challenge: string; message: string; status: number }
  /** rejected: the server said no (its message, maybe ''); network: no answer at all. */
  | { ok: false; reason: 'rejected' | 'network'; message: string; status: number };

export interface AuthState {
  token: string | null;
  user: User | null;
  status: AuthStatus;
  /** Why the session last ended: a Logout sends the user to /login without a return path. */
  signedOutBy: 'logout' | null;
  /**
   * A page that just signed the user in owns the redirect (it shows its success message and waits the
   * spec's delay); until it navigates, the "signed-in users leave /login" rule stands aside.
   */
  redirectPending: boolean;
  restore(): Promise<void>;
  /** A sign-in completed elsewhere (social sign-in): keep its token and user like a login's. */
  acceptSession(token: string, user: User): void;
  /** Signs in; a server busy with other sign-ins (503, Retry-After) is waited out, `onWait` told of each wait. */
  login(credentials: LoginRequest, onWait?: (ms: number) => void): Promise<LoginOutcome>;
  /** The second step of a two-factor sign-in (a busy server waited out the same way). */
  completeTwoFactor(challenge: string, code: string, onWait?: (ms: number) => void): Promise<LoginOutcome>;
  logout(): void;
  setRedirectPending(pending: boolean): void;
  /** Settings saved the profile: the header and every screen show the new names at once. */
  setUser(user: User): void;
}

export interface AuthDeps {
  storage: KeyValueStorage;
  getProfile(token: string): Promise<ApiResult<{ user: User }>>;
  login(credentials: LoginRequest): Promise<ApiResult<SignInData>>;
  loginTwoFactor(challenge: string, code: string): Promise<ApiResult<LoginData>>;
  logout(token: string): Promise<unknown>;
  /** Waiting out a busy server between sign-in tries (default: real timers). */
  busyRetry?: Omit<BusyRetryDeps, 'onWait'>;
}

/** "Busy, come back in N ms" of a sign-in answer: a 503 with Retry-After; anything else is final. */
const busyFor = (res: ApiResult<unknown>): number | null => (!res.ok && res.status === 503 && res.retryAfterMs !== undefined ? res.retryAfterMs : null);

const realTimers: Omit<BusyRetryDeps, 'onWait'> = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
  random: Math.random,
};

export function createAuthStore(deps: AuthDeps): StoreApi<AuthState> {
  const stored = deps.storage.getItem(STORAGE_KEYS.authToken);

  const persist = (token: string | null, user: User | null) => {
    if (token) deps.storage.setItem(STORAGE_KEYS.authToken, token);
    else deps.storage.removeItem(STORAGE_KEYS.authToken);
    if (user) deps.storage.setItem(STORAGE_KEYS.userId, user.id);
    else deps.storage.removeItem(STORAGE_KEYS.userId);
  };

  return createStore<AuthState>()((set, get) => {
  /** A session from either sign-in step: stored and in effect. */
  const signedIn = (res: ApiResult<LoginData>): LoginOutcome => {
    if (!res.ok || !res.data?.token || !res.data.user) {
      return { ok: false, reason: 'rejected', message: res.message, status: res.status };
    }
    const { token, user } = res.data;
    persist(token, user);
    set({ token, user, status: 'signedIn', signedOutBy: null });
    return { ok: true, user };
  };

  return {
    token: stored,
    user: null,
    status: stored ? 'loading' : 'signedOut',
    signedOutBy: null,
    redirectPending: false,

    async restore() {
      const token = get().token;
      if (!token) {
        set({ status: 'signedOut' });
        return;
      }
      set({ status: 'loading' });
      let user: User | null = null;
      try {
        const res = await deps.getProfile(token);
        if (res.ok && res.data?.user) user = res.data.user;
      } catch {
        user = null;
      }
      // A login or logout while the check ran wins over its answer.
      if (get().token !== token) return;
      if (user) {
        persist(token, user);
        set({ user, status: 'signedIn' });
      } else {
        persist(null, null);
        set({ token: null, user: null, status: 'signedOut' });
      }
    },

    acceptSession(token, user) {
      persist(token, user);
      set({ token, user, status: 'signedIn', signedOutBy: null });
    },

    async login(credentials, onWait) {
      let res: ApiResult<SignInData>;
      try {
        res = await retryWhileBusy(() => deps.login(credentials), busyFor, SIGN_IN_BUSY_RETRY, { ...(deps.busyRetry ?? realTimers), onWait });
      } catch (err) {
        return { ok: false, reason: 'network', message: err instanceof NetworkError ? err.message : '', status: 0 };
      }
      if (res.ok && res.data && 'two_factor_required' in res.data) {
        return { ok: false, reason: 'two-factor', challenge: res.data.challenge, message: res.message, status: res.status };
      }
      return signedIn(res as ApiResult<LoginData>);
    },

    async completeTwoFactor(challenge, code, onWait) {
      let res: ApiResult<LoginData>;
      try {
        res = await retryWhileBusy(() => deps.loginTwoFactor(challenge, code), busyFor, SIGN_IN_BUSY_RETRY, { ...(deps.busyRetry ?? realTimers), onWait });
      } catch (err) {
        return { ok: false, reason: 'network', message: err instanceof NetworkError ? err.message : '', status: 0 };
      }
      return signedIn(res);
    },

    logout() {
      const token = get().token;
      persist(null, null);
      set({ token: null, user: null, status: 'signedOut', signedOutBy: 'logout', redirectPending: false });
      // The local session is gone whatever the server says; telling it lets it delete the session row.
      if (token) void Promise.resolve(deps.logout(token)).catch(() => undefined);
    },

    setRedirectPending(pending) {
      set({ redirectPending: pending });
    },

    setUser(user) {
      const current = get().user;
      if (!current || current.id !== user.id) return;
      set({ user });
    },
  };
  });
}

export const authStore = createAuthStore({
  storage: browserStorage(),
  getProfile: (token) => userApi.getProfile(token),
  login: authApi.login,
  loginTwoFactor: authApi.loginTwoFactor,
  logout: authApi.logout,
});

export function useAuthStore<T>(selector: (state: AuthState) => T): T {
  return useStore(authStore, selector);
}

/** The token and user id of the signed-in user, for the calls that carry both; null when signed out. */
export function currentAuth(state: AuthState = authStore.getState()): { token: string; userId: string } | null {
  return state.token && state.user ? { token: state.token, userId: state.user.id } : null;
}

/** Authenticated means a token and a loaded user both exist (spec section 6). */
export const selectAuthenticated = (s: AuthState): boolean => s.status === 'signedIn' && !!s.token && !!s.user;
