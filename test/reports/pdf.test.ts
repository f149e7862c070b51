// The PDF reports, read back with poppler as a reader would: every finding's name, path and
// recommendation is in the technical report's text; the executive report covers score, risks,
// OWASP coverage and trend; page numbers and the contents page are right; no word lies outside the
// page margins (long tokens are wrapped, not cut off); fonts are embedded; output is deterministic.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReportInput } from '../../electron/reports/loader';
import { renderReport } from '../../electron/reports/render';
import type { ReportInput } from '../../electron/reports/model';
import type { OpenedStore } from '../../electron/store/database';
import { FIXTURE_API_NAME, longToken, seedReportFixture, type Fixture } from '../helpers/report-fixture';
import { flat, openReportStore, pdfFile, pdfText, removeReportStore } from '../helpers/report-files';

const A4 = { width: 595.28, height: 841.89 };

let dir: string;
let store: OpenedStore;
let fx: Fixture;
let input: ReportInput;
let technical: Buffer;
let executive: Buffer;


interface Word {
  page: number;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  text: string;
}

/** Every word with its box, from `pdftotext -bbox`. */
function words(file: string): Word[] {
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
  const out: Word[] = [];
  let page = 0;
  for (const m of html.matchAll(/<page [^>]*>|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
    if (m[0].startsWith('<page')) page += 1;
    else out.push({ page, xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]), text: m[5]! });
  }
  return out;
}

beforeAll(async () => {
  ({ dir, store } = await openReportStore('portcullis-pdf-'));
  fx = await seedReportFixture(store.db, { findings: 40 });
  input = (await loadReportInput(store.db, fx.scanId))!;
  technical = (await renderReport(input, 'technical', { timeZone: 'UTC' })).body;
  executive = (await renderReport(input, 'executive', { timeZone: 'UTC' })).body;
}, 120_000);

afterAll(() => removeReportStore(dir, store));

describe('technical PDF', () => {
  it('is a PDF with every finding’s name, path and recommendation in its text', () => {
    expect(technical.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(technical.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
    const t = flat(pdfText(pdfFile(dir, 'technical.pdf', technical)));
    expect(fx.findings).toHaveLength(40);
    for (const f of fx.findings) {
      expect(t, f.vulnerability_name).toContain(flat(f.vulnerability_name));
      expect(t, f.path).toContain(`${f.method} ${f.path}`);
      expect(t, f.recommendation).toContain(flat(f.recommendation));
      expect(t, f.cvss_vector).toContain(f.cvss_vector);
      expect(t, f.fingerprint).toContain(f.fingerprint);
    }
  });

  it('shows evidence, curl and references, with the unbroken 2,000-character tokens complete', () => {
    const t = pdfText(pdfFile(dir, 'technical.pdf', technical));
    // Raw order, and no de-hyphenation: pdftotext's default mode drops a "-" that ends a line.
    const raw = pdfText(pdfFile(dir, 'technical.pdf', technical), '-raw');
    // Wrapped lines of one token are joined back by dropping the line breaks inside it (and the
    // running header of the next page, when a token continues there).
    const joined = raw
      .split('\n')
      .filter((l) => !/^(\f?Portcullis · Technical Report|Scan \S+ · .* Page \d+ of \d+$)/.test(l))
      .join('');
    expect(joined.includes(longToken(2000, 0 + 7)), 'evidence token').toBe(true);
    expect(joined.includes(longToken(2000, 5 + 99)), 'header token').toBe(true);
    expect(t).toContain("curl -sS -X GET 'https://api.example.test/v2");
    expect(t).toContain('Authorization: Bearer [redacted]');
    expect(t).toContain('https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/');
    expect(t).toContain('No reproduction command was recorded for this finding.');
    expect(t).toContain('Ålice Ünïcödé Ωμέγα 名前');
  });

  it('groups findings by OWASP category and orders them by severity then CVSS', () => {
    const t = flat(pdfText(pdfFile(dir, 'technical.pdf', technical)));
    const body = t.slice(t.lastIndexOf('3. Findings'));
    const at = (s: string) => body.indexOf(s);
    const cats = ['API1:2023 Broken Object Level Authorization (', 'API2:2023 Broken Authentication (', 'API5:2023', 'API8:2023 Security Misconfiguration (', 'API10:2023'];
    const pos = cats.map(at);
    expect(pos.every((p) => p >= 0)).toBe(true);
    expect([...pos].sort((a, b) => a - b)).toEqual(pos);
    // Inside API8: high/medium SQL error findings come before the low header findings.
    const api8 = body.slice(at('API8:2023 Security Misconfiguration ('), at('API9:2023'));
    expect(api8.indexOf('SQL error disclosed')).toBeLessThan(api8.indexOf('Security headers missing'));
  });

  it('numbers its pages and its contents page points at the right pages', () => {
    const t = pdfText(pdfFile(dir, 'technical.pdf', technical));
    const pages = t.split('\f').slice(0, -1);
    expect(pages.length).toBeGreaterThan(20);
    pages.forEach((p, i) => {
      if (i > 0) expect(p, `page ${i + 1}`).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    // The contents (pages 2 and 3) in layout mode: each entry and its page number on one line.
    const contents = execFileSync('pdftotext', ['-layout', '-f', '2', '-l', '3', pdfFile(dir, 'technical.pdf', technical), '-']).toString('utf8');
    for (const section of ['1. Scan overview', '2. Coverage', '3. Findings', '4. Fixed since the previous scan', '5. Endpoints', 'API7:2023 Server Side Request Forgery (4)']) {
      const m = new RegExp(`^\\s*${section.replace(/[()]/g, '\\$&')}\\s+(\\d+)\\s*$`, 'm').exec(contents);
      expect(m, section).not.toBeNull();
      const n = Number(m![1]);
      expect(flat(pages[n - 1]!), `${section} on page ${n}`).toContain(section);
    }
  });

  it('never draws a word outside the page margins', () => {
    const ws = words(pdfFile(dir, 'technical.pdf', technical));
    expect(ws.length).toBeGreaterThan(5000);
    const outside = ws.filter((w) => w.xMin < 53 || w.xMax > A4.width - 53 || w.yMin < 20 || w.yMax > A4.height - 20);
    expect(outside.slice(0, 5)).toEqual([]);
  });

  it('embeds its fonts, with a CJK fallback for the characters DejaVu lacks', () => {
    const fonts = execFileSync('pdffonts', [pdfFile(dir, 'technical.pdf', technical)]).toString('utf8');
    const rows = fonts.split('\n').slice(2).filter(Boolean);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const row of rows) expect(row).toMatch(/CID TrueType\s+Identity-H\s+yes yes yes/);
    expect(fonts).toMatch(/DejaVuSans\b/);
    expect(fonts).toMatch(/DejaVuSansMono/);
    expect(fonts).toMatch(/DroidSansFallback/);
    expect(pdfText(pdfFile(dir, 'technical.pdf', technical))).toContain(FIXTURE_API_NAME);
  });

  it('takes its dates from the scan: the same scan gives the same file', async () => {
    const again = (await renderReport(input, 'technical', { timeZone: 'UTC' })).body;
    expect(Buffer.compare(again, technical)).toBe(0);
    const info = execFileSync('pdfinfo', [pdfFile(dir, 'technical.pdf', technical)]).toString('utf8');
    expect(info).toMatch(/CreationDate:\s+Mon Mar\s+2 09:41:07 2026/);
    expect(info).toContain(`Title:           Technical Report - ${FIXTURE_API_NAME}`);
  });
});

describe('executive PDF', () => {
  it('has the score, severity counts, top risks, OWASP coverage with reasons, and the trend', () => {
    const file = pdfFile(dir, 'executive.pdf', executive);
    const t = flat(pdfText(file));
    expect(t).toContain('1. Summary');
    expect(t).toContain(`${input.scan.score} / 100`);
    // The one count (issue 31): 37 vulnerabilities, critical apart from high, the informational ones apart.
    expect(t).toMatch(/found 37 vulnerabilities: 5 critical, 15 high, 10 medium and 7 low \(critical: CVSS 9\.0 or more\); and 3 informational findings/);
    expect(t).toContain('Vulnerabilities 37');
    expect(t).toContain('2. Top risks');
    expect(t).toContain('JWT with alg "none" accepted');
    expect(t).toContain('What to do: Pin the accepted JWT algorithms on the server and reject unsigned tokens.');
    for (const c of input.coverage) expect(t).toContain(`${c.id.split(':')[0]} ${c.title}`);
    expect(t).toContain('Partial in every tool');
    expect(t).toContain('No second API key was given, so cross-user tests could not run.');
    expect(t).toContain('4. Trend');
    for (const h of input.history) expect(t).toContain(h.completed_at.slice(0, 10));
    expect(t).toMatch(/\d+ new vulnerabilit(y|ies), \d+ recurring vulnerabilit(y|ies), 1 fixed finding/);
    expect(t).toContain('Fixed: JWT with alg "none" accepted (GET /users/{id})');
    expect(t).toContain('Timeout after 10 s: GET /files/{name} (attempt 3 of 3)');
    const pages = pdfText(file).split('\f').slice(0, -1);
    pages.forEach((p, i) => {
      if (i > 0) expect(p).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    const outside = words(file).filter((w) => w.xMin < 20 || w.xMax > A4.width - 20 || w.yMax > A4.height - 20);
    expect(outside).toEqual([]);
  });

  it('draws its charts as vectors, not images', () => {
    const file = pdfFile(dir, 'executive.pdf', executive);
    const images = execFileSync('pdfimages', ['-list', file]).toString('utf8').split('\n').slice(2).filter(Boolean);
    expect(images).toEqual([]);
    expect(flat(pdfText(file))).toMatch(/Critical 5 High 15 Medium 10 Low 7 Info 3/);
  });

  it('is deterministic', async () => {
    const again = (await renderReport(input, 'executive', { timeZone: 'UTC' })).body;
    expect(Buffer.compare(again, executive)).toBe(0);
  });

  it('reports a clean first scan honestly', async () => {
    const clean = await seedReportFixture(store.db, { findings: 0, history: 0, name: 'Clean API' });
    const cleanInput = (await loadReportInput(store.db, clean.scanId))!;
    expect(cleanInput.scan.score).toBe(100);
    const t = flat(pdfText(pdfFile(dir, 'clean.pdf', (await renderReport(cleanInput, 'executive', { timeZone: 'UTC' })).body)));
    expect(t).toContain('found no issues in the checks it ran');
    expect(t).toContain('That does not prove the API is secure');
    expect(t).toContain('This is the first completed scan of this API');
    const tech = flat(pdfText(pdfFile(dir, 'clean-tech.pdf', (await renderReport(cleanInput, 'technical', { timeZone: 'UTC' })).body)));
    expect(tech).toContain('The scan found no issues in the checks it ran.');
  });
});

describe('hostile finding text', () => {
  it('keeps absurdly long names, paths, vectors and references inside the page', async () => {
    const weird = await seedReportFixture(store.db, { findings: 3, history: 0, name: `${'Very long API name '.repeat(30)}end` });
    const id = weird.findings[0]!.id;
    await store.db
      .updateTable('findings')
      .set({
        vulnerability_name: `Name${'X'.repeat(1200)}`,
        path: `/${'segment/'.repeat(120)}{id}`,
        cvss_vector: `CVSS:3.1/${'AV:N/'.repeat(200)}`,
        parameter: 'p'.repeat(600),
        references: JSON.stringify([`https://example.com/${'a'.repeat(900)}`]),
        evidence: `Method: GET\nPath: /x\n\tTabbed\u0000NUL \u202eRTL override\u202c emoji 🔥🔥 עברית العربية\r\n${'{'.repeat(4000)}`,
        recommendation: `Fix it. ${'word '.repeat(800)}`,
      })
      .where('id', '=', id)
      .execute();
    const inp = (await loadReportInput(store.db, weird.scanId))!;
    for (const type of ['technical', 'executive'] as const) {
      const file = pdfFile(dir, `weird-${type}.pdf`, (await renderReport(inp, type, { timeZone: 'UTC' })).body);
      const outside = words(file).filter((w) => w.xMin < 20 || w.xMax > A4.width - 20 || w.yMin < 15 || w.yMax > A4.height - 15);
      expect(outside.map((w) => `${type} p${w.page}: ${w.text.slice(0, 40)}`)).toEqual([]);
    }
    const raw = pdfText(pdfFile(dir, 'weird-technical.pdf', (await renderReport(inp, 'technical', { timeZone: 'UTC' })).body), '-raw').replace(/\n/g, '');
    expect(raw.includes(`Name${'X'.repeat(1200)}`)).toBe(true);
    // No embedded font has emoji: they are spelled out rather than drawn as empty boxes.
    expect(raw).toContain('emoji [U+1F525][U+1F525]');
    // A right-to-left override in evidence cannot reorder anything: it is shown, not obeyed.
    expect(raw).toContain('[U+202E]RTL override');
  });
});
