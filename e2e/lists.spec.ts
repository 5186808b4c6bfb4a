import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { apiData, sessionHeaders } from './api.ts';
import { DEMO, loginAs } from './fixtures.ts';

/*
 * The devices and products lists (docs/product.md §2): columns, sorting and paging kept in the URL (a reload
 * shows the same page), paginators above and below, and the devices row-click rule per role. The
 * paging test adds devices to a customer of its own until the list has more than one page.
 */

const unique = () => Math.random().toString(36).slice(2, 7).toUpperCase().padEnd(5, 'X');

type Page0<T> = { data: T[]; total: number; per_page: number; page: number };

/** Makes sure GET /devices has at least two pages, with devices of a customer made for this run. */
async function ensureTwoPagesOfDevices(request: APIRequestContext, headers: Record<string, string>) {
  const first = await apiData<Page0<unknown>>(request, '/api/v1/devices', headers);
  const missing = first.per_page + 1 - first.total;
  if (missing <= 0) return;
  const tag = unique();
  const customer = await request.post('/api/v1/customers', {
    headers,
    multipart: { name: `E2E Lists ${tag}`, country: 'IT' },
  });
  expect(customer.status()).toBe(201);
  const customerId = ((await customer.json()) as { data: { id: number } }).data.id;
  const products = await apiData<Page0<{ id: number }>>(request, '/api/v1/products', headers);
  for (let i = 0; i < missing; i++) {
    const response = await request.post(`/api/v1/customers/${customerId}/devices`, {
      headers,
      multipart: {
        device_serial: `L${tag.slice(0, 4)}${String(i).padStart(3, '0')}`,
        label: `Lists ${tag} ${i}`,
        product_id: String(products.data[0]?.id),
      },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
}

const devicesTable = (page: Page) => page.getByRole('table', { name: 'Devices' });
const bodyRows = (page: Page) => devicesTable(page).locator('tbody tr');
const firstCells = async (page: Page, column: number) =>
  bodyRows(page).evaluateAll(
    (rows, index) => rows.map((row) => row.querySelectorAll('td')[index]?.textContent?.trim() ?? ''),
    column,
  );

test.describe('devices list', () => {
  test('shows the columns, sorts and pages through the URL, and a reload keeps the page', async ({
    page,
  }) => {
    test.slow(); // adds devices until the list has two pages
    await loginAs(page, DEMO.super);
    await ensureTwoPagesOfDevices(page.request, await sessionHeaders(page));

    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Devices' }).click();
    await expect(page).toHaveURL(/\/devices/);
    await expect(page.getByRole('heading', { level: 1, name: 'Devices' })).toBeVisible();
    const headers = devicesTable(page).getByRole('columnheader');
    await expect(headers).toHaveText(['Serial', 'Label', 'Product type', 'Active']);
    await expect(bodyRows(page).first()).toContainText(/installed at /);
    await expect(bodyRows(page).first().locator('td').nth(2)).toHaveText(/^(Plug|Bath)$/);
    await expect(bodyRows(page).first().locator('td').nth(3)).toHaveText(/^(YES|NO)$/);
    // More than one page: a paginator above and one below the table.
    await expect(page.getByTestId('pagination-top')).toBeVisible();
    await expect(page.getByTestId('pagination-bottom')).toBeVisible();

    // Sort by serial descending (two clicks), then go to page 2.
    await devicesTable(page).getByRole('button', { name: 'Serial' }).click();
    await expect(page).toHaveURL(/sortBy=device_serial/);
    await expect(page).toHaveURL(/sortDir=asc/);
    await devicesTable(page).getByRole('button', { name: 'Serial' }).click();
    await expect(page).toHaveURL(/sortDir=desc/);
    const descending = (cells: string[]) =>
      JSON.stringify(cells) === JSON.stringify([...cells].sort().reverse());
    await expect.poll(async () => descending(await firstCells(page, 0))).toBe(true);
    await expect(devicesTable(page)).not.toHaveAttribute('aria-busy', 'true');
    const firstPage = await firstCells(page, 0);
    expect(descending(firstPage)).toBe(true);

    await page.getByTestId('pagination-bottom').getByRole('button').filter({ hasText: /^2$/ }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(devicesTable(page)).not.toHaveAttribute('aria-busy', 'true');
    await expect.poll(() => firstCells(page, 0)).not.toEqual(firstPage);
    const secondPage = await firstCells(page, 0);
    expect(secondPage.every((serial) => serial < (firstPage.at(-1) ?? ''))).toBe(true);

    // The URL is the state: a reload shows the same page, sort and rows.
    await page.reload();
    await expect(page).toHaveURL(/page=2/);
    await expect.poll(() => firstCells(page, 0)).toEqual(secondPage);
    await expect(devicesTable(page).getByRole('columnheader', { name: 'Serial' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );

    // Back goes to page 1; a malformed URL falls back to the defaults.
    await page.goBack();
    await expect.poll(() => firstCells(page, 0)).toEqual(firstPage);
    await page.goto('/devices?page=abc&sortBy=nope&sortDir=up');
    await expect(devicesTable(page).getByRole('columnheader', { name: 'Label' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await expect(bodyRows(page).first()).toBeVisible();
  });

  for (const { role, email, opens } of [
    { role: 'SUPER_ADMIN', email: DEMO.super, opens: true },
    { role: 'ADMIN', email: DEMO.admin, opens: true },
    { role: 'CUSTOMER_CARE', email: DEMO.care, opens: false },
  ]) {
    test(`a row ${opens ? 'opens' : 'does not open'} the device for ${role}`, async ({ page }) => {
      await loginAs(page, email);
      await page.goto('/devices');
      const row = bodyRows(page).first();
      // Wait for the rows (the first render shows a spinner row).
      await expect(row.locator('td')).toHaveCount(4);
      const serial = ((await row.locator('td').first().textContent()) ?? '').trim();
      expect(serial).toHaveLength(8);
      await row.click();
      if (opens) {
        await expect(page).toHaveURL(/\/customers\/\d+\/devices\/\d+$/);
        await expect(page.getByRole('heading', { name: `Device ${serial}` })).toBeVisible();
      } else {
        await page.waitForTimeout(300);
        await expect(page).toHaveURL(/\/devices(\?|$)/);
      }
    });
  }
});

test.describe('products list', () => {
  test('lists name, type and active (no actions: none applies), sorted by name and sortable', async ({
    page,
  }) => {
    await loginAs(page, DEMO.admin);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Products' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Products' });
    await expect(table.getByRole('columnheader')).toHaveText(['Name', 'Type', 'Active']);
    const plug = table.getByRole('row').filter({ hasText: 'Sterilizing Neck Plug' }).first();
    await expect(plug.locator('td').nth(1)).toHaveText('Sterilizing Neck Plug');
    await expect(plug.locator('td').nth(2)).toHaveText('YES');
    const names = () => table.locator('tbody tr td:first-child').allTextContents();
    const ascending = await names();
    expect(ascending).toEqual([...ascending].sort((a, b) => a.localeCompare(b)));
    await table.getByRole('button', { name: 'Name' }).click();
    await expect(page).toHaveURL(/sortDir=desc/);
    await expect.poll(names).toEqual([...ascending].reverse());
    await page.reload();
    await expect.poll(names).toEqual([...ascending].reverse());
    // Paginators only when there is more than one page.
    await expect(page.getByTestId('pagination-top')).toHaveCount(0);
  });
});
