// The whole API management journey against `portcullis serve` and the vulnerable test target, in two
// browsers: user A imports the target's spec, sets flags, scans with two keys, reads the findings and
// the history, downloads both PDFs, schedules a daily scan and shares the API with user B (View);
// B sees it shared and cannot scan; A gives B Manage; B scans; A revokes; B loses access; a share B
// leaves disappears; A deletes the API.

import fs from 'node:fs';
import type { Browser, Dialog, Locator, Page } from '@playwright/test';
import { parse as parseYaml } from 'yaml';
import { DELAYS, PAGE_SIZES } from '../../shared/constants';
import { reportFilename } from '../../shared/display';
import { API_MESSAGES, SCAN_MESSAGES } from '../../shared/messages';
import { expect, newAccount, target, test, type Account } from './fixtures';

const TIME_ZONE = 'Africa/Johannesburg';
const API_NAME = 'Acme Shop API';
/** Five endpoints for a quick scan (the spec's demo hint): a /me for the key check and four flaws. */
const QUICK_SCAN = ['GET /me', 'GET /documents/download', 'GET /orders/{orderId}', 'POST /invoices/lookup', 'GET /notes/{noteId}'];
/** The operations of the target's spec: its endpoint count (the target grows; the test follows). */
/** Operations of the spec file, or of its paths that contain `part`. */
function operationCount(specFile: string, part = ''): number {
  const spec = parseYaml(fs.readFileSync(specFile, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const methods = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'];
  return Object.entries(spec.paths)
    .filter(([p]) => p.includes(part))
    .reduce((n, [, item]) => n + Object.keys(item).filter((k) => methods.includes(k)).length, 0);
}
/** A scan of five endpoints takes seconds; polling adds up to 5 s. */
const SCAN_TIMEOUT = 90_000;

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: TIME_ZONE });

async function signUp(browser: Browser, account: Account): Promise<Page> {
  const context = await browser.newContext({ timezoneId: TIME_ZONE, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto('/signup');
  await page.getByTestId('signup-first-name').fill(account.firstName);
  await page.getByTestId('signup-last-name').fill(account.lastName);
  await page.getByTestId('signup-email').fill(account.email);
  await page.getByTestId('signup-username').fill(account.username);
  await page.getByTestId('signup-password').fill(account.password);
  await page.getByTestId('signup-confirm-password').fill(account.password);
  await page.getByTestId('signup-terms').check();
  await page.getByTestId('signup-submit').click();
  await page.waitForURL('**/dashboard');
  return page;
}

/** Answers the next confirm() with `accept` and returns its text. */
function nextDialog(page: Page, accept = true): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', (d: Dialog) => {
      resolve(d.message());
      void (accept ? d.accept() : d.dismiss());
    });
  });
}

const card = (page: Page, name = API_NAME): Locator => page.locator(`[data-testid="api-card"][data-api-name="${name}"]`);

async function notice(page: Page, text: string, timeout?: number): Promise<void> {
  await expect(page.getByTestId('notice-text')).toHaveText(text, { timeout });
}

async function flagsRow(page: Page, endpoint: string): Promise<Locator> {
  const [, path] = endpoint.split(' ');
  await page.getByTestId('flags-search').fill(path!);
  const row = page.locator(`[data-testid="flags-row"][data-endpoint="${endpoint}"]`);
  await expect(row).toBeVisible();
  return row;
}

/** Configure Scan with the target's two users, then the flags dialog. */
async function configureScan(page: Page, openFrom: Locator): Promise<void> {
  const users = target().users;
  await openFrom.click();
  const dialog = page.getByTestId('configure-scan-modal');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('scan-profile').locator('option')).toHaveText(['Default OWASP API Top 10 Scan']);
  const next = dialog.getByTestId('scan-next');
  await expect(next).toBeDisabled();
  await dialog.getByTestId('scan-key1').fill('   ');
  await expect(next).toBeDisabled();
  await dialog.getByTestId('scan-key1').fill(users.alice.key);
  await expect(next).toBeEnabled();
  await expect(dialog.getByTestId('lower-privilege')).toHaveCount(0);
  await dialog.getByTestId('scan-key2').fill(users.bob.key);
  await expect(dialog.getByTestId('lower-key-2')).toBeChecked();
  await next.click();
  await expect(page.getByTestId('flags-modal')).toBeVisible();
  await expect(page.getByTestId('flags-row').first()).toBeVisible();
}

async function startAndWait(page: Page): Promise<void> {
  await page.getByTestId('start-scan').click();
  await expect(page.getByTestId('flags-modal')).toHaveCount(0);
  await expect(card(page).getByTestId('status-pill')).toHaveText('Scanning...');
  await expect(card(page).getByTestId('scan-progress-bar')).toBeVisible();
  await notice(page, SCAN_MESSAGES.finished(API_NAME), SCAN_TIMEOUT);
  await expect(page.getByTestId('notice')).toHaveAttribute('data-kind', 'success');
}

test('the API management journey, from import to delete, for an owner and a shared user', async ({ browser }) => {
  test.setTimeout(300_000);
  const t = target();
  const a = newAccount();
  const b = { ...newAccount(), firstName: 'Bob', lastName: 'Byte' };
  const pageA = await signUp(browser, a);
  const pageB = await signUp(browser, b);

  // ---------------------------------------------------------------- A imports the target's spec
  await pageA.getByTestId('app-nav').getByRole('link', { name: 'API Management' }).click();
  await expect(pageA.getByTestId('apis-empty')).toContainText(API_MESSAGES.noApisMatch);
  await pageA.getByTestId('import-button').click();
  const importDialog = pageA.getByTestId('import-modal');
  await importDialog.getByTestId('import-submit').click();
  await expect(importDialog.getByTestId('import-error')).toHaveText(API_MESSAGES.selectFile);
  await importDialog.getByTestId('import-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(importDialog.getByTestId('import-error')).toHaveText(API_MESSAGES.unsupportedFile);
  await importDialog.getByTestId('import-file').setInputFiles(t.spec);
  await expect(importDialog.getByTestId('import-file-name')).toContainText('openapi.yaml');
  await importDialog.getByTestId('import-submit').click();
  await notice(pageA, API_MESSAGES.imported('openapi.yaml'));
  await expect(importDialog).toHaveCount(0);
  await expect(card(pageA)).toBeVisible();
  await expect(card(pageA).getByTestId('local-badge')).toHaveText('LOCAL');
  await expect(card(pageA).getByTestId('status-pill')).toHaveText('Ready');
  await expect(card(pageA).getByTestId('last-scanned')).toHaveText('Never');
  await expect(card(pageA).getByTestId('shared-by')).toHaveCount(0);
  for (const id of ['new-scan', 'endpoints-button', 'history-button', 'manage-button']) await expect(card(pageA).getByTestId(id)).toBeVisible();
  await expect(card(pageA).getByTestId('new-scan-tooltip')).toHaveAttribute('title', SCAN_MESSAGES.startNew);

  // A file without servers imports with the importer's warnings on show.
  await pageA.getByTestId('import-button').click();
  await importDialog.getByTestId('import-file').setInputFiles({
    name: 'inventory.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ openapi: '3.0.3', info: { title: 'Inventory', version: '1' }, paths: { '/items': { get: { responses: { 200: { description: 'ok' } } } } } })),
  });
  await importDialog.getByTestId('import-submit').click();
  await expect(importDialog.getByTestId('import-success')).toHaveText(API_MESSAGES.imported('inventory.json'));
  await expect(importDialog.getByTestId('import-warning').first()).toBeVisible();
  await importDialog.getByTestId('import-done').click();
  await expect(card(pageA, 'Inventory')).toBeVisible();
  await expect(pageA.getByTestId('stat-total-value')).toHaveText('2');
  await expect(pageA.getByTestId('stat-active-value')).toHaveText('2');
  await expect(pageA.getByTestId('stat-issues-value')).toHaveText('0');

  // Search and the empty result.
  await pageA.getByTestId('api-search').fill('inv');
  await expect(pageA.getByTestId('api-card')).toHaveCount(1);
  await pageA.getByTestId('api-search').fill('nothing like this');
  await expect(pageA.getByTestId('apis-empty')).toContainText(API_MESSAGES.noApisMatch);
  await pageA.getByTestId('api-search').fill('');

  // ---------------------------------------------------------------- endpoints
  await card(pageA).getByTestId('endpoints-button').click();
  const endpoints = pageA.getByTestId('endpoints-modal');
  await expect(endpoints.getByTestId('endpoint-row')).toHaveCount(PAGE_SIZES.flagsModal);
  const total = operationCount(t.spec);
  await expect(endpoints.getByTestId('pager-status')).toContainText(`of ${total}`);
  await endpoints.getByTestId('endpoints-search').fill('/notes/');
  await expect(endpoints.getByTestId('endpoint-row')).toHaveCount(operationCount(t.spec, '/notes/'));
  await endpoints.getByTestId('endpoints-search').fill('zzz');
  await expect(endpoints.getByTestId('endpoints-no-match')).toHaveText(API_MESSAGES.noEndpointsMatch);
  await endpoints.getByTestId('modal-close').click();

  // ---------------------------------------------------------------- configure scan and flags
  await configureScan(pageA, card(pageA).getByTestId('new-scan'));
  const flags = pageA.getByTestId('flags-modal');
  await expect(flags.getByTestId('demo-hint')).toHaveText(SCAN_MESSAGES.demoHint);
  await expect(flags.getByTestId('flags-row')).toHaveCount(PAGE_SIZES.flagsModal);
  await flags.getByTestId('pager-next').click();
  await expect(flags.getByTestId('pager-status')).toContainText(`21–40 of ${total}`);
  // The search matches the method or the path, case-insensitively.
  await flags.getByTestId('flags-search').fill('delete');
  await expect(flags.locator('[data-testid="flags-row"][data-endpoint="DELETE /notes/{noteId}"]')).toHaveCount(1);
  const matched = await flags.getByTestId('flags-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-endpoint') ?? ''));
  for (const endpoint of matched) expect(endpoint.toLowerCase()).toContain('delete');

  // A refused toggle goes back and says why.
  const notesRow = await flagsRow(pageA, 'GET /notes/{noteId}');
  const ssrf = notesRow.getByTestId('flag-SSRF');
  await expect(ssrf).toHaveAttribute('aria-pressed', 'false');
  await pageA.route('**/api/endpoints/flags/add', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Database is locked' }) }),
  );
  await ssrf.click();
  await expect(flags.getByTestId('flags-message')).toHaveText(API_MESSAGES.flagError('Database is locked'));
  await expect(ssrf).toHaveAttribute('aria-pressed', 'false');
  await pageA.unroute('**/api/endpoints/flags/add');
  // A toggle that works sticks.
  await ssrf.click();
  await expect(ssrf).toHaveAttribute('aria-pressed', 'true');
  await expect(ssrf).toBeEnabled();

  await flags.getByTestId('skip-all').click();
  await expect(flags.getByTestId('flags-message')).toHaveText(API_MESSAGES.allSkipped, { timeout: 30_000 });
  await expect(flags.getByTestId('flags-summary')).toHaveText(`${total} endpoints · ${total} skipped`);
  for (const endpoint of QUICK_SCAN) {
    const skip = (await flagsRow(pageA, endpoint)).getByTestId('flag-SKIP');
    await expect(skip).toHaveAttribute('aria-pressed', 'true');
    await skip.click();
    await expect(skip).toHaveAttribute('aria-pressed', 'false');
    await expect(skip).toBeEnabled();
  }
  await expect(flags.getByTestId('flags-summary')).toHaveText(`${total} endpoints · ${total - QUICK_SCAN.length} skipped`);

  // ---------------------------------------------------------------- scan
  await pageA.getByTestId('start-scan').click();
  await expect(card(pageA).getByTestId('status-pill')).toHaveText('Scanning...');
  await expect(card(pageA).getByTestId('scan-progress-bar')).toBeVisible();
  // One scan at a time: every New Scan is disabled, with the spec's tooltip.
  for (const name of [API_NAME, 'Inventory']) {
    await expect(card(pageA, name).getByTestId('new-scan')).toBeDisabled();
    await expect(card(pageA, name).getByTestId('new-scan-tooltip')).toHaveAttribute('title', SCAN_MESSAGES.anotherInProgress);
  }
  await notice(pageA, SCAN_MESSAGES.finished(API_NAME), SCAN_TIMEOUT);
  await expect(pageA.getByTestId('notice')).toHaveAttribute('data-kind', 'success');
  await expect(card(pageA).getByTestId('status-pill')).toHaveText('Completed');
  await expect(card(pageA).getByTestId('vuln-count')).toContainText('vulnerabilit');
  await expect(card(pageA).getByTestId('last-scanned')).not.toHaveText('Never');
  await expect(card(pageA).getByTestId('new-scan')).toBeEnabled();
  await expect(pageA.getByTestId('stat-issues-value')).toHaveText('1');
  // The issues-only filter.
  await pageA.getByTestId('stat-issues').click();
  await expect(pageA.getByTestId('stat-issues')).toHaveAttribute('aria-pressed', 'true');
  await expect(pageA.getByTestId('api-card')).toHaveCount(1);
  await pageA.getByTestId('stat-issues').click();
  await expect(pageA.getByTestId('api-card')).toHaveCount(2);
  await pageA.getByTestId('api-sort').selectOption('vulnerabilities');
  await expect(pageA.getByTestId('api-card').first()).toHaveAttribute('data-api-name', API_NAME);

  // ---------------------------------------------------------------- history, report, downloads
  const apiId = await card(pageA).getAttribute('data-api-id');
  await card(pageA).getByTestId('history-button').click();
  const history = pageA.getByTestId('history-modal');
  await expect(history.getByTestId('history-row')).toHaveCount(1);
  // View Report opens the scan's page: its findings, the report downloads and, under About, the duration.
  await history.getByTestId('open-scan-page').click();
  await expect(pageA).toHaveURL(/\/scans\/[\w-]+(\?|$)/);
  await expect(pageA.getByTestId('finding-row').first()).toBeVisible();
  await expect(pageA.getByTestId('filter-severity').locator('option[value="high"]')).not.toHaveText('High (0)');
  await expect(pageA.getByTestId('detail-evidence')).toContainText('Method: ');
  await expect(pageA.getByTestId('detail-evidence')).toContainText('Path: ');
  await expect(pageA.getByTestId('detail-curl')).toContainText('curl ');
  await pageA.getByTestId('scan-tab-about').click();
  await expect(pageA.getByTestId('scan-about-duration')).toHaveText(/^\d+\.\d{2} s$/);
  // Keys never reach the page.
  expect(await pageA.getByTestId('scan-page').textContent()).not.toContain(t.users.alice.key);

  const completedAt = await pageA.evaluate(async (id) => {
    const token = localStorage.getItem('authToken');
    const res = await fetch(`/api/scan/list?api_id=${id}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { data: { scans: { status: string; completed_at: string | null }[] } };
    return body.data.scans.find((s) => s.status === 'completed')!.completed_at!;
  }, apiId);
  for (const type of ['executive', 'technical'] as const) {
    if (!(await pageA.getByTestId(`download-${type}`).isVisible())) await pageA.getByTestId('reports-menu').locator('summary').click();
    const [download] = await Promise.all([pageA.waitForEvent('download'), pageA.getByTestId(`download-${type}`).click()]);
    expect(download.suggestedFilename()).toBe(reportFilename(API_NAME, type, new Date(completedAt), TIME_ZONE));
    const file = await download.path();
    expect(fs.readFileSync(file).subarray(0, 4).toString('latin1')).toBe('%PDF');
    await expect(pageA.getByTestId('notice-text')).toHaveText(API_MESSAGES.reportDownloaded);
  }
  await pageA.getByTestId('scan-back').click();
  await expect(card(pageA)).toBeVisible();

  // ---------------------------------------------------------------- schedule
  const schedule = pageA.getByTestId('schedule-modal');
  await card(pageA).getByTestId('manage-button').click();
  await pageA.getByTestId('manage-owner-modal').getByTestId('manage-schedule').click();
  await expect(schedule.getByTestId('schedule-chooser')).toBeVisible();
  await schedule.getByTestId('schedule-daily').check();
  // A time of day in a time zone (issue 17).
  await schedule.getByTestId('schedule-time').fill('06:15');
  await schedule.getByTestId('schedule-zone').selectOption('Asia/Tokyo');
  await schedule.getByTestId('schedule-save').click();
  await expect(schedule.getByTestId('schedule-frequency')).toHaveText('Daily at 06:15 (Asia/Tokyo)');
  await expect(card(pageA).getByTestId('card-schedule')).toHaveText('Daily at 06:15 (Asia/Tokyo)');
  await expect(schedule.getByTestId('schedule-next-run')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  await schedule.getByTestId('modal-close').click();
  // Saved with is_enabled true: it is still there when the dialog opens again.
  await card(pageA).getByTestId('manage-button').click();
  await pageA.getByTestId('manage-owner-modal').getByTestId('manage-schedule').click();
  await expect(schedule.getByTestId('schedule-frequency')).toHaveText('Daily at 06:15 (Asia/Tokyo)');
  await schedule.getByTestId('modal-close').click();

  // ---------------------------------------------------------------- edit details
  await card(pageA, 'Inventory').getByTestId('manage-button').click();
  await pageA.getByTestId('manage-owner-modal').getByTestId('manage-edit').click();
  const edit = pageA.getByTestId('edit-api-modal');
  await edit.getByTestId('edit-api-base-url').fill('not a url');
  await edit.getByTestId('edit-api-save').click();
  await expect(edit.getByTestId('edit-api-base-url-error')).toBeVisible();
  await edit.getByTestId('edit-api-title').fill('Inventory Service');
  await edit.getByTestId('edit-api-base-url').fill('https://inventory.example.com/v1');
  await edit.getByTestId('edit-api-save').click();
  await notice(pageA, API_MESSAGES.updated);
  await expect(card(pageA, 'Inventory Service')).toContainText('https://inventory.example.com/v1');

  // ---------------------------------------------------------------- share with B (View)
  await card(pageA).getByTestId('manage-button').click();
  await pageA.getByTestId('manage-owner-modal').getByTestId('manage-share').click();
  const share = pageA.getByTestId('share-modal');
  await expect(share.getByTestId('shares-empty')).toHaveText(API_MESSAGES.notShared);
  await share.getByTestId('share-submit').click();
  await expect(share.getByTestId('share-email-error')).toHaveText(API_MESSAGES.enterEmail);
  await share.getByTestId('share-email').fill(b.email);
  await expect(share.getByTestId('share-permission')).toHaveValue('read');
  await share.getByTestId('share-submit').click();
  await expect(share.getByTestId('share-message')).toContainText(b.email);
  const rowB = share.locator(`[data-testid="share-row"][data-email="${b.email}"]`);
  await expect(rowB.getByTestId('share-row-permission')).toHaveValue('read');
  await expect(rowB.getByTestId('share-row-permission').locator('option:checked')).toHaveText('View');

  // ---------------------------------------------------------------- B: shared, only Manage, cannot scan
  await pageB.goto('/manage-apis');
  await expect(card(pageB).getByTestId('shared-by')).toContainText(API_MESSAGES.sharedBy(`${a.firstName} ${a.lastName}`));
  // The spec: a shared user's only action is Manage (copying the id is not an action on the API).
  await expect(card(pageB).locator('button:not([data-testid="api-id-copy"])')).toHaveText(['Manage']);
  await card(pageB).getByTestId('manage-button').click();
  const shared = pageB.getByTestId('manage-shared-modal');
  await expect(shared.getByTestId('shared-read-only')).toHaveText(SCAN_MESSAGES.readOnlyScan);
  await expect(shared.getByTestId('shared-new-scan')).toHaveCount(0);
  await shared.getByTestId('shared-history').click();
  await expect(pageB.getByTestId('history-row')).toHaveCount(1);
  await pageB.getByTestId('history-modal').getByTestId('modal-close').click();

  // ---------------------------------------------------------------- A gives B Manage; B scans
  await rowB.getByTestId('share-row-permission').selectOption('manage');
  await expect(share.getByTestId('share-message')).toContainText('Manage');
  await expect(rowB.getByTestId('share-row-permission')).toHaveValue('manage');
  await share.getByTestId('modal-close').click();

  await pageB.reload();
  // The spec: a shared user's only action is Manage (copying the id is not an action on the API).
  await expect(card(pageB).locator('button:not([data-testid="api-id-copy"])')).toHaveText(['Manage']);
  await card(pageB).getByTestId('manage-button').click();
  await expect(shared.getByTestId('shared-new-scan')).toBeEnabled();
  await configureScan(pageB, shared.getByTestId('shared-new-scan'));
  await startAndWait(pageB);
  await expect(pageB.getByTestId('notice-text')).toHaveText(SCAN_MESSAGES.finished(API_NAME));

  // ---------------------------------------------------------------- A revokes; B loses access
  await pageA.reload();
  await card(pageA).getByTestId('manage-button').click();
  await pageA.getByTestId('manage-owner-modal').getByTestId('manage-share').click();
  const revokeAsked = nextDialog(pageA, false);
  await rowB.getByTestId('share-revoke').click();
  expect(await revokeAsked).toBe(API_MESSAGES.confirmRevoke(`${b.firstName} ${b.lastName}`));
  await expect(rowB).toBeVisible();
  const revokeConfirmed = nextDialog(pageA);
  await rowB.getByTestId('share-revoke').click();
  await revokeConfirmed;
  await expect(share.getByTestId('share-message')).toHaveText(API_MESSAGES.accessRevoked);
  await expect(share.getByTestId('shares-empty')).toHaveText(API_MESSAGES.notShared);

  await pageB.reload();
  await expect(pageB.getByTestId('apis-empty')).toContainText(API_MESSAGES.noApisMatch);
  await expect(card(pageB)).toHaveCount(0);

  // ---------------------------------------------------------------- a share B leaves disappears
  await share.getByTestId('share-email').fill(b.email);
  await share.getByTestId('share-submit').click();
  await expect(rowB).toBeVisible();
  await share.getByTestId('modal-close').click();
  await pageB.reload();
  await card(pageB).getByTestId('manage-button').click();
  const leaveAsked = nextDialog(pageB);
  await shared.getByTestId('leave-share').click();
  expect(await leaveAsked).toBe(API_MESSAGES.confirmLeave(API_NAME));
  await notice(pageB, API_MESSAGES.leftShare);
  await expect(card(pageB)).toHaveCount(0);
  await card(pageA).getByTestId('manage-button').click();
  await pageA.getByTestId('manage-owner-modal').getByTestId('manage-share').click();
  await expect(share.getByTestId('shares-empty')).toHaveText(API_MESSAGES.notShared);
  await share.getByTestId('modal-close').click();

  // ---------------------------------------------------------------- A disables the schedule and deletes the API
  await card(pageA).getByTestId('manage-button').click();
  await pageA.getByTestId('manage-owner-modal').getByTestId('manage-schedule').click();
  await expect(schedule.getByTestId('schedule-frequency')).toHaveText('Daily at 06:15 (Asia/Tokyo)');
  await schedule.getByTestId('schedule-disable').click();
  await expect(schedule.getByTestId('schedule-message')).toHaveText(API_MESSAGES.scheduleDisabled);
  await expect(schedule.getByTestId('schedule-chooser')).toBeVisible();
  await schedule.getByTestId('modal-close').click();

  await card(pageA).getByTestId('manage-button').click();
  const deleteAsked = nextDialog(pageA);
  await pageA.getByTestId('manage-owner-modal').getByTestId('delete-api').click();
  expect(await deleteAsked).toBe(API_MESSAGES.confirmDelete(API_NAME));
  await notice(pageA, API_MESSAGES.deleted(API_NAME));
  await expect(card(pageA)).toHaveCount(0);
  await expect(pageA.getByTestId('stat-total-value')).toHaveText('1');
  // Transient: gone after 4 s.
  await expect(pageA.getByTestId('notice')).toHaveCount(0, { timeout: DELAYS.transientMessageMs + 2_000 });

  await pageA.context().close();
  await pageB.context().close();
});
