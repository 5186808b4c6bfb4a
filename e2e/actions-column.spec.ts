import { expect, test } from '@playwright/test';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/**
 * A list shows its actions column only when some row has an action (components/data-table): the
 * products list, where no role may do anything to a product, has none; a list whose rows open has it.
 * In Italian.
 */
for (const email of [DEMO.super, DEMO.admin]) {
  test(`the products list of ${email} has no empty actions column`, async ({ page }) => {
    await loginAs(page, email);
    await inItalian(page);
    await page.goto('/products');
    const table = page.getByRole('table', { name: 'Prodotti' });
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Azioni', exact: true })).toHaveCount(0);
    // Every column has a header and every row a value under each: no empty column left behind.
    const headers = await table.getByRole('columnheader').count();
    expect(headers).toBeGreaterThan(1);
    await expect(table.locator('tbody tr').first().locator('td, th')).toHaveCount(headers);
  });
}

test('a list whose rows have actions keeps the column', async ({ page }) => {
  await loginAs(page, DEMO.admin);
  await inItalian(page);
  await page.goto('/customers');
  const table = page.getByRole('table', { name: 'Clienti' });
  await expect(table.getByRole('columnheader', { name: 'Azioni', exact: true })).toBeVisible();
});
