// The numbers of a running scan's live header, kept pure so they are unit-tested: the request rate
// (requests sent over the time since the scan started) and the time left (at the pace of the tasks
// done so far), with the words the page shows for them.

import type { FindingBrief, ScanCurrent, ScanDetails, ScanPace } from '../../../../shared/contract';

export interface LiveNumbers {
  /** Requests per second since the start; null before a second has passed or without a start time. */
  rate: number | null;
  /** Seconds left at the pace so far; null until a task is done (or when the total is unknown). */
  etaSeconds: number | null;
}

/** Rate and time left from what the details say; `now` in ms since the epoch. */
export function liveNumbers(p: { done: number; total: number; requestsSent: number; startedAt: string | null }, now: number): LiveNumbers {
  const started = p.startedAt ? new Date(p.startedAt).getTime() : Number.NaN;
  const elapsedMs = now - started;
  if (!Number.isFinite(elapsedMs) || elapsedMs < 1000) return { rate: null, etaSeconds: null };
  const rate = Math.max(0, p.requestsSent) / (elapsedMs / 1000);
  if (p.total <= 0 || p.done <= 0) return { rate, etaSeconds: null };
  const left = Math.max(0, p.total - p.done);
  return { rate, etaSeconds: Math.round(((elapsedMs / 1000) * left) / p.done) };
}

/** "12.5 req/s" (one decimal under 10), "—" when unknown. */
export function formatRate(rate: number | null): string {
  if (rate === null || !Number.isFinite(rate)) return '—';
  return `${rate < 10 ? rate.toFixed(1) : Math.round(rate)} req/s`;
}

/** "about 45 s", "about 3 min", "about 1 h 20 min", "less than a second"; "—" when unknown. */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 1) return 'less than a second';
  if (seconds < 60) return `about ${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `about ${h} h ${m} min` : `about ${h} h`;
}

/**
 * The pace in words: "8 in flight", "2 of 8 in flight, 25 req/s (slowed down)", "1 probe alone" while a heavy
 * probe runs; "—" when unknown.
 */
export function formatPace(pace: ScanPace | null | undefined): string {
  if (!pace) return '—';
  if (pace.alone) return 'a heavy probe, alone';
  const rate = pace.rps > 0 ? `, ${formatRate(pace.rps)}` : '';
  if (pace.limit >= pace.max) return `${pace.limit} in flight${rate}`;
  return `${pace.limit} of ${pace.max} in flight${rate} (slowed down)`;
}

/** The details with a progress event's numbers (tasks, requests, current check, pace) put in, findings untouched. */
export function withLiveProgress<F extends FindingBrief>(
  details: ScanDetails<F>,
  p: { done: number; total: number; requestsSent: number; current?: ScanCurrent | null; pace?: ScanPace | null },
): ScanDetails<F> {
  const info = details.results.scan_info;
  return {
    ...details,
    results: {
      ...details.results,
      scan_info: {
        ...info,
        progress: { done: p.done, total: p.total },
        requests_sent: Math.max(info.requests_sent ?? 0, p.requestsSent),
        current: p.current === undefined ? (info.current ?? null) : p.current,
        pace: p.pace === undefined ? (info.pace ?? null) : p.pace,
      },
    },
  };
}
