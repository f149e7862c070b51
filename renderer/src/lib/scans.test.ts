import { describe, expect, it } from 'vitest';
import type { ScanSummary } from '../../../shared/contract';
import { completedHistory, paginate, scanHistory, scanToOpen } from './scans';

const scan = (id: string, status: ScanSummary['status'], completed_at: string | null) => ({ id, status, completed_at }) as ScanSummary;

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

describe('scan history rules', () => {
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

  it('pages by the page size and clamps the page', () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    expect(paginate(items, 0, 10)).toEqual({ rows: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], page: 0, pageCount: 3 });
    expect(paginate(items, 2, 10).rows).toEqual([20, 21, 22]);
    expect(paginate(items, 9, 10).page).toBe(2);
    expect(paginate([], 3, 10)).toEqual({ rows: [], page: 0, pageCount: 1 });
  });
});
