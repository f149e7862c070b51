// Scan History and Scan Report rules (spec sections 2, 8, 9) with answers shaped by the test: only
// completed scans with completed_at, newest first; findings 10 per page; severity buckets (anything
// else counts as info); the duration in seconds with 2 decimals; download errors and exports.

import type { Page } from '@playwright/test';
import { PAGE_SIZES } from '../../shared/constants';
import { API_MESSAGES } from '../../shared/messages';
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

const SEVERITIES = [...Array(7).fill('high'), ...Array(6).fill('medium'), ...Array(5).fill('low'), ...Array(3).fill('info'), 'critical', 'unknown'];

const findings = SEVERITIES.map((severity, i) => ({
  id: `f-${i}`,
  check_id: 'check',
  vulnerability_name: `Finding ${String(i + 1).padStart(2, '0')}`,
  severity,
  confidence: 'high',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
  description: 'What is wrong.',
  recommendation: 'How to fix it.',
  cvss_score: 5,
  cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  method: 'GET',
  path: `/invoices/${i}`,
  parameter: null,
  evidence: `Method: GET\nPath: /invoices/${i}\n\n> GET /v1/invoices/${i}\n< HTTP/1.1 200 OK`,
  curl: `curl -i -H "Authorization: Bearer $PORTCULLIS_KEY_2" 'https://billing.example.com/v1/invoices/${i}'`,
  references: ['https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/'],
  fingerprint: `fp-${i}`,
  trend: 'new',
}));

test.use({ timezoneId: 'Africa/Johannesburg' });

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
  await page.route('**/api/scan/details', (route) =>
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
              errors: [],
              score: 40,
              failure_reason: null,
              skipped_checks: [{ check_id: 'bfla', title: 'Function level authorization', reason: 'No second key was given.' }],
              fixed: [],
            },
            results: findings,
          },
        },
      },
    }),
  );
}

test('history lists completed scans newest first; the report pages findings by 10 with severity buckets', async ({ page, request }) => {
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

  await rows.nth(0).getByTestId('view-report').click();
  const report = page.getByTestId('report-modal');
  await expect(report.getByTestId('report-duration')).toHaveText('12.50 s');
  await expect(report.getByTestId('severity-high-count')).toHaveText('7');
  await expect(report.getByTestId('severity-medium-count')).toHaveText('6');
  await expect(report.getByTestId('severity-low-count')).toHaveText('5');
  // "critical" and "unknown" are not buckets: they count as info.
  await expect(report.getByTestId('severity-info-count')).toHaveText('5');
  await expect(report.getByTestId('skipped-checks')).toContainText('No second key was given.');

  await expect(report.getByTestId('finding')).toHaveCount(PAGE_SIZES.reportModal);
  await expect(report.getByTestId('pager-status')).toContainText('1–10 of 23');
  // High first.
  await expect(report.getByTestId('finding').first()).toHaveAttribute('data-severity', 'high');
  await report.getByTestId('pager-next').click();
  await expect(report.getByTestId('finding')).toHaveCount(10);
  await report.getByTestId('pager-next').click();
  await expect(report.getByTestId('finding')).toHaveCount(3);
  await expect(report.getByTestId('pager-next')).toBeDisabled();
  await expect(report.getByTestId('finding').last()).toHaveAttribute('data-severity', 'info');

  // A severity box filters.
  await report.getByTestId('severity-medium').click();
  await expect(report.getByTestId('finding')).toHaveCount(6);
  await expect(report.getByTestId('pager-status')).toContainText('1–6 of 6');
  const f = report.getByTestId('finding').first();
  await f.locator('summary').click();
  await expect(f.getByTestId('finding-evidence')).toContainText('Method: GET');
  await expect(f.getByTestId('finding-curl')).toContainText('$PORTCULLIS_KEY_2');

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
  await report.getByTestId('download-executive').click();
  await expect(report.getByTestId('report-message')).toHaveText(API_MESSAGES.downloadReportError('Report engine unavailable'));
  const [download] = await Promise.all([page.waitForEvent('download'), report.getByTestId('download-sarif').click()]);
  // Named like the PDFs, after the scan's completion in the viewer's zone (UTC+2 here).
  expect(download.suggestedFilename()).toBe('2026-11-20_1200 - SARIF Results - Billing_API.sarif');
  await expect(report.getByTestId('report-message')).toHaveText(API_MESSAGES.reportDownloaded);
});

test('history without finished scans says so; a failed scan is listed with its reason (issue 17)', async ({ page, request }) => {
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
});
