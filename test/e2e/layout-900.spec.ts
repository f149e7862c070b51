// The desktop window's minimum width is 900 px (electron/desktop): the header and every page fit it
// without sideways scrolling (issue 17), signed out and signed in, with data on the pages.

import type { Page } from '@playwright/test';
import { apiLogin, createAccount, expect, serverUrl, signInByStorage, test } from './fixtures';

test.use({ viewport: { width: 900, height: 700 } });

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const overflow = await page.evaluate(() => {
    const doc = document.scrollingElement ?? document.documentElement;
    // The widest element that sticks out, to say what to fix.
    let worst = '';
    let right = doc.clientWidth;
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > right + 1 && getComputedStyle(el).position !== 'fixed') {
        right = r.right;
        worst = `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : ''}.${String(el.className).split(' ')[0]}`;
      }
    }
    return { scroll: doc.scrollWidth - doc.clientWidth, worst, right: Math.round(right) };
  });
  expect(overflow.scroll, `${where}: ${overflow.worst} reaches ${overflow.right}px`).toBeLessThanOrEqual(0);
}

test('public pages fit 900 px', async ({ page }) => {
  for (const path of ['/landing', '/login', '/signup', '/forgot-password', '/security', '/terms', '/privacy', '/contact']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await expectNoSidewaysScroll(page, path);
  }
});

test('signed-in pages fit 900 px', async ({ page, request }) => {
  const owner = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const res = await request.post(`${serverUrl()}/api/apis/manual`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: 'A payments API with a rather long name for its card',
      base_url: 'https://payments.internal.example.com/api/v2/with/a/long/path',
      endpoints: [{ method: 'GET', path: '/accounts/{accountId}/transactions/{transactionId}/attachments' }],
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await signInByStorage(page, request, owner);
  for (const path of ['/dashboard', '/home', '/manage-apis', '/settings', '/documentation', '/guide/getting-started']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await expectNoSidewaysScroll(page, path);
    if (path === '/manage-apis') await page.screenshot({ path: 'test-results/screenshots/layout-900-manage-apis.png' });
  }
  // Dialogs too.
  await page.goto('/manage-apis');
  await page.getByTestId('endpoints-button').first().click();
  await expect(page.getByTestId('endpoints-modal')).toBeVisible();
  await expectNoSidewaysScroll(page, 'endpoints dialog');
});
