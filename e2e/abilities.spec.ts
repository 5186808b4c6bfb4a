import { expect, type Page, test } from '@playwright/test';
import { apiCreateCustomer, apiCreateDevice, apiCreateUser, apiProductIdOfType, apiToken } from './api.ts';
import { unique } from './customers-helpers.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/** The tooltip shown on pointing at a control disabled for lack of an ability (components/ability-gate). */
async function expectReason(page: Page, ability: string, text: string): Promise<void> {
  await page.locator(`[data-ability="${ability}"]`).first().hover();
  await expect(page.getByRole('tooltip')).toHaveText(text);
}

/**
 * What a user may not do shows as such, in Italian: an action disabled for lack of an ability says
 * which ability (and who has it), and a form the user may not save shows values, not inputs.
 */
test.describe('abilities on screen', () => {
  test('an action disabled for lack of an ability names it in a tooltip', async ({ page, request }) => {
    const token = await apiToken(request);
    const customer = await apiCreateCustomer(request, token, `E2E Gate ${unique()}`);
    const device = await apiCreateDevice(request, token, customer.id, {
      device_serial: `G${unique()}`.slice(0, 8),
      label: 'Gate',
      product_id: await apiProductIdOfType(request, token, 1),
    });

    // An ADMIN may edit the device but not generate its keys (SUPER_ADMIN only).
    await loginAs(page, DEMO.admin);
    await inItalian(page);
    await page.goto(`/customers/${customer.id}/devices/${device.id}`);
    await expect(page.getByRole('button', { name: 'Genera chiavi 1', exact: true })).toBeDisabled();
    await expectReason(
      page,
      'canGenerateDeviceKeys',
      'Serve il permesso «Generare le chiavi dei dispositivi» (Super amministratore)',
    );
  });

  test('a customer user’s fixed customer filter says why it is fixed', async ({ page }) => {
    await loginAs(page, DEMO.customer);
    await inItalian(page);
    await page.goto('/sterilizations');
    await expect(page.getByRole('combobox', { name: 'Cliente' })).toHaveAttribute('aria-disabled', 'true');
    await expectReason(
      page,
      'canSeeAllSterilizations',
      'Serve il permesso «Vedere le sterilizzazioni di tutti i clienti» (Assistenza clienti, Amministratore e Super amministratore)',
    );
  });

  test('without the ability to save, fields are read-only and password fields are not shown', async ({
    page,
    request,
  }) => {
    const token = await apiToken(request);
    const customer = await apiCreateCustomer(request, token, `E2E Read Only ${unique()}`, { phone: '0101' });
    const user = await apiCreateUser(request, token, customer.id, {
      name: 'E2E Read Only',
      email: `e2e.readonly.${unique()}@example.com`,
      password: 'e2e-readonly-password',
    });

    await loginAs(page, DEMO.care);
    await inItalian(page);
    await page.goto(`/customers/${customer.id}/users/${user.id}`);
    const userForm = page.getByRole('form', { name: "Dati dell'utente" });
    await expect(userForm.getByLabel('Nome', { exact: true })).toHaveValue('E2E Read Only');
    await expect(userForm.getByLabel('Nome', { exact: true })).not.toBeEditable();
    await expect(userForm.getByLabel(/^Email/)).not.toBeEditable();
    // Nothing to set a password for.
    await expect(userForm.getByLabel(/password/i)).toHaveCount(0);
    await expect(userForm.getByRole('button', { name: 'Salva' })).toHaveCount(0);

    await page.goto(`/customers/${customer.id}`);
    const customerForm = page.getByRole('form', { name: 'Dati del cliente' });
    await expect(customerForm.getByLabel('Telefono', { exact: true })).toHaveValue('0101');
    await expect(customerForm.getByLabel('Telefono', { exact: true })).not.toBeEditable();
    await expect(customerForm.getByLabel('Nome', { exact: true })).not.toBeEditable();
    // A value, not an input: MUI's filled look, no required mark.
    await expect(customerForm.locator('.MuiOutlinedInput-root')).toHaveCount(0);
    await expect(customerForm.getByRole('button', { name: 'Salva' })).toHaveCount(0);
  });
});
