// Closing a dialog gives the focus back to the control that opened it (issue 17), by Escape and by the
// close button, so a keyboard user carries on where they were.

import { apiLogin, createAccount, expect, serverUrl, signInByStorage, test } from './fixtures';

test('focus returns to the opener when a dialog closes', async ({ page, request }) => {
  const owner = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const res = await request.post(`${serverUrl()}/api/apis/manual`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Focus API', base_url: 'https://api.example.com', endpoints: [{ method: 'GET', path: '/items' }] },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await signInByStorage(page, request, owner);
  await page.goto('/manage-apis');
  const card = page.getByTestId('api-card').filter({ hasText: 'Focus API' });
  for (const [opener, dialog] of [
    ['endpoints-button', 'endpoints-modal'],
    ['history-button', 'history-modal'],
  ] as const) {
    const button = card.getByTestId(opener);
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(dialog)).toBeVisible();
    await expect(button).not.toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId(dialog)).toHaveCount(0);
    await expect(button).toBeFocused();

    await button.click();
    await page.getByTestId(dialog).getByTestId('modal-close').click();
    await expect(page.getByTestId(dialog)).toHaveCount(0);
    await expect(button).toBeFocused();
  }
});
