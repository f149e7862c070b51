// Whole findings the scan page has opened (issue 17): the list reads each finding's brief, and the
// detail pane reads the finding it shows — evidence, curl, description, fix — once, then keeps it for
// the session (a stored finding does not change; its triage mark comes from the list). The most
// recently opened findings are kept, a bounded number.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Finding } from '../../../shared/contract';
import { FINDING_MESSAGES } from '../../../shared/messages';
import type { ApiResult } from '../api/client';
import * as scansApi from '../api/scans';
import type { Auth } from '../api/session';
import { authStore, currentAuth } from './useAuthStore';

export type OpenedFinding = { status: 'loading' } | { status: 'ready'; finding: Finding } | { status: 'error'; error: string };

export interface OpenedFindingState {
  /** By `openedKey(scanId, findingId)`. */
  byKey: Record<string, OpenedFinding>;
  /** Reads the finding unless it is loaded or loading (`again` retries a failed read). */
  open(scanId: string, findingId: string, again?: boolean): Promise<void>;
  reset(): void;
}

export interface OpenedFindingDeps {
  auth(): Auth | null;
  scanFinding(auth: Auth, scanId: string, findingId: string): Promise<ApiResult<{ finding: Finding }>>;
  /** How many findings are kept (default 200). */
  keep?: number;
}

export const openedKey = (scanId: string, findingId: string): string => `${scanId}\u0000${findingId}`;

const reasonOf = (err: unknown, fallback: string): string => (err instanceof Error && err.message ? err.message : fallback);

export function createOpenedFindingStore(deps: OpenedFindingDeps): StoreApi<OpenedFindingState> {
  const keep = deps.keep ?? 200;
  // A reset (another user signed in) makes answers to earlier reads stale.
  let generation = 0;
  return createStore<OpenedFindingState>()((set, get) => {
    const put = (key: string, entry: OpenedFinding) =>
      set((s) => {
        const { [key]: _previous, ...rest } = s.byKey;
        const keys = Object.keys(rest);
        // Oldest first (insertion order): the ones past the limit go.
        for (const old of keys.slice(0, Math.max(0, keys.length + 1 - keep))) delete rest[old];
        return { byKey: { ...rest, [key]: entry } };
      });
    return {
      byKey: {},

      async open(scanId, findingId, again = false) {
        const key = openedKey(scanId, findingId);
        const current = get().byKey[key];
        if (current && (current.status !== 'error' || !again)) return;
        const auth = deps.auth();
        if (!auth) return;
        const mine = generation;
        put(key, { status: 'loading' });
        try {
          const res = await deps.scanFinding(auth, scanId, findingId);
          if (mine !== generation) return;
          if (!res.ok || !res.data?.finding) put(key, { status: 'error', error: res.message || FINDING_MESSAGES.loadFallback });
          else put(key, { status: 'ready', finding: res.data.finding });
        } catch (err) {
          if (mine === generation) put(key, { status: 'error', error: reasonOf(err, FINDING_MESSAGES.loadFallback) });
        }
      },

      reset() {
        generation++;
        set({ byKey: {} });
      },
    };
  });
}

export const openedFindingStore = createOpenedFindingStore({
  auth: () => currentAuth(),
  scanFinding: (auth, scanId, findingId) => scansApi.scanFinding(auth, scanId, findingId),
});

authStore.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id) openedFindingStore.getState().reset();
});

export function useOpenedFindingStore<T>(selector: (s: OpenedFindingState) => T): T {
  return useStore(openedFindingStore, selector);
}
