// The scan page's data (issue 17): one scan's details, the scan before it (for the compare view), and
// triage marks set from the page, which replace the finding's mark in place so the list, the filters
// and the counts follow at once.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Finding, FindingTriage, ScanDetails, ScanSummary, TriageRequest } from '../../../shared/contract';
import { API_MESSAGES, FALLBACK_MESSAGES } from '../../../shared/messages';
import type { ApiResult } from '../api/client';
import * as findingsApi from '../api/findings';
import * as scansApi from '../api/scans';
import type { Auth } from '../api/session';
import { completedHistory } from '../lib/scans';
import { withTriage } from '../pages/scan/findings-view';
import { authStore, currentAuth } from './useAuthStore';

export interface ScanPageState {
  scanId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  details: ScanDetails | null;
  /** The details' findings, with the marks set on this page since. */
  findings: Finding[];
  /** The completed scan of the same API before this one; null when there is none (or the list failed). */
  previous: ScanSummary | null;
  load(scanId: string): Promise<void>;
  /** Saves a mark; resolves with the server's message on failure, null on success. */
  triage(finding: Finding, request: Omit<TriageRequest, 'finding_id'>): Promise<string | null>;
  reset(): void;
}

export interface ScanPageDeps {
  auth(): Auth | null;
  scanDetails(auth: Auth, scanId: string): Promise<ApiResult<ScanDetails>>;
  listScans(auth: Auth, apiId: string): Promise<ApiResult<{ scans: ScanSummary[] }>>;
  triageFinding(auth: Auth, body: TriageRequest): Promise<ApiResult<{ finding_id: string; fingerprint: string; triage: FindingTriage }>>;
}

const initial = { scanId: null, status: 'idle' as const, error: null, details: null, findings: [], previous: null };

const reasonOf = (err: unknown, fallback: string): string => (err instanceof Error && err.message ? err.message : fallback);

/** The completed scan that finished before `scan` did, from the API's scan list. */
export function previousScan(scans: ScanSummary[], scanId: string): ScanSummary | null {
  const history = completedHistory(scans);
  const at = history.findIndex((s) => s.id === scanId);
  if (at >= 0) return history[at + 1] ?? null;
  // A scan that is not completed (failed, running) compares with the newest completed one.
  return history[0] ?? null;
}

export function createScanPageStore(deps: ScanPageDeps): StoreApi<ScanPageState> {
  let generation = 0;
  return createStore<ScanPageState>()((set, get) => ({
    ...initial,

    async load(scanId) {
      const auth = deps.auth();
      if (!auth) return;
      const mine = ++generation;
      set({ ...initial, scanId, status: 'loading' });
      try {
        const res = await deps.scanDetails(auth, scanId);
        if (mine !== generation) return;
        if (!res.ok || !res.data) {
          set({ status: 'error', error: API_MESSAGES.fetchReportError(res.message || FALLBACK_MESSAGES.pollScan) });
          return;
        }
        const details = res.data;
        set({ status: 'ready', details, findings: details.results?.results ?? [] });
        // The compare view names the previous scan; the findings never wait for it.
        const list = await deps.listScans(auth, details.api_id).catch(() => null);
        if (mine !== generation || !list?.ok || !Array.isArray(list.data?.scans)) return;
        set({ previous: previousScan(list.data.scans, scanId) });
      } catch (err) {
        if (mine !== generation) return;
        set({ status: 'error', error: API_MESSAGES.fetchReportError(reasonOf(err, FALLBACK_MESSAGES.pollScan)) });
      }
    },

    async triage(finding, request) {
      const auth = deps.auth();
      if (!auth) return FALLBACK_MESSAGES.pollScan;
      const scanId = get().scanId;
      try {
        const res = await deps.triageFinding(auth, { ...request, finding_id: finding.id });
        if (!res.ok) {
          const detail = res.errors[0]?.message;
          return res.message && detail && detail !== res.message ? `${res.message} ${detail}` : res.message || detail || 'Could not save the triage.';
        }
        const { fingerprint, triage } = res.data;
        if (get().scanId === scanId) set((s) => ({ findings: withTriage(s.findings, fingerprint || finding.fingerprint, triage) }));
        return null;
      } catch (err) {
        return reasonOf(err, 'Could not save the triage.');
      }
    },

    reset() {
      generation++;
      set({ ...initial });
    },
  }));
}

export const scanPageStore = createScanPageStore({
  auth: () => currentAuth(),
  scanDetails: (auth, id) => scansApi.scanDetails(auth, id),
  listScans: (auth, id) => scansApi.listScans(auth, id),
  triageFinding: findingsApi.triageFinding,
});

authStore.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id) scanPageStore.getState().reset();
});

export function useScanPageStore<T>(selector: (s: ScanPageState) => T): T {
  return useStore(scanPageStore, selector);
}
