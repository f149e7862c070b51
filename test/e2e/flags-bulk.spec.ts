// Configure Flags (issue 17): the flags say what they mean, and one check is switched for every
// endpoint, or for the ones the search matches, in one call that the server keeps.

import { apiLogin, createAccount, expect, serverUrl, signInByStorage, test } from './fixtures';

test('one flag switched for all endpoints, then for the matching ones', async ({ page, request }) => {
  const owner = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const created = await request.post(`${serverUrl()}/api/apis/manual`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: 'Flags API',
      base_url: 'https://api.example.com',
      endpoints: [
        { method: 'GET', path: '/items' },
        { method: 'GET', path: '/items/{id}' },
        { method: 'POST', path: '/orders' },
      ],
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const apiId = ((await created.json()) as { data: { api: { id: string } } }).data.api.id;
  await signInByStorage(page, request, owner);
  await page.goto('/manage-apis');
  await page.locator('[data-testid="api-card"][data-api-name="Flags API"]').getByTestId('new-scan').click();
  await page.getByTestId('scan-key1').fill('key-one');
  await page.getByTestId('scan-next').click();
  const flags = page.getByTestId('flags-modal');
  await expect(flags.getByTestId('flags-row')).toHaveCount(3);

  await flags.getByTestId('flag-legend').locator('summary').click();
  await expect(flags.getByTestId('flag-legend')).toContainText('BOLA API1 Broken Object Level Authorization');
  await expect(flags.getByTestId('flag-legend')).toContainText('SKIP send no requests to the endpoint');

  await flags.getByTestId('bulk-flag').selectOption('BFLA');
  await flags.getByTestId('bulk-on').click();
  await expect(flags.getByTestId('flags-message')).toHaveText(/^BFLA on for [1-3] endpoints?\.$/);
  for (const row of await flags.getByTestId('flags-row').all()) await expect(row.getByTestId('flag-BFLA')).toHaveAttribute('aria-pressed', 'true');

  await flags.getByTestId('flags-search').fill('/items');
  await expect(flags.getByTestId('flags-row')).toHaveCount(2);
  await expect(flags.locator('label[for="bulk-flag"]')).toHaveText('For the 2 matching endpoints:');
  await flags.getByTestId('bulk-off').click();
  await expect(flags.getByTestId('flags-message')).toHaveText('BFLA off for 2 endpoints.');
  await page.screenshot({ path: 'test-results/screenshots/flags-bulk-light.png' });

  // The server kept it: BFLA only on POST /orders.
  const res = await request.post(`${serverUrl()}/api/endpoints`, { headers: { authorization: `Bearer ${token}` }, data: { api_id: apiId } });
  const { endpoints } = ((await res.json()) as { data: { endpoints: { method: string; path: string; flags: string[] }[] } }).data;
  expect(endpoints.filter((e) => e.flags.includes('BFLA')).map((e) => `${e.method} ${e.path}`)).toEqual(['POST /orders']);
});
