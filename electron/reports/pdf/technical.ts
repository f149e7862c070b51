// The technical PDF: every finding with its OWASP category, method and path, CVSS vector and score,
// confidence, evidence, curl reproduction, recommendation and references; grouped by category and
// ordered by severity then CVSS. Also the identities the scan spoke as, the coverage detail, fixed
// findings, the endpoints, and an appendix of the findings set aside in triage.

import { severityText } from '../../../shared/severity';
import { createdUserLabel, endpointLabel, findingLocation, identityObtained, plural, ROLE_LABELS, safeUrl, seconds, when, type RenderOptions } from '../format';
import { durationSeconds, findingNumbers, fixedFindings, groupByCategory, SEVERITY_LABELS, summarize, type ReportFinding, type ReportInput } from '../model';
import { COVERAGE_APPENDIX_TITLE, coverageSentence } from '../operations-coverage';
import { categoryLabel, COVERAGE_LABELS } from '../owasp';
import { levelColor, scoreColor, scoreRating, severityBars } from './charts';
import type { PdfSpec } from './document';
import { coverageAppendixPdf } from './coverage-appendix';
import { infoNotesPdf, problemsPdf } from './scan-notes';
import { triagedAppendix } from './triaged';
import { COVERAGE_COLORS, groupRepeated, levelsLine } from './executive';
import { CONTENT_WIDTH, PAGE, STYLES, THEME, type Flow } from './layout';

function overview(flow: Flow, input: ReportInput, opts: RenderOptions): void {
  const s = summarize(input);
  flow.heading('1. Scan overview', STYLES.h1, { toc: 0, rule: true, keepWith: 200 });
  flow.grid(
    [
      { label: 'API', value: input.api.name, font: 'bold', wide: true },
      { label: 'Base URL', value: input.api.base_url, font: 'mono', wide: true },
      { label: 'Scan', value: input.scan.id, font: 'mono', wide: true },
      { label: 'Profile', value: input.scan.profile },
      { label: 'Requests', value: input.scan.requests_sent.toLocaleString('en-US') },
      { label: 'Started', value: when(input.scan.started_at, opts) },
      { label: 'Completed', value: when(input.scan.completed_at, opts) },
      { label: 'Duration', value: seconds(durationSeconds(input.scan)) },
      { label: 'Endpoints', value: `${s.endpoints_tested} tested, ${s.endpoints_skipped} marked SKIP` },
      { label: 'Score', value: `${input.scan.score} / 100 (${scoreRating(input.scan.score)})`, color: scoreColor(input.scan.score), font: 'bold' },
      { label: 'Vulnerabilities', value: `${s.vulnerabilities} (${s.critical} critical, CVSS ≥ 9.0)` },
      { label: 'Findings', value: `${s.total} listed, ${s.by_severity.info} informational` },
      { label: 'Trend', value: input.history.length ? `${s.new} new, ${s.recurring} recurring, ${s.fixed} fixed` : 'first scan of this API' },
    ],
    { labelWidth: 74 },
  );
  flow.space(8);
  const top = flow.reserve(100);
  severityBars(flow, PAGE.left, top + 4, 320, s.by_severity);
  flow.paragraph(
    'Findings are grouped by OWASP API Security Top 10 (2023) category and ordered by severity, then CVSS score. Severity and confidence are separate: ' +
      'confidence says how strongly the recorded evidence proves the finding. Secrets the scan used are redacted from evidence and commands.',
    STYLES.small,
  );
  // First after the figures, as on the scan page: what they may miss.
  problemsPdf(flow, input.scan.problems);
  identities(flow, input);
}

/** Who the scan spoke as, and the users it registered; nothing for scans from before identities. */
function identities(flow: Flow, input: ReportInput): void {
  const { identities: list, created_users: users } = input.scan;
  if (list.length) {
    flow.heading('Identities', STYLES.h3, { keepWith: 60 });
    flow.paragraph('Who the scan spoke as: how each credential was obtained, who the API said it was, how often it was renewed and how many logins failed. No secret is shown.', STYLES.small, { gapAfter: 4 });
    // Fixed widths for the name, the role and the numbers (as wide as their bold headers); the two texts share the rest.
    const fixedW = 80 + 56 + 52 + 62;
    const obtainedW = Math.round((CONTENT_WIDTH - fixedW) * 0.55);
    flow.table(
      [
        { header: 'Identity', width: 80, font: 'bold' },
        { header: 'Role', width: 56 },
        { header: 'How obtained', width: obtainedW },
        { header: 'Verified as', width: CONTENT_WIDTH - fixedW - obtainedW },
        { header: 'Refreshes', width: 52, align: 'right' },
        { header: 'Failed logins', width: 62, align: 'right' },
      ],
      list.map((i) => [
        i.name,
        ROLE_LABELS[i.role],
        identityObtained(i),
        i.verified_as ?? { text: 'not verified', color: THEME.muted },
        String(i.refreshes),
        i.failures ? { text: String(i.failures), font: 'bold' } : '0',
      ]),
      { size: 7.5 },
    );
  }
  if (users.length) {
    flow.heading('Users the scan registered', STYLES.h3, { keepWith: 50 });
    flow.table(
      [
        { header: 'User', width: 150, font: 'mono' },
        { header: 'Registered with', width: 130, font: 'mono' },
        { header: 'What for', width: CONTENT_WIDTH - 280 },
      ],
      users.map((u) => [createdUserLabel(u), u.operation || '—', u.purpose || '—']),
      { size: 7.5 },
    );
  }
  if (list.length || users.length) flow.space(6);
}

function coverage(flow: Flow, input: ReportInput): void {
  flow.heading('2. Coverage', STYLES.h1, { toc: 0, rule: true });
  flow.paragraph('What the scan tested in each category, and what it skipped and why.');
  if (input.operations_coverage) {
    flow.paragraph(`${coverageSentence(input.operations_coverage)} The appendix “${COVERAGE_APPENDIX_TITLE}” shows, for each operation, what every identity got back and why a check could not exercise it.`, STYLES.strong);
  }
  for (const c of input.coverage) {
    flow.heading(`${c.id} ${c.title}`, STYLES.h3, { keepWith: 40 });
    flow.paragraph(`${COVERAGE_LABELS[c.status]} · ${plural(c.endpoints_tested, 'endpoint')} · ${plural(c.findings, 'finding')}`, { font: 'bold', size: 8.5, color: COVERAGE_COLORS[c.status] }, { gapAfter: 2 });
    flow.paragraph(c.tested, STYLES.body, { gapAfter: 2 });
    if (c.note) flow.paragraph(c.note, STYLES.small, { gapAfter: 2 });
    for (const sk of c.skipped) flow.paragraph(`Skipped ${sk.title} (${sk.check_id}): ${sk.reason}`, STYLES.small, { gapAfter: 2 });
    flow.space(4);
  }
  const other = input.scan.skipped_checks.filter((sc) => !input.coverage.some((c) => c.skipped.some((x) => x.check_id === sc.check_id)));
  if (other.length) {
    flow.heading('Other skipped checks', STYLES.h3, { keepWith: 30 });
    for (const sk of other) flow.paragraph(`${sk.title} (${sk.check_id}): ${sk.reason}`, STYLES.small, { gapAfter: 2 });
  }
  infoNotesPdf(flow, input.scan.info_notes);
}

function finding(flow: Flow, f: ReportFinding, number: string): void {
  const color = levelColor(f);
  flow.heading(`${number} ${f.vulnerability_name}`, STYLES.h2, { toc: 2, outline: true, keepWith: 90 });
  flow.grid(
    [
      { label: 'Severity', value: severityText(f), color, font: 'bold' },
      { label: 'CVSS', value: f.cvss_score.toFixed(1), color, font: 'bold' },
      { label: 'Endpoint', value: endpointLabel(f.method, f.path), font: 'mono', wide: true },
      ...(f.graphql?.operation ? [{ label: 'Operation', value: f.graphql.operation, font: 'mono' as const, wide: true }] : []),
      { label: 'Vector', value: f.cvss_vector || '—', font: 'mono', wide: true },
      { label: 'Confidence', value: SEVERITY_LABELS[f.confidence as 'high'] ?? f.confidence },
      { label: 'OWASP', value: f.owasp },
      { label: 'CWE', value: f.cwe ?? '—' },
      { label: 'Parameter', value: f.parameter ?? '—', font: f.parameter ? 'mono' : 'sans' },
      { label: 'Check', value: f.check_id, font: 'mono' },
      { label: 'Trend', value: f.trend === 'recurring' ? 'Recurring' : 'New' },
      { label: 'Fingerprint', value: f.fingerprint, font: 'mono', wide: true },
    ],
    { labelWidth: 62, size: 8.5 },
  );
  flow.space(4);
  flow.heading('Description', STYLES.h3, { keepWith: 24 });
  flow.rich(f.description || '—');
  graphqlRequest(flow, f);
  flow.heading('Evidence', STYLES.h3, { keepWith: 40 });
  flow.code(f.evidence || 'No evidence recorded.');
  flow.heading('Reproduce', STYLES.h3, { keepWith: 30 });
  if (f.curl.trim()) flow.code(f.curl);
  else flow.paragraph('No reproduction command was recorded for this finding.', STYLES.small);
  flow.heading('Recommendation', STYLES.h3, { keepWith: 24 });
  flow.rich(f.recommendation || '—');
  references(flow, f.references);
  endRule(flow);
}

/** A GraphQL finding's request: the operation, the query and the variables (and the batch size). */
function graphqlRequest(flow: Flow, f: ReportFinding, heading = true): void {
  const g = f.graphql;
  if (!g) return;
  // In a group of locations, each location's heading already names its operation.
  if (heading) flow.heading('GraphQL', STYLES.h3, { keepWith: 40 });
  const facts = [
    ...(heading ? [{ label: 'Operation', value: g.operation ?? 'The API as a whole', font: g.operation ? ('mono' as const) : ('sans' as const), wide: true }] : []),
    ...(g.batch ? [{ label: 'Request', value: `Batch of ${plural(g.batch, 'operation')}`, wide: true }] : []),
  ];
  if (facts.length) flow.grid(facts, { labelWidth: 62, size: 8.5 });
  flow.paragraph('Query', STYLES.label, { gapAfter: 2, keepLines: 3 });
  flow.code(g.query);
  if (g.variables) {
    flow.paragraph('Variables', STYLES.label, { gapAfter: 2, keepLines: 3 });
    flow.code(g.variables);
  }
}

function references(flow: Flow, refs: string[]): void {
  if (!refs.length) return;
  flow.heading('References', STYLES.h3, { keepWith: 20 });
  for (const ref of refs) {
    const url = safeUrl(ref);
    flow.paragraph(ref, { font: 'sans', size: 8.5, color: url ? THEME.accent : THEME.ink }, { gapAfter: 1, link: url ?? undefined, keepLines: 3 });
  }
}

function endRule(flow: Flow): void {
  flow.space(6);
  flow.push({ k: 'line', x1: PAGE.left, y1: flow.y, x2: PAGE.left + CONTENT_WIDTH, y2: flow.y, color: THEME.rule, width: 0.6 });
  flow.space(12);
}

/** The one value every finding of the list shares, or null when they differ. */
function shared<T>(list: ReportFinding[], pick: (f: ReportFinding) => T): T | null {
  const first = pick(list[0]!);
  return list.every((f) => pick(f) === first) ? first : null;
}

/**
 * Repeated findings of one check (and problem), e.g. "Input size limits not enforced" on nine
 * endpoints: one heading with what they share (severity, CVSS, category, description, fix and
 * references, once), a table of the locations, then each location's own evidence and command.
 */
function findingGroup(flow: Flow, list: ReportFinding[], numbers: Map<string, string>): void {
  const worst = list[0]!;
  const color = levelColor(worst);
  const first = numbers.get(worst.id)!;
  flow.heading(`${first} ${worst.vulnerability_name} (${list.length} locations)`, STYLES.h2, { toc: 2, outline: true, keepWith: 90 });
  const scores = list.map((f) => f.cvss_score);
  const lo = Math.min(...scores);
  const hi = Math.max(...scores);
  const sharedSeverity = shared(list, (f) => severityText(f));
  const sharedVector = shared(list, (f) => f.cvss_vector);
  const sharedParam = shared(list, (f) => f.parameter);
  const sharedDescription = shared(list, (f) => f.description);
  const sharedRecommendation = shared(list, (f) => f.recommendation);
  const sharedCwe = shared(list, (f) => f.cwe);
  const endpoints = new Set(list.map((f) => endpointLabel(f.method, f.path))).size;
  flow.grid(
    [
      { label: 'Severity', value: sharedSeverity ?? `${severityText(worst)} at worst`, color, font: 'bold' },
      { label: 'CVSS', value: lo === hi ? hi.toFixed(1) : `${lo.toFixed(1)} to ${hi.toFixed(1)}`, color, font: 'bold' },
      { label: 'Found', value: `${plural(list.length, 'time')}, on ${plural(endpoints, 'endpoint')}`, wide: true },
      ...(sharedVector !== null ? [{ label: 'Vector', value: sharedVector || '—', font: 'mono' as const, wide: true }] : []),
      { label: 'OWASP', value: worst.owasp },
      ...(list.every((f) => f.cwe === worst.cwe) ? [{ label: 'CWE', value: sharedCwe ?? '—' }] : []),
      { label: 'Check', value: worst.check_id, font: 'mono' },
      ...(sharedParam !== null && sharedParam ? [{ label: 'Parameter', value: sharedParam, font: 'mono' as const }] : []),
    ],
    { labelWidth: 62, size: 8.5 },
  );
  flow.space(4);
  if (sharedDescription !== null) {
    flow.heading('Description', STYLES.h3, { keepWith: 24 });
    flow.rich(sharedDescription || '—');
  }
  if (sharedRecommendation !== null) {
    flow.heading('Recommendation', STYLES.h3, { keepWith: 24 });
    flow.rich(sharedRecommendation || '—');
  }
  flow.heading('Locations', STYLES.h3, { keepWith: 40 });
  flow.table(
    [
      { header: '#', width: 44, font: 'mono' },
      { header: 'Endpoint', width: 200, font: 'mono' },
      { header: 'Parameter', width: 86, font: 'mono' },
      { header: 'Severity', width: CONTENT_WIDTH - 44 - 200 - 86 - 40 - 54 },
      { header: 'CVSS', width: 40, align: 'right' },
      { header: 'Trend', width: 54 },
    ],
    list.map((f) => [
      numbers.get(f.id)!,
      f.graphql?.operation ?? endpointLabel(f.method, f.path),
      f.parameter ?? '—',
      { text: severityText(f), dot: levelColor(f) },
      f.cvss_score.toFixed(1),
      f.trend === 'recurring' ? 'Recurring' : 'New',
    ]),
    { size: 7.5 },
  );
  for (const f of list) {
    flow.heading(`${numbers.get(f.id)!} ${findingLocation(f)}${f.parameter ? ` · ${f.parameter}` : ''}`, { ...STYLES.h3, font: 'monoBold', size: 9 }, { keepWith: 60 });
    flow.grid(
      [
        { label: 'Confidence', value: SEVERITY_LABELS[f.confidence as 'high'] ?? f.confidence },
        ...(list.every((x) => x.cwe === worst.cwe) ? [] : [{ label: 'CWE', value: f.cwe ?? '—' }]),
        ...(sharedVector === null ? [{ label: 'Vector', value: f.cvss_vector || '—', font: 'mono' as const, wide: true }] : []),
        { label: 'Fingerprint', value: f.fingerprint, font: 'mono', wide: true },
      ],
      { labelWidth: 62, size: 8 },
    );
    if (sharedDescription === null) flow.rich(f.description || '—');
    graphqlRequest(flow, f, false);
    flow.code(f.evidence || 'No evidence recorded.');
    if (f.curl.trim()) flow.code(f.curl);
    else flow.paragraph('No reproduction command was recorded for this finding.', STYLES.small);
    if (sharedRecommendation === null) flow.rich(f.recommendation || '—', STYLES.body, { prefix: 'Recommendation: ' });
  }
  references(flow, [...new Set(list.flatMap((f) => f.references))]);
  endRule(flow);
}


function findings(flow: Flow, input: ReportInput): void {
  flow.heading('3. Findings', STYLES.h1, { toc: 0, rule: true });
  if (!input.findings.length) {
    flow.paragraph('The scan found no issues in the checks it ran. Section 2 lists what was and was not tested.');
    return;
  }
  const numbers = findingNumbers(input.findings);
  for (const group of groupByCategory(input.findings)) {
    flow.heading(`${categoryLabel(group.category)} (${group.findings.length})`, { ...STYLES.h2, size: 14, color: THEME.accent }, { toc: 1, rule: true, keepWith: 120 });
    for (const list of groupRepeated(group.findings)) {
      if (list.length === 1) finding(flow, list[0]!, numbers.get(list[0]!.id)!);
      else findingGroup(flow, list, numbers);
    }
  }
}

function fixed(flow: Flow, input: ReportInput): void {
  if (!input.history.length) return;
  flow.heading('4. Fixed since the previous scan', STYLES.h1, { toc: 0, rule: true });
  const list = fixedFindings(input);
  if (!list.length) {
    flow.paragraph('No finding of the previous scan has disappeared.');
    return;
  }
  flow.table(
    [
      { header: 'Finding', width: 200 },
      { header: 'Endpoint', width: 180, font: 'mono' },
      { header: 'Fingerprint', width: CONTENT_WIDTH - 380, font: 'mono' },
    ],
    list.map((x) => [
      x.severity ? { text: x.vulnerability_name, dot: levelColor({ severity: x.severity, cvss_score: x.cvss_score ?? 0 }) } : x.vulnerability_name,
      endpointLabel(x.method, x.path).trim() || '—',
      x.fingerprint,
    ]),
    { size: 8 },
  );
}

function endpoints(flow: Flow, input: ReportInput): void {
  flow.heading(`${input.history.length ? 5 : 4}. Endpoints`, STYLES.h1, { toc: 0, rule: true });
  flow.paragraph(
    input.endpoints_source === 'scan'
      ? 'The endpoints as the scan saw them, with their flags. Endpoints marked SKIP got no requests.'
      : 'The API’s endpoints with their current flags. Endpoints marked SKIP get no requests.',
  );
  if (!input.endpoints.length) {
    flow.paragraph('The API has no endpoints.');
    return;
  }
  flow.table(
    [
      { header: 'Method', width: 50, font: 'monoBold' },
      { header: 'Path', width: 250, font: 'mono' },
      { header: 'Flags', width: CONTENT_WIDTH - 300 },
    ],
    input.endpoints.map((e) => [e.method, e.path, e.flags.length ? e.flags.join(', ') : '—']),
    { size: 8 },
  );
}

export const technicalSpec: PdfSpec = {
  title: 'Technical Report',
  subtitle: 'API security assessment: findings and evidence',
  coverFacts(input) {
    const s = summarize(input);
    return [
      ['Security score', `${input.scan.score} / 100 (${scoreRating(input.scan.score)})`],
      ['Vulnerabilities', `${s.vulnerabilities} (${levelsLine(s.by_severity)}); ${s.by_severity.info} informational`],
      ['Endpoints', `${s.endpoints_tested} tested of ${s.endpoints_total}`],
      ...(input.triaged.length ? [['Set aside in triage', `${input.triaged.length} (listed in the appendix)`] as [string, string]] : []),
    ];
  },
  body(flow, input, opts) {
    overview(flow, input, opts);
    coverage(flow, input);
    findings(flow, input);
    fixed(flow, input);
    endpoints(flow, input);
    coverageAppendixPdf(flow, input);
    triagedAppendix(flow, input, opts);
  },
};
