// The report model: everything a report says about one scan, read once from the store by
// loadReportInput(). Every renderer (PDFs, JSON, SARIF, HTML, JUnit) is a pure function of it,
// so the same scan always gives the same report.

import type { Flag, Severity } from '../../shared/constants';
import type { CreatedUserReport, Finding } from '../../shared/contract';
import { countsAsVulnerability, LEVEL_NAMES, levelCounts, levelRank, severityBucket, severityLevel, type SeverityLevel } from '../../shared/severity';
import type { ScanCoverage } from '../../shared/coverage';
import type { IdentityReport } from '../../shared/identities';
import { securityScore } from '../scanner/findings';

export type ReportFinding = Finding;
/** One row of the identity table: name, role, how obtained, who the API said it is, refreshes, failed logins. */
export type ReportIdentity = IdentityReport;
/** A user the scan registered for itself (never its password). */
export type ReportCreatedUser = CreatedUserReport;

export interface ReportApi {
  id: string;
  name: string;
  base_url: string;
  source_format: string;
  owner_name: string;
}

export interface ReportSkippedCheck {
  check_id: string;
  title: string;
  reason: string;
  /** OWASP category id ("API1:2023") when known; else inferred from the check id. */
  owasp: string | null;
}

export interface ReportScan {
  id: string;
  status: string;
  profile: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  failure_reason: string | null;
  progress: { done: number; total: number };
  requests_sent: number;
  /** The score the engine stored; null when it did not (see `score`). */
  stored_score: number | null;
  /** 0-100: the stored score, else computed from the findings with the DESIGN.md section 6 formula. */
  score: number;
  score_source: 'stored' | 'computed';
  /** Every note of the scan in order, problems and information alike (the exports' `errors`). */
  errors: string[];
  /**
   * The notes split as the scan page splits them (shared/scan-notes.ts `splitNotes`): problems, where part
   * of the scan did not run as asked, and information. Renderers show these two, never `errors`.
   */
  problems: string[];
  info_notes: string[];
  skipped_checks: ReportSkippedCheck[];
  /** Who the scan spoke as; empty for scans from before identities. */
  identities: ReportIdentity[];
  created_users: ReportCreatedUser[];
  /** Credentials renewed during the scan, all identities together. */
  refreshes: number;
}

/** An endpoint of the API as the scan saw it; endpoints flagged SKIP got no requests. */
export interface ReportEndpoint {
  method: string;
  path: string;
  summary: string;
  flags: Flag[];
}

/** A check the report knows about: from the run notes, from a finding, or from a skipped check. */
export interface ReportCheck {
  check_id: string;
  title: string;
  /** OWASP category id ("API1:2023"), or "Other". */
  category: string;
  status: 'run' | 'skipped';
  reason: string | null;
  /** "METHOD path" of each endpoint it ran against, when the engine recorded it; null: unknown. */
  endpoints: string[] | null;
}

export interface FixedFinding {
  fingerprint: string;
  vulnerability_name: string;
  method: string;
  path: string;
  severity: Severity | null;
  /** Absent on scans before issue 31. */
  cvss_score?: number;
}

/** An earlier completed scan of the same API (for the trend). */
export interface HistoryPoint {
  scan_id: string;
  completed_at: string;
  score: number | null;
  /** Its findings not set aside, informational ones included. */
  findings: number;
  /** Its vulnerabilities: the one count (shared/severity.ts), as its API card showed it. */
  vulnerabilities: number;
  /** Its findings not set aside per level (critical apart from high). */
  by_severity: Record<SeverityLevel, number>;
}

export type CoverageStatus = 'tested' | 'partial' | 'skipped' | 'not_tested';

export interface CategoryCoverage {
  /** "API1:2023". */
  id: string;
  title: string;
  flag: Exclude<Flag, 'SKIP'>;
  status: CoverageStatus;
  endpoints_tested: number;
  findings: number;
  /** What was tested, in a sentence. */
  tested: string;
  /** What was tested, in a few words (with the endpoint count). */
  tested_short: string;
  /** Checks of this category that did not run, with why. */
  skipped: { check_id: string; title: string; reason: string }[];
  /** Why the status is what it is (coverage honesty). */
  note: string;
}

export interface ReportInput {
  api: ReportApi;
  scan: ReportScan;
  /** In report order: severity, then CVSS (highest first), then category, name, method, path. */
  findings: ReportFinding[];
  /** Findings set aside in triage (false positives, accepted risks): listed apart, never scored or counted. */
  triaged: ReportFinding[];
  endpoints: ReportEndpoint[];
  /** Where the endpoint list came from: the scan's own record, or the API's current endpoints. */
  endpoints_source: 'scan' | 'api';
  checks: ReportCheck[];
  coverage: CategoryCoverage[];
  /** What the scan reached and exercised, per operation, identity and check (issue 26); null for scans from before it. */
  operations_coverage: ScanCoverage | null;
  /** Earlier completed scans of the same API, oldest first (at most HISTORY_LIMIT). */
  history: HistoryPoint[];
  /** Whether the findings were compared with earlier ones (an earlier scan, or the CLI's --baseline): their trend means something. */
  compared: boolean;
  /** Findings of the previous completed scan this scan no longer sees. */
  fixed: FixedFinding[];
}

/** How many earlier scans the trend shows. */
export const HISTORY_LIMIT = 11;

export const SEVERITY_LABELS: Record<Severity, string> = { high: 'High', medium: 'Medium', low: 'Low', info: 'Info' };

/** "Critical", "High", ... "Info". */
export const LEVEL_LABELS: Record<SeverityLevel, string> = LEVEL_NAMES;

export function isCritical(f: Pick<ReportFinding, 'severity' | 'cvss_score'>): boolean {
  return severityLevel(f) === 'critical';
}

/** The scan's security score (the scanner's securityScore, DESIGN.md section 6), each fingerprint counted once. */
export function computeScore(findings: Pick<ReportFinding, 'severity' | 'cvss_score' | 'fingerprint'>[]): number {
  const unique = new Map<string, { severity: Severity; cvss_score: number }>();
  for (const f of findings) if (!unique.has(f.fingerprint)) unique.set(f.fingerprint, { severity: severityBucket(f.severity), cvss_score: f.cvss_score });
  return securityScore([...unique.values()]);
}

/** Findings per level (critical apart from high). */
export function countBySeverity(findings: Pick<ReportFinding, 'severity' | 'cvss_score'>[]): Record<SeverityLevel, number> {
  return levelCounts(findings);
}

/** "API1:2023" from "API1:2023", "api1", "API1:2023 Broken Object Level Authorization"; null otherwise. */
export function categoryId(owasp: string | null | undefined): string | null {
  const m = /\bAPI\s*(\d{1,2})\b/i.exec(owasp ?? '');
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 && n <= 10 ? `API${n}:2023` : null;
}

/** Category number for ordering ("API3:2023" -> 3); 99 for anything else. */
export function categoryOrder(id: string | null): number {
  const m = /^API(\d+):/.exec(id ?? '');
  return m ? Number(m[1]) : 99;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Report order: severity, CVSS (highest first), category, name, method, path, fingerprint. */
export function compareFindings(a: ReportFinding, b: ReportFinding): number {
  return (
    levelRank(severityLevel(a)) - levelRank(severityLevel(b)) ||
    b.cvss_score - a.cvss_score ||
    categoryOrder(categoryId(a.owasp)) - categoryOrder(categoryId(b.owasp)) ||
    cmp(a.vulnerability_name, b.vulnerability_name) ||
    cmp(a.method, b.method) ||
    cmp(a.path, b.path) ||
    cmp(a.fingerprint, b.fingerprint) ||
    cmp(a.id, b.id)
  );
}

/** Stable display number of each finding ("F-001"), by position in report order. */
function numbered(findings: ReportFinding[], prefix: string): Map<string, string> {
  const width = Math.max(3, String(findings.length).length);
  return new Map(findings.map((f, i) => [f.id, `${prefix}-${String(i + 1).padStart(width, '0')}`]));
}

export function findingNumbers(findings: ReportFinding[]): Map<string, string> {
  return numbered(findings, 'F');
}

/** Findings set aside in triage are numbered apart (T-001...), so the F- numbers match the counts. */
export function triagedNumbers(findings: ReportFinding[]): Map<string, string> {
  return numbered(findings, 'T');
}

export interface ReportSummary {
  /** Findings listed (not set aside), informational ones included. */
  total: number;
  /** The scan's vulnerabilities: the one count of shared/severity.ts, as every screen shows it. */
  vulnerabilities: number;
  /** Findings listed per level (critical apart from high). */
  by_severity: Record<SeverityLevel, number>;
  /** Vulnerabilities of CVSS 9.0 or more (by_severity.critical). */
  critical: number;
  /** Vulnerabilities new since the previous scan, and recurring: together, `vulnerabilities`. */
  new: number;
  recurring: number;
  /** The previous scan's findings (informational ones left out) this scan no longer sees. */
  fixed: number;
  endpoints_total: number;
  endpoints_tested: number;
  endpoints_skipped: number;
  /** Change against the previous completed scan, when there is one with a score. */
  score_change: { previous: number; previous_at: string; delta: number } | null;
}

/** The previous scan's findings this scan no longer sees, informational ones left out (they were no vulnerabilities). */
export function fixedFindings(input: Pick<ReportInput, 'fixed'>): FixedFinding[] {
  return input.fixed.filter((f) => f.severity !== 'info');
}

export function summarize(input: ReportInput): ReportSummary {
  const skipped = input.endpoints.filter((e) => e.flags.includes('SKIP')).length;
  const prev = [...input.history].reverse().find((h) => h.score !== null);
  const counted = input.findings.filter(countsAsVulnerability);
  const bySeverity = countBySeverity(input.findings);
  return {
    total: input.findings.length,
    vulnerabilities: counted.length,
    by_severity: bySeverity,
    critical: bySeverity.critical,
    new: counted.filter((f) => f.trend !== 'recurring').length,
    recurring: counted.filter((f) => f.trend === 'recurring').length,
    fixed: fixedFindings(input).length,
    endpoints_total: input.endpoints.length,
    endpoints_tested: input.endpoints.length - skipped,
    endpoints_skipped: skipped,
    score_change: prev && prev.score !== null ? { previous: prev.score, previous_at: prev.completed_at, delta: input.scan.score - prev.score } : null,
  };
}

/** Findings grouped by OWASP category, in category order; findings keep report order inside a group. */
export function groupByCategory(findings: ReportFinding[]): { category: string; findings: ReportFinding[] }[] {
  const groups = new Map<string, ReportFinding[]>();
  for (const f of findings) {
    const key = categoryId(f.owasp) ?? 'Other';
    const list = groups.get(key) ?? [];
    list.push(f);
    groups.set(key, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => categoryOrder(a) - categoryOrder(b) || cmp(a, b))
    .map(([category, list]) => ({ category, findings: list }));
}

/** Scan duration in seconds, or null without both times. */
export function durationSeconds(scan: Pick<ReportScan, 'started_at' | 'completed_at'>): number | null {
  if (!scan.started_at || !scan.completed_at) return null;
  const ms = Date.parse(scan.completed_at) - Date.parse(scan.started_at);
  return Number.isNaN(ms) ? null : Math.max(0, ms) / 1000;
}

/** The instant a report is "of": the scan's completion, else its start, else its creation. */
export function reportInstant(scan: Pick<ReportScan, 'completed_at' | 'started_at' | 'created_at'>): Date {
  return new Date(scan.completed_at ?? scan.started_at ?? scan.created_at);
}
