import { describe, expect, it } from 'vitest';
import type { ScanDetails } from '../../../../shared/contract';
import { formatEta, formatPace, formatRate, liveNumbers, withLiveProgress } from './live-scan';

const START = '2026-03-02T10:00:00.000Z';
const at = (seconds: number) => new Date(START).getTime() + seconds * 1000;

describe('liveNumbers', () => {
  it('computes the rate from the requests sent over the time since the start', () => {
    expect(liveNumbers({ done: 0, total: 0, requestsSent: 50, startedAt: START }, at(10)).rate).toBe(5);
    expect(liveNumbers({ done: 3, total: 10, requestsSent: 0, startedAt: START }, at(4)).rate).toBe(0);
  });

  it('estimates the time left at the pace of the tasks done so far', () => {
    // 10 of 40 tasks in 30 s: 30 more tasks take 90 s.
    expect(liveNumbers({ done: 10, total: 40, requestsSent: 100, startedAt: START }, at(30)).etaSeconds).toBe(90);
    expect(liveNumbers({ done: 40, total: 40, requestsSent: 100, startedAt: START }, at(30)).etaSeconds).toBe(0);
  });

  it('knows nothing before a second has passed, without a start, or before a task is done', () => {
    expect(liveNumbers({ done: 1, total: 4, requestsSent: 3, startedAt: START }, at(0.5))).toEqual({ rate: null, etaSeconds: null });
    expect(liveNumbers({ done: 1, total: 4, requestsSent: 3, startedAt: null }, at(5))).toEqual({ rate: null, etaSeconds: null });
    expect(liveNumbers({ done: 1, total: 4, requestsSent: 3, startedAt: 'not a date' }, at(5))).toEqual({ rate: null, etaSeconds: null });
    expect(liveNumbers({ done: 0, total: 4, requestsSent: 3, startedAt: START }, at(5)).etaSeconds).toBeNull();
    expect(liveNumbers({ done: 2, total: 0, requestsSent: 3, startedAt: START }, at(5)).etaSeconds).toBeNull();
  });
});

describe('formatRate and formatEta', () => {
  it('words the numbers the header shows', () => {
    expect(formatRate(null)).toBe('—');
    expect(formatRate(2.345)).toBe('2.3 req/s');
    expect(formatRate(42.6)).toBe('43 req/s');
    expect(formatEta(null)).toBe('—');
    expect(formatEta(0)).toBe('less than a second');
    expect(formatEta(45)).toBe('about 45 s');
    expect(formatEta(200)).toBe('about 3 min');
    expect(formatEta(3600)).toBe('about 1 h');
    expect(formatEta(4800)).toBe('about 1 h 20 min');
  });
});

describe('withLiveProgress', () => {
  it('puts an event\'s numbers and current check into the details, leaving the findings and keeping requests from going back', () => {
    const findings = [{ id: 'f1' }];
    const details = { scan_id: 's', api_id: 'a', status: 'running', results: { scan_info: { progress: { done: 1, total: 9 }, requests_sent: 30, current: { check: 'A', endpoint: null } }, results: findings } } as unknown as ScanDetails;
    const next = withLiveProgress(details, { done: 4, total: 9, requestsSent: 25, current: { check: 'BOLA', endpoint: 'GET /pets/{petId}' } });
    expect(next.results.scan_info).toMatchObject({ progress: { done: 4, total: 9 }, requests_sent: 30, current: { check: 'BOLA', endpoint: 'GET /pets/{petId}' } });
    expect(next.results.results).toBe(findings);
    expect(withLiveProgress(details, { done: 2, total: 9, requestsSent: 40 }).results.scan_info).toMatchObject({ requests_sent: 40, current: { check: 'A', endpoint: null } });
    expect(details.results.scan_info.progress.done).toBe(1);
  });
});

describe('formatPace (issue 27)', () => {
  it('says how many requests may be in flight, and when the scan slowed down', () => {
    expect(formatPace({ limit: 8, max: 8, rps: 0, alone: false })).toBe('8 in flight');
    expect(formatPace({ limit: 2, max: 8, rps: 25, alone: false })).toBe('2 of 8 in flight, 25 req/s (slowed down)');
    expect(formatPace({ limit: 1, max: 8, rps: 2.5, alone: true })).toBe('a heavy probe, alone');
    expect(formatPace(null)).toBe('—');
  });

  it("keeps the last pace until an event brings another, and takes the event's", () => {
    const details = { scan_id: 's', api_id: 'a', status: 'running', results: { scan_info: { progress: { done: 1, total: 9 }, requests_sent: 3, pace: { limit: 8, max: 8, rps: 0, alone: false } }, results: [] } } as unknown as ScanDetails;
    expect(withLiveProgress(details, { done: 2, total: 9, requestsSent: 5 }).results.scan_info.pace).toEqual({ limit: 8, max: 8, rps: 0, alone: false });
    expect(withLiveProgress(details, { done: 2, total: 9, requestsSent: 5, pace: { limit: 4, max: 8, rps: 0, alone: false } }).results.scan_info.pace?.limit).toBe(4);
  });
});
