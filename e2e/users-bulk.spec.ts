import { expect, test } from '@playwright/test';
import { apiCreateCustomer, apiCreateUser, apiToken } from './api.ts';
import { bodyRows, toastWith, unique } from './customers-helpers.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/**
 * Several users at once from the users list (docs/product.md, Users list): chosen rows or the whole
 * page disabled or enabled, each on its own on the server; those already so are skipped and counted.
 */
async function clinicUsers(request: Parameters<typeof apiToken>[0], count: number) {
  const token = await apiToken(request);
  const tag = unique();
  const clinic = await apiCreateCustomer(request, token, `Bulk users ${tag}`);
  for (let i = 1; i <= count; i++)
    await apiCreateUser(request, token, clinic.id, {
      name: `Bulk ${tag} ${i}`,
      email: `bulk-${tag}-${i}@example.com`,
      password: 'password-123',
    });
  return tag;
}

test.describe('users list: bulk actions', () => {
  test('chosen users disabled, then the whole page enabled with the one already enabled skipped', async ({
    page,
    request,
  }) => {
    const tag = await clinicUsers(request, 3);
    await loginAs(page, DEMO.admin);
    await page.goto(`/users?q=${encodeURIComponent(`Bulk ${tag}`)}`);
    const table = page.getByRole('table', { name: 'Users' });
    await expect(bodyRows(table)).toHaveCount(3);
    const toolbar = page.getByRole('toolbar', { name: 'Selected users' });

    await table.getByRole('checkbox', { name: `Select Bulk ${tag} 1` }).check();
    await table.getByRole('checkbox', { name: `Select Bulk ${tag} 2` }).check();
    await expect(toolbar).toContainText('2 users selected');
    await toolbar.getByRole('button', { name: 'Disable selected' }).click();
    await expect(toastWith(page, '2 users done')).toBeVisible();
    await expect(table.getByRole('cell', { name: 'NO', exact: true })).toHaveCount(2);
    await expect(toolbar.getByText(/selected$/)).toHaveCount(0);

    await toolbar.getByRole('checkbox', { name: 'Select this page' }).check();
    await expect(toolbar).toContainText('3 users selected');
    await toolbar.getByRole('button', { name: 'Enable selected' }).click();
    await expect(toastWith(page, '2 users done, 1 skipped')).toBeVisible();
    await expect(table.getByRole('cell', { name: 'NO', exact: true })).toHaveCount(0);
  });

  test('in Italian, on a phone: the page chosen from the toolbar and disabled', async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const tag = await clinicUsers(request, 2);
    await loginAs(page, DEMO.admin);
    await inItalian(page);
    await page.goto(`/users?q=${encodeURIComponent(`Bulk ${tag}`)}`);
    const toolbar = page.getByRole('toolbar', { name: 'Utenti selezionati' });
    await toolbar.getByRole('checkbox', { name: 'Seleziona questa pagina' }).check();
    await expect(toolbar).toContainText('2 utenti selezionati');
    // Each card carries its own checkbox, checked with the page.
    await expect(page.getByRole('checkbox', { name: `Seleziona Bulk ${tag} 1` })).toBeChecked();
    await toolbar.getByRole('button', { name: 'Disattiva i selezionati' }).click();
    await expect(toastWith(page, '2 utenti aggiornati')).toBeVisible();
  });

  test('customer care, who may not edit users, has no selection at all', async ({ page }) => {
    await loginAs(page, DEMO.care);
    await page.goto('/users');
    await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
    await expect(page.getByRole('toolbar', { name: 'Selected users' })).toHaveCount(0);
    await expect(page.getByRole('checkbox')).toHaveCount(0);
  });
});
