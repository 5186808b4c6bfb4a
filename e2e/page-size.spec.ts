import { expect, type Page, test } from '@playwright/test';
import { bodyRows } from './customers-helpers.ts';
import { DEMO, loginAs, switchToItalian } from './fixtures.ts';

/*
 * Rows per page: 20, 50 or 100 from a select below a list, kept in the URL (`perPage`) so a reload
 * or a link shows the same size; a new size goes back to page 1 and the default leaves the URL.
 * The demo data's 3,000 records make several pages of every size.
 */

const perPageInUrl = (page: Page) => new URL(page.url()).searchParams.get('perPage');

test.describe('rows per page', () => {
  test('the sterilization list shows 50 and 100 rows when asked, and keeps the size in the URL', async ({
    page,
  }) => {
    await loginAs(page, DEMO.super);
    await page.goto('/sterilizations?page=3');
    const table = page.getByRole('table', { name: 'Sterilizations' });
    await expect(bodyRows(table)).toHaveCount(20);

    const size = page.getByRole('combobox', { name: 'Rows per page' });
    await size.click();
    await page.getByRole('option', { name: '50' }).click();
    await expect.poll(() => perPageInUrl(page)).toBe('50');
    expect(new URL(page.url()).searchParams.get('page')).toBe('1');
    await expect(bodyRows(table)).toHaveCount(50);

    await page.reload();
    await expect(bodyRows(table)).toHaveCount(50);
    await expect(size).toHaveText('50');

    await size.click();
    await page.getByRole('option', { name: '20' }).click();
    await expect.poll(() => perPageInUrl(page)).toBeNull();
    await expect(bodyRows(table)).toHaveCount(20);
  });

  test('a link with perPage=100 opens the list at 100 rows, in Italian too', async ({ page }) => {
    await loginAs(page, DEMO.admin);
    await switchToItalian(page);
    await page.goto('/sterilizations?perPage=100&page=2');
    const table = page.getByRole('table', { name: 'Sterilizzazioni' });
    await expect(bodyRows(table)).toHaveCount(100);
    await expect(page.getByRole('combobox', { name: 'Righe per pagina' })).toHaveText('100');
    await expect(page.getByRole('navigation', { name: 'Paginazione (in basso)' })).toBeVisible();
  });
});
