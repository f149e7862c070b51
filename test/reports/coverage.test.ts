// The coverage ledger in the reports (issue 26). A real `portcullis scan` of the project's vulnerable
// target stores its ledger and writes every report from the store: the technical PDF has the coverage
// appendix (the header line, the commonest reasons with their fix, a row for every operation a check
// could not exercise with the reasons, read back with pdftotext), the executive PDF the header line,
// the HTML export the same appendix as tables, the JSON export `operations_coverage` equal to the
// stored ledger (findings.json's `coverage`), SARIF the header line as a notification. Scans from
// before the ledger render without any of it; an API with many identities and operations keeps its
// table readable (one answers column, the header repeated on every page, nothing past the margins).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../electron/cli';
import type { JsonReport } from '../../electron/reports/export/json';
import { loadReportInput } from '../../electron/reports/loader';
import type { ReportInput } from '../../electron/reports/model';
import { renderReport } from '../../electron/reports/render';
import { openStore, type OpenedStore } from '../../electron/store/database';
import { createRepos } from '../../electron/store/index';
import { COVERAGE_REASONS, coverageHeadline, coverageLabel, summarizeCoverage, type CoverageOperation, type ScanCoverage } from '../../shared/coverage';
import { tempDir } from '../helpers/core';
import { seedReportFixture, type Fixture } from '../helpers/report-fixture';
import { flat, openReportStore, pdfFile, pdfText, removeReportStore, sarifValidator } from '../helpers/report-files';
import { startTarget, type Target } from '../targets';

/** Whitespace removed: a label or a reason wrapped in a narrow cell still reads as one. */
const squash = (s: string): string => s.replace(/\s+/g, '');
const actionable = (op: CoverageOperation) => op.skipped.filter((k) => k.reason !== 'not-applicable');
const needsRow = (op: CoverageOperation) => actionable(op).length > 0 || !Object.values(op.identities).some((t) => (t.classes['2xx'] ?? 0) > 0);

type Sarif = { runs: { invocations: { toolExecutionNotifications: { message: { text: string }; descriptor?: { id: string } }[] }[] }[] };

describe('a real scan: every report shows what it reached', () => {
  let t: Target;
  let dir: string;
  let ledger: ScanCoverage;
  let store: OpenedStore;
  const file = (name: string) => path.join(dir, name);

  beforeAll(async () => {
    t = await startTarget({ mode: 'vulnerable' });
    dir = tempDir('portcullis-coverage-report-');
    fs.writeFileSync(file('acme.yaml'), t.specText);
    // One key and sign-up left to its default: the scan registers its own users, so there are three identity columns.
    const code = await main(['scan', '--spec', file('acme.yaml'), '--key1', t.users.alice.key, '--rps', '0', '--out', dir, '--data-dir', file('data'), '--format', 'pdf,html,json,sarif', '--quiet']);
    expect(code).toBe(1);
    ledger = (JSON.parse(fs.readFileSync(file('findings.json'), 'utf8')) as { coverage: ScanCoverage }).coverage;
    store = await openStore(file('data/portcullis.db'));
  }, 300_000);

  afterAll(async () => {
    await store?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is a ledger worth reporting: operations not exercised, for several reasons', () => {
    expect(ledger.operations.length).toBeGreaterThan(40);
    expect(ledger.operations.filter(needsRow).length).toBeGreaterThan(5);
    expect(ledger.summary.reasons.length).toBeGreaterThanOrEqual(3);
    expect(ledger.summary.identities.length).toBeGreaterThanOrEqual(2);
  });

  it('has the JSON export carry the stored ledger as operations_coverage, next to the OWASP coverage', async () => {
    const doc = JSON.parse(fs.readFileSync(file('report.json'), 'utf8')) as JsonReport;
    const scanId = (JSON.parse(fs.readFileSync(file('findings.json'), 'utf8')) as { scan: { id: string } }).scan.id;
    expect(doc.operations_coverage).toEqual(ledger);
    expect(doc.operations_coverage).toEqual(await createRepos(store.db).scans.coverageOf(scanId));
    expect(doc.coverage).toHaveLength(10);
    expect(doc.coverage[0]).toMatchObject({ category: 'API1:2023' });
  });

  it('gives the technical PDF an appendix with the header line, the commonest reasons and a row per operation not exercised', () => {
    const pdf = file('technical-report.pdf');
    const text = flat(pdfText(pdf));
    const at = text.lastIndexOf('Appendix. Coverage by operation');
    expect(at).toBeGreaterThan(0);
    const appendix = text.slice(at);
    expect(appendix).toContain(`The scan ${coverageHeadline(ledger.summary)}.`);
    // Section 2 points at it.
    expect(text.slice(0, at)).toContain(`The scan ${coverageHeadline(ledger.summary)}. The appendix “Coverage by operation”`);
    for (const r of ledger.summary.reasons.slice(0, 3)) expect(squash(appendix)).toContain(squash(`${r.label}, ${r.count} times:`));
    expect(appendix).toContain('The commonest reasons, and what to do');

    // Content-stream order: each row's cells follow its operation, up to the next row's operation.
    const raw = squash(pdfText(pdf, '-raw'));
    const table = raw.slice(raw.lastIndexOf(squash('Operations not reached or not fully exercised')));
    const rows = ledger.operations.filter(needsRow);
    let from = 0;
    const slices = rows.map((op) => {
      const start = table.indexOf(squash(coverageLabel(op)), from);
      expect(start, coverageLabel(op)).toBeGreaterThanOrEqual(0);
      from = start + squash(coverageLabel(op)).length;
      return { op, start };
    });
    slices.forEach(({ op, start }, i) => {
      const row = table.slice(start, slices[i + 1]?.start ?? table.indexOf(squash('Reached and exercised by every check')));
      for (const reason of new Set(actionable(op).map((k) => k.reason))) expect(row, `${coverageLabel(op)}: ${reason}`).toContain(squash(COVERAGE_REASONS[reason].label));
      for (const [, traffic] of Object.entries(op.identities)) {
        for (const [cls, n] of Object.entries(traffic.classes)) if (n) expect(row, `${coverageLabel(op)} ${cls}`).toContain(`${cls}${n}`);
      }
      expect(row).toContain(`${op.ran.length}/${op.found.length}`);
    });
    // The operations reached and exercised by every check are named, not given rows.
    const rest = raw.slice(raw.lastIndexOf(squash('Reached and exercised by every check')));
    for (const op of ledger.operations.filter((o) => !needsRow(o))) expect(rest, coverageLabel(op)).toContain(squash(coverageLabel(op)));
  });

  it('puts the header line in the executive summary', () => {
    const text = flat(pdfText(file('executive-report.pdf')));
    const summary = text.slice(text.lastIndexOf('1. Summary'), text.lastIndexOf('2. Top risks'));
    expect(summary).toContain(`The scan ${coverageHeadline(ledger.summary)}.`);
  });

  it('gives the HTML export the same appendix as tables, with every skipped check and its reason', () => {
    const html = fs.readFileSync(file('report.html'), 'utf8');
    const section = html.slice(html.indexOf('<section id="operations-coverage">'));
    expect(section.length).toBeGreaterThan(1000);
    expect(html).toContain('<a href="#operations-coverage">Coverage by operation</a>');
    expect(section).toContain(`<b>The scan ${coverageHeadline(ledger.summary)}.</b>`);
    expect(section).toContain('<table class="ops">');
    // Up to four identities get a column each; more share one column that names those that sent anything.
    if (ledger.summary.identities.length <= 4) for (const name of ledger.summary.identities) expect(section).toContain(`<th>${name}</th>`);
    else {
      expect(section).toContain('<th>Answers by identity</th>');
      for (const op of ledger.operations) for (const [name, traffic] of Object.entries(op.identities)) if (traffic.requests) expect(section).toContain(`${name}: `);
    }
    for (const op of ledger.operations) {
      const label = coverageLabel(op).replace(/&/g, '&amp;');
      expect(section, label).toMatch(new RegExp(`<td class="op( unreached)?">${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</td>`));
    }
    for (const op of ledger.operations.filter(needsRow)) {
      for (const k of actionable(op)) expect(section).toContain(`<code>${k.check_id}</code>`);
    }
    expect(section).toMatch(/class="st st-ok">([^<:]+: )?2xx \d+/);
    expect(html).toMatch(/\.st-ok\{color:#[0-9a-f]{6}\}/);
  });

  it('adds the header line to the SARIF run as a notification, and the log stays valid', () => {
    const doc = JSON.parse(fs.readFileSync(file('results.sarif'), 'utf8')) as Sarif;
    const notes = doc.runs[0]!.invocations[0]!.toolExecutionNotifications;
    expect(notes[0]).toEqual({ level: 'note', message: { text: `Coverage: ${coverageHeadline(ledger.summary)}.` }, descriptor: { id: 'coverage' } });
    const validate = sarifValidator();
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
  });
});

describe('scans from before the ledger, and ledgers that are large', () => {
  let dir: string;
  let store: OpenedStore;
  let fx: Fixture;
  let older: ReportInput;

  beforeAll(async () => {
    ({ dir, store } = await openReportStore('portcullis-coverage-older-'));
    fx = await seedReportFixture(store.db, { findings: 6, history: 1 });
    older = (await loadReportInput(store.db, fx.scanId))!;
  }, 60_000);

  afterAll(() => removeReportStore(dir, store));

  it('read as null and render every format without the appendix', async () => {
    expect(older.operations_coverage).toBeNull();
    const text = flat(pdfText(pdfFile(dir, 'technical.pdf', (await renderReport(older, 'technical', { timeZone: 'UTC' })).body)));
    expect(text).toContain('5. Endpoints');
    expect(text).not.toContain('Coverage by operation');
    expect(text).not.toContain('with a 2xx as some identity');
    const exec = flat(pdfText(pdfFile(dir, 'executive.pdf', (await renderReport(older, 'executive', { timeZone: 'UTC' })).body)));
    expect(exec).not.toContain('with a 2xx as some identity');
    const html = (await renderReport(older, 'html', { timeZone: 'UTC' })).body.toString('utf8');
    expect(html).not.toContain('operations-coverage');
    expect((JSON.parse((await renderReport(older, 'json')).body.toString('utf8')) as JsonReport).operations_coverage).toBeNull();
    const sarif = JSON.parse((await renderReport(older, 'sarif')).body.toString('utf8')) as Sarif;
    expect(sarif.runs[0]!.invocations[0]!.toolExecutionNotifications.some((n) => n.descriptor?.id === 'coverage')).toBe(false);
  }, 60_000);

  it('a stored value that is not a ledger reads as null', async () => {
    await store.db.updateTable('scans').set({ coverage: '{"operations": "not a list"}' }).where('id', '=', fx.scanId).execute();
    expect((await loadReportInput(store.db, fx.scanId))!.operations_coverage).toBeNull();
    await store.db.updateTable('scans').set({ coverage: '{not json' }).where('id', '=', fx.scanId).execute();
    expect((await loadReportInput(store.db, fx.scanId))!.operations_coverage).toBeNull();
  });

  it('a long API with many identities: one answers column, the table header on every page, every row, nothing past the margins', async () => {
    const identities = ['alice', 'bob', 'carol (privileged)', 'dave (lower)', 'registered users', 'anonymous'];
    const operations: CoverageOperation[] = Array.from({ length: 240 }, (_, i) => ({
      method: ['GET', 'POST', 'PUT', 'DELETE'][i % 4]!,
      path: `/tenants/{tenantId}/projects/{projectId}/resources-${String(i).padStart(3, '0')}/{resourceId}`,
      operation: null,
      identities: Object.fromEntries(identities.map((name, k) => [name, { requests: 3 + k, classes: k === 5 ? { '4xx': 3 + k } : i % 7 === 0 ? { '5xx': 3 + k } : { '2xx': 1 + k, '4xx': 2 } }])),
      ran: ['api8-security-headers', 'api9-undocumented-behaviour'],
      found: i % 5 === 0 ? ['api8-security-headers'] : [],
      skipped:
        i % 3 === 0
          ? [
              ...['api1-bola-token-swap', 'api1-bola-id-walk', 'api3-mass-assignment', 'api5-bfla-method-swap', 'api2-jwt-tampering', 'api4-pagination-limit', 'api8-sql-injection'].map((check_id) => ({
                check_id,
                reason: 'validation' as const,
                detail: `the API refused the unchanged request's values: 400 {"error":"validation_failed","errors":[{"field":"resource-${i}","message":"must match ^[a-z]{3}$"}]}`,
              })),
              { check_id: 'api1-bola-create-steal', reason: 'existing-object' as const, detail: '{resourceId} would address an object the scan did not create' },
            ]
          : [],
    }));
    const cov: ScanCoverage = { summary: summarizeCoverage(operations, identities), operations };
    await store.db.updateTable('scans').set({ coverage: JSON.stringify(cov) }).where('id', '=', fx.scanId).execute();
    const input = (await loadReportInput(store.db, fx.scanId))!;
    expect(input.operations_coverage).toEqual(cov);
    const pdf = pdfFile(dir, 'long.pdf', (await renderReport(input, 'technical', { timeZone: 'UTC' })).body);
    const pages = pdfText(pdf).split('\f');
    const first = pages.findIndex((p) => p.includes('Operations not reached or not fully exercised'));
    const last = pages.findIndex((p) => p.includes('Reached and exercised by every check that applies'));
    expect(first).toBeGreaterThan(0);
    expect(last - first).toBeGreaterThan(3);
    for (let p = first; p <= last; p += 1) {
      expect(flat(pages[p]!), `page ${p + 1}`).toContain('Answers by identity');
      expect(flat(pages[p]!), `page ${p + 1}`).toContain('Not exercised, and why');
    }
    const raw = squash(pdfText(pdf, '-raw'));
    for (const op of operations.filter((o) => o.skipped.length || o.path.endsWith('007/{resourceId}'))) expect(raw, op.path).toContain(squash(coverageLabel(op)));
    expect(raw).toContain(squash('validation failed: 7 checks api1-bola-token-swap, api1-bola-id-walk, api3-mass-assignment, api5-bfla-method-swap, api2-jwt-tampering, api4-pagination-limit and 1 more'));
    expect(raw).toContain(squash('carol (privileged): 2xx 3, 4xx 2'));
    const html = (await renderReport(input, 'html', { timeZone: 'UTC' })).body.toString('utf8');
    expect(html).toContain('<th>Answers by identity</th>');
    expect(html).not.toContain('<th>carol (privileged)</th>');
    expect(html).toContain('<span class="st st-ok">carol (privileged): 2xx 3, 4xx 2</span>');
    const bbox = execFileSync('pdftotext', ['-bbox', pdf, '-'], { maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
    const outside = [...bbox.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].filter(
      (m) => Number(m[1]) < 53 || Number(m[3]) > 595.28 - 53 || Number(m[2]) < 20 || Number(m[4]) > 841.89 - 20,
    );
    expect(outside.map((m) => m[5]).slice(0, 5)).toEqual([]);
  }, 120_000);

  it('a few identities: a column each, named in full, with the status classes styled', async () => {
    const identities = ['alice', 'registered users', 'anonymous'];
    const op = (method: string, path: string, classes: Record<string, Partial<Record<'2xx' | '4xx' | '5xx', number>>>, skipped: CoverageOperation['skipped'] = []): CoverageOperation => ({
      method,
      path,
      operation: null,
      identities: Object.fromEntries(Object.entries(classes).map(([name, c]) => [name, { requests: Object.values(c).reduce((a, b) => a + (b ?? 0), 0), classes: c }])),
      ran: ['api8-security-headers'],
      found: [],
      skipped,
    });
    const operations = [
      op('GET', '/me', { alice: { '2xx': 14 }, anonymous: { '4xx': 3 } }),
      op('DELETE', '/accounts/{accountId}', { alice: { '4xx': 2 }, 'registered users': { '5xx': 1 } }, [{ check_id: 'api1-bola-token-swap', reason: 'needs-second-identity', detail: 'Needs a second user.' }]),
    ];
    const cov: ScanCoverage = { summary: summarizeCoverage(operations, identities), operations };
    await store.db.updateTable('scans').set({ coverage: JSON.stringify(cov) }).where('id', '=', fx.scanId).execute();
    const input = (await loadReportInput(store.db, fx.scanId))!;
    const html = (await renderReport(input, 'html', { timeZone: 'UTC' })).body.toString('utf8');
    for (const name of identities) expect(html).toContain(`<th>${name}</th>`);
    expect(html).toContain('<td class="op unreached">DELETE /accounts/{accountId}</td><td class="st st-refused">4xx 2</td><td class="st st-failed">5xx 1</td><td class="st st-none">—</td>');
    expect(html).toContain('<b>needs a second identity: 1 check</b> <code>api1-bola-token-swap</code><span class="detail">Needs a second user.</span>');
    const pdf = pdfFile(dir, 'few.pdf', (await renderReport(input, 'technical', { timeZone: 'UTC' })).body);
    const text = flat(pdfText(pdf, '-layout'));
    expect(text).toMatch(/Operation alice registered users anonymous Ran \/ found Not exercised, and why/);
    expect(text).not.toContain('Answers by identity');
    // The operation wraps after a path segment ("DELETE /accounts" then "/{accountId}"), never inside one.
    const raw = pdfText(pdf, '-raw');
    expect(raw).toMatch(/^DELETE \/accounts$/m);
    expect(squash(raw)).toContain(squash('DELETE /accounts/{accountId} 4xx 2 5xx 1 — 1 / 0 needs a second identity: 1 check api1-bola-token-swap Needs a second user.'));
  }, 60_000);
});
