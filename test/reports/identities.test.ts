// The identity table in the reports: a scan's identities and the users it registered appear in the
// technical PDF (read back with poppler), the executive PDF's scan facts, the HTML, JSON and SARIF
// exports; hostile names stay escaped in HTML and inside the PDF margins; a scan from before
// identities shows none of it; no password the notes might carry ever reaches a report.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esc } from '../../electron/reports/export/html';
import type { JsonReport } from '../../electron/reports/export/json';
import { toJunit } from '../../electron/reports/export/junit';
import { sarifDocument } from '../../electron/reports/export/sarif';
import { loadReportInput } from '../../electron/reports/loader';
import type { ReportInput } from '../../electron/reports/model';
import { renderReport } from '../../electron/reports/render';
import type { OpenedStore } from '../../electron/store/database';
import { SCRIPT_PAYLOAD, seedReportFixture, type Fixture } from '../helpers/report-fixture';
import { flat, openReportStore, pdfFile, pdfText, removeReportStore } from '../helpers/report-files';

const A4 = { width: 595.28, height: 841.89 };
const PASSWORD = 'Pc-SECRETpassw0rd-7x';
const HOSTILE_NAME = `<b>"Ünïcödé" & 'x'</b> ${'W'.repeat(1500)}`;
const HOSTILE_USER = `${SCRIPT_PAYLOAD}${'u'.repeat(1200)}`;

const IDENTITIES = [
  { name: 'alice', role: 'user', obtained: 'login recipe (POST /users/v1/login)', verified_as: 'alice (GET /me)', refreshes: 3, failures: 0, created: false },
  { name: 'admin', role: 'privileged', obtained: 'OAuth2 client credentials grant', verified_as: null, refreshes: 0, failures: 2, created: false },
  { name: 'key 2', role: 'user', obtained: 'created by the scan (POST /users/v1/register)', verified_as: 'pcs_1a2b (GET /me)', refreshes: 0, failures: 0, created: true },
  { name: HOSTILE_NAME, role: 'lower', obtained: `static token ${SCRIPT_PAYLOAD} ${'o'.repeat(2000)}`, verified_as: `${'v'.repeat(900)} \u202eevil 支付`, refreshes: 12, failures: 1, created: false },
];
const CREATED_USERS = [
  { username: 'pcs_1a2b', email: 'pcs.1a2b@example.com', operation: 'POST /users/v1/register', purpose: 'key 2', password: PASSWORD },
  { username: null, email: 'pcs.9z@example.com', operation: 'POST /users/v1/register', purpose: 'victim of the BOLA check' },
  { username: HOSTILE_USER, email: null, operation: 'POST /users/v1/register', purpose: `${'purpose '.repeat(300)}end` },
];

let dir: string;
let store: OpenedStore;
let fx: Fixture;
let input: ReportInput;
let older: ReportInput;

const render = async (inp: ReportInput, type: 'executive' | 'technical' | 'json' | 'sarif' | 'html' | 'junit') => (await renderReport(inp, type, { timeZone: 'UTC' })).body;

/** Every word's text, from `pdftotext -bbox` (entities decoded). */
function wordTexts(file: string): string[] {
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
  const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  return [...html.matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((m) => decode(m[1]!));
}

/** Words drawn outside the page margins, from `pdftotext -bbox`. */
function outside(file: string, margin: number): string[] {
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
  const out: string[] = [];
  let page = 0;
  for (const m of html.matchAll(/<page [^>]*>|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
    if (m[0].startsWith('<page')) page += 1;
    else if (Number(m[1]) < margin || Number(m[3]) > A4.width - margin || Number(m[2]) < 15 || Number(m[4]) > A4.height - 15) out.push(`p${page}: ${m[5]!.slice(0, 40)}`);
  }
  return out;
}

beforeAll(async () => {
  ({ dir, store } = await openReportStore('portcullis-identities-'));
  fx = await seedReportFixture(store.db, { findings: 6, history: 1 });
  const row = await store.db.selectFrom('scans').select('notes').where('id', '=', fx.scanId).executeTakeFirstOrThrow();
  const notes = JSON.parse(row.notes) as Record<string, unknown>;
  const identities = [...IDENTITIES, null, 'alice', { name: '', role: 'user' }, { name: 'root', role: 'superuser' }, { role: 'user' }];
  const createdUsers = [...CREATED_USERS, { email: '', operation: 'POST /x' }, 42];
  await store.db
    .updateTable('scans')
    .set({ notes: JSON.stringify({ ...notes, identities, created_users: createdUsers, refreshes: 15 }) })
    .where('id', '=', fx.scanId)
    .execute();
  input = (await loadReportInput(store.db, fx.scanId))!;
  const old = await seedReportFixture(store.db, { findings: 6, history: 1, name: 'Older API' });
  older = (await loadReportInput(store.db, old.scanId))!;
}, 120_000);

afterAll(() => removeReportStore(dir, store));

describe('the report model', () => {
  it('reads the identities, registered users and refreshes, dropping malformed entries and any password', () => {
    expect(input.scan.identities.map((i) => i.name)).toEqual(['alice', 'admin', 'key 2', HOSTILE_NAME]);
    expect(input.scan.identities[1]).toEqual(IDENTITIES[1]);
    expect(input.scan.created_users).toEqual([
      { username: 'pcs_1a2b', email: 'pcs.1a2b@example.com', operation: 'POST /users/v1/register', purpose: 'key 2' },
      CREATED_USERS[1],
      CREATED_USERS[2],
    ]);
    expect(input.scan.refreshes).toBe(15);
    expect(JSON.stringify(input)).not.toContain(PASSWORD);
  });

  it('gives an older scan none of them', () => {
    expect(older.scan).toMatchObject({ identities: [], created_users: [], refreshes: 0 });
  });
});

describe('technical PDF', () => {
  it('has the identity table and the registered users in the scan overview', async () => {
    const file = pdfFile(dir, 'technical.pdf', await render(input, 'technical'));
    const t = flat(pdfText(file));
    const overview = t.slice(t.lastIndexOf('1. Scan overview'), t.lastIndexOf('2. Coverage'));
    for (const s of [
      'Identities',
      'Identity Role How obtained Verified as Refreshes Failed logins',
      'alice user login recipe (POST /users/v1/login) alice (GET /me) 3 0',
      'admin privileged OAuth2 client credentials grant not verified 0 2',
      'key 2 user created by the scan (POST /users/v1/register) pcs_1a2b (GET /me) 0 0',
      'lower privilege',
      'Users the scan registered',
      'pcs_1a2b POST /users/v1/register key 2',
      'pcs.9z@example.com POST /users/v1/register victim of the BOLA check',
    ]) {
      expect(overview, s).toContain(s);
    }
    expect(t).not.toContain(PASSWORD);
    // The hostile texts are all there, hard-wrapped in their cells rather than cut off (table columns
    // interleave in pdftotext's reading order, so the wrapped pieces are counted, not joined).
    const ws = wordTexts(file);
    const trailing = (ch: string) => ws.reduce((n, w) => n + (new RegExp(`^(?:.*</script>)?(${ch}+)$`).exec(w)?.[1]!.length ?? 0), 0);
    expect(trailing('W')).toBe(1500);
    expect(trailing('o')).toBe(2000);
    expect(trailing('v')).toBe(900);
    expect(trailing('u')).toBe(1200);
    expect(t).toContain('[U+202E]evil 支付');
    expect(t).toContain('<script>alert("pwned")</script>');
    expect(outside(file, 53)).toEqual([]);
  });

  it('shows nothing of it for a scan from before identities', async () => {
    const t = flat(pdfText(pdfFile(dir, 'older-technical.pdf', await render(older, 'technical'))));
    expect(t).toContain('1. Scan overview');
    expect(t).not.toContain('Who the scan spoke as');
    expect(t).not.toContain('Users the scan registered');
    expect(t).not.toContain('Failed logins');
  });
});

describe('executive PDF', () => {
  it('says in its scan facts how many identities and registered users there were, only when there were any', async () => {
    const file = pdfFile(dir, 'executive.pdf', await render(input, 'executive'));
    const t = flat(pdfText(file));
    expect(t.slice(t.lastIndexOf('5. About this scan'))).toContain('Identities 4 identities; 3 users registered by the scan');
    expect(t).not.toContain(HOSTILE_NAME.slice(0, 20));
    expect(outside(file, 53)).toEqual([]);
    const before = flat(pdfText(pdfFile(dir, 'older-executive.pdf', await render(older, 'executive'))));
    expect(before).toContain('5. About this scan');
    expect(before).not.toMatch(/identit/i);
    const onlyIdentities = { ...input, scan: { ...input.scan, created_users: [] } };
    expect(flat(pdfText(pdfFile(dir, 'executive-2.pdf', await render(onlyIdentities, 'executive'))))).toMatch(/Identities 4 identities (?!;)/);
  });
});

describe('HTML export', () => {
  it('has the same table, every identity and user text escaped', async () => {
    const html = (await render(input, 'html')).toString('utf8');
    const scan = html.slice(html.indexOf('<section id="scan">'));
    expect(scan).toContain('<h3>Identities</h3>');
    expect(scan).toContain('<th>Identity</th><th>Role</th><th>How obtained</th><th>Verified as</th><th class="num">Refreshes</th><th class="num">Failed logins</th>');
    expect(scan).toContain('<td>alice</td><td>user</td><td>login recipe (POST /users/v1/login)</td><td>alice (GET /me)</td><td class="num">3</td><td class="num">0</td>');
    expect(scan).toContain('<td class="muted">not verified</td>');
    expect(scan).toContain('<h3>Users the scan registered</h3>');
    expect(scan).toContain('<td><code>pcs.9z@example.com</code></td><td><code>POST /users/v1/register</code></td><td>victim of the BOLA check</td>');
    expect(html).not.toContain(SCRIPT_PAYLOAD);
    expect(html).not.toContain('<b>"Ünïcödé"');
    expect(html).toContain(`&lt;b&gt;&quot;Ünïcödé&quot; &amp; &#39;x&#39;&lt;/b&gt; ${'W'.repeat(1500)}`);
    expect(html).toContain(esc(HOSTILE_USER));
    expect(html).toContain('[U+202E]evil');
    expect(html).not.toContain('\u202e');
    expect(html).not.toContain(PASSWORD);
    expect(html.match(/<body>/g)).toHaveLength(1);
  });

  it('lists under each curl command the shell variables it reads (a password has its own)', async () => {
    const curl = `curl -i -X POST -H 'authorization: Bearer '"$PORTCULLIS_ALICE_TOKEN" --data-raw '{"password":"'"$PORTCULLIS_ALICE_PASSWORD"'"}' 'http://api.test/login'`;
    const withVars = { ...input, findings: input.findings.map((f, i) => (i === 0 ? { ...f, curl } : { ...f, curl: "curl -i -X GET 'http://api.test/'" })) };
    const html = (await render(withVars, 'html')).toString('utf8');
    expect(html).toContain('<p class="muted">Set first (export these shell variables, with your own values): PORTCULLIS_ALICE_TOKEN, PORTCULLIS_ALICE_PASSWORD.</p>');
    expect(html.match(/Set first \(export/g)).toHaveLength(1);
  });

  it('has no identity table for a scan from before identities', async () => {
    const html = (await render(older, 'html')).toString('utf8');
    expect(html).not.toContain('<h3>Identities</h3>');
    expect(html).not.toContain('Users the scan registered');
  });
});

describe('JSON, SARIF and JUnit exports', () => {
  it('JSON carries the fields as they are in its scan object', async () => {
    const doc = JSON.parse((await render(input, 'json')).toString('utf8')) as JsonReport;
    expect(doc.scan.identities).toEqual(input.scan.identities);
    expect(doc.scan.created_users).toEqual(input.scan.created_users);
    expect(doc.scan.refreshes).toBe(15);
    const before = JSON.parse((await render(older, 'json')).toString('utf8')) as JsonReport;
    expect(before.scan).toMatchObject({ identities: [], created_users: [], refreshes: 0 });
    expect((await render(input, 'json')).toString('utf8')).not.toContain(PASSWORD);
  });

  it('SARIF carries them in the run’s property bag, not as results', () => {
    const run = sarifDocument(input).runs[0]!;
    expect(run.properties.scan).toMatchObject({ identities: input.scan.identities, created_users: input.scan.created_users, refreshes: 15 });
    expect(run.results).toHaveLength(input.findings.length);
    expect(sarifDocument(older).runs[0]!.properties.scan).toMatchObject({ identities: [], created_users: [], refreshes: 0 });
  });

  it('JUnit is unchanged by them (they are not test results)', () => {
    expect(toJunit(input)).toBe(toJunit({ ...input, scan: { ...input.scan, identities: [], created_users: [], refreshes: 0 } }));
  });
});
