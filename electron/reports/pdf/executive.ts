// The executive PDF: the score with a gauge, the severity split, the top risks in plain language,
// the OWASP API Top 10 (2023) coverage (what was tested, what was skipped and why), and the trend
// against earlier scans of the same API.

import { countsAsVulnerability, severityText, type SeverityLevel } from '../../../shared/severity';
import { markdownPlain } from '../markdown';
import { day, endpointLabel, firstSentence, identitySummary, plural, seconds, when, type RenderOptions } from '../format';
import {
  durationSeconds,
  fixedFindings,
  summarize,
  type CategoryCoverage,
  type ReportFinding,
  type ReportInput,
} from '../model';
import { coverageSentence } from '../operations-coverage';
import { COVERAGE_LABELS, owaspCategory } from '../owasp';
import { problemsLead } from '../scan-notes';
import { CRITICAL_COLOR, gauge, levelColor, scoreColor, scoreRating, severityBars, severityDonut, trendChart } from './charts';
import type { PdfSpec } from './document';
import { infoNotesPdf, problemsPdf } from './scan-notes';
import { triagedAppendix } from './triaged';
import { CONTENT_WIDTH, PAGE, STYLES, THEME, type Flow } from './layout';

export const COVERAGE_COLORS: Record<CategoryCoverage['status'], string> = {
  tested: '#2e7d32',
  partial: '#d4a106',
  skipped: '#e65100',
  not_tested: '#9aa5b1',
};

export interface Risk {
  check_id: string;
  worst: ReportFinding;
  findings: ReportFinding[];
}

/**
 * The key of a risk: the check and the finding name. One check can report several problems (the
 * security-headers check has one rule per header, each with its own name and fix): a risk named
 * after one of them lists only its own findings, never the endpoints of its siblings.
 */
export const riskKey = (f: Pick<ReportFinding, 'check_id' | 'vulnerability_name'>): string => `${f.check_id}\u0000${f.vulnerability_name}`;

/** The findings of a category as groups of one check and problem, in report order of their worst finding. */
export function groupRepeated(findings: ReportFinding[]): ReportFinding[][] {
  const groups = new Map<string, ReportFinding[]>();
  for (const f of findings) {
    const key = riskKey(f);
    const list = groups.get(key);
    if (list) list.push(f);
    else groups.set(key, [f]);
  }
  return [...groups.values()];
}

/** Findings grouped by check (and problem), worst first: the risks a reader should act on. */
export function topRisks(findings: ReportFinding[], limit = 5): Risk[] {
  // findings are in report order, so each group's first finding is its worst and groups keep that order.
  return groupRepeated(findings).map((list) => ({ check_id: list[0]!.check_id, worst: list[0]!, findings: list })).slice(0, limit);
}

/**
 * "Why it matters" of a risk: what its own OWASP category puts at stake (the worst finding's, which
 * every finding of the risk shares); a finding outside the Top 10 says it in its own first sentence.
 */
export function whyItMatters(r: Risk): string {
  const cat = owaspCategory(r.worst.owasp);
  return cat ? cat.risk : firstSentence(markdownPlain(r.worst.description));
}

/** "2 critical, 4 high, 5 medium and 1 low": the vulnerabilities by level. */
export function levelsLine(counts: Record<SeverityLevel, number>): string {
  const parts = (['critical', 'high', 'medium', 'low'] as const).map((l) => `${counts[l]} ${l}`);
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

export function verdict(input: ReportInput, opts: RenderOptions): string[] {
  const s = summarize(input);
  const out: string[] = [];
  const info = s.by_severity.info;
  const infoText = info ? `${plural(info, 'informational finding')} (no risk of ${info === 1 ? 'its' : 'their'} own)` : '';
  if (s.total === 0) {
    out.push(
      `The scan completed on ${day(input.scan.completed_at, opts)} found no issues in the checks it ran. That does not prove the API is secure: the coverage section lists what was and was not tested.`,
    );
  } else if (s.vulnerabilities === 0) {
    out.push(
      `The scan completed on ${day(input.scan.completed_at, opts)} found no vulnerabilities, only ${infoText}. That does not prove the API is secure: the coverage section lists what was and was not tested.`,
    );
  } else {
    out.push(
      `The scan completed on ${day(input.scan.completed_at, opts)} found ${plural(s.vulnerabilities, 'vulnerability', 'vulnerabilities')}: ${levelsLine(s.by_severity)}` +
        `${s.critical ? ` (critical: CVSS 9.0 or more)` : ''}${info ? `; and ${infoText}` : ''}.`,
    );
  }
  let score = `The security score is ${input.scan.score} out of 100 (${scoreRating(input.scan.score)}).`;
  if (s.score_change) {
    const d = s.score_change.delta;
    score += ` The previous scan on ${day(s.score_change.previous_at, opts)} scored ${s.score_change.previous} (${d > 0 ? `up ${d}` : d < 0 ? `down ${-d}` : 'unchanged'}).`;
  }
  out.push(score);
  if (input.history.length) out.push(`Since the previous scan: ${s.new} new and ${s.recurring} recurring vulnerabilities, ${s.fixed} fixed.`);
  const by = (st: CategoryCoverage['status']) => input.coverage.filter((c) => c.status === st).length;
  out.push(
    `Of the ten OWASP API Security Top 10 categories, ${by('tested')} were tested, ${by('partial')} partially, ${by('skipped')} skipped and ${by('not_tested')} not tested. ` +
      'API6 and API10 can only be covered partially by any automated tool.',
  );
  // One line on what the scan reached; the technical report's appendix has every operation.
  const cov = input.operations_coverage;
  if (cov) {
    const gaps = cov.summary.not_exercised > 0 || cov.summary.reached < cov.summary.operations;
    out.push(`${coverageSentence(cov)}${gaps ? ' The technical report lists each operation the scan did not reach or fully exercise, and why.' : ''}`);
  }
  const problems = problemsLead(input.scan.problems);
  if (problems) out.push(problems);
  return out;
}

function summary(flow: Flow, input: ReportInput, opts: RenderOptions): void {
  const s = summarize(input);
  flow.heading('1. Summary', STYLES.h1, { toc: 0, rule: true, keepWith: 240 });
  const top = flow.reserve(182);
  gauge(flow, PAGE.left, top, 230, input.scan.score);
  const x = PAGE.left + 250;
  const facts: [string, string, string?][] = [
    ['Security score', `${input.scan.score} / 100 — ${scoreRating(input.scan.score)}`, scoreColor(input.scan.score)],
    ['Vulnerabilities', String(s.vulnerabilities)],
    ['Critical (CVSS ≥ 9.0)', String(s.critical), s.critical ? CRITICAL_COLOR : undefined],
    ['Endpoints tested', `${s.endpoints_tested} of ${s.endpoints_total}`],
    ['Requests sent', input.scan.requests_sent.toLocaleString('en-US')],
    ['Duration', seconds(durationSeconds(input.scan))],
    ['Compared with', s.score_change ? `${day(s.score_change.previous_at, opts)}: ${s.score_change.previous} (${s.score_change.delta >= 0 ? '+' : ''}${s.score_change.delta})` : 'first scan of this API'],
  ];
  facts.forEach(([k, v, color], i) => {
    const y = top + 2 + i * 25.5;
    flow.textAt(k, x, y, { font: 'sans', size: 7.5, color: THEME.muted });
    flow.textAt(flow.ts.truncate(v, 'bold', 10.5, PAGE.left + CONTENT_WIDTH - x), x, y + 9.5, { font: 'bold', size: 10.5, color: color ?? THEME.ink, leading: 1.3 });
  });

  flow.heading('Findings by severity', STYLES.h3, { keepWith: 110 });
  const chartTop = flow.reserve(104);
  severityBars(flow, PAGE.left, chartTop + 6, 300, s.by_severity);
  severityDonut(flow, PAGE.left + 400, chartTop + 46, 44, s.by_severity);
  flow.space(6);
  for (const p of verdict(input, opts)) flow.paragraph(p, STYLES.body);
}

function risks(flow: Flow, input: ReportInput): void {
  flow.heading('2. Top risks', STYLES.h1, { toc: 0, rule: true });
  const list = topRisks(input.findings);
  if (!list.length) {
    flow.paragraph('There are no risks to report: the scan found no issues in the checks it ran.');
    return;
  }
  flow.paragraph(
    `The ${list.length === 1 ? 'risk' : `${list.length} risks`} below matter most, worst first. Each groups the findings of one check; the technical report has the evidence for every one of them.`,
    STYLES.body,
  );
  list.forEach((r, i) => {
    const f = r.worst;
    const cat = owaspCategory(f.owasp);
    flow.heading(`Risk ${i + 1}: ${f.vulnerability_name}`, STYLES.h2, { keepWith: 60, toc: 1 });
    const color = levelColor(f);
    const sevText = `${severityText(f)} · CVSS ${f.cvss_score.toFixed(1)}${cat ? ` · ${cat.id} ${cat.title}` : ''}`;
    flow.paragraph(sevText, { font: 'bold', size: 8.5, color }, { gapAfter: 3 });
    const where = r.findings.map((x) => endpointLabel(x.method, x.path));
    const unique = [...new Set(where)];
    const shown = unique.slice(0, 3).join(', ');
    flow.paragraph(`Where: ${plural(unique.length, 'endpoint')} — ${shown}${unique.length > 3 ? ` and ${unique.length - 3} more` : ''}.`, STYLES.body, { gapAfter: 3 });
    flow.rich(whyItMatters(r), STYLES.body, { gapAfter: 3, prefix: 'Why it matters: ' });
    flow.rich(firstSentence(f.recommendation, 400), STYLES.body, { prefix: 'What to do: ' });
  });
}

function coverageTable(flow: Flow, input: ReportInput): void {
  flow.heading('3. OWASP API Security Top 10 (2023) coverage', STYLES.h1, { toc: 0, rule: true });
  flow.paragraph(
    'What this scan tested in each category, what it skipped and why. A category is only as well covered as the endpoints flagged for it; ' +
      'API6 (business flows) and API10 (unsafe consumption of APIs) are partial in every automated tool and need a manual review as well.',
  );
  const rows = input.coverage.map((c) => {
    const notes = [
      owaspCategory(c.id)?.partial && c.status !== 'not_tested' ? 'Partial in every tool: needs a manual review too.' : '',
      c.skipped.map((k) => `${k.title}: ${k.reason}`).join(' '),
      c.status === 'not_tested' ? c.note : '',
    ]
      .filter(Boolean)
      .join(' ');
    return [
      `${c.id.split(':')[0]} ${c.title}`,
      { text: COVERAGE_LABELS[c.status], dot: COVERAGE_COLORS[c.status] },
      c.tested_short,
      { text: String(c.findings), font: c.findings ? ('bold' as const) : undefined },
      notes || '—',
    ];
  });
  flow.table(
    [
      { header: 'Category', width: 112 },
      { header: 'Status', width: 62 },
      { header: 'What was tested', width: 150 },
      { header: 'Findings', width: 46, align: 'right' },
      { header: 'Skipped, and why', width: CONTENT_WIDTH - 370 },
    ],
    rows,
    { size: 7.5 },
  );
  const skippedEndpoints = input.endpoints.filter((e) => e.flags.includes('SKIP')).length;
  if (skippedEndpoints) flow.paragraph(`${plural(skippedEndpoints, 'endpoint')} marked SKIP got no requests in any category.`, STYLES.small);
}

function trend(flow: Flow, input: ReportInput, opts: RenderOptions): void {
  flow.heading('4. Trend', STYLES.h1, { toc: 0, rule: true });
  const s = summarize(input);
  if (!input.history.length) {
    flow.paragraph(
      'This is the first completed scan of this API, so there is nothing to compare with yet. Later scans will show the score over time and which findings are new, recurring or fixed.',
    );
    return;
  }
  flow.paragraph(`Security score over the last ${plural(input.history.length + 1, 'scan')} of this API.`);
  const points = [
    ...input.history.map((h) => ({ label: day(h.completed_at, opts).slice(5), score: h.score, current: false })),
    { label: day(input.scan.completed_at, opts).slice(5), score: input.scan.score, current: true },
  ];
  const top = flow.reserve(150);
  trendChart(flow, PAGE.left, top, CONTENT_WIDTH, 145, points);
  flow.space(8);
  const levels = (by: Record<SeverityLevel, number>) => [String(by.critical), String(by.high), String(by.medium), String(by.low), String(by.info)];
  const rows = [
    ...input.history.map((h) => [day(h.completed_at, opts), h.score === null ? '—' : String(h.score), String(h.vulnerabilities), ...levels(h.by_severity)]),
    [
      { text: `${day(input.scan.completed_at, opts)} (this scan)`, font: 'bold' as const },
      { text: String(input.scan.score), font: 'bold' as const },
      { text: String(s.vulnerabilities), font: 'bold' as const },
      ...levels(s.by_severity),
    ],
  ];
  const n = (h: string, width = 44) => ({ header: h, width, align: 'right' as const });
  flow.table(
    [{ header: 'Scan', width: CONTENT_WIDTH - 6 * 44 - 76 }, n('Score'), n('Vulnerabilities', 76), n('Critical'), n('High'), n('Medium'), n('Low'), n('Info')],
    rows,
    { size: 8 },
  );
  flow.heading('Changes since the previous scan', STYLES.h3, { keepWith: 40 });
  flow.paragraph(`${plural(s.new, 'new vulnerability', 'new vulnerabilities')}, ${plural(s.recurring, 'recurring vulnerability', 'recurring vulnerabilities')}, ${plural(s.fixed, 'fixed finding')}.`);
  const newOnes = input.findings.filter((f) => countsAsVulnerability(f) && f.trend !== 'recurring');
  const list = (label: string, items: string[]) => {
    if (!items.length) return;
    const shown = items.slice(0, 12);
    flow.paragraph(`${label}: ${shown.join('; ')}${items.length > shown.length ? `; and ${items.length - shown.length} more` : ''}.`, STYLES.body);
  };
  list('New', newOnes.map((f) => `${f.vulnerability_name} (${endpointLabel(f.method, f.path)})`));
  list('Fixed', fixedFindings(input).map((f) => `${f.vulnerability_name}${f.method || f.path ? ` (${endpointLabel(f.method, f.path).trim()})` : ''}`));
}

/** Notes listed per kind in the executive report; the technical report has them all. */
const MAX_NOTES = 50;

function about(flow: Flow, input: ReportInput, opts: RenderOptions): void {
  flow.heading('5. About this scan', STYLES.h1, { toc: 0, rule: true });
  // First, as on the scan page's "About this scan": the summary's sentence points here.
  problemsPdf(flow, input.scan.problems, MAX_NOTES);
  const s = summarize(input);
  const who = identitySummary(input.scan);
  flow.grid(
    [
      { label: 'Profile', value: input.scan.profile },
      { label: 'Requests', value: input.scan.requests_sent.toLocaleString('en-US') },
      { label: 'Started', value: when(input.scan.started_at, opts) },
      { label: 'Completed', value: when(input.scan.completed_at, opts) },
      { label: 'Duration', value: seconds(durationSeconds(input.scan)) },
      { label: 'Progress', value: `${input.scan.progress.done} of ${input.scan.progress.total} steps` },
      { label: 'Endpoints', value: `${s.endpoints_tested} tested, ${s.endpoints_skipped} marked SKIP` },
      { label: 'Score', value: input.scan.score_source === 'stored' ? 'as computed by the scan' : 'computed from the findings' },
      { label: 'Base URL', value: input.api.base_url, font: 'mono', wide: true },
      // One line: the identity table itself is in the technical report.
      ...(who ? [{ label: 'Identities', value: who, wide: true }] : []),
    ],
    { labelWidth: 62 },
  );
  flow.space(6);
  flow.heading('How the score works', STYLES.h3, { keepWith: 30 });
  flow.paragraph(
    'The score starts at 100 and loses 25 points for each critical finding (CVSS 9.0 or more), 15 for each other high, 7 for each medium and 2 for each low finding; informational findings cost nothing. It never goes below 0.',
  );
  if (input.scan.skipped_checks.length) {
    flow.heading('Checks that did not run', STYLES.h3, { keepWith: 30 });
    flow.table(
      [
        { header: 'Check', width: 170 },
        { header: 'Why it was skipped', width: CONTENT_WIDTH - 170 },
      ],
      input.scan.skipped_checks.map((c) => [c.title === c.check_id ? c.check_id : `${c.title} (${c.check_id})`, c.reason]),
      { size: 8 },
    );
  }
  infoNotesPdf(flow, input.scan.info_notes, MAX_NOTES);
}

export const executiveSpec: PdfSpec = {
  title: 'Executive Report',
  subtitle: 'API security assessment: summary',
  coverFacts(input) {
    const s = summarize(input);
    return [
      ['Security score', `${input.scan.score} / 100 (${scoreRating(input.scan.score)})`],
      ['Vulnerabilities', s.vulnerabilities ? `${s.vulnerabilities}: ${levelsLine(s.by_severity)}` : 'none'],
    ];
  },
  body(flow, input, opts) {
    summary(flow, input, opts);
    risks(flow, input);
    coverageTable(flow, input);
    trend(flow, input, opts);
    about(flow, input, opts);
    triagedAppendix(flow, input, opts);
  },
};
