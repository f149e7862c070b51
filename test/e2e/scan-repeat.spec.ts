// Configure Scan offers the last configuration (issue 17): after a scan was configured with a key,
// the next New Scan shows it (without the key) and "Use this configuration" goes straight to the
// flags with a scan that holds the same keys.

import { apiLogin, createAccount, expect, serverUrl, signInByStorage, test } from './fixtures';

test('a new scan offers the last configuration', async ({ page, request }) => {
  const owner = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const headers = { authorization: `Bearer ${token}` };
  const res = await request.post(`${serverUrl()}/api/apis/manual`, {
    headers,
    data: { name: 'Again API', base_url: 'https://api.example.com', endpoints: [{ method: 'GET', path: '/items' }] },
  });
  const apiId = ((await res.json()) as { data: { api: { id: string } } }).data.api.id;
  await signInByStorage(page, request, owner);
  await page.goto('/manage-apis');
  const card = page.locator(`[data-testid="api-card"][data-api-id="${apiId}"]`);

  // The first time there is nothing to offer.
  await card.getByTestId('new-scan').click();
  const modal = page.getByTestId('configure-scan-modal');
  await expect(modal.getByTestId('scan-key1')).toBeVisible();
  await expect(modal.getByTestId('last-config')).toHaveCount(0);
  await modal.getByTestId('scan-key1').fill('the-secret-key-1234');
  await modal.getByTestId('scan-next').click();
  await expect(page.getByTestId('flags-modal')).toBeVisible();
  await page.getByTestId('flags-modal').getByTestId('modal-close').click();

  // The next time it is offered, without the key, and used as is.
  await card.getByTestId('new-scan').click();
  await expect(modal.getByTestId('last-config')).toContainText('key 1 (static token)');
  await expect(modal.getByTestId('last-config')).not.toContainText('the-secret-key-1234');
  await page.screenshot({ path: 'test-results/screenshots/scan-repeat-offer-light.png' });
  await modal.getByTestId('last-config-use').click();
  await expect(page.getByTestId('flags-modal')).toBeVisible();
  const scans = await request.get(`${serverUrl()}/api/scan/list?api_id=${apiId}`, { headers });
  expect(((await scans.json()) as { data: { scans: unknown[] } }).data.scans.length).toBeGreaterThanOrEqual(1);
});
