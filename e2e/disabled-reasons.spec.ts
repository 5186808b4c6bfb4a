import { expect, type Page, test } from '@playwright/test';
import { apiCreateCustomer, apiToken } from './api.ts';
import { unique } from './customers-helpers.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';
import { expectDisabledReason } from './keyboard.ts';

/**
 * A button disabled by the form's state says why (components/disabled-reason, docs/product.md §8), as one
 * disabled for a missing ability does: reached with the keyboard alone, on a 390 px phone, in Italian.
 */
test.use({ viewport: { width: 390, height: 844 } });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

async function sessionIds(page: Page): Promise<{ id: number; customer_id: number }> {
  const raw = await page.evaluate(() => localStorage.getItem('uvtrace.session'));
  return (JSON.parse(raw ?? '{}') as { user: { id: number; customer_id: number } }).user;
}

test.describe('disabled buttons say why', () => {
  test('login: the e-mail and password still missing, then the e-mail alone', async ({ page }) => {
    await page.goto('/login');
    await inItalian(page);
    await page.reload();
    const submit = button(page, 'Accedi');
    await expectDisabledReason(
      page,
      submit,
      "Per continuare: L'indirizzo email è obbligatorio e la password è obbligatoria",
    );
    await page.getByLabel(/^Password/).fill('demo-password');
    await expectDisabledReason(page, submit, "Per continuare: L'indirizzo email è obbligatorio");
    await page.getByLabel(/^Email/).fill(DEMO.care);
    await expect(submit).toBeEnabled();
    await expect(submit.locator('xpath=ancestor::span[@tabindex="0"]')).toHaveCount(0);
  });

  test('certificate upload: the fields still missing, then none once the form is complete', async ({
    page,
  }) => {
    await loginAs(page, DEMO.admin);
    await inItalian(page);
    await page.goto('/certificates/upload');
    const upload = button(page, 'Carica');
    await expectDisabledReason(
      page,
      upload,
      'Per continuare: il numero di lotto è obbligatorio, il numero di trattamento convalidato è obbligatorio e il file del certificato in italiano è obbligatorio',
    );
    await page.getByLabel(/^Numero di lotto/).fill('E2E-REASON');
    await page.getByLabel(/^Numero di trattamento convalidato/).fill('31333');
    await expectDisabledReason(
      page,
      upload,
      'Per continuare: il file del certificato in italiano è obbligatorio',
    );
    await page.locator('input[type="file"]').setInputFiles({
      name: 'certificate.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
    });
    await expect(upload).toBeEnabled();
    await expect(upload.locator('xpath=ancestor::span[@tabindex="0"]')).toHaveCount(0);
  });

  test('profile: a new password without its confirmation and the current password', async ({ page }) => {
    await loginAs(page, DEMO.care);
    await inItalian(page);
    await page.goto('/profile');
    const form = page.getByRole('form', { name: 'Dati del profilo' });
    const save = form.getByRole('button', { name: 'Salva', exact: true });
    await expect(save).toBeEnabled();
    await form.getByLabel(/^Nuova password/).fill('e2e-new-password-1');
    await expectDisabledReason(
      page,
      save,
      'Per continuare: Inserisci la password attuale per cambiare email o password, la conferma della password è obbligatoria e le password devono coincidere',
    );
    await form.getByLabel(/^Ripeti la nuova password/).fill('e2e-new-password-1');
    await expectDisabledReason(
      page,
      save,
      'Per continuare: Inserisci la password attuale per cambiare email o password',
    );
    await form.getByLabel(/^Password attuale/).fill('demo-password');
    await expect(save).toBeEnabled();
  });

  test('test JWT: needs the key pair generated on the page', async ({ page, request }) => {
    const customer = await apiCreateCustomer(request, await apiToken(request), `E2E Reasons ${unique()}`);
    await loginAs(page, DEMO.super);
    await inItalian(page);
    await page.goto(`/customers/${customer.id}/devices/new`);
    await expectDisabledReason(
      page,
      button(page, 'Genera JWT di prova 1'),
      'Prima usa «Genera chiavi 1» in questa pagina: la chiave privata che firma il token esiste solo qui e non viene mai salvata',
    );
    await button(page, 'Genera chiavi 1').click();
    await expect(page.getByLabel('Chiave privata 1')).toHaveValue(/^-----BEGIN PRIVATE KEY-----/, {
      timeout: 10_000,
    });
    await expect(button(page, 'Genera JWT di prova 1')).toBeEnabled();
  });

  test('role select: its helper text says why it cannot change', async ({ page, request }) => {
    await loginAs(page, DEMO.super);
    await inItalian(page);
    const me = await sessionIds(page);
    await page.goto(`/customers/${me.customer_id}/users/${me.id}`);
    const role = page.getByRole('combobox', { name: /^Ruolo/ });
    await expect(role).toHaveAttribute('aria-disabled', 'true');
    await expect(role).toHaveAccessibleDescription('Non puoi cambiare il tuo ruolo');

    const customer = await apiCreateCustomer(request, await apiToken(request), `E2E Reasons ${unique()}`);
    await page.goto(`/customers/${customer.id}/users/new`);
    await expect(role).toHaveAccessibleDescription('Gli utenti di una clinica hanno sempre il ruolo Cliente');
  });
});
