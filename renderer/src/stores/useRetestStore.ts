// Re-tests on the scan page (issue 29): per finding, its history (read when the finding is shown), a
// re-test running, and Close as fixed. A re-test's outcome and a fixed mark are written into the scan
// page's findings too, so the list and the counts follow; the page's own store is not changed for it.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { FindingBrief, FindingRetest, FindingTriage, RetestHistoryResponse, RetestResponse } from '../../../shared/contract';
import type { ApiResult } from '../api/client';
import * as findingsApi from '../api/findings';
import type { Auth } from '../api/session';
import { withTriage } from '../pages/scan/findings-view';
import { authStore, currentAuth } from './useAuthStore';
import { scanPageStore } from './useScanPageStore';

export interface FindingRetests {
  /** Newest first; null until read. */
  history: FindingRetest[] | null;
  running: boolean;
  closing: boolean;
  error: string | null;
}

export interface RetestState {
  byFinding: Record<string, FindingRetests>;
  load(findingId: string): Promise<void>;
  retest(finding: FindingBrief): Promise<void>;
  closeFixed(finding: FindingBrief): Promise<void>;
  reset(): void;
}

export interface RetestDeps {
  auth(): Auth | null;
  retestFinding(auth: Auth, findingId: string): Promise<ApiResult<RetestResponse>>;
  listRetests(auth: Auth, findingId: string): Promise<ApiResult<RetestHistoryResponse>>;
  closeFindingFixed(auth: Auth, findingId: string): Promise<ApiResult<{ fingerprint: string; triage: FindingTriage }>>;
  /** The scan page's findings learn of an outcome or a mark (default: nothing). */
  onRetest?(findingId: string, retest: FindingRetest): void;
  onTriage?(fingerprint: string, triage: FindingTriage): void;
}

const EMPTY: FindingRetests = { history: null, running: false, closing: false, error: null };
const messageOf = (res: { message: string; errors: { message: string }[] }, fallback: string) => res.message || res.errors[0]?.message || fallback;
const reasonOf = (err: unknown, fallback: string): string => (err instanceof Error && err.message ? err.message : fallback);

export function createRetestStore(deps: RetestDeps): StoreApi<RetestState> {
  return createStore<RetestState>((set, get) => {
    const patch = (id: string, change: Partial<FindingRetests>) => set((s) => ({ byFinding: { ...s.byFinding, [id]: { ...(s.byFinding[id] ?? EMPTY), ...change } } }));
    return {
      byFinding: {},

      async load(findingId) {
        const auth = deps.auth();
        if (!auth) return;
        try {
          const res = await deps.listRetests(auth, findingId);
          if (res.ok) patch(findingId, { history: res.data.retests });
        } catch {
          // The history is extra: the finding shows without it.
        }
      },

      async retest(finding) {
        const auth = deps.auth();
        if (!auth || get().byFinding[finding.id]?.running) return;
        patch(finding.id, { running: true, error: null });
        try {
          const res = await deps.retestFinding(auth, finding.id);
          if (!res.ok) {
            patch(finding.id, { running: false, error: messageOf(res, 'The re-test could not run.') });
            return;
          }
          const r = res.data.retest;
          const before = get().byFinding[finding.id]?.history ?? [];
          patch(finding.id, { running: false, history: [r, ...before.filter((x) => x.id !== r.id)], error: r.outcome === 'failed' ? r.reason : null });
          deps.onRetest?.(finding.id, r);
        } catch (err) {
          patch(finding.id, { running: false, error: reasonOf(err, 'The re-test could not run.') });
        }
      },

      async closeFixed(finding) {
        const auth = deps.auth();
        if (!auth || get().byFinding[finding.id]?.closing) return;
        patch(finding.id, { closing: true, error: null });
        try {
          const res = await deps.closeFindingFixed(auth, finding.id);
          if (!res.ok) {
            patch(finding.id, { closing: false, error: messageOf(res, 'Could not close the finding as fixed.') });
            return;
          }
          patch(finding.id, { closing: false });
          deps.onTriage?.(res.data.fingerprint || finding.fingerprint, res.data.triage);
        } catch (err) {
          patch(finding.id, { closing: false, error: reasonOf(err, 'Could not close the finding as fixed.') });
        }
      },

      reset() {
        set({ byFinding: {} });
      },
    };
  });
}

export const retestStore = createRetestStore({
  auth: () => currentAuth(),
  retestFinding: findingsApi.retestFinding,
  listRetests: (auth, id) => findingsApi.listRetests(auth, id),
  closeFindingFixed: findingsApi.closeFindingFixed,
  onRetest: (findingId, r) =>
    scanPageStore.setState((s) => ({ findings: s.findings.map((f) => (f.id === findingId ? { ...f, retest: { outcome: r.outcome, at: r.at, by: r.by } } : f)) })),
  onTriage: (fingerprint, triage) => scanPageStore.setState((s) => ({ findings: withTriage(s.findings, fingerprint, triage) })),
});

authStore.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id) retestStore.getState().reset();
});

export function useRetestStore<T>(selector: (s: RetestState) => T): T {
  return useStore(retestStore, selector);
}
