// GraphQL APIs in the browser (issue 20): the Import API Spec dialog takes a GraphQL SDL file, and the
// Endpoints dialog lists its operations by name ("Query.product") with their arguments' GraphQL types
// and finds them by name; a live GraphQL endpoint (the GraphQL test target, started here) is imported
// by URL through introspection, with client-side URL checks first. In light and dark, at the 900 px
// desktop minimum, with screenshots of the form and of the operation list.

import path from 'node:path';
import type { Page } from '@playwright/test';
import { APIS_MESSAGES } from '../../shared/api-messages';
import { API_MESSAGES } from '../../shared/messages';
// test/targets/graphql.ts (the REST target's small GraphQL route) shadows the folder: name its index.
import { startGraphqlTarget } from '../targets/graphql/index';
import { apiLogin, createAccount, expect, postAs, setTheme, signInByStorage, test } from './fixtures';

const SDL = path.resolve(import.meta.dirname, '..', 'fixtures', 'graphql', 'e2e-shop.graphql');
const SHOTS = 'test-results/screenshots';
/** The operations of e2e-shop.graphql and their arguments as the list shows them. */
const OPERATIONS: Record<string, string[]> = {
  'Query.product': ['id: ID!'],
  'Query.products': ['first: Int', 'after: String'],
  'Query.orders': ['status: OrderStatus', 'since: DateTime'],
  'Mutation.placeOrder': ['input: OrderInput!'],
  'Subscription.orderShipped': ['orderId: ID!'],
};

async function openImport(page: Page) {
  await page.goto('/manage-apis');
  await page.getByTestId('import-button').click();
  const dialog = page.getByTestId('import-modal');
  await expect(dialog).toBeVisible();
  return dialog;
}

async function openEndpoints(page: Page, name: RegExp | string) {
  await page.getByTestId('api-card').filter({ hasText: name }).getByTestId('endpoints-button').click();
  const dialog = page.getByTestId('endpoints-modal');
  await expect(dialog).toBeVisible();
  return dialog;
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`GraphQL import (${scheme})`, () => {
    test.use({ colorScheme: scheme, viewport: { width: 900, height: 900 } });

    test('an SDL file is imported and its operations are listed by name with their argument types', async ({ page, request }) => {
      const account = await createAccount(request);
      await signInByStorage(page, request, account);
      const dialog = await openImport(page);
      await expect(dialog).toContainText('.graphql, .graphqls');
      await dialog.getByTestId('import-file').setInputFiles(SDL);
      await expect(dialog.getByTestId('import-file-name')).toContainText('e2e-shop.graphql');
      await dialog.getByTestId('import-submit').click();
      // An SDL file names no server: the importer says so, and the dialog keeps the warning to read.
      await expect(dialog.getByTestId('import-success')).toContainText(API_MESSAGES.imported('e2e-shop.graphql'));
      await expect(dialog.getByTestId('import-format')).toHaveText('GraphQL SDL');
      await expect(dialog).toContainText(`${Object.keys(OPERATIONS).length} operations from`);
      await expect(dialog.getByTestId('import-warning')).toContainText(['The schema names no server']);
      await page.screenshot({ path: `${SHOTS}/graphql-sdl-imported-${scheme}.png` });
      await dialog.getByTestId('import-done').click();
      await expect(dialog).toHaveCount(0);

      const endpoints = await openEndpoints(page, /./);
      await expect(endpoints).toContainText('GraphQL SDL');
      await expect(endpoints.getByTestId('endpoints-count')).toHaveText(`${Object.keys(OPERATIONS).length} operations`);
      for (const [name, args] of Object.entries(OPERATIONS)) {
        const row = endpoints.getByTestId('endpoint-row').filter({ has: page.getByTestId('operation-name').getByText(name, { exact: true }) });
        await expect(row).toHaveCount(1);
        await expect(row).toContainText('POST /graphql');
        await expect(row.getByTestId('operation-argument')).toHaveText(args);
      }
      await page.screenshot({ path: `${SHOTS}/graphql-operations-${scheme}.png` });

      // Search by the operation's name.
      await endpoints.getByTestId('endpoints-search').fill('mutation.place');
      await expect(endpoints.getByTestId('endpoint-row')).toHaveCount(1);
      await expect(endpoints.getByTestId('operation-name')).toHaveText('Mutation.placeOrder');
      // Every row is inside the dialog at 900 px: no horizontal overflow.
      const overflow = await endpoints.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });

    test('a live endpoint is imported by URL, after the URL checks', async ({ page, request }) => {
      test.setTimeout(60_000);
      const target = await startGraphqlTarget({ mode: 'vulnerable' });
      try {
        const account = await createAccount(request);
        await signInByStorage(page, request, account);
        const dialog = await openImport(page);
        await dialog.getByTestId('import-mode-graphql').click();
        const form = dialog.getByTestId('graphql-form');
        await expect(form).toBeVisible();

        await dialog.getByTestId('graphql-submit').click();
        await expect(form.getByTestId('graphql-url-error')).toHaveText(APIS_MESSAGES.graphqlUrlRequired);
        await form.getByTestId('graphql-url').fill('ftp://example.com/graphql');
        await dialog.getByTestId('graphql-submit').click();
        await expect(form.getByTestId('graphql-url-error')).toHaveText(APIS_MESSAGES.graphqlUrlInvalid);

        const url = new URL('/graphql', target.url).toString();
        await form.getByTestId('graphql-url').fill(url);
        await form.getByTestId('graphql-name').fill('Library live');
        await form.getByTestId('graphql-token').fill(target.users.alice.key);
        await page.screenshot({ path: `${SHOTS}/graphql-import-form-${scheme}.png` });

        await dialog.getByTestId('graphql-submit').click();
        // The server's answer: a notice and the dialog closed, or the importer's warnings to read.
        await expect(page.getByTestId('notice').or(dialog.getByTestId('import-success'))).toContainText('Library live');
        if (await dialog.isVisible()) {
          await expect(dialog.getByTestId('import-format')).toHaveText('GraphQL introspection');
          await dialog.getByTestId('import-done').click();
        }
        await expect(dialog).toHaveCount(0);

        const endpoints = await openEndpoints(page, 'Library live');
        await expect(endpoints).toContainText('GraphQL introspection');
        await expect(endpoints.getByTestId('operation-name').first()).toHaveText(/^(Query|Mutation|Subscription)\.\w+$/);
        await expect(endpoints.getByTestId('operation-argument').first()).toHaveText(/^\w+: \[?\w+/);

        // An endpoint that is not GraphQL: the server's message, shown in the form.
        await endpoints.getByTestId('modal-close').click();
        const again = await openImport(page);
        await again.getByTestId('import-mode-graphql').click();
        await again.getByTestId('graphql-url').fill(new URL('/no-such-graphql', target.url).toString());
        await again.getByTestId('graphql-submit').click();
        await expect(again.getByTestId('graphql-error')).toBeVisible({ timeout: 20_000 });
        await expect(again.getByTestId('graphql-error')).not.toBeEmpty();
      } finally {
        await target.close();
      }
    });
  });
}

test("a GraphQL scan's findings show the operation, the query, its variables and a curl that reproduces them", async ({ page, request }) => {
  test.setTimeout(120_000);
  const target = await startGraphqlTarget({ mode: 'vulnerable' });
  try {
    const account = await createAccount(request);
    const { token } = await apiLogin(request, account);
    const { api } = await postAs<{ api: { id: string } }>(request, token, '/api/import/graphql', { url: new URL('/graphql', target.url).toString(), name: 'Library GraphQL' });
    const { scan_id: created } = await postAs<{ scan_id: string }>(request, token, '/api/scan/create', {
      api_id: api.id,
      scan_profile: 'OWASP_API_10',
      api_key_1: target.users.alice.key,
      api_key_2: target.users.bob.key,
      rps: 0,
    });
    await postAs(request, token, '/api/scan/start', { api_id: api.id, scan_id: created });
    await expect
      .poll(async () => (await postAs<{ status: string }>(request, token, '/api/scan/details', { scan_id: created })).status, { timeout: 90_000, intervals: [1000] })
      .toBe('completed');

    await page.setViewportSize({ width: 1280, height: 900 });
    await signInByStorage(page, request, account);
    await page.goto(`/scans/${created}`);
    await page.getByTestId('finding-search').fill('searchBooks');
    const group = page.getByTestId('finding-list');
    await expect(group).toContainText('SQL injection');
    const row = page.getByTestId('finding-row').filter({ hasText: 'Query.searchBooks' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('title');
    await row.click();
    const detail = page.getByTestId('finding-detail');
    await expect(detail.getByTestId('detail-endpoint')).toContainText('Query.searchBooks');
    await expect(detail.getByTestId('detail-graphql-operation')).toHaveText('Query.searchBooks');
    await expect(detail.getByTestId('detail-graphql-query')).toContainText('searchBooks(title: $title)');
    await expect(detail.getByTestId('detail-graphql-variables')).toContainText('"title"');
    const curl = detail.getByTestId('detail-curl');
    await expect(curl).toContainText("curl -i -X POST -H 'content-type: application/json' -H 'authorization: Bearer '\"$PORTCULLIS_KEY_1\"");
    await expect(curl).toContainText('searchBooks(title: $title)');
    await expect(curl).toContainText(`${target.url}/graphql`);
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await page.screenshot({ path: `${SHOTS}/graphql-finding-${theme}.png`, fullPage: true });
      await detail.getByTestId('detail-graphql').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/graphql-finding-query-${theme}.png` });
    }
  } finally {
    await target.close();
  }
});
