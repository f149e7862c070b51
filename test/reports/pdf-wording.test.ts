// Issue 17 items 4 and 5, read back from the PDFs with pdftotext: whole sentences (never cut at
// "(e.g."), Markdown drawn rather than shown, "why it matters" from each risk's own category, a risk
// listing only its own check's findings, scan notes not called errors but split as the scan page
// splits them (problems first, information after; SARIF levels apart), repeated findings of one
// check grouped in the technical report, and "critical" only ever a marker on a severity band.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHtml } from '../../electron/reports/export/html';
import { loadReportInput } from '../../electron/reports/loader';
import type { ReportInput } from '../../electron/reports/model';
import { verdict } from '../../electron/reports/pdf/executive';
import { owaspCategory } from '../../electron/reports/owasp';
import { renderReport } from '../../electron/reports/render';
import type { OpenedStore } from '../../electron/store/database';
import { PROBLEMS_LEAD } from '../../shared/scan-notes';
import { seedReportFixture } from '../helpers/report-fixture';
import { flat, openReportStore, pdfFile, pdfText, removeReportStore } from '../helpers/report-files';

const INPUT_SIZE = 'Input size limits not enforced';
const NOSNIFF = 'X-Content-Type-Options: nosniff missing';
const HSTS = 'Strict-Transport-Security missing';
const NOSNIFF_DESCRIPTION =
  'Responses do not carry `X-Content-Type-Options: nosniff`, so browsers may guess a different content type than the API declared (e.g. render a JSON body holding user input as HTML). Other browsers differ.';
const NOSNIFF_FIX = 'Send `X-Content-Type-Options: nosniff` on every response (e.g. in a shared middleware, see the **gateway** docs). Then test it.';
const INFO = 'Key 1 works with the "bearer" security scheme; it is used wherever an endpoint accepts several.';
const PROBLEM = 'Check "Input size" on POST /items/1 failed: socket hang up';
const NOTES = [INFO, PROBLEM];

let dir: string;
let store: OpenedStore;
let executive: string;
let technical: string;
let html: string;
let sarif: { runs: { invocations: { toolExecutionNotifications: { level: string; message: { text: string } }[] }[] }[] };
let input: ReportInput;

const readPdf = (name: string, body: Buffer): string => flat(pdfText(pdfFile(dir, name, body)));

beforeAll(async () => {
  ({ dir, store } = await openReportStore('portcullis-wording-'));
  const fx = await seedReportFixture(store.db, { findings: 12, history: 0, name: 'Wording API' });
  // Twelve findings made into: nine of one input-size check, two problems of one headers check, one BOLA.
  for (const [i, f] of fx.findings.entries()) {
    const common = { parameter: null, curl: '', trend: 'new' as const };
    const set =
      i < 9
        ? {
            check_id: 'api4-input-size',
            vulnerability_name: INPUT_SIZE,
            owasp: 'API4:2023',
            severity: 'medium',
            cvss_score: 5.3,
            cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:L',
            method: 'POST',
            path: `/items/${i + 1}`,
            description: 'A body ten times the declared `maxLength` was accepted.',
            recommendation: 'Enforce the declared size limits (e.g. `maxLength`, `maxItems`) before parsing. Reject with 413.',
            evidence: `Evidence for location ${i + 1}`,
          }
        : i === 9
          ? { check_id: 'api8-security-headers', vulnerability_name: NOSNIFF, owasp: 'API8:2023', severity: 'high', cvss_score: 9.1, method: 'GET', path: '/headers-a', description: NOSNIFF_DESCRIPTION, recommendation: NOSNIFF_FIX, evidence: 'header absent' }
          : i === 10
            ? { check_id: 'api8-security-headers', vulnerability_name: HSTS, owasp: 'API8:2023', severity: 'low', cvss_score: 3.1, method: 'GET', path: '/headers-b', description: 'No `Strict-Transport-Security`.', recommendation: 'Send `Strict-Transport-Security`.', evidence: 'header absent' }
            : { check_id: 'bola-token-swap', vulnerability_name: 'Object readable by another user', owasp: 'API1:2023', severity: 'high', cvss_score: 7.5, method: 'GET', path: '/users/{id}', evidence: 'swapped' };
    await store.db.updateTable('findings').set({ ...common, ...set }).where('id', '=', f.id).execute();
  }
  // The scanner's record: one problem, one piece of information, in the scan's order.
  await store.db.updateTable('scans').set({ notes: JSON.stringify({ errors: NOTES, problems: [PROBLEM], skipped_checks: [] }) }).where('id', '=', fx.scanId).execute();
  input = (await loadReportInput(store.db, fx.scanId))!;
  executive = readPdf('executive.pdf', (await renderReport(input, 'executive', { timeZone: 'UTC' })).body);
  technical = readPdf('technical.pdf', (await renderReport(input, 'technical', { timeZone: 'UTC' })).body);
  html = toHtml(input, { timeZone: 'UTC' });
  sarif = JSON.parse((await renderReport(input, 'sarif', { timeZone: 'UTC' })).body.toString('utf8')) as typeof sarif;
}, 120_000);

/** Asserts the texts appear in this order, each after the one before; returns their positions. */
function inOrder(text: string, parts: string[]): number[] {
  let from = 0;
  return parts.map((p) => {
    const at = text.indexOf(p, from);
    expect(at, `"${p}" after position ${from}`).toBeGreaterThanOrEqual(0);
    from = at + p.length;
    return at;
  });
}

afterAll(() => removeReportStore(dir, store));

/** The text of one risk of the executive report, up to the next risk or section. */
function risk(name: string): string {
  const start = executive.lastIndexOf(`: ${name}`);
  expect(start, name).toBeGreaterThan(0);
  const rest = executive.slice(start + name.length);
  const end = rest.search(/Risk \d+: |3\. OWASP API Security Top 10/);
  return rest.slice(0, end < 0 ? undefined : end);
}

describe('executive PDF wording', () => {
  it('keeps sentences whole: never cut at "(e.g."', () => {
    expect(executive).toContain('What to do: Send X-Content-Type-Options: nosniff on every response (e.g. in a shared middleware, see the gateway docs).');
    expect(executive).toContain('What to do: Enforce the declared size limits (e.g. maxLength, maxItems) before parsing.');
    expect(executive).not.toMatch(/\(e\.g\.\s*(Risk|What|3\.)/);
  });

  it('draws Markdown instead of showing backticks and asterisks', () => {
    expect(executive).not.toContain('`');
    expect(executive).not.toContain('**');
    expect(technical).not.toContain('`');
    expect(technical).toContain('Responses do not carry X-Content-Type-Options: nosniff, so browsers may guess');
  });

  it('says why each risk matters in the words of its own category', () => {
    expect(risk(NOSNIFF)).toContain(`Why it matters: ${owaspCategory('API8:2023')!.risk}`);
    expect(risk(INPUT_SIZE)).toContain(`Why it matters: ${owaspCategory('API4:2023')!.risk}`);
    expect(risk('Object readable by another user')).toContain(`Why it matters: ${owaspCategory('API1:2023')!.risk}`);
  });

  it('lists under a risk only the findings of its own check and problem', () => {
    const nosniff = risk(NOSNIFF);
    expect(nosniff).toContain('Where: 1 endpoint — GET /headers-a.');
    expect(nosniff).not.toContain('/headers-b');
    expect(risk(HSTS)).toContain('Where: 1 endpoint — GET /headers-b.');
    expect(risk(INPUT_SIZE)).toContain('Where: 9 endpoints — POST /items/1');
  });

  it('lists the scan\'s problems first in About this scan, with the scan page\'s lead, and its information after', () => {
    expect(executive).toContain(
      'The scan recorded 1 problem (see Problems in About this scan): part of the scan did not run as asked, so read it before relying on a clean result.',
    );
    const about = executive.slice(executive.lastIndexOf('5. About this scan'));
    inOrder(about, ['Problems (1)', PROBLEMS_LEAD, PROBLEM, 'How the score works', 'Information (1)', INFO]);
    // Each note once, under its own heading.
    for (const n of NOTES) expect(about.split(n).length - 1).toBe(1);
    expect(executive).not.toContain('Notes from the scan');
    expect(executive).not.toMatch(/errors? (occurred )?during the scan/i);
  });

  it('says nothing alarming about a scan with information alone', () => {
    const calm: ReportInput = { ...input, scan: { ...input.scan, problems: [], info_notes: NOTES } };
    const said = verdict(calm, { timeZone: 'UTC' }).join(' ');
    expect(said).not.toMatch(/problem|note|did not run|before relying/i);
    expect(verdict(input, { timeZone: 'UTC' }).join(' ')).toContain('The scan recorded 1 problem');
  });

  it('shows critical as a level of its own (issue 31), never as a marker on high', () => {
    expect(risk(NOSNIFF)).toContain('Critical · CVSS 9.1');
    expect(executive).not.toContain('High · Critical');
  });
});

describe('technical PDF wording', () => {
  it('groups repeated findings of one check under one heading, every location with its own evidence', () => {
    // The contents entry and the heading: not nine of each.
    expect(technical.split(INPUT_SIZE).length - 1).toBe(2);
    expect(technical).toContain(`${INPUT_SIZE} (9 locations)`);
    expect(technical.split('A body ten times the declared maxLength was accepted.').length - 1).toBe(1);
    for (let i = 1; i <= 9; i += 1) {
      expect(technical).toContain(`Evidence for location ${i}`);
      expect(technical).toContain(`POST /items/${i}`);
    }
    // A check with one finding per problem keeps its problems apart.
    expect(technical).toContain(NOSNIFF);
    expect(technical).toContain(HSTS);
  });

  it('names severities by level, critical one of them', () => {
    expect(technical).toContain('Severity Critical');
    expect(technical).not.toContain('High · Critical');
    expect(technical).not.toContain('Errors during the scan');
  });

  it('shows the problems in the overview and the information at the end of the coverage', () => {
    // From the overview's heading on (the contents page names the sections too).
    const body = technical.slice(technical.lastIndexOf('1. Scan overview'));
    inOrder(body, ['Problems (1)', PROBLEMS_LEAD, PROBLEM, '2. Coverage', 'Information (1)', INFO, '3. Findings']);
    expect(technical.split(PROBLEM).length - 1).toBe(1);
    expect(technical.split(INFO).length - 1).toBe(1);
    expect(technical).toContain(PROBLEMS_LEAD);
    expect(technical).not.toContain('Notes from the scan');
  });
});

describe('HTML export wording', () => {
  it('renders code spans as <code>, names severities by level and notes as notes', () => {
    expect(html).toContain('<code>X-Content-Type-Options: nosniff</code>');
    expect(html).toContain('<strong>gateway</strong>');
    expect(html).not.toContain('`');
    expect(html).toMatch(/>Critical</);
    expect(html).not.toContain('High · Critical');
    expect(html).not.toContain('Errors during the scan');
  });

  it('shows the problems first in About this scan, in a warning box, and the information after', () => {
    const about = html.slice(html.indexOf('<section id="scan">'));
    inOrder(about, ['<div class="problems" role="note"><h3>Problems (1)</h3>', `<p>${PROBLEMS_LEAD}</p>`, `<li>${PROBLEM.replace(/"/g, '&quot;')}</li>`, '<h3>Information (1)</h3>', `<li>${INFO.replace(/"/g, '&quot;')}</li>`]);
    expect(html).not.toContain('Notes from the scan');
    // The summary's sentence, as in the executive PDF.
    expect(html).toContain('The scan recorded 1 problem (see Problems in About this scan)');
  });
});

describe('SARIF and JSON: the kind of each note', () => {
  it('gives problems the level "error" and information "note"', () => {
    const notes = sarif.runs[0]!.invocations[0]!.toolExecutionNotifications;
    expect(notes.find((n) => n.message.text === PROBLEM)?.level).toBe('error');
    expect(notes.find((n) => n.message.text === INFO)?.level).toBe('note');
  });

  it('keeps every note in `errors` and names the problems among them', async () => {
    const doc = JSON.parse((await renderReport(input, 'json', { timeZone: 'UTC' })).body.toString('utf8')) as { scan: { errors: string[]; problems: string[] } };
    expect(doc.scan.errors).toEqual(NOTES);
    expect(doc.scan.problems).toEqual([PROBLEM]);
  });
});
