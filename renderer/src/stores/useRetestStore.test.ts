import { describe, expect, it, vi } from 'vitest';
import type { Finding, FindingRetest } from '../../../shared/contract';
import { createRetestStore, type RetestDeps } from './useRetestStore';

const auth = { token: 't', userId: 'u' };
const ok = <T>(data: T) => ({ ok: true as const, status: 200, message: 'OK', data });
const fail = (status: number, message: string) => ({ ok: false as const, status, message, errors: [] });
const finding = { id: 'f1', fingerprint: 'fp1', triage: null } as unknown as Finding;
const retest = (id: string, outcome: FindingRetest['outcome'], reason: string | null = null): FindingRetest => ({
  id,
  finding_id: 'f1',
  fingerprint: 'fp1',
  outcome,
  at: '2026-03-02T10:00:00Z',
  started_at: '2026-03-02T09:59:59Z',
  by: 'ada',
  duration_ms: 400,
  evidence: null,
  curl: null,
  sent: [],
  requests_sent: 8,
  reason,
});

function deps(overrides: Partial<RetestDeps> = {}) {
  return {
    auth: () => auth,
    retestFinding: vi.fn(async () => ok({ retest: retest('r2', 'not_reproduced') })),
    listRetests: vi.fn(async () => ok({ finding_id: 'f1', retests: [retest('r1', 'reproduced')] })),
    closeFindingFixed: vi.fn(async () => ok({ fingerprint: 'fp1', triage: { state: 'fixed' as const, reason: 'Not reproduced.', expires_at: null, set_by: 'ada', set_at: '2026-03-02T10:01:00Z' } })),
    onRetest: vi.fn(),
    onTriage: vi.fn(),
    ...overrides,
  } satisfies RetestDeps;
}

describe('useRetestStore', () => {
  it('reads the history, runs a re-test (running meanwhile, once at a time) and puts it first', async () => {
    let answer!: () => void;
    const d = deps({
      retestFinding: vi.fn(async () => {
        await new Promise<void>((r) => (answer = r));
        return ok({ retest: retest('r2', 'not_reproduced') });
      }),
    });
    const store = createRetestStore(d);
    await store.getState().load('f1');
    expect(store.getState().byFinding.f1?.history?.map((r) => r.id)).toEqual(['r1']);
    const running = store.getState().retest(finding);
    expect(store.getState().byFinding.f1?.running).toBe(true);
    await store.getState().retest(finding);
    expect(d.retestFinding).toHaveBeenCalledTimes(1);
    answer();
    await running;
    expect(store.getState().byFinding.f1).toMatchObject({ running: false, error: null });
    expect(store.getState().byFinding.f1?.history?.map((r) => r.id)).toEqual(['r2', 'r1']);
    expect(d.onRetest).toHaveBeenCalledWith('f1', expect.objectContaining({ outcome: 'not_reproduced' }));
  });

  it('shows the server’s sentence for a refusal and the reason of a re-test that could not run', async () => {
    const busy = createRetestStore(deps({ retestFinding: vi.fn(async () => fail(409, 'Another re-test of this API is running: wait for it to finish, then re-test.')) }));
    await busy.getState().retest(finding);
    expect(busy.getState().byFinding.f1).toMatchObject({ running: false, error: 'Another re-test of this API is running: wait for it to finish, then re-test.' });
    const failed = createRetestStore(deps({ retestFinding: vi.fn(async () => ok({ retest: retest('r3', 'failed', 'The re-test could not run: no answer.') })) }));
    await failed.getState().retest(finding);
    expect(failed.getState().byFinding.f1?.error).toBe('The re-test could not run: no answer.');
  });

  it('closes as fixed and hands the mark to the page', async () => {
    const d = deps();
    const store = createRetestStore(d);
    await store.getState().closeFixed(finding);
    expect(d.onTriage).toHaveBeenCalledWith('fp1', expect.objectContaining({ state: 'fixed' }));
    expect(store.getState().byFinding.f1).toMatchObject({ closing: false, error: null });
    const refused = createRetestStore(deps({ closeFindingFixed: vi.fn(async () => fail(409, 'Only a finding whose latest re-test did not reproduce it can be closed as fixed: re-test it first.')) }));
    await refused.getState().closeFixed(finding);
    expect(refused.getState().byFinding.f1?.error).toContain('re-test it first');
  });
});
