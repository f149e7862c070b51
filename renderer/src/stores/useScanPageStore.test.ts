import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Finding, ScanDetails, ScanSummary } from '../../../shared/contract';
import type { ScanEvent } from '../api/events';
import { API_MESSAGES } from '../../../shared/messages';
import { createScanPageStore, previousScan, type ScanPageDeps } from './useScanPageStore';

const auth = { token: 't', userId: 'u' };
const ok = <T>(data: T) => ({ ok: true as const, status: 200, message: 'OK', data });
const fail = (status: number, message: string, errors: { field: string; message: string }[] = []) => ({ ok: false as const, status, message, errors });

const finding = (id: string, fingerprint: string): Finding =>
  ({ id, fingerprint, check_id: 'c', vulnerability_name: 'n', severity: 'high', trend: 'new', triage: null }) as Finding;

const details = (scanId: string, findings: Finding[]): ScanDetails =>
  ({ scan_id: scanId, api_id: 'api-1', status: 'completed', results: { scan_info: { fixed: [] }, results: findings } }) as unknown as ScanDetails;

const summary = (id: string, completed: string | null, status: ScanSummary['status'] = 'completed'): ScanSummary =>
  ({ id, api_id: 'api-1', status, completed_at: completed }) as ScanSummary;

function deps(overrides: Partial<ScanPageDeps> = {}) {
  return {
    auth: () => auth,
    scanDetails: vi.fn(async (_a, id: string) => ok(details(id, [finding('f1', 'fp1'), finding('f2', 'fp2')]))),
    listScans: vi.fn(async () => ok({ scans: [summary('s3', '2026-03-01T00:00:00Z'), summary('s1', '2026-01-01T00:00:00Z'), summary('s2', '2026-02-01T00:00:00Z')] })),
    triageFinding: vi.fn(async (_a, body) => ok({ finding_id: body.finding_id, fingerprint: 'fp2', triage: { state: body.state, reason: body.reason ?? '', expires_at: null, set_by: 'ada', set_at: '2026-03-02T00:00:00Z' } })),
    ...overrides,
  } satisfies ScanPageDeps;
}

describe('previousScan', () => {
  it('is the completed scan before this one; for an unfinished scan, the newest completed one', () => {
    const scans = [summary('s1', '2026-01-01T00:00:00Z'), summary('s3', '2026-03-01T00:00:00Z'), summary('s2', '2026-02-01T00:00:00Z'), summary('run', null, 'running')];
    expect(previousScan(scans, 's3')?.id).toBe('s2');
    expect(previousScan(scans, 's1')).toBeNull();
    expect(previousScan(scans, 'run')?.id).toBe('s3');
  });
});

describe('useScanPageStore', () => {
  it('loads the details, then the previous scan', async () => {
    const d = deps();
    const store = createScanPageStore(d);
    await store.getState().load('s2');
    expect(store.getState().status).toBe('ready');
    expect(store.getState().findings.map((f) => f.id)).toEqual(['f1', 'f2']);
    expect(store.getState().previous?.id).toBe('s1');
    expect(d.listScans).toHaveBeenCalledWith(auth, 'api-1');
  });

  it('a failed load says why', async () => {
    const store = createScanPageStore(deps({ scanDetails: vi.fn(async () => fail(404, 'Scan not found')) }));
    await store.getState().load('nope');
    expect(store.getState().status).toBe('error');
    expect(store.getState().error).toBe(API_MESSAGES.fetchReportError('Scan not found'));
  });

  it('an older load answering late does not replace the newer scan', async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const d = deps({
      scanDetails: vi.fn(async (_a, id: string) => {
        if (id === 'old') await slow;
        return ok(details(id, [finding(`${id}-f`, 'fp')]));
      }),
    });
    const store = createScanPageStore(d);
    const first = store.getState().load('old');
    await store.getState().load('new');
    release();
    await first;
    expect(store.getState().scanId).toBe('new');
    expect(store.getState().findings.map((f) => f.id)).toEqual(['new-f']);
  });

  it('a saved mark replaces the mark of the findings with its fingerprint', async () => {
    const d = deps();
    const store = createScanPageStore(d);
    await store.getState().load('s2');
    const before = store.getState().findings;
    const failure = await store.getState().triage(before[1]!, { state: 'false_positive', reason: 'test data' });
    expect(failure).toBeNull();
    expect(d.triageFinding).toHaveBeenCalledWith(auth, { finding_id: 'f2', state: 'false_positive', reason: 'test data' });
    const after = store.getState().findings;
    expect(after[1]!.triage).toMatchObject({ state: 'false_positive', reason: 'test data', set_by: 'ada' });
    expect(after[0]).toBe(before[0]);
  });

  it('a refused mark leaves the findings alone and says why', async () => {
    const store = createScanPageStore(
      deps({ triageFinding: vi.fn(async () => fail(400, 'Validation failed', [{ field: 'expires_at', message: 'The expiry date must be in the future.' }])) }),
    );
    await store.getState().load('s2');
    const failure = await store.getState().triage(store.getState().findings[0]!, { state: 'accepted_risk', expires_at: '2000-01-01' });
    expect(failure).toBe('Validation failed The expiry date must be in the future.');
    expect(store.getState().findings[0]!.triage).toBeNull();
  });

  describe('while the scan runs (issue 17 item 3)', () => {
    afterEach(() => vi.useRealTimers());

    const running = (scanId: string, findings: Finding[], status: ScanDetails['status'] = 'running'): ScanDetails =>
      ({
        scan_id: scanId,
        api_id: 'api-1',
        status,
        results: { scan_info: { fixed: [], progress: { done: 1, total: 10 }, requests_sent: 5, current: null, started_at: '2026-03-02T10:00:00Z' }, results: findings },
      }) as unknown as ScanDetails;
    const progress = (over: Partial<Extract<ScanEvent, { type: 'scan:progress' }>> = {}): ScanEvent => ({
      type: 'scan:progress',
      scanId: 'run',
      apiId: 'api-1',
      done: 2,
      total: 10,
      requestsSent: 20,
      findings: 0,
      ...over,
    });

    function following(answers: ScanDetails[]) {
      vi.useFakeTimers();
      let listener: ((e: ScanEvent) => void) | null = null;
      const unsubscribe = vi.fn();
      let call = 0;
      const d = deps({
        scanDetails: vi.fn(async () => ok(answers[Math.min(call++, answers.length - 1)]!)),
        subscribe: vi.fn((l: (e: ScanEvent) => void) => {
          listener = l;
          return unsubscribe;
        }),
        pollMs: 5000,
        throttleMs: 1000,
      });
      const store = createScanPageStore(d);
      return { d, store, unsubscribe, emit: (e: ScanEvent) => listener!(e) };
    }

    it('progress events update the numbers at once; a grown findings count re-reads the details at most once a second', async () => {
      const { d, store, emit } = following([running('run', []), running('run', [finding('f1', 'fp1')]), running('run', [finding('f1', 'fp1'), finding('f2', 'fp2')])]);
      await store.getState().load('run');
      expect(d.subscribe).toHaveBeenCalledTimes(1);
      emit(progress({ current: { check: 'BOLA', endpoint: 'GET /pets/{petId}' } }));
      const info = store.getState().details!.results.scan_info;
      expect(info.progress).toEqual({ done: 2, total: 10 });
      expect(info.requests_sent).toBe(20);
      expect(info.current).toEqual({ check: 'BOLA', endpoint: 'GET /pets/{petId}' });
      expect(d.scanDetails).toHaveBeenCalledTimes(1);
      // Another scan's events are not this page's.
      emit(progress({ scanId: 'other', findings: 9 }));
      emit(progress({ findings: 1 }));
      emit(progress({ findings: 2 }));
      await vi.advanceTimersByTimeAsync(999);
      expect(d.scanDetails).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(d.scanDetails).toHaveBeenCalledTimes(2);
      expect(store.getState().findings.map((f) => f.id)).toEqual(['f1']);
      emit(progress({ findings: 2 }));
      await vi.advanceTimersByTimeAsync(1000);
      expect(d.scanDetails).toHaveBeenCalledTimes(3);
      expect(store.getState().findings.map((f) => f.id)).toEqual(['f1', 'f2']);
      // Events that bring no new finding read nothing.
      emit(progress({ findings: 2, done: 3 }));
      await vi.advanceTimersByTimeAsync(1500);
      expect(d.scanDetails).toHaveBeenCalledTimes(3);
    });

    it('without events the details are read every 5 s; the end reads the final state and stops following', async () => {
      const { d, store, unsubscribe } = following([running('run', []), running('run', [finding('f1', 'fp1')]), running('run', [finding('f1', 'fp1')], 'failed')]);
      await store.getState().load('run');
      await vi.advanceTimersByTimeAsync(4999);
      expect(d.scanDetails).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(d.scanDetails).toHaveBeenCalledTimes(2);
      expect(store.getState().findings).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(5000);
      expect(d.scanDetails).toHaveBeenCalledTimes(3);
      expect(store.getState().details!.status).toBe('failed');
      expect(unsubscribe).toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(20_000);
      expect(d.scanDetails).toHaveBeenCalledTimes(3);
    });

    it('the finished event reads the final state', async () => {
      const { d, store, emit, unsubscribe } = following([running('run', []), running('run', [finding('f1', 'fp1')], 'completed')]);
      await store.getState().load('run');
      await vi.advanceTimersByTimeAsync(1000);
      emit({ type: 'scan:finished', scanId: 'run', apiId: 'api-1', status: 'completed', failureReason: null, findings: 1, score: 90 });
      await vi.advanceTimersByTimeAsync(0);
      expect(d.scanDetails).toHaveBeenCalledTimes(2);
      expect(store.getState().details!.status).toBe('completed');
      expect(unsubscribe).toHaveBeenCalled();
    });

    it('a finished scan is not followed, and leaving a running one stops following it', async () => {
      const done = following([details('s2', [])]);
      await done.store.getState().load('s2');
      expect(done.d.subscribe).not.toHaveBeenCalled();
      vi.useRealTimers();
      const { d, store, unsubscribe } = following([running('run', [])]);
      await store.getState().load('run');
      store.getState().reset();
      expect(unsubscribe).toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(20_000);
      expect(d.scanDetails).toHaveBeenCalledTimes(1);
    });
  });
});
