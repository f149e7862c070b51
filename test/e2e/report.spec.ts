// Scan History and the scan's report (spec sections 2, 8, 9; issue 31 item 1) with answers shaped by the
// test: only completed scans with completed_at, newest first, and failed ones with their reason; "View
// Report" opens the scan's page (the report modal became the page), where the duration reads in seconds
// with 2 decimals, the About tab shows the problems apart from the information, the fix is Markdown (a
// list, code spans, bold, a link; raw HTML and a script link stay text), the description shows its code
// spans and quotes the rest as written, and the downloads keep the server's file naming. Light and dark,
// at 900 and 1440 px.

import type { Page } from '@playwright/test';
import { API_MESSAGES } from '../../shared/messages';
import { expectNoSeriousViolations, shoot, watchConsole } from './a11y';
import { createAccount, expect, signInByStorage, test } from './fixtures';

const API = {
  id: 'api-1',
  name: 'Billing API',
  base_url: 'https://billing.example.com/v1',
  created_at: '2026-11-01T08:00:00.000Z',
  imported_on: '2026-11-01T08:00:00.000Z',
  permission: 'owner',
  owner_name: 'Ada Lovelace',
  scanStatus: 'Completed',
  lastScanned: '2026-11-20T10:00:12.500Z',
  vulnerabilitiesFound: 23,
  status: 'Active',
  source_format: 'openapi-3.0',
  endpoint_count: 12,
};

const scan = (id: string, status: string, completed: string | null) => ({
  id,
  api_id: API.id,
  status,
  scan_profile: 'OWASP_API_10',
  created_at: '2026-11-01T00:00:00.000Z',
  started_at: completed ? new Date(new Date(completed).getTime() - 12_500).toISOString() : null,
  completed_at: completed,
  vulnerabilities: 3,
  score: 40,
  failure_reason: null,
});

const SEVERITIES = [...Array(7).fill('high'), ...Array(6).fill('medium'), ...Array(5).fill('low'), ...Array(3).fill('info')];

/** A fix as the checks write them: a lead, a list with code spans, bold, a link; and what must stay text. */
const FIX = [
  'Send these headers on **every** response:',
  '',
  '- `X-Content-Type-Options: nosniff`',
  '- `Cache-Control: no-store` where the answer carries user data',
  '',
  'See [the OWASP cheat sheet](https://cheatsheetseries.owasp.org/cheatsheets/REST_Security_Cheat_Sheet.html) and [this](javascript:alert(1)).',
].join('\n');
/** A description quotes what the API answered: only its code spans are read, the rest stays as written. */
const DESCRIPTION = 'The API answers `Origin: null` with Access-Control-Allow-Origin: null. Its error page said <script>alert(1)</script> near 1/**/OR/**/1=1 and [click here](https://attacker.example/).';

const findings = SEVERITIES.map((severity, i) => ({
  id: `f-${i}`,
  check_id: 'api8-security-headers',
  vulnerability_name: `Finding ${String(i + 1).padStart(2, '0')}`,
  severity,
  confidence: 'high',
  owasp: 'API8:2023',
  cwe: 'CWE-693',
  description: DESCRIPTION,
  recommendation: FIX,
  cvss_score: severity === 'high' ? 7.5 : severity === 'medium' ? 5.3 : severity === 'low' ? 3.1 : 0,
  cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  method: 'GET',
  path: `/invoices/${i}`,
  parameter: null,
  evidence: `Method: GET\nPath: /invoices/${i}\n\n> GET /v1/invoices/${i}\n< HTTP/1.1 200 OK`,
  curl: `curl -i -H "Authorization: Bearer $PORTCULLIS_KEY_2" 'https://billing.example.com/v1/invoices/${i}'`,
  references: ['https://owasp.org/API-Security/editions/2023/en/0xa8-security-misconfiguration/'],
  fingerprint: `fp-${i}`,
  trend: 'new',
  triage: null,
}));

const PROBLEMS = [
  'Logging in as alice failed 2 times during the scan (the Identities table counts them).',
  "The scan's request budget (500 requests) ran out; the remaining checks did not run.",
];
const INFO = ['Key 1 works with the "bearer" security scheme; it is used wherever an endpoint accepts several.', 'Credentials were renewed 3 times during the scan (alice: 3).'];

async function mockApi(page: Page): Promise<void> {
  await page.route('**/api/apis?*', (route) => route.fulfill({ json: { success: true, message: 'APIs loaded', data: { apis: [API] } } }));
  await page.route('**/api/environment', (route) => route.fulfill({ json: { success: true, message: 'OK', data: { isDocker: false, localScans: true } } }));
  await page.route('**/api/scan/list?*', (route) =>
    route.fulfill({
      json: {
        success: true,
        message: 'OK',
        data: {
          scans: [
            scan('older', 'completed', '2026-11-10T10:00:12.500Z'),
            scan('failed', 'failed', '2026-11-19T10:00:00.000Z'),
            scan('no-time', 'completed', null),
            scan('newest', 'completed', '2026-11-20T10:00:12.500Z'),
            scan('running', 'running', null),
          ],
        },
      },
    }),
  );
  await page.route('**/api/scan/details/brief', (route) =>
    route.fulfill({
      json: {
        success: true,
        message: 'OK',
        data: {
          scan_id: 'newest',
          api_id: API.id,
          status: 'completed',
          results: {
            scan_info: {
              started_at: '2026-11-20T10:00:00.000Z',
              completed_at: '2026-11-20T10:00:12.500Z',
              progress: { done: 30, total: 30 },
              requests_sent: 321,
              // In the scan's order, information and problems mixed; `problems` says which are which.
              errors: [INFO[0], PROBLEMS[0], INFO[1], PROBLEMS[1]],
              problems: PROBLEMS,
              score: 40,
              failure_reason: null,
              skipped_checks: [{ check_id: 'bfla', title: 'Function level authorization', reason: 'No second key was given.' }],
              fixed: [],
              requests_by_check: {},
              identities: [],
              created_users: [],
              refreshes: 3,
            },
            results: findings.map(({ description: _d, recommendation: _r, evidence: _e, curl: _c, references: _x, cvss_vector: _v, ...brief }) => brief),
          },
        },
      },
    }),
  );
  await page.route('**/api/scan/finding', (route) => {
    const id = (route.request().postDataJSON() as { finding_id: string }).finding_id;
    const finding = findings.find((f) => f.id === id);
    return finding ? route.fulfill({ json: { success: true, message: 'OK', data: { finding } } }) : route.fulfill({ status: 404, json: { success: false, message: 'Not found' } });
  });
}

test.use({ timezoneId: 'Africa/Johannesburg' });

test('history lists completed scans newest first; View Report opens the scan page with the report', async ({ page, request }) => {
  const errors = watchConsole(page);
  await signInByStorage(page, request, await createAccount(request));
  await mockApi(page);
  await page.goto('/manage-apis');
  await page.getByTestId('history-button').click();
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(2);
  // The failed scan sits between them, by when it ended (issue 17).
  await expect(page.locator('[data-testid="history-table"] tbody tr').nth(1)).toHaveAttribute('data-scan-id', 'failed');
  await expect(rows.nth(0)).toHaveAttribute('data-scan-id', 'newest');
  await expect(rows.nth(1)).toHaveAttribute('data-scan-id', 'older');
  await expect(rows.nth(0).locator('td').nth(1)).toHaveText('12.50');

  // The report is the scan's page: a link, not a dialog.
  const view = rows.nth(0).getByTestId('open-scan-page');
  await expect(view).toHaveText('View Report');
  await expect(view).toHaveAttribute('href', '/scans/newest');
  await view.click();
  await expect(page).toHaveURL(/\/scans\/newest(\?|$)/);
  await expect(page.getByTestId('history-modal')).toHaveCount(0);
  await expect(page.getByTestId('findings-shown')).toHaveText(`${SEVERITIES.length} of ${SEVERITIES.length} findings`);
  // Severities as the filter counts them; high first.
  await expect(page.getByTestId('filter-severity').locator('option[value="high"]')).toHaveText('High (7)');
  await expect(page.getByTestId('filter-severity').locator('option[value="medium"]')).toHaveText('Medium (6)');
  await expect(page.getByTestId('finding-row').first()).toHaveAttribute('data-severity', 'high');

  // The fix and the description are Markdown: a list, code spans, bold and a link that opens outside.
  const fix = page.getByTestId('detail-fix');
  await expect(fix.locator('ul > li')).toHaveCount(2);
  await expect(fix.locator('li code').first()).toHaveText('X-Content-Type-Options: nosniff');
  await expect(fix.locator('strong')).toHaveText('every');
  await expect(fix).not.toContainText('**');
  await expect(fix).not.toContainText('`');
  const link = fix.locator('a');
  await expect(link).toHaveCount(1);
  await expect(link).toHaveText('the OWASP cheat sheet');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noreferrer noopener');
  // A javascript: link is its text, nothing to click.
  await expect(fix).toContainText('and this.');
  // The description shows its code spans; what it quotes keeps its asterisks and brackets, HTML is text.
  const description = page.getByTestId('detail-description');
  await expect(description.locator('code')).toHaveText('Origin: null');
  await expect(description).toContainText('<script>alert(1)</script> near 1/**/OR/**/1=1 and [click here](https://attacker.example/).');
  await expect(description.locator('script, a, strong, em')).toHaveCount(0);

  // About this scan: the problems first and apart, then the information; the spec's duration in seconds.
  await expect(page.getByTestId('scan-tab-about-problems')).toContainText('2');
  await page.getByTestId('scan-tab-about').click();
  const about = page.getByTestId('scan-about');
  await expect(about.getByTestId('scan-about-duration')).toHaveText('12.50 s');
  await expect(about.getByTestId('scan-problem')).toHaveText(PROBLEMS);
  await expect(about.getByTestId('scan-note')).toHaveText(INFO);
  await expect(about.locator('section').first()).toHaveAttribute('data-testid', 'scan-problems');
  await expect(about.getByTestId('skipped-checks')).toContainText('No second key was given.');

  // A refused download says why; an export keeps the server's file name.
  await page.route('**/api/reports/download?*', (route) =>
    route.request().url().includes('report_type=executive')
      ? route.fulfill({ status: 500, json: { success: false, message: 'Report engine unavailable' } })
      : route.fulfill({
          status: 200,
          headers: { 'content-type': 'application/sarif+json', 'content-disposition': 'attachment; filename="2026-11-20_1000 - SARIF Results - Billing_API.sarif"' },
          body: '{"version":"2.1.0"}',
        }),
  );
  await page.getByTestId('reports-menu').locator('summary').click();
  await page.getByTestId('download-executive').click();
  await expect(page.getByTestId('notice-text')).toHaveText(API_MESSAGES.downloadReportError('Report engine unavailable'));
  if (!(await page.getByTestId('download-sarif').isVisible())) await page.getByTestId('reports-menu').locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-sarif').click()]);
  // Named like the PDFs, after the scan's completion in the viewer's zone (UTC+2 here).
  expect(download.suggestedFilename()).toBe('2026-11-20_1200 - SARIF Results - Billing_API.sarif');
  expect(errors.filter((e) => !/status of (4|5)\d\d/.test(e))).toEqual([]);
});

for (const theme of ['light', 'dark'] as const) {
  test(`${theme} theme: the fix as Markdown and the About tab's problems at 1440 and 900 px`, async ({ page, request }) => {
    // Two accessibility audits and four screenshots: on the 2-core machine, beside the other worker.
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
    await signInByStorage(page, request, await createAccount(request));
    await mockApi(page);
    for (const width of [1440, 900] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/scans/newest');
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expect(page.getByTestId('detail-fix').locator('li')).toHaveCount(2);
      if (width === 1440) await expectNoSeriousViolations(page);
      // The detail pane scrolls on its own: the description and the fix in view.
      await page.getByTestId('detail-fix').scrollIntoViewIfNeeded();
      await shoot(page, `report-fix-${width}-${theme}`, false);
      await page.getByTestId('scan-tab-about').click();
      await expect(page.getByTestId('scan-problems')).toBeVisible();
      if (width === 1440) await expectNoSeriousViolations(page);
      await shoot(page, `report-about-${width}-${theme}`, false);
    }
  });
}

test('history without finished scans says so; a failed scan is listed with its reason and its page (issue 17)', async ({ page, request }) => {
  await signInByStorage(page, request, await createAccount(request));
  await mockApi(page);
  let scans: Record<string, unknown>[] = [scan('running', 'running', null)];
  await page.route('**/api/scan/list?*', (route) => route.fulfill({ json: { success: true, message: 'OK', data: { scans } } }));
  await page.goto('/manage-apis');
  await page.getByTestId('history-button').click();
  await expect(page.getByTestId('history-empty')).toHaveText(API_MESSAGES.noPastScans);
  await page.getByTestId('modal-close').click();

  scans = [
    { ...scan('failed', 'failed', '2026-11-19T10:00:00.000Z'), failure_reason: 'The API did not answer.' },
    { ...scan('cancelled', 'cancelled', '2026-11-18T10:00:00.000Z'), failure_reason: 'Cancelled by the user.' },
  ];
  await page.getByTestId('history-button').click();
  const rows = page.getByTestId('history-failed-row');
  const row = rows.first();
  await expect(row).toHaveAttribute('data-scan-id', 'failed');
  await expect(row.getByTestId('history-failure-reason')).toHaveText('The API did not answer.');
  // The first column keeps the spec's "Completed" header; a scan that did not complete says how and
  // when it ended there instead of passing for completed (times in UTC+2).
  await expect(page.getByTestId('history-table').locator('thead th').first()).toHaveText('Completed');
  await expect(row.locator('td').first()).toHaveText('Failed 2026-11-19 12:00');
  await expect(rows.nth(1).locator('td').first()).toHaveText('Cancelled 2026-11-18 12:00');
  await expect(page.getByTestId('history-row')).toHaveCount(0);
  await expect(row.getByTestId('open-scan-page')).toHaveAttribute('href', '/scans/failed');
});
