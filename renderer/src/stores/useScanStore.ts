// Running scans and their polling (spec section 4): Start Scan marks the API running, then its details
// are read every 5000 ms until the scan completes or fails; the outcome is reported as a notice and the
// API list reloads. Scans found running on load (another tab, a schedule) are followed the same way.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { DELAYS, type ScanStatus } from '../../../shared/constants';
import type { ApiSummary, ScanDetails, ScanSummary } from '../../../shared/contract';
import { FALLBACK_MESSAGES, SCAN_MESSAGES } from '../../../shared/messages';
import type { ApiResult } from '../api/client';
import * as scansApi from '../api/scans';
import type { Auth } from '../api/session';
import { apisStore } from './useApisStore';
import { authStore, currentAuth } from './useAuthStore';
import { noticeStore, type NoticeKind, type NoticeLink } from './useNoticeStore';

export interface RunningScan {
  apiId: string;
  apiName: string;
  scanId: string;
  progress: { done: number; total: number };
  status: ScanStatus;
}

export interface ScanState {
  /** By API id. */
  running: Record<string, RunningScan>;
  /** Start Scan: starts the created scan and follows it. Resolves false when the start failed. */
  start(api: Pick<ApiSummary, 'id' | 'name'>, scanId: string, profile: string): Promise<boolean>;
  /** Follows scans the server reports running that this page does not follow yet. */
  resume(apis: ApiSummary[]): Promise<void>;
  cancel(apiId: string): Promise<void>;
  /** Retry of a failed or cancelled scan (same configuration and keys), followed like a start; resolves the new scan's id, null when it failed. */
  retry(api: Pick<ApiSummary, 'id' | 'name'>, scanId: string): Promise<string | null>;
  reset(): void;
}

export interface ScanDeps {
  auth(): Auth | null;
  startScan(auth: Auth, apiId: string, profile: string, scanId: string): Promise<ApiResult<{ scan_id: string; status: ScanStatus }>>;
  scanDetails(auth: Auth, scanId: string): Promise<ApiResult<ScanDetails>>;
  listScans(auth: Auth, apiId: string): Promise<ApiResult<{ scans: ScanSummary[] }>>;
  cancelScan(auth: Auth, scanId: string): Promise<ApiResult<{ scan_id: string; status: ScanStatus }>>;
  retryScan?(auth: Auth, scanId: string): Promise<ApiResult<{ scan_id: string; status: ScanStatus }>>;
  /** `link`: the finished scan's page, on the notice of a scan that finished. */
  notify(kind: NoticeKind, text: string, link?: NoticeLink): void;
  reloadApis(): void;
  intervalMs?: number;
}

const reason = (err: unknown, fallback: string): string => (err instanceof Error && err.message ? err.message : fallback);

export function createScanStore(deps: ScanDeps): StoreApi<ScanState> {
  const intervalMs = deps.intervalMs ?? DELAYS.scanPollIntervalMs;
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Scans whose polling failed: not picked up again by resume (the list keeps them "Running"). */
  const abandoned = new Set<string>();
  let epoch = 0;

  const store = createStore<ScanState>()((set, get) => {
    const stop = (apiId: string) => {
      clearTimeout(timers.get(apiId));
      timers.delete(apiId);
      set((s) => {
        if (!s.running[apiId]) return s;
        const running = { ...s.running };
        delete running[apiId];
        return { running };
      });
    };

    const schedule = (apiId: string) => {
      clearTimeout(timers.get(apiId));
      const mine = epoch;
      timers.set(
        apiId,
        setTimeout(() => {
          if (mine === epoch) void poll(apiId);
        }, intervalMs),
      );
    };

    const poll = async (apiId: string) => {
      const scan = get().running[apiId];
      const auth = deps.auth();
      if (!scan || !auth) return;
      const mine = epoch;
      let details: ScanDetails;
      try {
        const res = await deps.scanDetails(auth, scan.scanId);
        if (!res.ok || !res.data) throw new Error(res.message || FALLBACK_MESSAGES.pollScan);
        details = res.data;
      } catch (err) {
        if (mine !== epoch || get().running[apiId]?.scanId !== scan.scanId) return;
        abandoned.add(scan.scanId);
        stop(apiId);
        deps.notify('error', SCAN_MESSAGES.pollingError(reason(err, FALLBACK_MESSAGES.pollScan)));
        deps.reloadApis();
        return;
      }
      if (mine !== epoch || get().running[apiId]?.scanId !== scan.scanId) return;
      const status = details.status;
      if (status === 'completed' || status === 'failed' || status === 'cancelled') {
        stop(apiId);
        const link = { to: `/scans/${scan.scanId}`, label: 'Open scan page' };
        if (status === 'completed') deps.notify('success', SCAN_MESSAGES.finished(scan.apiName), link);
        else if (status === 'failed') deps.notify('error', SCAN_MESSAGES.finished(scan.apiName), link);
        else deps.notify('info', SCAN_MESSAGES.cancelled(scan.apiName));
        deps.reloadApis();
        return;
      }
      const progress = details.results?.scan_info?.progress ?? scan.progress;
      set((s) => ({ running: { ...s.running, [apiId]: { ...scan, status, progress: { done: progress.done, total: progress.total } } } }));
      schedule(apiId);
    };

    const follow = (api: Pick<ApiSummary, 'id' | 'name'>, scanId: string, progress = { done: 0, total: 0 }) => {
      set((s) => ({ running: { ...s.running, [api.id]: { apiId: api.id, apiName: api.name, scanId, progress, status: 'running' } } }));
      schedule(api.id);
    };

    return {
      running: {},

      async start(api, scanId, profile) {
        const auth = deps.auth();
        if (!auth) return false;
        // Marked running at once: every New Scan is disabled while the start is on its way.
        follow(api, scanId);
        clearTimeout(timers.get(api.id));
        let message: string;
        try {
          const res = await deps.startScan(auth, api.id, profile, scanId);
          if (res.ok) {
            const startedId = res.data?.scan_id || scanId;
            if (get().running[api.id]?.scanId === scanId) follow(api, startedId);
            return true;
          }
          message = res.message || FALLBACK_MESSAGES.startScan;
        } catch (err) {
          message = reason(err, FALLBACK_MESSAGES.startScan);
        }
        stop(api.id);
        deps.notify('error', SCAN_MESSAGES.startFailed(message));
        return false;
      },

      async resume(apis) {
        const auth = deps.auth();
        if (!auth) return;
        const mine = epoch;
        const candidates = apis.filter((a) => a.scanStatus === 'Running' && !get().running[a.id]);
        await Promise.all(
          candidates.map(async (api) => {
            try {
              const res = await deps.listScans(auth, api.id);
              if (mine !== epoch || !res.ok || get().running[api.id]) return;
              const scan = res.data?.scans.find((s) => s.status === 'running' && !abandoned.has(s.id));
              if (scan) follow(api, scan.id);
            } catch {
              // The card still shows the server's "Running"; nothing to follow.
            }
          }),
        );
      },

      async cancel(apiId) {
        const scan = get().running[apiId];
        const auth = deps.auth();
        if (!scan || !auth) return;
        try {
          const res = await deps.cancelScan(auth, scan.scanId);
          if (!res.ok) {
            deps.notify('error', res.message || SCAN_MESSAGES.cancelFailed);
            return;
          }
        } catch (err) {
          deps.notify('error', reason(err, SCAN_MESSAGES.cancelFailed));
          return;
        }
        // The next poll reads the final status and reports it; do it now rather than in 5 s.
        clearTimeout(timers.get(apiId));
        void poll(apiId);
      },

      async retry(api, scanId) {
        const auth = deps.auth();
        if (!auth || !deps.retryScan || get().running[api.id]) return null;
        let message: string;
        try {
          const res = await deps.retryScan(auth, scanId);
          if (res.ok && res.data?.scan_id) {
            follow(api, res.data.scan_id);
            deps.reloadApis();
            return res.data.scan_id;
          }
          message = res.message || FALLBACK_MESSAGES.startScan;
        } catch (err) {
          message = reason(err, FALLBACK_MESSAGES.startScan);
        }
        deps.notify('error', SCAN_MESSAGES.startFailed(message));
        return null;
      },

      reset() {
        epoch++;
        timers.forEach(clearTimeout);
        timers.clear();
        abandoned.clear();
        set({ running: {} });
      },
    };
  });
  return store;
}

export const scanStore = createScanStore({
  auth: () => currentAuth(),
  startScan: scansApi.startScan,
  scanDetails: (auth, id) => scansApi.scanDetails(auth, id),
  listScans: (auth, id) => scansApi.listScans(auth, id),
  cancelScan: scansApi.cancelScan,
  retryScan: scansApi.retryScan,
  notify: (kind, text, link) => noticeStore.getState().show(kind, text, link),
  reloadApis: () => void apisStore.getState().load(),
});

authStore.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id) scanStore.getState().reset();
});

export function useScanStore<T>(selector: (s: ScanState) => T): T {
  return useStore(scanStore, selector);
}

/** Whether any scan runs: one this page follows, or one the server reports on an API card. */
export function anyScanRunning(running: Record<string, RunningScan>, apis: ApiSummary[]): boolean {
  return Object.keys(running).length > 0 || apis.some((a) => a.scanStatus === 'Running');
}
