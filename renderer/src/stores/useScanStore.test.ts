import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DELAYS } from '../../../shared/constants';
import type { ApiSummary, ScanDetails } from '../../../shared/contract';
import { FALLBACK_MESSAGES, SCAN_MESSAGES } from '../../../shared/messages';
import { NetworkError } from '../api/client';
import { anyScanRunning, createScanStore, type ScanDeps } from './useScanStore';

const auth = { token: 't', userId: 'u' };
const api = { id: 'api-1', name: 'Acme Shop' };

function details(status: ScanDetails['status'], done = 0, total = 10): ScanDetails {
  return {
    scan_id: 'scan-1',
    api_id: 'api-1',
    status,
    results: {
      scan_info: {
        started_at: null,
        completed_at: null,
        progress: { done, total },
        requests_sent: 0,
        errors: [],
        score: null,
        failure_reason: null,
        skipped_checks: [],
        fixed: [],
        requests_by_check: {},
        identities: [],
        created_users: [],
        refreshes: 0,
      },
      results: [],
    },
  } as ScanDetails;
}

const ok = <T>(data: T) => ({ ok: true as const, status: 200, message: 'OK', data });
const fail = (status: number, message: string) => ({ ok: false as const, status, message, errors: [] });

function deps(overrides: Partial<ScanDeps> = {}) {
  return {
    auth: () => auth,
    startScan: vi.fn(async () => ok({ scan_id: 'scan-1', status: 'running' as const })),
    scanDetails: vi.fn(async () => ok(details('running', 3))),
    listScans: vi.fn(async () => ok({ scans: [] })),
    cancelScan: vi.fn(async () => ok({ scan_id: 'scan-1', status: 'cancelled' as const })),
    notify: vi.fn(),
    reloadApis: vi.fn(),
    ...overrides,
  } satisfies ScanDeps;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useScanStore', () => {
  it('marks the API running at once and polls details every 5000 ms, updating the progress', async () => {
    const d = deps();
    const store = createScanStore(d);
    const started = store.getState().start(api, 'scan-1', 'OWASP_API_10');
    expect(store.getState().running['api-1']).toMatchObject({ scanId: 'scan-1', apiName: 'Acme Shop' });
    expect(await started).toBe(true);
    expect(d.startScan).toHaveBeenCalledWith(auth, 'api-1', 'OWASP_API_10', 'scan-1');

    await vi.advanceTimersByTimeAsync(DELAYS.scanPollIntervalMs - 1);
    expect(d.scanDetails).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(d.scanDetails).toHaveBeenCalledTimes(1);
    expect(store.getState().running['api-1']?.progress).toEqual({ done: 3, total: 10 });
    await vi.advanceTimersByTimeAsync(DELAYS.scanPollIntervalMs);
    expect(d.scanDetails).toHaveBeenCalledTimes(2);
  });

  it('completed: the success text, the mark cleared, APIs reloaded, polling stopped', async () => {
    const d = deps({ scanDetails: vi.fn(async () => ok(details('completed'))) });
    const store = createScanStore(d);
    await store.getState().start(api, 'scan-1', 'OWASP_API_10');
    await vi.advanceTimersByTimeAsync(DELAYS.scanPollIntervalMs);
    // The notice links to the finished scan's page.
    expect(d.notify).toHaveBeenCalledWith('success', SCAN_MESSAGES.finished('Acme Shop'), { to: '/scans/scan-1', label: 'Open scan page' });
    expect(store.getState().running).toEqual({});
    expect(d.reloadApis).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(DELAYS.scanPollIntervalMs * 3);
    expect(d.scanDetails).toHaveBeenCalledTimes(1);
  });

  it('failed: the same text as an error', async () => {
    const d = deps({ scanDetails: vi.fn(async () => ok(details('failed'))) });
    const store = createScanStore(d);
    await store.getState().start(api, 'scan-1', 'OWASP_API_10');
    await vi.advanceTimersByTimeAsync(DELAYS.scanPollIntervalMs);
    expect(d.notify).toHaveBeenCalledWith('error', 'Scan for "Acme Shop" has finished.', { to: '/scans/scan-1', label: 'Open scan page' });
    expect(store.getState().running).toEqual({});
  });

  it('a polling error stops polling, says why and reloads', async () => {
    const d = deps({ scanDetails: vi.fn(async () => fail(500, '')) });
    const store = createScanStore(d);
    await store.getState().start(api, 'scan-1', 'OWASP_API_10');
    await vi.advanceTimersByTimeAsync(DELAYS.scanPollIntervalMs);
    expect(d.notify).toHaveBeenCalledWith('error', `Error polling scan results: ${FALLBACK_MESSAGES.pollScan}`);
    expect(d.reloadApis).toHaveBeenCalled();
    expect(store.getState().running).toEqual({});
    await vi.advanceTimersByTimeAsync(DELAYS.scanPollIntervalMs * 2);
    expect(d.scanDetails).toHaveBeenCalledTimes(1);
  });

  it('a polling error without an answer carries the transport message', async () => {
    const d = deps({ scanDetails: vi.fn(async () => Promise.reject(new NetworkError(new TypeError('Failed to fetch')))) });
    const store = createScanStore(d);
    await store.getState().start(api, 'scan-1', 'OWASP_API_10');
    await vi.advanceTimersByTimeAsync(DELAYS.scanPollIntervalMs);
    expect(d.notify).toHaveBeenCalledWith('error', 'Error polling scan results: Failed to fetch');
  });

  it('a start failure says so and clears the running mark', async () => {
    const d = deps({ startScan: vi.fn(async () => fail(409, 'Another scan is in progress. Please wait.')) });
    const store = createScanStore(d);
    expect(await store.getState().start(api, 'scan-1', 'OWASP_API_10')).toBe(false);
    expect(d.notify).toHaveBeenCalledWith('error', 'Failed to start scan: Another scan is in progress. Please wait.');
    expect(store.getState().running).toEqual({});
    await vi.advanceTimersByTimeAsync(DELAYS.scanPollIntervalMs * 2);
    expect(d.scanDetails).not.toHaveBeenCalled();
  });

  it('follows a scan the list reports running, once; not one whose polling failed', async () => {
    const running = { id: 'api-1', name: 'Acme Shop', scanStatus: 'Running' } as ApiSummary;
    const d = deps({
      listScans: vi.fn(async () => ok({ scans: [{ id: 'scan-9', status: 'running' } as never] })),
      scanDetails: vi.fn(async () => fail(404, 'Scan not found.')),
    });
    const store = createScanStore(d);
    await store.getState().resume([running]);
    expect(store.getState().running['api-1']?.scanId).toBe('scan-9');
    await store.getState().resume([running]);
    expect(d.listScans).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(DELAYS.scanPollIntervalMs);
    expect(store.getState().running).toEqual({});
    await store.getState().resume([running]);
    expect(store.getState().running).toEqual({});
  });

  it('retry starts the new scan and follows it to its finish notice, with a link to its page (issue 17)', async () => {
    const d = deps({
      retryScan: vi.fn(async () => ok({ scan_id: 'scan-1', status: 'running' as const })),
      scanDetails: vi.fn(async () => ok(details('completed', 10))),
    });
    const store = createScanStore(d);
    expect(await store.getState().retry(api, 'failed-scan')).toBe('scan-1');
    expect(d.retryScan).toHaveBeenCalledWith(auth, 'failed-scan');
    expect(store.getState().running['api-1']).toMatchObject({ scanId: 'scan-1' });
    await vi.advanceTimersByTimeAsync(DELAYS.scanPollIntervalMs);
    expect(d.notify).toHaveBeenCalledWith('success', SCAN_MESSAGES.finished('Acme Shop'), { to: '/scans/scan-1', label: 'Open scan page' });
  });

  it('a refused retry says why and follows nothing', async () => {
    const d = deps({ retryScan: vi.fn(async () => fail(409, SCAN_MESSAGES.anotherInProgress)) });
    const store = createScanStore(d);
    expect(await store.getState().retry(api, 'failed-scan')).toBeNull();
    expect(d.notify).toHaveBeenCalledWith('error', SCAN_MESSAGES.startFailed(SCAN_MESSAGES.anotherInProgress));
    expect(store.getState().running).toEqual({});
  });

  it('reset stops every poll', async () => {
    const d = deps();
    const store = createScanStore(d);
    await store.getState().start(api, 'scan-1', 'OWASP_API_10');
    store.getState().reset();
    await vi.advanceTimersByTimeAsync(DELAYS.scanPollIntervalMs * 2);
    expect(d.scanDetails).not.toHaveBeenCalled();
  });

  it('any scan running: followed here or reported by the server', () => {
    expect(anyScanRunning({}, [])).toBe(false);
    expect(anyScanRunning({}, [{ scanStatus: 'Running' } as ApiSummary])).toBe(true);
    expect(anyScanRunning({ a: {} as never }, [])).toBe(true);
  });
});
