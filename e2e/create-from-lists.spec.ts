import { expect, test } from '@playwright/test';
import { DEMO, loginAs, switchToItalian } from './fixtures.ts';

/*
 * The Users and Devices lists have a Create button for whoever may create them: a dialog asks which
 * customer the new user or device belongs to, then that customer's creation form opens. Customer care
 * may not create and sees no button.
 */
test.describe('create from the top-level lists', () => {
  test('a new user from the Users list, for the customer chosen in the dialog', async ({ page }) => {
    await loginAs(page, DEMO.admin);
    await page.goto('/users');
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await expect(dialog.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await dialog.getByRole('combobox', { name: 'Customer the user belongs to' }).click();
    await page.getByRole('option', { name: 'Clinica San Marco' }).click();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/customers\/2\/users\/new$/);
    await expect(page.getByRole('textbox', { name: /^Email/ })).toBeVisible();
  });

  test('a new device from the Devices list, in Italian on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await loginAs(page, DEMO.super);
    await switchToItalian(page);
    await page.goto('/devices');
    await page.getByRole('button', { name: 'Nuovo dispositivo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuovo dispositivo' });
    await dialog.getByRole('combobox', { name: 'Cliente a cui appartiene il dispositivo' }).click();
    await page.getByRole('option', { name: 'Poliambulatorio Santa Chiara' }).click();
    await dialog.getByRole('button', { name: 'Continua' }).click();
    await expect(page).toHaveURL(/\/customers\/3\/devices\/new$/);
  });

  test('customer care sees no Create button on either list', async ({ page }) => {
    await loginAs(page, DEMO.care);
    for (const [path, name] of [
      ['/users', 'New user'],
      ['/devices', 'New device'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('button', { name })).toHaveCount(0);
    }
  });
});
