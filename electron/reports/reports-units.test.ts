// Unit tests of the report building blocks: scoring, categories, run notes read defensively,
// coverage honesty, file names and headers, format parsing, escaping, SARIF locations.

import { describe, expect, it } from 'vitest';
import { reportFileName } from '../../shared/display';
import { esc, mdHtml } from './export/html';
import { xml } from './export/junit';
import { pathUri, ruleName } from './export/sarif';
import { firstSentence, resolveTimeZone, safeUrl, shorten } from './format';
import { inlineSpans, markdownPlain } from './markdown';
import { contentDisposition, parseReportFormats, ReportError } from './index';
import { categoryId, compareFindings, computeScore, type ReportCheck, type ReportEndpoint, type ReportFinding } from './model';
import { parseScanNotes } from './notes';
import { problemsLead } from './scan-notes';
import { checkCategory, computeCoverage } from './owasp';

const finding = (over: Partial<ReportFinding>): ReportFinding => ({
  id: 'f',
  check_id: 'c',
  vulnerability_name: 'n',
  severity: 'low',
  confidence: 'high',
  owasp: 'API8:2023',
  cwe: null,
  description: '',
  recommendation: '',
  cvss_score: 3,
  cvss_vector: '',
  method: 'GET',
  path: '/',
  parameter: null,
  evidence: '',
  curl: '',
  references: [],
  fingerprint: 'fp',
  trend: 'new',
  triage: null,
  ...over,
});

describe('score', () => {
  it('follows the DESIGN.md weights and counts a fingerprint once', () => {
    expect(computeScore([])).toBe(100);
    expect(computeScore([finding({ severity: 'high', cvss_score: 8, fingerprint: 'a' })])).toBe(85);
    expect(computeScore([finding({ severity: 'high', cvss_score: 9.0, fingerprint: 'a' })])).toBe(75);
    expect(computeScore([finding({ severity: 'medium', cvss_score: 9.8, fingerprint: 'a' })])).toBe(75);
    expect(
      computeScore([
        finding({ severity: 'medium', cvss_score: 5, fingerprint: 'a' }),
        finding({ severity: 'medium', cvss_score: 5, fingerprint: 'a' }),
        finding({ severity: 'low', cvss_score: 3, fingerprint: 'b' }),
        finding({ severity: 'info', cvss_score: 0, fingerprint: 'c' }),
      ]),
    ).toBe(91);
    expect(computeScore(Array.from({ length: 10 }, (_, i) => finding({ severity: 'high', cvss_score: 9.5, fingerprint: `x${i}` })))).toBe(0);
  });

  it('orders findings by level (critical from CVSS 9.0 whatever the stored severity), then CVSS, then category', () => {
    const list = [
      finding({ id: '1', severity: 'low', cvss_score: 3.9 }),
      finding({ id: '2', severity: 'high', cvss_score: 7.5, owasp: 'API8:2023' }),
      finding({ id: '3', severity: 'high', cvss_score: 9.1 }),
      finding({ id: '4', severity: 'high', cvss_score: 7.5, owasp: 'API1:2023' }),
      finding({ id: '5', severity: 'medium', cvss_score: 9.9 }),
    ].sort(compareFindings);
    expect(list.map((f) => f.id)).toEqual(['5', '3', '4', '2', '1']);
  });
});

describe('categories', () => {
  it('normalises OWASP ids and infers a check category', () => {
    expect(categoryId('API1:2023 Broken Object Level Authorization')).toBe('API1:2023');
    expect(categoryId('api10')).toBe('API10:2023');
    expect(categoryId('API11')).toBeNull();
    expect(categoryId('A01:2021')).toBeNull();
    expect(checkCategory('bfla-admin-auth')).toBe('API5:2023');
    expect(checkCategory('jwt-none')).toBe('API2:2023');
    expect(checkCategory('x', 'API7:2023')).toBe('API7:2023');
    expect(checkCategory('something-else')).toBe('Other');
  });
});

describe('run notes', () => {
  it('reads the expected shape', () => {
    const n = parseScanNotes(
      JSON.stringify({
        errors: ['boom', { message: 'object error' }],
        skipped_checks: [{ check_id: 'bola-x', title: 'BOLA x', reason: 'No second key' }],
        fixed: [{ fingerprint: 'f1', vulnerability_name: 'Old', method: 'get', path: '/a', severity: 'HIGH' }],
      }),
    );
    expect(n.errors).toEqual(['boom', 'object error']);
    expect(n.skipped_checks).toEqual([{ check_id: 'bola-x', title: 'BOLA x', reason: 'No second key', owasp: null }]);
    expect(n.fixed).toEqual([{ fingerprint: 'f1', vulnerability_name: 'Old', method: 'GET', path: '/a', severity: 'high' }]);
    expect(n.checks_run).toBeNull();
    expect(n.endpoints).toBeNull();
  });

  it('reads which notes the scanner recorded as problems, like the notes themselves', () => {
    const n = parseScanNotes(JSON.stringify({ errors: ['Login of key 2 failed: 401', 'Pace: 5 requests a second'], problems: ['Login of key 2 failed: 401', 7, null, { message: 'object problem' }] }));
    expect(n.errors).toEqual(['Login of key 2 failed: 401', 'Pace: 5 requests a second']);
    expect(n.problems).toEqual(['Login of key 2 failed: 401', '7', 'object problem']);
    // Clipped as the notes are, so a long problem still matches its note.
    const long = 'x'.repeat(5000);
    const clipped = parseScanNotes(JSON.stringify({ errors: [long], problems: [long] }));
    expect(clipped.problems).toEqual(clipped.errors);
    // Not recorded (scans from before issue 31), or not a list: null, so the wording decides.
    expect(parseScanNotes(JSON.stringify({ errors: ['a'] })).problems).toBeNull();
    expect(parseScanNotes(JSON.stringify({ errors: ['a'], problems: 'a' })).problems).toBeNull();
    expect(parseScanNotes(JSON.stringify({ errors: ['a'], problems: [] })).problems).toEqual([]);
  });

  it('tolerates anything else', () => {
    for (const raw of ['', 'not json', '[]', 'null', '42', '{"errors": "one"}', '{"skipped_checks": [null, 1, {"title": "no id"}], "fixed": "x"}']) {
      const n = parseScanNotes(raw);
      expect(Array.isArray(n.errors)).toBe(true);
      expect(Array.isArray(n.skipped_checks)).toBe(true);
      expect(n.skipped_checks).toEqual([]);
    }
    expect(parseScanNotes('{"errors": "one"}').errors).toEqual(['one']);
    expect(parseScanNotes('{"fixed": "x"}').fixed).toBeNull();
    expect(parseScanNotes('{"endpoints": [{"method": "get", "path": "/a", "flags": ["BOLA", "NOPE", "BOLA"]}]}').endpoints).toEqual([
      { method: 'GET', path: '/a', summary: '', flags: ['BOLA'] },
    ]);
  });
});

describe('identities in the run notes', () => {
  it('reads the identity table, the registered users and the refreshes', () => {
    const alice = { name: 'alice', role: 'user', obtained: 'login recipe (POST /login)', verified_as: 'alice (GET /me)', refreshes: 2, failures: 1, created: false };
    const n = parseScanNotes(
      JSON.stringify({
        identities: [alice],
        created_users: [{ username: 'pcs_1', email: 'pcs.1@example.com', operation: 'POST /register', purpose: 'key 2', password: 'Pc-secret-7x' }],
        refreshes: 2,
      }),
    );
    expect(n.identities).toEqual([alice]);
    expect(n.created_users).toEqual([{ username: 'pcs_1', email: 'pcs.1@example.com', operation: 'POST /register', purpose: 'key 2' }]);
    expect(JSON.stringify(n)).not.toContain('Pc-secret-7x');
    expect(n.refreshes).toBe(2);
  });

  it('gives an older scan none, and drops malformed entries', () => {
    for (const raw of ['', '{}', '{"identities": "x", "created_users": {}, "refreshes": "3"}']) {
      const n = parseScanNotes(raw);
      expect(n.identities).toEqual([]);
      expect(n.created_users).toEqual([]);
      expect(n.refreshes).toBe(0);
    }
    const n = parseScanNotes(
      JSON.stringify({
        identities: [null, 'alice', { name: '  ', role: 'user' }, { name: 'root', role: 'superuser' }, { role: 'user' }, { name: 'bob', role: 'lower', refreshes: -3, failures: 'many', verified_as: 7, created: 'yes' }],
        created_users: [null, { operation: 'POST /register' }, { username: '', email: ' ' }, { email: 'pcs.2@example.com' }],
        refreshes: Number.NaN,
      }),
    );
    expect(n.identities).toEqual([{ name: 'bob', role: 'lower', obtained: 'not recorded', verified_as: null, refreshes: 0, failures: 0, created: false }]);
    expect(n.created_users).toEqual([{ username: null, email: 'pcs.2@example.com', operation: '', purpose: '' }]);
    // Without the engine's total, the identities' own counts add up to it.
    expect(parseScanNotes('{"identities": [{"name": "a", "role": "user", "refreshes": 2.7}, {"name": "b", "role": "privileged", "refreshes": 3}]}').refreshes).toBe(5);
  });
});

describe('coverage honesty', () => {
  const endpoints: ReportEndpoint[] = [
    { method: 'GET', path: '/users/{id}', summary: '', flags: ['BOLA', 'SEC_MISC', 'IIM'] },
    { method: 'POST', path: '/checkout', summary: '', flags: ['UABF', 'SEC_MISC', 'IIM'] },
    { method: 'GET', path: '/internal', summary: '', flags: ['SKIP'] },
  ];
  const checks: ReportCheck[] = [{ check_id: 'bola-create-then-steal', title: 'Create then steal', category: 'API1:2023', status: 'skipped', reason: 'No second key', endpoints: null }];
  const cov = computeCoverage(endpoints, [finding({ owasp: 'API8:2023' })], checks);
  const by = (id: string) => cov.find((c) => c.id === id)!;

  it('says API6 and API10 are partial, and why', () => {
    expect(by('API6:2023').status).toBe('partial');
    expect(by('API6:2023').note).toMatch(/Partial in every tool/);
    expect(by('API10:2023').status).toBe('not_tested');
    expect(by('API10:2023').note).toMatch(/No endpoint carries the UCAPI flag/);
  });

  it('reports skipped checks with their reason, and categories with no endpoint as not tested', () => {
    expect(by('API1:2023').status).toBe('skipped');
    expect(by('API1:2023').skipped).toEqual([{ check_id: 'bola-create-then-steal', title: 'Create then steal', reason: 'No second key' }]);
    expect(by('API7:2023').status).toBe('not_tested');
    expect(by('API8:2023')).toMatchObject({ status: 'tested', endpoints_tested: 2, findings: 1 });
    expect(by('API8:2023').note).toMatch(/1 endpoint marked SKIP got no requests/);
  });

  it('never tests a category when every endpoint is skipped', () => {
    const all = computeCoverage([{ method: 'GET', path: '/', summary: '', flags: ['SKIP', 'BOLA'] }], [], []);
    expect(all.every((c) => c.status === 'not_tested')).toBe(true);
    expect(all[7]!.note).toBe('Every endpoint was marked SKIP.');
  });
});

describe('file names and headers', () => {
  const at = new Date('2026-03-02T08:07:00Z');
  it('names every type like the spec names the PDFs', () => {
    expect(reportFileName('Acme API', 'executive', at, 'UTC')).toBe('2026-03-02_0807 - Executive Report - Acme_API.pdf');
    expect(reportFileName('Acme API', 'sarif', at, 'UTC')).toBe('2026-03-02_0807 - SARIF Results - Acme_API.sarif');
    expect(reportFileName('Acme API', 'junit', at, 'UTC')).toBe('2026-03-02_0807 - JUnit Results - Acme_API.xml');
    expect(reportFileName('a\u202egnp.exe', 'html', at, 'UTC')).toBe('2026-03-02_0807 - Security Report - a_gnp.exe.html');
    expect([...reportFileName('x'.repeat(500), 'json', at, 'UTC')].length).toBeLessThan(120);
  });

  it('gives an ASCII filename and the exact UTF-8 filename*', () => {
    const name = '2026-03-02_0807 - Technical Report - Ünïcödé_Ωμέγα_支付 (v2).pdf';
    const h = contentDisposition(name);
    expect(h).toMatch(/^attachment; filename="2026-03-02_0807 - Technical Report - Unicode_[_]+ \(v2\)\.pdf"; filename\*=UTF-8''/);
    const star = /filename\*=UTF-8''(.+)$/.exec(h)![1]!;
    expect(star).not.toMatch(/[^A-Za-z0-9%\-._~!$&+^`|]/);
    expect(decodeURIComponent(star)).toBe(name);
  });

  it('parses report formats', () => {
    expect(parseReportFormats('pdf, sarif,JUNIT')).toEqual(['executive', 'technical', 'sarif', 'junit']);
    expect(parseReportFormats(['html', 'html'])).toEqual(['html']);
    expect(() => parseReportFormats('pdf,docx')).toThrow(ReportError);
    expect(() => parseReportFormats('pdf,docx')).toThrow(/Unknown report format "docx"/);
    expect(() => parseReportFormats(' , ')).toThrow(/No report format/);
  });

  it('falls back for unknown time zones', () => {
    expect(resolveTimeZone('UTC+02:00', 'UTC')).toBe('UTC+02:00');
    expect(resolveTimeZone('Europe/Berlin', 'UTC')).toBe('Europe/Berlin');
    expect(resolveTimeZone('Mars/Olympus', 'UTC')).toBe('UTC');
    expect(resolveTimeZone('', 'UTC')).toBe('UTC');
  });
});

describe('escaping', () => {
  it('escapes HTML and XML, and drops characters XML forbids', () => {
    expect(esc('<script>alert("x")</script> & \'')).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;');
    expect(xml('a\u0000b<c>&"\'')).toBe('a\ufffdb&lt;c&gt;&amp;&quot;&apos;');
    expect(xml('\ud800x')).toBe('\ufffdx');
    expect(esc('invoice\u202efdp.exe')).toBe('invoice[U+202E]fdp.exe');
  });

  it('only links http(s) URLs', () => {
    expect(safeUrl('https://owasp.org/x')).toBe('https://owasp.org/x');
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,x')).toBeNull();
    expect(safeUrl('not a url')).toBeNull();
  });

  it('cuts summaries at the first sentence', () => {
    expect(firstSentence('Use parameterised queries. Then log.')).toBe('Use parameterised queries.');
    expect(firstSentence('x'.repeat(300), 50)).toHaveLength(50);
  });

  it('keeps the first sentence whole: no cut inside parentheses, code or after an abbreviation', () => {
    expect(firstSentence('Limit page sizes (e.g. 100 items). Then log.')).toBe('Limit page sizes (e.g. 100 items).');
    expect(firstSentence('Enforce limits, i.e. reject large bodies, etc. for every route. More.')).toBe('Enforce limits, i.e. reject large bodies, etc. for every route.');
    expect(firstSentence('Cap sizes (max. 10 MB. Really.) server-side. Next.')).toBe('Cap sizes (max. 10 MB. Really.) server-side.');
    expect(firstSentence('Send `X-Frame-Options: DENY. always` on responses. Next.')).toBe('Send `X-Frame-Options: DENY. always` on responses.');
    expect(firstSentence('Version 1.2 is old! Upgrade.')).toBe('Version 1.2 is old!');
    expect(firstSentence('No sentence mark at all')).toBe('No sentence mark at all');
  });

  it('shortens at a word boundary with an ellipsis, never leaving "(" or a code span open', () => {
    expect(shorten('short', 10)).toBe('short');
    expect(shorten('alpha beta gamma delta', 13)).toBe('alpha beta…');
    // The cut would fall inside the parentheses: it goes back before them.
    expect(shorten('Reject large bodies (for example anything over ten megabytes) early', 40)).toBe('Reject large bodies…');
    expect(shorten('Send the `Strict-Transport-Security max-age` header', 30)).toBe('Send the…');
    expect(shorten('a, b, c, dddddddddddddddd', 10)).toBe('a, b, c…');
    for (const s of [shorten('x (y z) '.repeat(60), 101), firstSentence(`Fix it (${'word '.repeat(80)}) now.`, 120)]) {
      expect(s.length).toBeLessThanOrEqual(120);
      expect(s.endsWith('…')).toBe(true);
      expect(s.split('(').length).toBe(s.split(')').length);
    }
  });

  it('parses the little Markdown of check texts into spans', () => {
    expect(inlineSpans('Send `nosniff` with **care**, see [docs](https://owasp.org/x).')).toEqual([
      { text: 'Send ' },
      { text: 'nosniff', code: true },
      { text: ' with ' },
      { text: 'care', bold: true },
      { text: ', see ' },
      { text: 'docs', href: 'https://owasp.org/x' },
      { text: '.' },
    ]);
    // A link that is not http(s) stays text, markup and all.
    expect(inlineSpans('[x](javascript:alert(1))')).toEqual([{ text: '[x](javascript:alert(1))' }]);
    expect(inlineSpans('an odd ` backtick')).toEqual([{ text: 'an odd ` backtick' }]);
    expect(markdownPlain('Do this:\n- set `a`\n* and **b**')).toBe('Do this:\n• set a\n• and b');
  });

  it('renders Markdown to HTML with every span escaped', () => {
    expect(mdHtml('Use `<script>` & **"bold"**')).toBe('<p>Use <code>&lt;script&gt;</code> &amp; <strong>&quot;bold&quot;</strong></p>');
    expect(mdHtml('Steps:\n- one\n- `two`')).toBe('<p>Steps:</p><ul><li>one</li><li><code>two</code></li></ul>');
    expect(mdHtml('see [x](https://a.example/"><img>)')).not.toContain('<img');
    expect(mdHtml('[x](javascript:alert(1))')).toBe('<p>[x](javascript:alert(1))</p>');
  });
});

describe('SARIF locations', () => {
  it('turns a path template into a relative URI reference', () => {
    expect(pathUri('/users/{id}/orders')).toBe('users/%7Bid%7D/orders');
    expect(pathUri('/files/{name}?x=1')).toBe('files/%7Bname%7D');
    expect(pathUri('/')).toBe('.');
    expect(pathUri('/caf\u00e9 menu')).toBe('caf%C3%A9%20menu');
    expect(ruleName('bola-token-swap')).toBe('BolaTokenSwap');
    expect(ruleName('--')).toBe('Check');
  });
});

describe('the summary sentence about the scan notes', () => {
  it('speaks of problems only, in the singular when there is one', () => {
    expect(problemsLead([])).toBeNull();
    expect(problemsLead(['Login of key 2 failed: 401'])).toBe(
      'The scan recorded 1 problem (see Problems in About this scan): part of the scan did not run as asked, so read it before relying on a clean result.',
    );
    expect(problemsLead(['a', 'b'])).toBe('The scan recorded 2 problems (see Problems in About this scan): parts of the scan did not run as asked, so read them before relying on a clean result.');
  });
});
