// The coverage ledgers the scan page shows (issue 26), by scan: the Coverage tab reads the scan's own,
// the compare view the previous scan's too. A ledger is read once a scan has ended (it does not change
// afterwards) and kept for the session; a failed read can be tried again.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ScanCoverage } from '../../../shared/coverage';
import { COVERAGE_MESSAGES } from '../../../shared/coverage-messages';
import type { ApiResult } from '../api/client';
import * as scansApi from '../api/scans';
import type { Auth } from '../api/session';
import { authStore, currentAuth } from './useAuthStore';

export type CoverageEntry =
  | { status: 'loading' }
  /** coverage null: the scan kept none (it predates coverage, or stopped before testing anything). */
  | { status: 'ready'; coverage: ScanCoverage | null }
  | { status: 'error'; error: string };

export interface ScanCoverageState {
  byScan: Record<string, CoverageEntry>;
  /** Reads a finished scan's ledger unless it is loaded or loading (`again` retries a failed read). */
  load(scanId: string, again?: boolean): Promise<void>;
  reset(): void;
}

export interface ScanCoverageDeps {
  auth(): Auth | null;
  scanCoverage(auth: Auth, scanId: string): Promise<ApiResult<{ coverage: ScanCoverage | null }>>;
}

const reasonOf = (err: unknown, fallback: string): string => (err instanceof Error && err.message ? err.message : fallback);

export function createScanCoverageStore(deps: ScanCoverageDeps): StoreApi<ScanCoverageState> {
  // A reset (another user signed in) makes answers to earlier reads stale.
  let generation = 0;
  return createStore<ScanCoverageState>()((set, get) => {
    const put = (scanId: string, entry: CoverageEntry) => set((s) => ({ byScan: { ...s.byScan, [scanId]: entry } }));
    return {
      byScan: {},

      async load(scanId, again = false) {
        const current = get().byScan[scanId];
        if (current && (current.status !== 'error' || !again)) return;
        const auth = deps.auth();
        if (!auth) return;
        const mine = generation;
        put(scanId, { status: 'loading' });
        try {
          const res = await deps.scanCoverage(auth, scanId);
          if (mine !== generation) return;
          if (!res.ok) put(scanId, { status: 'error', error: res.message || COVERAGE_MESSAGES.loadFallback });
          else put(scanId, { status: 'ready', coverage: res.data?.coverage ?? null });
        } catch (err) {
          if (mine === generation) put(scanId, { status: 'error', error: reasonOf(err, COVERAGE_MESSAGES.loadFallback) });
        }
      },

      reset() {
        generation++;
        set({ byScan: {} });
      },
    };
  });
}

export const scanCoverageStore = createScanCoverageStore({
  auth: () => currentAuth(),
  scanCoverage: (auth, id) => scansApi.scanCoverage(auth, id),
});

authStore.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id) scanCoverageStore.getState().reset();
});

export function useScanCoverageStore<T>(selector: (s: ScanCoverageState) => T): T {
  return useStore(scanCoverageStore, selector);
}
