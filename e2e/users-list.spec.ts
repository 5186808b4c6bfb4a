import { expect, test } from '@playwright/test';
import { apiCreateCustomer, apiCreateUser, apiToken } from './api.ts';
import { bodyRows, columnTexts, expectSearch, unique } from './customers-helpers.ts';
import { DEMO, loginAs, switchToItalian } from './fixtures.ts';

test.describe('users list', () => {
  test('pages and sorts by name, email and active through the URL; a reload keeps it; row click opens the user', async ({
    page,
    request,
  }) => {
    // Enough users for two pages whatever the other specs created.
    const token = await apiToken(request);
    const tag = unique();
    const firstEmail = `0-e2e.list.${tag}@example.com`;
    const customer = await apiCreateCustomer(request, token, `E2E Users List ${tag}`);
    for (let index = 0; index < 21; index += 1) {
      await apiCreateUser(request, token, customer.id, {
        name: `E2E List User ${tag} ${String(index).padStart(2, '0')}`,
        // The first one sorts before every seeded email (digits come before letters).
        email: index === 0 ? firstEmail : `e2e.list.${tag}.${index}@example.com`,
        password: 'e2e-list-password',
      });
    }

    await loginAs(page, DEMO.care);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Users' }).click();
    await expect(page).toHaveURL(/\/users\?page=1&sortBy=name&sortDir=asc$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table.getByRole('columnheader')).toHaveText(['Name', 'Email', 'Active', 'Actions']);
    await expect(bodyRows(table)).toHaveCount(20);
    await expect(page.getByRole('navigation', { name: /^Pagination/ })).toHaveCount(2);

    // A new column sorts ascending; a second click flips it.
    await table.getByRole('button', { name: 'Email' }).click();
    await expectSearch(page, { page: '1', sortBy: 'email', sortDir: 'asc' });
    await table.getByRole('button', { name: 'Email' }).click();
    await expectSearch(page, { page: '1', sortBy: 'email', sortDir: 'desc' });
    await expect(table.getByRole('columnheader', { name: 'Email' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    const emails = await columnTexts(table, 1);
    // Emails are ASCII: the database orders them by code point.
    expect(emails).toEqual([...emails].sort().reverse());

    await page
      .getByRole('navigation', { name: 'Pagination (top)' })
      .getByRole('button', { name: 'Go to page 2' })
      .click();
    await expectSearch(page, { page: '2', sortBy: 'email', sortDir: 'desc' });
    await expect.poll(async () => (await columnTexts(table, 1))[0]).not.toBe(emails[0]);
    const secondPage = await columnTexts(table, 1);
    await page.reload();
    await expect(table.getByRole('columnheader', { name: 'Email' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect.poll(() => columnTexts(table, 1)).toEqual(secondPage);

    await table.getByRole('button', { name: 'Active' }).click();
    await expectSearch(page, { page: '1', sortBy: 'active', sortDir: 'asc' });

    // Name with its role badge and the customer name beneath; a click opens the user's page.
    await page.goto('/users?sortBy=email&sortDir=asc');
    const row = bodyRows(table).filter({ hasText: firstEmail });
    await expect(row).toHaveCount(1);
    await expect(row.locator('[data-role="CUSTOMER"]')).toHaveText('Customer');
    await expect(row.getByRole('cell').first()).toContainText(`E2E List User ${tag} 00`);
    await expect(row.getByRole('cell').first()).toContainText(`E2E Users List ${tag}`);
    await expect(row.getByRole('cell').nth(2)).toHaveText('YES');
    await row.getByRole('cell').nth(1).click();
    await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}/users/\\d+$`));
    await expect(page.getByRole('form', { name: 'User data' }).getByLabel(/^Email/)).toHaveValue(firstEmail);
  });

  test('the users list in Italian', async ({ page }) => {
    await loginAs(page, DEMO.admin);
    await switchToItalian(page);
    await page.goto('/users');
    await expect(page.getByRole('heading', { level: 1, name: 'Utenti' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Utenti' }).getByRole('columnheader')).toHaveText([
      'Nome',
      'Email',
      'Attivo',
      'Azioni',
    ]);
  });
});
