// The one severity model and the one count (issues 17 and 31): a finding's stored severity is the CVSS
// 3.1 band of its score, its level adds CVSS's own "Critical" band on top, and the number of
// vulnerabilities of a scan is one rule, used by every screen, report, export and the CLI.

import { CRITICAL_CVSS, type Severity, type TriageMarkState } from './constants';

/** high, medium and low keep their bucket; anything else counts as info (spec section 9). */
export function severityBucket(severity: string | null | undefined): Severity {
  const s = (severity ?? '').toLowerCase();
  return s === 'high' || s === 'medium' || s === 'low' ? s : 'info';
}

/**
 * A finding's severity is the CVSS 3.1 band of its score (high 7.0-10, medium 4.0-6.9, low 0.1-3.9,
 * info 0). The API, the database and the exports keep these four values: the spec names them.
 */
export function severityOfCvss(score: number): Severity {
  if (!(score > 0)) return 'info';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  return 'low';
}

export function isCriticalCvss(score: number): boolean {
  return score >= CRITICAL_CVSS;
}

/** The levels a user chooses from (filters, `--fail-on`) and counts by, most severe first. */
export const SEVERITY_LEVELS = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type SeverityLevel = (typeof SEVERITY_LEVELS)[number];

/**
 * A finding's level: "critical" for a score of 9.0 or more (CVSS 3.1's Critical band), else its
 * severity. Critical is a level of its own: a critical finding is not also counted as high.
 */
export function severityLevel(f: { severity: string | null | undefined; cvss_score?: number | null }): SeverityLevel {
  const band = severityBucket(f.severity);
  return band !== 'info' && isCriticalCvss(f.cvss_score ?? 0) ? 'critical' : band;
}

const LEVEL_RANK: Record<SeverityLevel, number> = Object.fromEntries(SEVERITY_LEVELS.map((l, i) => [l, i])) as Record<SeverityLevel, number>;

/** 0 for critical ... 4 for info: what lists sort by. */
export function levelRank(level: SeverityLevel): number {
  return LEVEL_RANK[level];
}

/** Whether `level` is `threshold` or more severe (`--fail-on high` fails on critical and high). */
export function atOrAboveLevel(level: SeverityLevel, threshold: SeverityLevel): boolean {
  return LEVEL_RANK[level] <= LEVEL_RANK[threshold];
}

/** The levels at or above a threshold, most severe first. */
export function levelsAtOrAbove(threshold: SeverityLevel): SeverityLevel[] {
  return SEVERITY_LEVELS.slice(0, LEVEL_RANK[threshold] + 1);
}

export const LEVEL_NAMES: Record<SeverityLevel, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', info: 'Info' };

/** Kept for the four stored severities. */
export const SEVERITY_NAMES: Record<Severity, string> = { high: 'High', medium: 'Medium', low: 'Low', info: 'Info' };

/** "Critical", "High", ... "Info": the words every screen and report use for a finding's level. */
export function severityText(f: { severity: string; cvss_score?: number | null }): string {
  return LEVEL_NAMES[severityLevel(f)];
}

/** Findings per level; each finding is in exactly one. */
export function levelCounts(findings: readonly { severity: string; cvss_score?: number | null }[]): Record<SeverityLevel, number> {
  const out: Record<SeverityLevel, number> = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const f of findings) out[severityLevel(f)] += 1;
  return out;
}

/** Triage marks that set a finding aside: it stays listed, and leaves the score, the counts and `--fail-on`. */
export const SET_ASIDE_STATES: readonly TriageMarkState[] = ['false_positive', 'accepted_risk', 'fixed'];

/**
 * Set aside in triage: a false positive, an accepted risk (until it ends: the server opens it again
 * then), or closed as fixed after a re-test. The store's `suppressed` flag holds the same.
 */
export function isSetAside(f: { triage?: { state: string } | null }): boolean {
  return !!f.triage && (SET_ASIDE_STATES as readonly string[]).includes(f.triage.state);
}

/**
 * What the product calls a vulnerability: a finding that is not informational (CVSS 0.0: it describes,
 * it does not expose) and not set aside in triage. The counting triggers of migrations 004 and 009 keep
 * `scans.findings_count` (the API card, History, the dashboard) by this same rule.
 */
export function countsAsVulnerability(f: { severity: string; triage?: { state: string } | null }): boolean {
  return severityBucket(f.severity) !== 'info' && !isSetAside(f);
}

/** The number of vulnerabilities of a scan, from its findings: the one count every surface shows. */
export function vulnerabilityCount(findings: readonly { severity: string; triage?: { state: string } | null }[]): number {
  let n = 0;
  for (const f of findings) if (countsAsVulnerability(f)) n += 1;
  return n;
}

/** The vulnerabilities of a scan per level (info is always 0: informational findings are not vulnerabilities). */
export function vulnerabilityLevels(
  findings: readonly { severity: string; cvss_score?: number | null; triage?: { state: string } | null }[],
): Record<SeverityLevel, number> {
  return levelCounts(findings.filter(countsAsVulnerability));
}

/** "1 vulnerability", "12 vulnerabilities". */
export function vulnerabilitiesText(n: number): string {
  return `${n} ${n === 1 ? 'vulnerability' : 'vulnerabilities'}`;
}
