// The exports of a seeded scan: SARIF validates against the SARIF 2.1.0 schema and ranks results
// by CVSS; the JSON export follows its documented, versioned schema; the HTML file is self-contained
// and hostile finding text stays inert; JUnit has one test case per check x endpoint, failing ones
// for findings; every export is deterministic.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { junitCases } from '../../electron/reports/export/junit';
import { JSON_FORMAT, JSON_VERSION, type JsonReport } from '../../electron/reports/export/json';
import { loadReportInput } from '../../electron/reports/loader';
import type { ReportInput } from '../../electron/reports/model';
import { renderReport } from '../../electron/reports/render';
import type { OpenedStore } from '../../electron/store/database';
import { SCRIPT_PAYLOAD, seedReportFixture, type Fixture } from '../helpers/report-fixture';
import { openReportStore, removeReportStore, sarifValidator } from '../helpers/report-files';

let dir: string;
let store: OpenedStore;
let fx: Fixture;
let input: ReportInput;
const render = async (type: 'json' | 'sarif' | 'html' | 'junit') => (await renderReport(input, type, { timeZone: 'UTC' })).body.toString('utf8');

beforeAll(async () => {
  ({ dir, store } = await openReportStore('portcullis-exports-'));
  fx = await seedReportFixture(store.db, { findings: 40 });
  input = (await loadReportInput(store.db, fx.scanId))!;
});

afterAll(() => removeReportStore(dir, store));

describe('SARIF', () => {
  it('validates against the SARIF 2.1.0 schema', async () => {
    const validate = sarifValidator();
    const doc = JSON.parse(await render('sarif')) as unknown;
    const ok = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('validates with findings set aside in triage (suppressions) and numbers them apart', async () => {
    const validate = sarifValidator();
    const [first, ...rest] = input.findings;
    const aside = { ...first!, triage: { state: 'accepted_risk' as const, reason: 'Behind the VPN', expires_at: '2027-01-01T00:00:00.000Z', set_by: 'ada', set_at: '2026-11-01T00:00:00.000Z' } };
    const triaged = { ...input, findings: rest, triaged: [aside] };
    const doc = JSON.parse((await renderReport(triaged, 'sarif', { timeZone: 'UTC' })).body.toString('utf8')) as {
      runs: { results: { properties: { finding: string }; suppressions?: unknown[] }[] }[];
    };
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    const results = doc.runs[0]!.results;
    expect(results).toHaveLength(input.findings.length);
    expect(results.filter((r) => r.suppressions)).toEqual([
      expect.objectContaining({
        properties: expect.objectContaining({ finding: 'T-001' }),
        suppressions: [{ kind: 'external', status: 'accepted', justification: 'Behind the VPN', properties: { state: 'accepted_risk', set_by: 'ada', set_at: '2026-11-01T00:00:00.000Z', expires_at: '2027-01-01T00:00:00.000Z' } }],
      }),
    ]);
  });

  it('rejects what the schema forbids (the validator is not a rubber stamp)', async () => {
    const validate = sarifValidator();
    const doc = JSON.parse(await render('sarif')) as { runs: { results: Record<string, unknown>[]; tool: { driver: Record<string, unknown> } }[] };
    const bad1 = structuredClone(doc);
    bad1.runs[0]!.results[0]!.level = 'critical';
    expect(validate(bad1)).toBe(false);
    const bad2 = structuredClone(doc);
    bad2.runs[0]!.results[0]!.locations = [{ physicalLocation: { artifactLocation: { uri: 'users/{id}' } } }];
    expect(validate(bad2)).toBe(false);
    const bad3 = structuredClone(doc);
    delete bad3.runs[0]!.tool.driver.name;
    expect(validate(bad3)).toBe(false);
  });

  it('has one rule per check id with security-severity and tags, and results located at method + path', async () => {
    const doc = JSON.parse(await render('sarif')) as {
      runs: {
        tool: { driver: { name: string; rules: { id: string; name: string; shortDescription: { text: string }; help: { text: string }; properties: { 'security-severity': string; tags: string[] } }[] } };
        results: { ruleId: string; ruleIndex: number; level: string; message: { text: string }; locations: { logicalLocations: { name: string }[]; physicalLocation: { artifactLocation: { uri: string; uriBaseId: string } } }[]; partialFingerprints: Record<string, string>; baselineState: string }[];
        originalUriBaseIds: Record<string, { uri: string }>;
      }[];
    };
    const run = doc.runs[0]!;
    expect(run.tool.driver.name).toBe('Portcullis');
    const checkIds = [...new Set(fx.findings.map((f) => f.check_id))].sort();
    expect(run.tool.driver.rules.map((r) => r.id).sort()).toEqual(checkIds);
    const jwt = run.tool.driver.rules.find((r) => r.id === 'bken-auth-jwt-none')!;
    expect(jwt.properties['security-severity']).toBe('9.8');
    expect(jwt.properties.tags).toEqual(expect.arrayContaining(['security', 'API2:2023', 'CWE-347', 'external/cwe/cwe-347']));
    expect(jwt.shortDescription.text).toBe('JWT with alg "none" accepted');
    expect(jwt.help.text).toContain('Pin the accepted JWT algorithms');
    expect(run.results).toHaveLength(fx.findings.length);
    for (const f of fx.findings) {
      const r = run.results.find((x) => x.partialFingerprints['portcullis/v1'] === f.fingerprint)!;
      expect(r.ruleId).toBe(f.check_id);
      expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(f.check_id);
      expect(r.level).toBe({ high: 'error', medium: 'warning', low: 'note', info: 'note' }[f.severity]);
      expect(r.locations[0]!.logicalLocations[0]!.name).toBe(`${f.method} ${f.path}`);
      expect(r.locations[0]!.physicalLocation.artifactLocation.uriBaseId).toBe('APIROOT');
      expect(decodeURIComponent(`/${r.locations[0]!.physicalLocation.artifactLocation.uri}`)).toBe(f.path);
      expect(r.baselineState).toBe(f.trend === 'recurring' ? 'unchanged' : 'new');
    }
    expect(run.originalUriBaseIds.APIROOT!.uri).toBe('https://api.example.test/v2/');
  });
});

describe('JSON export', () => {
  it('follows the documented, versioned schema', async () => {
    const doc = JSON.parse(await render('json')) as JsonReport;
    expect(doc.format).toBe(JSON_FORMAT);
    expect(doc.version).toBe(JSON_VERSION);
    expect(Object.keys(doc)).toEqual(['format', 'version', 'generator', 'api', 'scan', 'summary', 'coverage', 'operations_coverage', 'findings', 'triaged', 'fixed', 'history', 'endpoints', 'checks']);
    expect(doc.api.name).toBe(input.api.name);
    expect(doc.scan).toMatchObject({ id: fx.scanId, status: 'completed', score: input.scan.score, score_source: 'computed', requests_sent: 1834 });
    expect(doc.scan.skipped_checks.map((c) => c.owasp)).toEqual(['API1:2023', 'API10:2023', 'Other']);
    // Per level, critical apart from high (issue 31); the one count leaves out the informational ones.
    expect(doc.summary.by_severity).toEqual({ critical: 5, high: 15, medium: 10, low: 7, info: 3 });
    expect(doc.summary.vulnerabilities).toBe(37);
    expect(doc.summary.critical).toBe(5);
    expect(doc.coverage).toHaveLength(10);
    // A scan stored without a coverage ledger (before issue 26): the field is there, null.
    expect(doc.operations_coverage).toBeNull();
    expect(doc.findings).toHaveLength(40);
    expect(doc.findings[0]!.number).toBe('F-001');
    const f = fx.findings[0]!;
    const out = doc.findings.find((x) => x.id === f.id)!;
    expect(out).toMatchObject({
      check_id: f.check_id,
      fingerprint: f.fingerprint,
      vulnerability_name: f.vulnerability_name,
      severity: f.severity,
      cvss: { score: f.cvss_score, vector: f.cvss_vector },
      method: f.method,
      path: f.path,
      evidence: f.evidence,
      curl: f.curl,
      references: f.references,
      triage: null,
    });
    expect(doc.triaged).toEqual([]);
    expect(doc.summary.triaged).toBe(0);
    expect(doc.history.map((h) => h.scan_id)).toEqual(fx.earlierScanIds);
    expect(doc.fixed.map((x) => x.vulnerability_name)).toEqual(['JWT with alg "none" accepted']);
  });
});

describe('HTML export', () => {
  it('is one self-contained file with no scripts or external resources', async () => {
    const html = await render('html');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\s(src|srcset)=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).toContain("default-src 'none'");
    // Only http(s) references become links; javascript: stays text.
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain('javascript:alert(1)');
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^(#|https?:\/\/)/);
  });

  it('escapes every finding-derived string: the <script> payload stays inert text', async () => {
    const html = await render('html');
    expect(fx.findings.some((f) => f.vulnerability_name.includes(SCRIPT_PAYLOAD))).toBe(true);
    expect(html).not.toContain(SCRIPT_PAYLOAD);
    expect(html).toContain('SQL error disclosed &lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;');
    for (const f of fx.findings) expect(html).toContain(f.fingerprint);
    // The escaped document still has balanced structure: one <html>, one <body>.
    expect(html.match(/<body>/g)).toHaveLength(1);
    expect(html.match(/<\/html>/g)).toHaveLength(1);
  });
});

/** A minimal XML well-formedness check: balanced tags, quoted attributes, only known entities. */
function wellFormed(xmlText: string): boolean {
  const body = xmlText.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const re = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const m of body.matchAll(re)) {
    if (m[6]) return false;
    if (m[5] !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos);)/.test(m[5])) return false;
      continue;
    }
    if (/&(?!(amp|lt|gt|quot|apos);)/.test(m[3] ?? '')) return false;
    if (m[1]) {
      if (stack.pop() !== m[2]) return false;
    } else if (!m[4]) stack.push(m[2]!);
  }
  return stack.length === 0;
}

describe('JUnit export', () => {
  it('has one test case per check x endpoint it applied to, failing for findings', async () => {
    const xmlText = await render('junit');
    expect(wellFormed(xmlText)).toBe(true);
    const cases = junitCases(input);
    const testcases = [...xmlText.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)];
    expect(testcases).toHaveLength(cases.length);
    const pairs = new Set(cases.map((c) => `${c.classname} ${c.name}`));
    expect(pairs.size).toBe(cases.length);
    // Every finding fails exactly the case of its check and endpoint.
    for (const f of fx.findings) {
      const c = cases.find((x) => x.classname.endsWith(`.${f.check_id}`) && x.name === `${f.method} ${f.path}`)!;
      expect(c.failures.map((x) => x.id)).toContain(f.id);
    }
    const failing = cases.filter((c) => c.failures.length).length;
    expect(xmlText).toMatch(new RegExp(`<testsuites [^>]*tests="${cases.length}" failures="${failing}" errors="0" skipped="${cases.filter((c) => c.skipped).length}"`));
    expect((xmlText.match(/<failure /g) ?? []).length).toBe(failing);
    // The token-swap check has a case for each endpoint flagged BOLA, plus any endpoint it found something on.
    const bolaEndpoints = input.endpoints.filter((e) => e.flags.includes('BOLA') && !e.flags.includes('SKIP')).map((e) => `${e.method} ${e.path}`);
    expect(bolaEndpoints).toHaveLength(6);
    const expected = new Set([...bolaEndpoints, ...fx.findings.filter((f) => f.check_id === 'bola-token-swap').map((f) => `${f.method} ${f.path}`)]);
    expect(new Set(cases.filter((c) => c.classname === 'API1.bola-token-swap').map((c) => c.name))).toEqual(expected);
    expect(cases.some((c) => c.name === 'GET /internal/metrics')).toBe(false);
    // A skipped check is reported as skipped, with its reason.
    expect(xmlText).toContain('<skipped message="No second API key was given, so cross-user tests could not run."/>');
    expect(xmlText).not.toContain(SCRIPT_PAYLOAD);
  });
});

describe('determinism', () => {
  it('gives the same bytes for the same scan', async () => {
    for (const type of ['json', 'sarif', 'html', 'junit'] as const) expect(await render(type)).toBe(await render(type));
  });
});

describe('the kinds of the scan notes', () => {
  type Notifications = { runs: { invocations: { toolExecutionNotifications: { level: string; message: { text: string } }[] }[] }[] };
  const levels = (doc: Notifications) => Object.fromEntries(doc.runs[0]!.invocations[0]!.toolExecutionNotifications.map((n) => [n.message.text, n.level]));
  const TIMEOUT = 'Timeout after 10 s: GET /files/{name} (attempt 3 of 3)';
  const RESET = 'Connection reset by peer: POST /checkout';

  it('sorts a scan from before kinds were recorded by the wording, as the scan page does', async () => {
    // Neither of the fixture's notes is worded as a problem.
    expect([input.scan.problems, input.scan.info_notes]).toEqual([[], [TIMEOUT, RESET]]);
    const doc = JSON.parse(await render('json')) as JsonReport;
    expect([doc.scan.errors, doc.scan.problems]).toEqual([[TIMEOUT, RESET], []]);
    expect(levels(JSON.parse(await render('sarif')) as Notifications)).toMatchObject({ [TIMEOUT]: 'note', [RESET]: 'note' });
  });

  it('follows the scanner\'s own record where there is one, whatever the wording', async () => {
    const row = await store.db.selectFrom('scans').select('notes').where('id', '=', fx.scanId).executeTakeFirstOrThrow();
    try {
      const notes = { ...(JSON.parse(row.notes!) as object), problems: [RESET] };
      await store.db.updateTable('scans').set({ notes: JSON.stringify(notes) }).where('id', '=', fx.scanId).execute();
      const recorded = (await loadReportInput(store.db, fx.scanId))!;
      expect([recorded.scan.problems, recorded.scan.info_notes]).toEqual([[RESET], [TIMEOUT]]);
      const sarif = JSON.parse((await renderReport(recorded, 'sarif', { timeZone: 'UTC' })).body.toString('utf8')) as Notifications;
      expect(sarifValidator()(sarif)).toBe(true);
      expect(levels(sarif)).toMatchObject({ [RESET]: 'error', [TIMEOUT]: 'note' });
      const doc = JSON.parse((await renderReport(recorded, 'json', { timeZone: 'UTC' })).body.toString('utf8')) as JsonReport;
      expect([doc.scan.errors, doc.scan.problems]).toEqual([[TIMEOUT, RESET], [RESET]]);
    } finally {
      await store.db.updateTable('scans').set({ notes: row.notes }).where('id', '=', fx.scanId).execute();
    }
  });
});
