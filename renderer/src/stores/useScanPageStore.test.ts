import { describe, expect, it, vi } from 'vitest';
import type { Finding, ScanDetails, ScanSummary } from '../../../shared/contract';
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
});
