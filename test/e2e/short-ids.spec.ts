// Raw ids are shortened with a copy button (issue 17): the card shows the API id's first characters,
// the whole id on hover, and copies the whole id.

import { apiLogin, createAccount, expect, serverUrl, signInByStorage, test } from './fixtures';

test('the card shows a short API id and copies the full one', async ({ page, request, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: serverUrl() });
  const owner = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const res = await request.post(`${serverUrl()}/api/apis/manual`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Id API', base_url: 'https://api.example.com', endpoints: [{ method: 'GET', path: '/items' }] },
  });
  const apiId = ((await res.json()) as { data: { api: { id: string } } }).data.api.id;
  await signInByStorage(page, request, owner);
  await page.goto('/manage-apis');
  const card = page.locator(`[data-testid="api-card"][data-api-id="${apiId}"]`);
  await expect(card.getByTestId('api-id')).toHaveText(`${apiId.slice(0, 8)}…`);
  await expect(card.getByTestId('api-id')).toHaveAttribute('title', apiId);
  await card.getByTestId('api-id-copy').click();
  await expect(page.getByTestId('notice-text')).toContainText('API ID copied to the clipboard.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiId);
});
