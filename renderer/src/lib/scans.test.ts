import { describe, expect, it } from 'vitest';
import type { Finding, ScanSummary } from '../../../shared/contract';
import { completedHistory, orderFindings, paginate, scanHistory, scanToOpen, severityCounts } from './scans';

const scan = (id: string, status: ScanSummary['status'], completed_at: string | null) => ({ id, status, completed_at }) as ScanSummary;
const finding = (id: string, severity: string, cvss_score: number) => ({ id, severity, cvss_score }) as unknown as Finding;

describe('the scan "Latest scan" opens', () => {
  it('is the one running now, else the newest completed, else none', () => {
    const done = scan('done', 'completed', '2026-02-01T00:00:00Z');
    const running = { ...scan('live', 'running', null), started_at: '2026-02-02T00:00:00Z', created_at: '2026-02-02T00:00:00Z' } as ScanSummary;
    const failed = scan('failed', 'failed', '2026-03-01T00:00:00Z');
    expect(scanToOpen([done, running, failed])?.id).toBe('live');
    expect(scanToOpen([failed, done])?.id).toBe('done');
    expect(scanToOpen([failed])).toBeNull();
  });
});

describe('scan history and report rules', () => {
  it('history keeps completed scans with completed_at, newest first', () => {
    const list = completedHistory([
      scan('old', 'completed', '2026-01-01T00:00:00Z'),
      scan('failed', 'failed', '2026-03-01T00:00:00Z'),
      scan('no-time', 'completed', null),
      scan('bad-time', 'completed', 'yesterday-ish'),
      scan('new', 'completed', '2026-02-01T00:00:00Z'),
      scan('running', 'running', null),
    ]);
    expect(list.map((s) => s.id)).toEqual(['new', 'old']);
  });

  it('the history dialog lists failed and cancelled scans next to the completed ones, newest first by when each ended', () => {
    const list = scanHistory([
      scan('old', 'completed', '2026-01-01T00:00:00Z'),
      scan('failed', 'failed', '2026-03-01T00:00:00Z'),
      scan('no-time', 'completed', null),
      { ...scan('cancelled', 'cancelled', null), started_at: '2026-01-15T00:00:00Z' },
      scan('new', 'completed', '2026-02-01T00:00:00Z'),
      scan('running', 'running', null),
      scan('draft', 'created', null),
    ]);
    expect(list.map((s) => s.id)).toEqual(['failed', 'new', 'cancelled', 'old']);
  });

  it('findings go critical to info, unknown severities with info, then by CVSS', () => {
    const ordered = orderFindings([
      finding('a', 'low', 3),
      finding('b', 'critical', 9.8),
      finding('c', 'high', 7),
      finding('d', 'high', 8.1),
      finding('e', 'medium', 5),
      finding('f', 'high', 9.1),
    ]);
    // A "critical" severity string is no bucket (spec section 9): info; a high finding of CVSS 9.1 is critical.
    expect(ordered.map((f) => f.id)).toEqual(['f', 'd', 'c', 'e', 'a', 'b']);
  });

  it('counts findings per level, critical apart from high', () => {
    expect(
      severityCounts([
        { severity: 'HIGH', cvss_score: 7.5 },
        { severity: 'high', cvss_score: 9.1 },
        { severity: 'medium', cvss_score: 5 },
        { severity: 'weird', cvss_score: 9.8 },
        { severity: 'info', cvss_score: 0 },
      ] as Finding[]),
    ).toEqual({ critical: 1, high: 1, medium: 1, low: 0, info: 2 });
  });

  it('pages by the page size and clamps the page', () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    expect(paginate(items, 0, 10)).toEqual({ rows: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], page: 0, pageCount: 3 });
    expect(paginate(items, 2, 10).rows).toEqual([20, 21, 22]);
    expect(paginate(items, 9, 10).page).toBe(2);
    expect(paginate([], 3, 10)).toEqual({ rows: [], page: 0, pageCount: 1 });
  });
});
