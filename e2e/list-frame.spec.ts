import { expect, type Page, test } from '@playwright/test';
import { DEMO, loginAs, mainMenu, switchToItalian } from './fixtures.ts';

/*
 * The one list frame: a failed load says so and retries.
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
    // Rows of customers (which ones depends on what other specs created: the list is sorted by name).
    await expect(table.getByRole('alert')).toHaveCount(0);
    await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThan(1);
    await expect(table.locator('tbody tr').first().locator('td').first()).toHaveText(/\S/);
  });

  test('after a network error (retried once by the client) the same, in Italian too', async ({ page }) => {
    await loginAs(page, DEMO.super);
    await switchToItalian(page);
    const restore = await failList(page, '/api/v1/products', 'network');
    await page.goto('/products');

    const failure = page.getByRole('table', { name: 'Prodotti' }).getByRole('alert');
    await expect(failure).toHaveText(/Non è stato possibile caricare l'elenco\./, { timeout: 10_000 });
    await expect(page.getByRole('table', { name: 'Prodotti' })).not.toContainText('Nessun prodotto');
    await restore();
    await failure.getByRole('button', { name: 'Riprova' }).click();
    const table = page.getByRole('table', { name: 'Prodotti' });
    // A product's row: name, type, active (no actions column: no role may change a product).
    await expect(table.locator('tbody tr').first().locator('td')).toHaveCount(3);
    await expect(table.getByRole('alert')).toHaveCount(0);
  });
});

/*
 * Item 10: every filter applies without a further gesture. A text filter applies after a pause in the
 * typing (no Enter, no leaving the field), and a disabled filter says what enables it.
 */
test.describe('filters behave alike', () => {
  const auditFilters = (page: Page) => page.getByRole('search', { name: 'Audit trail filters' });

  test('the audit trail applies a typed user after a pause, without Enter or blur', async ({ page }) => {
    await loginAs(page, DEMO.admin);
    await page.goto('/audit');
    const actor = auditFilters(page).getByLabel('User (id or email)');
    await actor.pressSequentially('admin@example', { delay: 30 });
    // Still typing in the field (no blur), the URL and the rows follow.
    await expect(page).toHaveURL(/[?&]actor=admin%40example(&|$)/);
    await expect(actor).toBeFocused();
    await expect(actor).toHaveValue('admin@example');
    const rows = page.getByRole('table', { name: 'Audit trail' }).locator('tbody tr');
    await expect(rows.first()).toContainText(DEMO.admin);

    // Cleared the same way: the filter goes and the field keeps the focus.
    await actor.clear();
    await expect(page).not.toHaveURL(/[?&]actor=/);
    await expect(actor).toBeFocused();
  });

  test('a disabled filter says what enables it', async ({ page }) => {
    await loginAs(page, DEMO.admin);
    await page.goto('/audit');
    const entityId = auditFilters(page).getByLabel('Entity id');
    await expect(entityId).toBeDisabled();
    await expect(entityId).toHaveAccessibleDescription('Choose an entity type first');
    await auditFilters(page).getByRole('combobox', { name: 'Entity' }).click();
    await page.getByRole('option', { name: 'Customer', exact: true }).click();
    await expect(entityId).toBeEnabled();
    await expect(entityId).toHaveAccessibleDescription('');
    await entityId.pressSequentially('1');
    await expect(page).toHaveURL(/[?&]entityId=1(&|$)/);

    await page.goto('/sterilizations');
    const device = page.getByRole('combobox', { name: 'Device' });
    await expect(device).toHaveAttribute('aria-disabled', 'true');
    await expect(device).toHaveAccessibleDescription('Choose a customer first');
    await page.getByRole('combobox', { name: 'Customer' }).click();
    await page.getByRole('option').nth(1).click();
    await expect(device).not.toHaveAttribute('aria-disabled', 'true');
    await expect(device).toHaveAccessibleDescription('');
  });

  test("a customer user's fixed customer filter says why", async ({ page }) => {
    await loginAs(page, DEMO.customer);
    await page.goto('/sterilizations');
    const customer = page.getByRole('combobox', { name: 'Customer' });
    await expect(customer).toHaveAttribute('aria-disabled', 'true');
    await expect(customer).toHaveAccessibleDescription('Your own records only');
  });
});
