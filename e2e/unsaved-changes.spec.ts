import { expect, type Page, test } from '@playwright/test';
import { apiCreateCustomer, apiToken } from './api.ts';
import { unique } from './customers-helpers.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/**
 * Unsaved changes are not lost silently (components/unsaved-changes, docs/product.md §2 Layout): leaving a
 * form with changes asks first, a saved form leaves freely, and closing or reloading the tab gets the
 * browser's question. On a 390 px phone (the menu is a drawer), in Italian.
 */
test.use({ viewport: { width: 390, height: 844 } });

const form = (page: Page) => page.getByRole('form', { name: 'Dati del cliente' });
const nameField = (page: Page) => form(page).getByLabel(/^Nome/);
const question = (page: Page) => page.getByRole('dialog', { name: 'Uscire dalla pagina?' });

async function openMenuItem(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Apri il menu' }).click();
  await page
    .getByRole('navigation', { name: 'Menu principale' })
    .getByRole('link', { name, exact: true })
    .click();
}

async function customerPage(page: Page, request: Parameters<typeof apiToken>[0]) {
  const customer = await apiCreateCustomer(request, await apiToken(request), `E2E Unsaved ${unique()}`);
  await loginAs(page, DEMO.admin);
  await inItalian(page);
  await page.goto(`/customers/${customer.id}`);
  await expect(nameField(page)).toHaveValue(customer.name);
  return customer;
}

test.describe('unsaved changes', () => {
  test('leaving a changed form asks: stay keeps the changes, leave goes', async ({ page, request }) => {
    const customer = await customerPage(page, request);
    await nameField(page).fill(`${customer.name} changed`);

    await openMenuItem(page, 'Dispositivi');
    await expect(question(page)).toContainText('Le modifiche non sono salvate');
    await expect(question(page).getByRole('button', { name: 'Resta nella pagina' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(question(page)).toBeHidden();
    await expect(page).toHaveURL(`/customers/${customer.id}`);
    await expect(nameField(page)).toHaveValue(`${customer.name} changed`);

    await openMenuItem(page, 'Dispositivi');
    await question(page).getByRole('button', { name: 'Esci senza salvare' }).click();
    await expect(page).toHaveURL(/\/devices/);
  });

  test('a saved form, or one changed back, leaves without asking', async ({ page, request }) => {
    const customer = await customerPage(page, request);
    await nameField(page).fill(`${customer.name} saved`);
    await form(page).getByRole('button', { name: 'Salva' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Cliente aggiornato' })).toBeVisible();
    await openMenuItem(page, 'Dispositivi');
    await expect(page).toHaveURL(/\/devices/);
    await expect(question(page)).toHaveCount(0);

    await page.goto(`/customers/${customer.id}`);
    await nameField(page).fill('something else');
    await nameField(page).fill(`${customer.name} saved`);
    await openMenuItem(page, 'Dashboard');
    await expect(page).toHaveURL('/');
    await expect(question(page)).toHaveCount(0);
  });

  test('closing the tab with changes gets the browser question', async ({ page, request }) => {
    await customerPage(page, request);
    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.type());
      void dialog.dismiss();
    });
    await nameField(page).click();
    await page.keyboard.type(' changed');
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => asked).toEqual(['beforeunload']);
    expect(page.isClosed()).toBe(false);
  });

  test('the profile form asks too', async ({ page }) => {
    await loginAs(page, DEMO.care);
    await inItalian(page);
    await page.goto('/profile');
    const profile = page.getByRole('form', { name: 'Dati del profilo' });
    await profile.getByLabel(/^Nome utente/).fill('Someone else');
    await openMenuItem(page, 'Dashboard');
    await expect(question(page)).toBeVisible();
    await question(page).getByRole('button', { name: 'Esci senza salvare' }).click();
    await expect(page).toHaveURL('/');
  });
});
