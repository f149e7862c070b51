// Import from a URL in the browser (issue 31, item 7): the Import API Spec dialog's "From a URL" takes the
// test target's own /openapi.json, which the server fetches (local scans are allowed on this test server,
// as on the desktop) and imports; its documentation page is refused first with a message that says where
// the description usually is. On a second team server without local scans the same address is refused by
// the scan guard, with how to allow it. Light and dark, at 900 and 1440 px, with axe and screenshots.

import type { Page } from '@playwright/test';
import { SPEC_URL_MESSAGES } from '../../shared/api-messages';
import { expectNoSeriousViolations, shoot, watchConsole } from './a11y';
import { createAccount, createAccountOn, expect, signInByStorage, target, test } from './fixtures';
import { startSecondServer, type SecondServer } from './second-server';

async function openUrlImport(page: Page) {
  await page.goto('/manage-apis');
  await page.getByTestId('import-button').click();
  const dialog = page.getByTestId('import-modal');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('import-mode-url').click();
  await expect(dialog.getByTestId('import-mode-url')).toHaveAttribute('aria-pressed', 'true');
  return dialog;
}

for (const scheme of ['light', 'dark'] as const) {
  for (const width of [900, 1440]) {
    test.describe(`import from a URL (${scheme}, ${width} px)`, () => {
      test.use({ colorScheme: scheme, viewport: { width, height: 900 } });

      test("imports the target's own /openapi.json after refusing its documentation page", async ({ page, request }) => {
        // Three round trips through the server, axe and three screenshots: more than the default 30 s on a busy machine.
        test.setTimeout(90_000);
        const problems = watchConsole(page);
        const account = await createAccount(request);
        await signInByStorage(page, request, account);
        const dialog = await openUrlImport(page);
        await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);

        // Checked in the browser first: not a URL.
        await dialog.getByTestId('url-input').fill('openapi.json');
        await dialog.getByTestId('url-submit').click();
        await expect(dialog.getByRole('textbox', { name: 'URL of the API description' })).toHaveAccessibleDescription(/http:\/\/ or https:\/\//);

        // The Swagger UI page is a web page, not the description: the server says where to look instead.
        await dialog.getByTestId('url-input').fill(`${target().url}/swagger`);
        await dialog.getByTestId('url-submit').click();
        await expect(dialog.getByTestId('url-error')).toHaveText(SPEC_URL_MESSAGES.webPage);
        await expectNoSeriousViolations(page);
        await shoot(page, `url-import-refused-${width}-${scheme}`, false);
        // Nothing in the dialog spills sideways.
        expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);

        await dialog.getByTestId('url-input').fill(`${target().url}/openapi.json`);
        await dialog.getByTestId('url-submit').click();
        // Imported: the dialog closes with a notice, or stays open on the importer's warnings.
        const notice = page.getByText(/^API ".+" imported from its URL with \d+ endpoints\.$/);
        await expect(notice.or(dialog.getByTestId('import-success')).first()).toBeVisible({ timeout: 15_000 });
        await shoot(page, `url-import-done-${width}-${scheme}`, false);
        if (await dialog.isVisible()) await dialog.getByTestId('import-done').click();
        await expect(dialog).toHaveCount(0);

        const card = page.getByTestId('api-card');
        await expect(card).toHaveCount(1);
        await expect(card).toContainText(new URL(target().baseUrl).host);
        await shoot(page, `url-import-card-${width}-${scheme}`, false);
        // The one refusal above is the browser's "Failed to load resource: ... 400": nothing else.
        expect(problems.filter((p) => !/status of 400 \(Bad Request\)/.test(p))).toEqual([]);
        expect(problems.length).toBeLessThanOrEqual(1);
      });
    });
  }
}

test.describe('import from a URL on a team server without local scans', () => {
  let server: SecondServer;
  test.beforeAll(async () => {
    server = await startSecondServer({ PORTCULLIS_ALLOW_LOCAL_SCANS: '0' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`refuses the target's loopback address and says how to allow it (${scheme})`, async ({ page, request }) => {
      test.setTimeout(60_000);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 900, height: 900 });
      const account = await createAccountOn(request, server.url);
      await page.goto(`${server.url}/login`);
      await page.getByTestId('login-identifier').fill(account.username);
      await page.getByTestId('login-password').fill(account.password);
      await page.getByTestId('login-submit').click();
      await page.waitForURL('**/dashboard');
      await page.goto(`${server.url}/manage-apis`);
      await page.getByTestId('import-button').click();
      const dialog = page.getByTestId('import-modal');
      await dialog.getByTestId('import-mode-url').click();
      await dialog.getByTestId('url-input').fill(`${target().url}/openapi.json`);
      await dialog.getByTestId('url-submit').click();
      await expect(dialog.getByTestId('url-error')).toHaveText(SPEC_URL_MESSAGES.local('127.0.0.1'));
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      await expectNoSeriousViolations(page);
      await shoot(page, `url-import-local-refused-900-${scheme}`, false);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByTestId('api-card')).toHaveCount(0);
    });
  }
});
