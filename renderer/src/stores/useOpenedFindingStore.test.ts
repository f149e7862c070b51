import { describe, expect, it, vi } from 'vitest';
import type { Finding } from '../../../shared/contract';
import { FINDING_MESSAGES } from '../../../shared/messages';
import { createOpenedFindingStore, openedKey, type OpenedFindingDeps } from './useOpenedFindingStore';

const auth = { token: 't', userId: 'u' };
const ok = <T>(data: T) => ({ ok: true as const, status: 200, message: 'OK', data });
const fail = (status: number, message: string) => ({ ok: false as const, status, message, errors: [] });
const finding = (id: string) => ({ id, evidence: `Evidence of ${id}` }) as unknown as Finding;

function deps(overrides: Partial<OpenedFindingDeps> = {}) {
  return { auth: () => auth, scanFinding: vi.fn(async (_a, _s, id: string) => ok({ finding: finding(id) })), ...overrides } satisfies OpenedFindingDeps;
}

describe('useOpenedFindingStore', () => {
  it('reads a finding once and keeps it, by scan and finding', async () => {
    const d = deps();
    const store = createOpenedFindingStore(d);
    const first = store.getState().open('s1', 'f1');
    expect(store.getState().byKey[openedKey('s1', 'f1')]).toEqual({ status: 'loading' });
    await Promise.all([first, store.getState().open('s1', 'f1')]);
    await store.getState().open('s1', 'f1');
    expect(store.getState().byKey[openedKey('s1', 'f1')]).toEqual({ status: 'ready', finding: finding('f1') });
    expect(d.scanFinding).toHaveBeenCalledTimes(1);
    expect(d.scanFinding).toHaveBeenCalledWith(auth, 's1', 'f1');
    await store.getState().open('s2', 'f1');
    expect(d.scanFinding).toHaveBeenCalledTimes(2);
  });

  it('a failed read says why and is tried again on request only', async () => {
    const scanFinding = vi.fn().mockResolvedValueOnce(fail(404, FINDING_MESSAGES.notFound)).mockRejectedValueOnce(new Error('')).mockResolvedValue(ok({ finding: finding('f1') }));
    const store = createOpenedFindingStore(deps({ scanFinding }));
    const key = openedKey('s1', 'f1');
    await store.getState().open('s1', 'f1');
    expect(store.getState().byKey[key]).toEqual({ status: 'error', error: FINDING_MESSAGES.notFound });
    await store.getState().open('s1', 'f1');
    expect(scanFinding).toHaveBeenCalledTimes(1);
    await store.getState().open('s1', 'f1', true);
    expect(store.getState().byKey[key]).toEqual({ status: 'error', error: FINDING_MESSAGES.loadFallback });
    await store.getState().open('s1', 'f1', true);
    expect(store.getState().byKey[key]).toEqual({ status: 'ready', finding: finding('f1') });
  });

  it('keeps the most recently opened findings, a bounded number', async () => {
    const store = createOpenedFindingStore(deps({ keep: 3 }));
    for (const id of ['a', 'b', 'c', 'd']) await store.getState().open('s', id);
    expect(Object.keys(store.getState().byKey)).toEqual(['b', 'c', 'd'].map((id) => openedKey('s', id)));
  });

  it('an answer that arrives after a reset (another user) is dropped', async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const store = createOpenedFindingStore(
      deps({
        scanFinding: vi.fn(async () => {
          await slow;
          return ok({ finding: finding('f1') });
        }),
      }),
    );
    const pending = store.getState().open('s1', 'f1');
    store.getState().reset();
    release();
    await pending;
    expect(store.getState().byKey).toEqual({});
  });
});
