import { expect, type Page, test } from '@playwright/test';
import { DEMO, loginAs, mainMenu } from './fixtures.ts';

/*
 * Issue 15, the one list frame: a failed load says so and retries (item 5).
 */

/** Makes GET `path` (the list call itself, any query string) fail until the returned function is called. */
async function failList(
  page: Page,
  path: string,
  how: 'server-error' | 'network',
): Promise<() => Promise<void>> {
  const matches = (url: URL) => url.pathname === path;
  await page.route(matches, (route) =>
    how === 'network'
      ? route.abort('connectionrefused')
      : route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ status: 'error', message: 'server_error' }),
        }),
  );
  return () => page.unroute(matches);
}

test.describe('a list that fails to load', () => {
  test('after a 500 says it could not be loaded, not "no customers", and Retry brings the rows', async ({
    page,
  }) => {
    await loginAs(page, DEMO.super);
    const restore = await failList(page, '/api/v1/customers', 'server-error');
    await mainMenu(page).getByRole('link', { name: 'Customers' }).click();

    const table = page.getByRole('table', { name: 'Customers' });
    const failure = table.getByRole('alert');
    await expect(failure).toHaveText(/This list could not be loaded\./);
    await expect(table).not.toContainText('No customers found');
    await expect(table.locator('tbody tr')).toHaveCount(1); // the message's row only: no data rows

    await restore();
    await failure.getByRole('button', { name: 'Retry' }).click();
    await expect(table.getByRole('cell', { name: 'UV Tech S.r.l.', exact: true })).toBeVisible();
    await expect(table.getByRole('alert')).toHaveCount(0);
  });

  test('after a network error (retried once by the client) the same, in Italian too', async ({ page }) => {
    await loginAs(page, DEMO.super);
    await page.getByRole('button', { name: 'IT', exact: true }).click();
    const restore = await failList(page, '/api/v1/products', 'network');
    await page.goto('/products');

    const failure = page.getByRole('table', { name: 'Prodotti' }).getByRole('alert');
    await expect(failure).toHaveText(/Non è stato possibile caricare l'elenco\./, { timeout: 10_000 });
    await expect(page.getByRole('table', { name: 'Prodotti' })).not.toContainText('Nessun prodotto');
    await restore();
    await failure.getByRole('button', { name: 'Riprova' }).click();
    const table = page.getByRole('table', { name: 'Prodotti' });
    await expect(table.locator('tbody tr').first().locator('td')).toHaveCount(4); // a product's row
    await expect(table.getByRole('alert')).toHaveCount(0);
  });
});
