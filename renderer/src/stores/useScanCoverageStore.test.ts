import { describe, expect, it, vi } from 'vitest';
import { COVERAGE_MESSAGES } from '../../../shared/coverage-messages';
import { summarizeCoverage, type ScanCoverage } from '../../../shared/coverage';
import { createScanCoverageStore, type ScanCoverageDeps } from './useScanCoverageStore';

const auth = { token: 't', userId: 'u' };
const ok = <T>(data: T) => ({ ok: true as const, status: 200, message: 'OK', data });
const fail = (status: number, message: string) => ({ ok: false as const, status, message, errors: [] });
const ledger: ScanCoverage = { summary: summarizeCoverage([], ['key 1', 'anonymous']), operations: [] };

function deps(overrides: Partial<ScanCoverageDeps> = {}) {
  return { auth: () => auth, scanCoverage: vi.fn(async () => ok({ coverage: ledger })), ...overrides } satisfies ScanCoverageDeps;
}

describe('useScanCoverageStore', () => {
  it('reads a scan\'s ledger once and keeps it', async () => {
    const d = deps();
    const store = createScanCoverageStore(d);
    const first = store.getState().load('s1');
    expect(store.getState().byScan.s1).toEqual({ status: 'loading' });
    // A second tab asking while the first read runs does not read again.
    await Promise.all([first, store.getState().load('s1')]);
    await store.getState().load('s1');
    expect(store.getState().byScan.s1).toEqual({ status: 'ready', coverage: ledger });
    expect(d.scanCoverage).toHaveBeenCalledTimes(1);
    expect(d.scanCoverage).toHaveBeenCalledWith(auth, 's1');
  });

  it('a scan without coverage is ready with none', async () => {
    const store = createScanCoverageStore(deps({ scanCoverage: vi.fn(async () => ok({ coverage: null })) }));
    await store.getState().load('old');
    expect(store.getState().byScan.old).toEqual({ status: 'ready', coverage: null });
  });

  it('a failed read says why and is tried again on request only', async () => {
    const scanCoverage = vi.fn().mockResolvedValueOnce(fail(403, 'You cannot see this scan.')).mockRejectedValueOnce(new Error('')).mockResolvedValue(ok({ coverage: ledger }));
    const store = createScanCoverageStore(deps({ scanCoverage }));
    await store.getState().load('s1');
    expect(store.getState().byScan.s1).toEqual({ status: 'error', error: 'You cannot see this scan.' });
    await store.getState().load('s1');
    expect(scanCoverage).toHaveBeenCalledTimes(1);
    await store.getState().load('s1', true);
    expect(store.getState().byScan.s1).toEqual({ status: 'error', error: COVERAGE_MESSAGES.loadFallback });
    await store.getState().load('s1', true);
    expect(store.getState().byScan.s1).toEqual({ status: 'ready', coverage: ledger });
  });

  it('an answer that arrives after a reset (another user) is dropped', async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const store = createScanCoverageStore(
      deps({
        scanCoverage: vi.fn(async () => {
          await slow;
          return ok({ coverage: ledger });
        }),
      }),
    );
    const pending = store.getState().load('s1');
    store.getState().reset();
    release();
    await pending;
    expect(store.getState().byScan).toEqual({});
  });
});
