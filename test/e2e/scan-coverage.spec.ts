// The Coverage tab (issue 26) against `portcullis serve` and the vulnerable test target. Two real scans
// of six operations: the first with one user's key (so the cross-user checks cannot run, and the API
// refuses or rejects some checks' requests), the second after that key was revoked (the target answers
// 401: the login broke). The first scan's tab shows the header line, the reasons and one row per
// operation with a status cell per identity, all as the ledger the API serves says; the filters keep
// the rows they count; an opened row lists its skipped checks with the reason and the fix. The second
// scan's compare view lists what the first reached and it did not. A running scan says coverage comes
// when it ends, and shows it once it has. Axe, and screenshots light and dark at 900 and 1440 px.

import type { APIRequestContext, Page } from '@playwright/test';
import { CHECK_TITLES } from '../../shared/check-titles';
import { COVERAGE_MESSAGES } from '../../shared/coverage-messages';
import {
  actionableSkips,
  COVERAGE_REASONS,
  coverageHeadline,
  coverageLabel,
  lostCoverage,
  reachedOperation,
  STATUS_CLASSES,
  type CoverageOperation,
  type ScanCoverage,
} from '../../shared/coverage';
import { expectNoSeriousViolations, shoot, watchConsole } from './a11y';
import { apiLogin, createAccount, expect, importTarget, postAs, setTheme, signInByStorage, target, test, type Account } from './fixtures';

const OPERATIONS = ['GET /me', 'GET /orders/{orderId}', 'GET /notes/{noteId}', 'GET /receipts/{receiptId}', 'POST /auth/verify-email', 'PUT /me/password'];
/** A key the target does not know: what a scan sends once the user's key was revoked. */
const REVOKED_KEY = 'ak_live_revoked_0000000000000000000000000000';

interface Seed {
  owner: Account;
  token: string;
  apiId: string;
  first: string;
  broken: string;
  firstCoverage: ScanCoverage;
  brokenCoverage: ScanCoverage;
}

async function scan(request: APIRequestContext, token: string, apiId: string, key: string, rps?: number): Promise<string> {
  await postAs(request, token, '/api/scan/create', { api_id: apiId, scan_profile: 'OWASP_API_10', api_key_1: key, ...(rps ? { rps } : {}) });
  const { scan_id } = await postAs<{ scan_id: string }>(request, token, '/api/scan/start', { api_id: apiId, scan_profile: 'OWASP_API_10' });
  return scan_id;
}

async function ended(request: APIRequestContext, token: string, scanId: string): Promise<string> {
  let status = 'running';
  await expect
    .poll(async () => (status = (await postAs<{ status: string }>(request, token, '/api/scan/details', { scan_id: scanId })).status), { timeout: 120_000 })
    .not.toBe('running');
  return status;
}

const coverageOf = async (request: APIRequestContext, token: string, scanId: string) =>
  (await postAs<{ coverage: ScanCoverage | null }>(request, token, '/api/scan/coverage', { scan_id: scanId })).coverage!;

/** The commonest class of an identity's answers (ties to the earlier class), computed here from the ledger. */
function expectedStatus(op: CoverageOperation, identity: string): string {
  const t = op.identities[identity];
  if (!t?.requests) return 'not-sent';
  return [...STATUS_CLASSES].sort((a, b) => (t.classes[b] ?? 0) - (t.classes[a] ?? 0) || STATUS_CLASSES.indexOf(a) - STATUS_CLASSES.indexOf(b))[0]!;
}

const onlyClientErrors = (op: CoverageOperation) => {
  const answers = Object.values(op.identities).flatMap((t) => STATUS_CLASSES.map((c) => [c, t.classes[c] ?? 0] as const)).filter(([, n]) => n > 0);
  return answers.length > 0 && answers.every(([c]) => c === '4xx');
};

async function openCoverage(page: Page, scanId: string): Promise<void> {
  await page.goto(`/scans/${scanId}`);
  await page.getByTestId('scan-tab-coverage').click();
}

let data: Seed;

test.describe('with real scans', () => {
  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async ({ request }) => {
    test.setTimeout(240_000);
    const owner = await createAccount(request);
    const { token } = await apiLogin(request, owner);
    const { apiId } = await importTarget(request, token, OPERATIONS);
    const first = await scan(request, token, apiId, target().users.alice.key);
    expect(await ended(request, token, first)).toBe('completed');
    const broken = await scan(request, token, apiId, REVOKED_KEY);
    // The target refuses the key, so the scan ends failed; it still keeps what it sent and got.
    expect(await ended(request, token, broken)).toBe('failed');
    data = { owner, token, apiId, first, broken, firstCoverage: await coverageOf(request, token, first), brokenCoverage: await coverageOf(request, token, broken) };
    // The imported operations, and the routes the scan discovered beyond them (rows of their own, marked so).
    expect(data.firstCoverage.operations.filter((o) => !o.discovered)).toHaveLength(OPERATIONS.length);
  });

  test('the Coverage tab shows the ledger: header line, reasons, a row per operation, a cell per identity, filters and skipped checks', async ({ page, request }) => {
    test.setTimeout(90_000);
    const problems = watchConsole(page);
    const { summary, operations } = data.firstCoverage;
    await signInByStorage(page, request, data.owner);
    await page.goto(`/scans/${data.first}`);
    await expect(page.getByTestId('finding-row').first()).toBeVisible();
    // ARIA tabs: the arrow key moves to the Coverage tab and selects it.
    await page.getByTestId('scan-tab-findings').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('scan-tab-coverage')).toBeFocused();
    await expect(page.getByTestId('scan-tab-coverage')).toHaveAttribute('aria-selected', 'true');

    // The header line is the ledger's, and its numbers are the operations' own.
    await expect(page.getByTestId('coverage-headline')).toHaveText(coverageHeadline(summary));
    await expect(page.getByTestId('coverage-stopped')).toHaveCount(0);
    expect(summary.operations).toBe(operations.length);
    expect(summary.reached).toBe(operations.filter(reachedOperation).length);
    expect(summary.not_exercised).toBe(operations.filter((o) => actionableSkips(o).length > 0).length);
    expect(summary.not_exercised).toBeGreaterThan(0);
    // The three commonest reasons, each with its fix.
    const reasons = page.getByTestId('coverage-reason');
    await expect(reasons).toHaveCount(Math.min(3, summary.reasons.length));
    for (const [i, r] of summary.reasons.slice(0, 3).entries()) {
      await expect(reasons.nth(i)).toHaveAttribute('data-reason', r.reason);
      await expect(reasons.nth(i)).toContainText(r.label, { ignoreCase: true });
      await expect(reasons.nth(i).getByTestId('coverage-reason-count')).toHaveText(`${r.count} ${r.count === 1 ? 'check run' : 'check runs'} skipped`);
      await expect(reasons.nth(i)).toContainText(r.fix.replaceAll('`', ''));
    }

    // One row per operation; per identity, a cell with the commonest class and the request count.
    const rows = page.getByTestId('coverage-row');
    await expect(rows).toHaveCount(operations.length);
    await expect(page.getByTestId('coverage-identity')).toHaveText(summary.identities);
    expect((await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-label')))).sort()).toEqual(operations.map(coverageLabel).sort());
    for (const op of operations) {
      const row = page.locator(`[data-testid="coverage-row"][data-label="${coverageLabel(op)}"]`);
      const cells = row.getByTestId('coverage-cell');
      await expect(cells).toHaveCount(summary.identities.length);
      for (const [i, identity] of summary.identities.entries()) {
        await expect(cells.nth(i)).toHaveAttribute('data-identity', identity);
        await expect(cells.nth(i)).toHaveAttribute('data-status', expectedStatus(op, identity));
        await expect(cells.nth(i)).toHaveAttribute('data-requests', String(op.identities[identity]?.requests ?? 0));
      }
      await expect(row.getByTestId('coverage-checks')).toContainText(`${op.ran.length} ran · ${op.found.length} found`);
    }
    // The tooltip names every class the identity got.
    const me = operations.find((o) => coverageLabel(o) === 'GET /me')!;
    const meKey = me.identities['key 1']!;
    const tooltip = await page.locator('[data-testid="coverage-row"][data-label="GET /me"] [data-identity="key 1"] .cov-cell').getAttribute('title');
    for (const c of STATUS_CLASSES) if (meKey.classes[c]) expect(tooltip).toContain(`${c} ${meKey.classes[c]}`);

    // Filters: each keeps the rows it counts, counted from the ledger here.
    const expected = {
      all: operations.length,
      'not-reached': operations.filter((o) => !reachedOperation(o)).length,
      'only-4xx': operations.filter(onlyClientErrors).length,
      skipped: operations.filter((o) => actionableSkips(o).length > 0).length,
    };
    for (const [filter, count] of Object.entries(expected)) {
      await expect(page.getByTestId(`coverage-filter-${filter}-count`)).toHaveText(String(count));
      await page.getByTestId(`coverage-filter-${filter}`).click();
      await expect(page.getByTestId(`coverage-filter-${filter}`)).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByTestId('coverage-shown')).toHaveText(`${count} of ${operations.length} operations`);
      await expect(rows).toHaveCount(count);
    }
    // The search narrows by path.
    await page.getByTestId('coverage-filter-all').click();
    await page.getByTestId('coverage-search').fill('/orders');
    // The imported order route, and any the scan discovered under /orders.
    await expect(rows).toHaveCount(operations.filter((o) => coverageLabel(o).includes('/orders')).length);
    await expect(page.locator('[data-label="GET /orders/{orderId}"]')).toHaveCount(1);
    await page.getByTestId('coverage-search').fill('no such path');
    await expect(page.getByTestId('coverage-no-rows')).toHaveText(COVERAGE_MESSAGES.noRows);
    await page.getByTestId('coverage-clear-filters').click();
    await expect(rows).toHaveCount(operations.length);

    // A skipped check, opened: its title, the reason, what the API said and the fix. With one key, the
    // cross-user checks on an order cannot run.
    const orders = operations.find((o) => coverageLabel(o) === 'GET /orders/{orderId}')!;
    const swap = orders.skipped.find((s) => s.check_id === 'api1-bola-token-swap')!;
    expect(swap.reason).toBe('needs-second-identity');
    await page.getByTestId('coverage-filter-skipped').click();
    const orderRow = page.locator('[data-testid="coverage-row"][data-label="GET /orders/{orderId}"]');
    await expect(orderRow.getByTestId('coverage-skips-line')).toContainText(`${actionableSkips(orders).length} skipped:`);
    await orderRow.getByTestId('coverage-row-toggle').click();
    await expect(orderRow.getByTestId('coverage-row-toggle')).toHaveAttribute('aria-expanded', 'true');
    const group = orderRow.locator('[data-testid="coverage-skip-group"][data-reason="needs-second-identity"]');
    await expect(group).toContainText(COVERAGE_REASONS['needs-second-identity'].label, { ignoreCase: true });
    await expect(group).toContainText(COVERAGE_REASONS['needs-second-identity'].fix.replaceAll('`', ''));
    await expect(group).toContainText(CHECK_TITLES['api1-bola-token-swap']!);
    await expect(group).toContainText(swap.detail);
    // The answers by identity are text too (what the tooltip says, for the keyboard and screen readers).
    await expect(orderRow.getByTestId('coverage-detail')).toContainText(`key 1: ${orders.identities['key 1']!.requests} requests`);

    // Light and dark, 1440 and 900 px wide, with a row open; axe on each theme.
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await expectNoSeriousViolations(page);
      for (const width of [1440, 900]) {
        await page.setViewportSize({ width, height: 900 });
        // The page's own content fits the window (the table scrolls sideways inside its frame if it must).
        await expect
          .poll(() =>
            page.evaluate(() => {
              const el = document.querySelector<HTMLElement>('[data-testid="scan-page"]')!;
              return Math.max(el.scrollWidth - el.clientWidth, Math.ceil(el.getBoundingClientRect().right) - document.documentElement.clientWidth);
            }),
          )
          .toBeLessThanOrEqual(0);
        await page.evaluate(() => window.scrollTo(0, 0));
        await shoot(page, `scan-coverage-${width}-${theme}`, false);
        await page.getByTestId('coverage-table').scrollIntoViewIfNeeded();
        await shoot(page, `scan-coverage-${width}-${theme}-open-row`, false);
      }
    }
    expect(problems).toEqual([]);
  });

  test('a broken login: nothing reached, and the compare view lists what the previous scan reached', async ({ page, request }) => {
    test.setTimeout(90_000);
    const problems = watchConsole(page);
    const { summary, operations } = data.brokenCoverage;
    expect(summary.reached).toBe(0);
    await signInByStorage(page, request, data.owner);
    await openCoverage(page, data.broken);
    await expect(page.getByTestId('scan-failure-reason')).toContainText('Key 1 was not accepted by the API');
    await expect(page.getByTestId('coverage-headline')).toHaveText(coverageHeadline(summary));
    await expect(page.getByTestId('coverage-stopped')).toHaveText(COVERAGE_MESSAGES.stopped);
    await expect(page.getByTestId('coverage-filter-not-reached-count')).toHaveText(String(operations.length));
    // The login check's own requests were all refused: the one operation answered, only with 4xx.
    await expect(page.getByTestId('coverage-filter-only-4xx-count')).toHaveText(String(operations.filter(onlyClientErrors).length));
    await page.getByTestId('coverage-filter-only-4xx').click();
    await expect(page.getByTestId('coverage-row')).toHaveCount(operations.filter(onlyClientErrors).length);
    await expect(page.locator('[data-testid="coverage-row"][data-label="GET /me"] [data-identity="key 1"]')).toHaveAttribute('data-status', '4xx');
    await page.getByTestId('coverage-filter-all').click();
    // The operations the scan never got to: a muted "not sent" cell for every identity.
    await expect(page.locator('[data-testid="coverage-row"][data-label="GET /orders/{orderId}"] [data-testid="coverage-cell"][data-status="not-sent"]')).toHaveCount(summary.identities.length);
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await expectNoSeriousViolations(page);
      await page.getByTestId('coverage-table').scrollIntoViewIfNeeded();
      await shoot(page, `scan-coverage-broken-login-${theme}`, false);
    }

    await page.getByTestId('scan-tab-compare').click();
    const lost = lostCoverage(data.firstCoverage.operations, operations);
    expect(lost).toContain('GET /me');
    await expect(page.getByTestId('compare-lost-count')).toHaveText(String(lost.length));
    expect((await page.getByTestId('compare-lost-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-label')))).sort()).toEqual([...lost].sort());
    await expect(page.getByTestId('compare-lost')).toContainText(COVERAGE_MESSAGES.lostHint);
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await expectNoSeriousViolations(page);
      await page.getByTestId('compare-lost').scrollIntoViewIfNeeded();
      await shoot(page, `scan-coverage-compare-${theme}`, false);
    }

    // The first scan compared with nothing before it: no lost-coverage list at all.
    await page.goto(`/scans/${data.first}`);
    await page.getByTestId('scan-tab-compare').click();
    await expect(page.getByTestId('compare-previous')).toContainText('No earlier completed scan');
    await expect(page.getByTestId('compare-lost')).toHaveCount(0);
    expect(problems).toEqual([]);
  });

  test('2,000 operations: the rows are drawn virtually and the last one scrolls into view', async ({ page, request }) => {
    // The real scan's ledger, its operations repeated under other paths (the answer shaped by the test).
    const { summary, operations } = data.firstCoverage;
    const big: CoverageOperation[] = Array.from({ length: 2000 }, (_, i) => ({ ...operations[i % operations.length]!, path: `/organisations/{organisationId}/projects/${i}${operations[i % operations.length]!.path}` }));
    await page.route('**/api/scan/coverage', (route) => route.fulfill({ json: { success: true, message: 'OK', data: { coverage: { summary: { ...summary, operations: big.length }, operations: big } } } }));
    await signInByStorage(page, request, data.owner);
    await openCoverage(page, data.first);
    await expect(page.getByTestId('coverage-shown')).toHaveText(`${big.length} of ${big.length} operations`);
    expect(await page.getByTestId('coverage-row').count()).toBeLessThan(60);
    const table = page.getByTestId('coverage-table');
    await table.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    // Rows are measured as they are drawn, so the end moves a little while scrolling to it.
    const last = page.locator(`[data-testid="coverage-row"][data-label="${coverageLabel(big.at(-1)!)}"]`);
    await expect
      .poll(async () => {
        await table.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        return last.count();
      })
      .toBe(1);
    await expect(last).toBeInViewport();
    await shoot(page, 'scan-coverage-2000-end', false);
    // At 900 px long paths give way in the middle: their last segment stays, the whole path is the tooltip.
    await page.setViewportSize({ width: 900, height: 900 });
    await expect(last.locator('.cov-path')).toHaveAttribute('title', big.at(-1)!.path);
    await shoot(page, 'scan-coverage-2000-end-900', false);
    // Filtered, the same: the counts are the whole ledger's.
    await page.getByTestId('coverage-filter-skipped').click();
    await expect(page.getByTestId('coverage-shown')).toHaveText(`${big.filter((o) => actionableSkips(o).length > 0).length} of ${big.length} operations`);
  });
});

test('a running scan says coverage comes when it ends, and shows it once it has', async ({ page, request }) => {
  test.setTimeout(90_000);
  const owner = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const { apiId } = await importTarget(request, token, OPERATIONS);
  // Two requests a second: the scan runs until it is cancelled.
  const scanId = await scan(request, token, apiId, target().users.alice.key, 2);
  await signInByStorage(page, request, owner);
  await page.goto(`/scans/${scanId}`);
  await expect(page.getByTestId('scan-live')).toBeVisible();
  await page.getByTestId('scan-tab-coverage').click();
  await expect(page.getByTestId('coverage-running')).toHaveText(COVERAGE_MESSAGES.running);
  await postAs(request, token, '/api/scan/cancel', { scan_id: scanId });
  // The page follows the scan to its end and then reads the ledger.
  await expect(page.getByTestId('coverage-headline')).toBeVisible({ timeout: 20_000 });
  const coverage = await coverageOf(request, token, scanId);
  await expect(page.getByTestId('coverage-headline')).toHaveText(coverageHeadline(coverage.summary));
  await expect(page.getByTestId('coverage-row')).toHaveCount(coverage.operations.length);
});
