import { expect, type Page, test } from '@playwright/test';
import { apiCreateCustomer, apiToken } from './api.ts';
import { unique } from './customers-helpers.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

const form = (page: Page) => page.getByRole('form', { name: "Dati dell'utente" });
const alerts = (page: Page) => page.getByRole('alert');

/**
 * A form's alerts (lib/form-fields useFormFeedback): one per failed submit, in place of the form's
 * earlier one, and none left once the form is saved. In Italian.
 */
test.describe('form feedback', () => {
  test('a refused submit shows one alert, and a successful retry leaves only the success', async ({
    page,
    request,
  }) => {
    const customer = await apiCreateCustomer(request, await apiToken(request), `E2E Alerts ${unique()}`);
    await loginAs(page, DEMO.admin);
    await inItalian(page);
    await page.goto(`/customers/${customer.id}/users/new`);

    // Invalid: no call, the form's own alert.
    await form(page).getByRole('button', { name: 'Salva' }).click();
    await expect(alerts(page)).toHaveText(['Verifica i dati inseriti']);

    // Refused by the server (a taken email): still one alert, naming the field; it used to add
    // "Controlla i dati inseriti" beside "Verifica i dati inseriti".
    await form(page).getByLabel(/^Nome/).fill('E2E Alerts User');
    await form(page)
      .getByLabel(/^Email/)
      .fill(DEMO.customer);
    await form(page)
      .getByLabel(/^Nuova password/)
      .fill('e2e-alerts-password');
    await form(page)
      .getByLabel(/^Ripeti la nuova password/)
      .fill('e2e-alerts-password');
    await form(page).getByRole('button', { name: 'Salva' }).click();
    await expect(alerts(page)).toHaveCount(1);
    await expect(alerts(page)).toContainText('Verifica i dati inseriti');
    await expect(alerts(page)).toContainText("L'indirizzo email è già usato da un altro utente");

    // Saved: the error is gone, only the success is on screen.
    await form(page)
      .getByLabel(/^Email/)
      .fill(`e2e.alerts.${unique()}@example.com`);
    await form(page).getByRole('button', { name: 'Salva' }).click();
    await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}/users/\\d+$`));
    await expect(alerts(page)).toHaveText(['Utente creato']);
  });
});
