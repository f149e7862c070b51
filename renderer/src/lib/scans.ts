// Pure rules of the history and report dialogs (spec section 9, issue 17 item 3), kept apart from the
// components so they are unit-tested.

import type { Finding, ScanSummary } from '../../../shared/contract';
import { levelCounts, levelRank, severityLevel, type SeverityLevel } from '../../../shared/severity';

/** Completed scans that carry completed_at, newest first. */
export function completedHistory(scans: ScanSummary[]): ScanSummary[] {
  return scans
    .filter((s) => s.status === 'completed' && !!s.completed_at && !Number.isNaN(new Date(s.completed_at).getTime()))
    .sort((a, b) => new Date(b.completed_at!).getTime() - new Date(a.completed_at!).getTime());
}

/** The scan the API card's "Latest scan" opens: the one running now, else the newest completed; null without either. */
export function scanToOpen(scans: ScanSummary[]): ScanSummary | null {
  const running = scans.filter((s) => s.status === 'running').sort((a, b) => new Date(b.started_at ?? b.created_at).getTime() - new Date(a.started_at ?? a.created_at).getTime());
  return running[0] ?? completedHistory(scans)[0] ?? null;
}

/** When a scan ended (or, without an end time, started or was created): what the history sorts by. */
function endedAt(s: ScanSummary): number {
  for (const v of [s.completed_at, s.started_at, s.created_at]) {
    const t = v ? new Date(v).getTime() : Number.NaN;
    if (!Number.isNaN(t)) return t;
  }
  return 0;
}

/**
 * Scan History (issue 17 item 3): the spec's completed scans, and next to them the failed and cancelled
 * ones (they carry their reason), newest first by when each ended.
 */
export function scanHistory(scans: ScanSummary[]): ScanSummary[] {
  const completed = new Set(completedHistory(scans).map((s) => s.id));
  return scans.filter((s) => completed.has(s.id) || s.status === 'failed' || s.status === 'cancelled').sort((a, b) => endedAt(b) - endedAt(a));
}

/** Findings ordered critical to info (unknown severities count as info), then by CVSS score. */
export function orderFindings(findings: Finding[]): Finding[] {
  return [...findings].sort((a, b) => levelRank(severityLevel(a)) - levelRank(severityLevel(b)) || (b.cvss_score ?? 0) - (a.cvss_score ?? 0));
}

/** Findings per level: critical, high, medium, low, and info for everything else. */
export function severityCounts(findings: Pick<Finding, 'severity' | 'cvss_score'>[]): Record<SeverityLevel, number> {
  return levelCounts(findings);
}

/** Slices a list into pages and keeps the page in range as the list changes. */
export function paginate<T>(items: T[], page: number, pageSize: number): { rows: T[]; page: number; pageCount: number } {
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const current = Math.min(Math.max(0, page), pageCount - 1);
  return { rows: items.slice(current * pageSize, (current + 1) * pageSize), page: current, pageCount };
}
