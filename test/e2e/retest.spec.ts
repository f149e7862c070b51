// Re-test on the scan page (issue 29, item 3) against `portcullis serve` and the test targets: a real
// scan of the vulnerable target finds that GET /orders/{orderId} answers without credentials; Re-test on its detail
// (disabled with "Re-testing…" while it runs) says "Still present — re-tested <time>" with the history;
// with the API moved to the hardened twin the next Re-test says "Not reproduced", and Close as fixed
// marks it Fixed, out of the counts. A View share sees the outcome without the buttons.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Finding, ScanDetails } from '../../shared/contract';
import { expectNoSeriousViolations, shoot, watchConsole } from './a11y';
import { apiLogin, createAccount, expect, importTarget, newAccount, postAs, signInByStorage, target, test, type Account } from './fixtures';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const KEEP = ['GET /me', 'GET /orders', 'GET /orders/{orderId}'];
const CHECK = 'api2-credentials-not-enforced';

/** The hardened twin of the test target, for the re-test after the "fix". */
async function startHardened(): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['dist/targets/serve.js', '--hardened', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`The hardened target did not start:\n${out}`)), 15_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const m = /TARGET_BASE_URL=(\S+)/.exec(out);
      if (m && out.includes('TARGET_READY')) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  return { baseUrl, child };
}

/** Logs in with the user's password: the same on both twins (their keys are signed per start). */
function loginIdentity(name: 'alice' | 'bob') {
  const u = target().users[name];
  return {
    name,
    login: { request: { method: 'POST', path: '/auth/login', json: { username: u.username, password: u.password } }, token: { from: 'body', pointer: '/accessToken' } },
    place: { header: 'Authorization', value: 'Bearer {token}' },
  };
}

let owner: Account;
let viewer: Account;
let apiId: string;
let scanId: string;
let finding: Finding;
let hardened: { baseUrl: string; child: ChildProcess } | null = null;

test.describe('re-test a finding', () => {
  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async ({ request }) => {
    test.setTimeout(120_000);
    owner = await createAccount(request);
    viewer = await createAccount(request, { ...newAccount(), firstName: 'Vera', lastName: 'Viewer' });
    const { token } = await apiLogin(request, owner);
    ({ apiId } = await importTarget(request, token, KEEP));
    await postAs(request, token, '/api/scan/create', { api_id: apiId, scan_profile: 'OWASP_API_10', identities: [loginIdentity('alice'), loginIdentity('bob')], signup: 'off' });
    ({ scan_id: scanId } = await postAs<{ scan_id: string }>(request, token, '/api/scan/start', { api_id: apiId, scan_profile: 'OWASP_API_10' }));
    await expect.poll(async () => (await postAs<ScanDetails>(request, token, '/api/scan/details', { scan_id: scanId })).status, { timeout: 90_000 }).toBe('completed');
    const details = await postAs<ScanDetails>(request, token, '/api/scan/details', { scan_id: scanId });
    finding = details.results.results.find((f) => f.check_id === CHECK && f.path === '/orders/{orderId}')!;
    expect(finding, details.results.results.map((f) => `${f.check_id} ${f.method} ${f.path}`).join('\n')).toBeDefined();
    await postAs(request, token, '/api/apis/share', { api_id: apiId, email: viewer.email, permission: 'read' });
    hardened = await startHardened();
  });

  test.afterAll(() => {
    hardened?.child.kill('SIGTERM');
  });

  test('Re-test shows Still present with its history, then Not reproduced on the fixed API, and Close as fixed', async ({ page, request }) => {
    test.setTimeout(120_000);
    const problems = watchConsole(page);
    await signInByStorage(page, request, owner);
    await page.goto(`/scans/${scanId}`);
    await page.locator(`[data-testid="finding-row"][data-finding-id="${finding.id}"]`).click();
    const detail = page.getByTestId('finding-detail');
    await expect(detail).toHaveAttribute('data-finding-id', finding.id);
    const panel = page.getByTestId('retest-panel');
    await expect(panel.getByTestId('retest-outcome')).toHaveAttribute('data-outcome', 'none');
    await expect(panel.getByTestId('close-fixed-button')).toHaveCount(0);

    // While it runs the button is disabled and says so (the answer is held back until the button has been seen).
    let releaseRetest!: () => void;
    const held = new Promise<void>((r) => (releaseRetest = r));
    await page.route('**/api/findings/retest', async (route) => {
      await held;
      await route.continue();
    });
    const button = panel.getByTestId('retest-button');
    await button.click();
    await expect(button).toBeDisabled();
    await expect(button).toContainText('Re-testing…');
    releaseRetest();
    await expect(panel.getByTestId('retest-outcome')).toHaveAttribute('data-outcome', 'reproduced', { timeout: 60_000 });
    await expect(panel.getByTestId('retest-outcome')).toContainText(/^Still present — re-tested .+ by /);
    await expect(button).toBeEnabled();
    await expect(button).toHaveText('Re-test');
    await expect(panel.getByTestId('retest-history-item')).toHaveCount(1);
    await panel.getByTestId('retest-history-item').first().locator('summary').click();
    await expect(panel.getByTestId('retest-history-item').first()).toContainText('Method: GET');
    await expect(panel.getByTestId('close-fixed-button')).toHaveCount(0);
    await page.unroute('**/api/findings/retest');
    await detail.screenshot({ path: path.join(ROOT, 'test-results', 'e2e', 'retest-still-present.png') });

    // The API is fixed: it now runs as the hardened twin.
    const { token } = await apiLogin(request, owner);
    const res = await request.put(`${new URL(page.url()).origin}/api/apis/update`, { headers: { authorization: `Bearer ${token}` }, data: { api_id: apiId, updates: { base_url: hardened!.baseUrl } } });
    expect(res.ok(), await res.text()).toBe(true);
    await button.click();
    await expect(panel.getByTestId('retest-outcome')).toHaveAttribute('data-outcome', 'not_reproduced', { timeout: 60_000 });
    await expect(panel.getByTestId('retest-outcome')).toContainText(/^Not reproduced — re-tested /);
    await expect(panel.getByTestId('retest-history-item')).toHaveCount(2);
    await expect(panel.getByTestId('retest-history-item').first()).toHaveAttribute('data-outcome', 'not_reproduced');
    await panel.getByTestId('retest-history-item').first().locator('summary').click();
    await expect(panel.getByTestId('retest-history-item').first()).toContainText('/orders/');
    await shoot(page, 'retest-not-reproduced');
    await expectNoSeriousViolations(page);

    const setAside = Number(await page.getByTestId('scan-set-aside').textContent());
    await panel.getByTestId('close-fixed-button').click();
    await expect(page.getByTestId('triage-mark-state')).toHaveText('Fixed');
    await expect(page.getByTestId('scan-set-aside')).toHaveText(String(setAside + 1));
    await expect(page.getByTestId('triage-mark-reason')).toContainText('Not reproduced by the re-test of');
    await expect(panel.getByTestId('close-fixed-button')).toHaveCount(0);
    await detail.screenshot({ path: path.join(ROOT, 'test-results', 'e2e', 'retest-closed-fixed.png') });

    // After a reload the finding still carries both.
    await page.reload();
    await page.locator(`[data-testid="finding-row"][data-finding-id="${finding.id}"]`).click();
    await expect(page.getByTestId('retest-outcome')).toHaveAttribute('data-outcome', 'not_reproduced');
    await expect(page.getByTestId('triage-mark-state')).toHaveText('Fixed');
    expect(problems).toEqual([]);
  });

  test('a View share sees the outcome and the history, without the buttons', async ({ page, request }) => {
    await signInByStorage(page, request, viewer);
    await page.goto(`/scans/${scanId}`);
    await page.locator(`[data-testid="finding-row"][data-finding-id="${finding.id}"]`).click();
    const panel = page.getByTestId('retest-panel');
    await expect(panel.getByTestId('retest-outcome')).toHaveAttribute('data-outcome', 'not_reproduced');
    await expect(panel.getByTestId('retest-history-item')).toHaveCount(2);
    await expect(panel.getByTestId('retest-read-only')).toBeVisible();
    await expect(panel.getByTestId('retest-button')).toHaveCount(0);
  });
});
