// Configure Scan's write policy (issue 28 item 3, issue 31 item 6) against `portcullis serve` and the
// test target on 127.0.0.1: only the scan's own objects by default; existing objects too with the
// operations that look destructive listed (as the server classifies them) to allow one by one; the
// notice that a local API has a route that wipes data, and that the scan will call it once allowed;
// the seed; and the create request carrying all of it, which the server keeps (scan details).

import type { Page } from '@playwright/test';
import type { WritePolicyData } from '../../shared/write-policy';
import { WRITE_POLICY_TEXT } from '../../shared/write-policy';
import type { ScanDetails } from '../../shared/contract';
import { expectNoSeriousViolations, shoot } from './a11y';
import { apiLogin, createAccount, expect, importTarget, postAs, setTheme, signInByStorage, target, test } from './fixtures';

const API_NAME = 'Acme Shop API';
const RESET = 'GET /maintenance/reset';

async function openConfigure(page: Page) {
  await page.goto('/manage-apis');
  await page.locator(`[data-testid="api-card"][data-api-name="${API_NAME}"]`).getByTestId('new-scan').click();
  const dialog = page.getByTestId('configure-scan-modal');
  await expect(dialog.getByTestId('write-policy')).toBeVisible();
  return dialog;
}

test('the write policy, the destructive operations to allow, the local notice and the seed reach the server', async ({ page, request }) => {
  // Two full audits and screenshots of a long modal on a machine shared by several builds.
  test.setTimeout(90_000);
  const owner = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const { apiId } = await importTarget(request, token);
  const policy = await postAs<WritePolicyData>(request, token, '/api/scan/write-policy', { api_id: apiId });
  expect(policy.local).toBe(true);
  const wipes = policy.operations.filter((o) => o.kind === 'wipe');
  expect(wipes.map((o) => o.operation)).toContain(RESET);

  await signInByStorage(page, request, owner);
  const dialog = await openConfigure(page);
  // By default: only the scan's own objects; the list waits for "existing"; the local API's wipe routes are named as skipped.
  await expect(dialog.getByTestId('writes-created')).toBeChecked();
  await expect(dialog.getByTestId('destructive-list')).toHaveCount(0);
  await expect(dialog.getByTestId('local-wipe-notice')).toHaveText(WRITE_POLICY_TEXT.localWipeSkipped(wipes.length));

  await dialog.getByTestId('writes-existing').check();
  const boxes = dialog.getByTestId('destructive-operation');
  await expect(boxes).toHaveCount(policy.operations.length);
  for (const [n, o] of policy.operations.entries()) {
    await expect(boxes.nth(n)).toHaveAttribute('data-operation', o.operation);
    await expect(boxes.nth(n)).not.toBeChecked();
  }
  await dialog.locator(`[data-testid="destructive-operation"][data-operation="${RESET}"]`).check();
  await expect(dialog.getByTestId('local-wipe-notice')).toHaveText(WRITE_POLICY_TEXT.localWipeCalled([RESET]));

  // The seed: a mistake is named under the field, and Next refuses it.
  await dialog.getByTestId('scan-key1').fill(target().users.alice.key);
  await dialog.getByTestId('scan-seed').fill('12x');
  await expect(dialog.getByTestId('scan-seed')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText(WRITE_POLICY_TEXT.seedInvalid)).toBeVisible();
  await dialog.getByTestId('scan-seed').fill('4242');
  await expect(dialog.getByTestId('scan-seed')).not.toHaveAttribute('aria-invalid', 'true');

  await expectNoSeriousViolations(page);
  await shoot(page, 'write-policy-light', false);
  // Dark: the toggle is outside the modal, so the modal opens again and is filled the same way.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await setTheme(page, 'dark');
  const again = await openConfigure(page);
  await again.getByTestId('writes-existing').check();
  await again.locator(`[data-testid="destructive-operation"][data-operation="${RESET}"]`).check();
  await again.getByTestId('scan-key1').fill(target().users.alice.key);
  await again.getByTestId('scan-seed').fill('4242');
  await expect(again.getByTestId('local-wipe-notice')).toHaveText(WRITE_POLICY_TEXT.localWipeCalled([RESET]));
  await expectNoSeriousViolations(page);
  await shoot(page, 'write-policy-dark', false);

  const created = page.waitForResponse((r) => r.url().endsWith('/api/scan/create') && r.request().method() === 'POST');
  await again.getByTestId('scan-next').click();
  const response = await created;
  expect(response.request().postDataJSON()).toMatchObject({ allow_existing_objects: true, destructive_operations: [RESET], seed: 4242 });
  const scanId = ((await response.json()) as { data: { scan_id: string } }).data.scan_id;
  await expect(page.getByTestId('flags-row').first()).toBeVisible();
  // The server kept what was asked (the scan is created, not started: nothing was sent to the target).
  const details = await postAs<ScanDetails>(request, token, '/api/scan/details', { scan_id: scanId });
  expect(details.results.scan_info).toMatchObject({ writes: 'existing', destructive: [RESET], seed: 4242 });
});
