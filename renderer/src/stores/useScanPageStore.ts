// The scan page's data (issue 17): one scan's details, the scan before it (for the compare view), and
// triage marks set from the page, which replace the finding's mark in place so the list, the filters
// and the counts follow at once. While the scan runs the page follows it: progress events update the
// numbers at once, a grown findings count re-reads the details (at most once a second), and without
// events the details are read every 5 s; the final state is read when it ends.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { FindingBrief, FindingTriage, ScanDetails, ScanSummary, TriageRequest } from '../../../shared/contract';
import { API_MESSAGES, FALLBACK_MESSAGES } from '../../../shared/messages';
import { DELAYS } from '../../../shared/constants';
import type { ApiResult } from '../api/client';
import { subscribeScanEvents, type ScanEvent } from '../api/events';
import * as findingsApi from '../api/findings';
import * as scansApi from '../api/scans';
import type { Auth } from '../api/session';
import { completedHistory } from '../lib/scans';
import { withTriage } from '../pages/scan/findings-view';
import { withLiveProgress } from '../pages/scan/live-scan';
import { authStore, currentAuth } from './useAuthStore';

export interface ScanPageState {
  scanId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** The scan with its findings' briefs (the detail pane reads a whole finding when it opens it). */
  details: ScanDetails<FindingBrief> | null;
  /** The details' findings, with the marks set on this page since. */
  findings: FindingBrief[];
  /** The completed scan of the same API before this one; null when there is none (or the list failed). */
  previous: ScanSummary | null;
  load(scanId: string): Promise<void>;
  /** Saves a mark; resolves with the server's message on failure, null on success. */
  triage(finding: FindingBrief, request: Omit<TriageRequest, 'finding_id'>): Promise<string | null>;
  reset(): void;
}

export interface ScanPageDeps {
  auth(): Auth | null;
  scanDetails(auth: Auth, scanId: string): Promise<ApiResult<ScanDetails<FindingBrief>>>;
  listScans(auth: Auth, apiId: string): Promise<ApiResult<{ scans: ScanSummary[] }>>;
  triageFinding(auth: Auth, body: TriageRequest): Promise<ApiResult<{ finding_id: string; fingerprint: string; triage: FindingTriage }>>;
  /** Scan events (progress, finished); returns the unsubscribe function. None: the page only polls. */
  subscribe?(listener: (event: ScanEvent) => void): () => void;
  /** Reading the details of a running scan without events (default 5 s, the spec's poll). */
  pollMs?: number;
  /** At most one re-read of the details per this many ms on events (default 1 s). */
  throttleMs?: number;
}

/** A running scan the page follows. */
interface Live {
  scanId: string;
  unsubscribe(): void;
  poll: ReturnType<typeof setTimeout> | undefined;
  pending: ReturnType<typeof setTimeout> | undefined;
  lastEventAt: number;
  lastFetchAt: number;
  fetching: boolean;
  again: boolean;
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

const isLive = (d: Pick<ScanDetails, 'status'>) => d.status === 'running';

export function createScanPageStore(deps: ScanPageDeps): StoreApi<ScanPageState> {
  let generation = 0;
  let live: Live | null = null;
  const pollMs = deps.pollMs ?? DELAYS.scanPollIntervalMs;
  const throttleMs = deps.throttleMs ?? 1000;

  return createStore<ScanPageState>()((set, get) => {
    const stopLive = () => {
      if (!live) return;
      live.unsubscribe();
      clearTimeout(live.poll);
      clearTimeout(live.pending);
      live = null;
    };

    const refresh = async (l: Live) => {
      const auth = deps.auth();
      if (live !== l || !auth) return;
      if (l.fetching) {
        l.again = true;
        return;
      }
      l.fetching = true;
      l.lastFetchAt = Date.now();
      try {
        const res = await deps.scanDetails(auth, l.scanId);
        if (live !== l || !res.ok || !res.data) return;
        set({ details: res.data, findings: res.data.results?.results ?? [] });
        if (!isLive(res.data)) stopLive();
      } catch {
        // The next event or poll tries again.
      } finally {
        l.fetching = false;
      }
      if (live === l && l.again) {
        l.again = false;
        requestRefresh(l);
      }
    };

    /** A re-read soon, never more than one per throttleMs. */
    const requestRefresh = (l: Live) => {
      if (live !== l || l.pending) return;
      const wait = Math.max(0, l.lastFetchAt + throttleMs - Date.now());
      l.pending = setTimeout(() => {
        l.pending = undefined;
        void refresh(l);
      }, wait);
    };

    const schedulePoll = (l: Live) => {
      clearTimeout(l.poll);
      l.poll = setTimeout(() => {
        if (live !== l) return;
        // Events keep the page current; the poll is for when none arrive.
        if (Date.now() - Math.max(l.lastEventAt, l.lastFetchAt) >= pollMs - 50) void refresh(l);
        schedulePoll(l);
      }, pollMs);
    };

    const onEvent = (l: Live, event: ScanEvent) => {
      if (live !== l || event.scanId !== l.scanId) return;
      l.lastEventAt = Date.now();
      if (event.type === 'scan:finished') {
        requestRefresh(l);
        return;
      }
      set((s) => (s.details ? { details: withLiveProgress(s.details, event) } : s));
      if (event.findings > get().findings.length) requestRefresh(l);
    };

    const startLive = (scanId: string) => {
      stopLive();
      const l: Live = { scanId, unsubscribe: () => {}, poll: undefined, pending: undefined, lastEventAt: 0, lastFetchAt: Date.now(), fetching: false, again: false };
      live = l;
      if (deps.subscribe) l.unsubscribe = deps.subscribe((e) => onEvent(l, e));
      schedulePoll(l);
    };

    return {
      ...initial,

      async load(scanId) {
        const auth = deps.auth();
        if (!auth) return;
        const mine = ++generation;
        stopLive();
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
          if (isLive(details)) startLive(scanId);
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
        stopLive();
        set({ ...initial });
      },
    };
  });
}

export const scanPageStore = createScanPageStore({
  auth: () => currentAuth(),
  scanDetails: (auth, id) => scansApi.scanBrief(auth, id),
  listScans: (auth, id) => scansApi.listScans(auth, id),
  triageFinding: findingsApi.triageFinding,
  subscribe: (listener) => subscribeScanEvents(listener, () => currentAuth()?.token ?? null),
});

authStore.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id) scanPageStore.getState().reset();
});

export function useScanPageStore<T>(selector: (s: ScanPageState) => T): T {
  return useStore(scanPageStore, selector);
}
