// The user's APIs (owned and shared) and the server's environment facts, for API Management.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiSummary, Environment } from '../../../shared/contract';
import { API_MESSAGES, FALLBACK_MESSAGES } from '../../../shared/messages';
import * as apisApi from '../api/apis';
import type { ApiResult } from '../api/client';
import type { Auth } from '../api/session';
import { authStore, currentAuth } from './useAuthStore';

export interface ApisState {
  apis: ApiSummary[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** "Error fetching APIs: ..." after a failed load. */
  error: string | null;
  /** null until GET /api/environment answered (or failed). */
  environment: Environment | null;
  environmentError: string | null;
  load(): Promise<void>;
  loadEnvironment(): Promise<void>;
  reset(): void;
}

export interface ApisDeps {
  auth(): Auth | null;
  listApis(auth: Auth): Promise<ApiResult<{ apis: ApiSummary[] }>>;
  getEnvironment(): Promise<ApiResult<Environment>>;
}

const initial = { apis: [], status: 'idle' as const, error: null, environment: null, environmentError: null };

export function createApisStore(deps: ApisDeps): StoreApi<ApisState> {
  let generation = 0;
  return createStore<ApisState>()((set, get) => ({
    ...initial,

    async load() {
      const auth = deps.auth();
      if (!auth) return;
      const mine = ++generation;
      // A reload keeps the list on screen; only the first load shows the loading state.
      if (get().status !== 'ready') set({ status: 'loading' });
      let message: string;
      try {
        const res = await deps.listApis(auth);
        if (mine !== generation) return;
        if (res.ok && Array.isArray(res.data?.apis)) {
          set({ apis: res.data.apis, status: 'ready', error: null });
          return;
        }
        message = res.message || FALLBACK_MESSAGES.fetchApis;
      } catch (err) {
        if (mine !== generation) return;
        message = err instanceof Error && err.message ? err.message : FALLBACK_MESSAGES.fetchApis;
      }
      set({ status: get().status === 'ready' ? 'ready' : 'error', error: API_MESSAGES.fetchApisError(message) });
    },

    async loadEnvironment() {
      try {
        const res = await deps.getEnvironment();
        if (res.ok && res.data) {
          set({ environment: { isDocker: !!res.data.isDocker, localScans: !!res.data.localScans, socialSignIn: !!res.data.socialSignIn }, environmentError: null });
          return;
        }
      } catch {
        // answered below
      }
      // The spec: a failed check assumes no Docker (here: no local scans) and says so.
      set({ environment: { isDocker: false, localScans: false, socialSignIn: false }, environmentError: FALLBACK_MESSAGES.fetchEnvironment });
    },

    reset() {
      generation++;
      set({ ...initial });
    },
  }));
}

export const apisStore = createApisStore({
  auth: () => currentAuth(),
  listApis: (auth) => apisApi.listApis(auth),
  getEnvironment: () => apisApi.getEnvironment(),
});

// Another user signing in on this page must never see the previous user's list.
authStore.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id) apisStore.getState().reset();
});

export function useApisStore<T>(selector: (s: ApisState) => T): T {
  return useStore(apisStore, selector);
}
