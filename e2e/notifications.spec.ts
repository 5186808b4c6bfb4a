import { expect, type Page, test } from '@playwright/test';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/*
 * The profile's e-mail notifications and the e-mail outbox. The settings test puts the customer's
 * settings back at the end, so other specs find the demo data as seeded.
 */
const settingsForm = (page: Page) =>
  page.getByRole('form', { name: /^(E-mail notifications|Notifiche e-mail)$/ });

async function putSettingsBack(page: Page) {
  await page.evaluate(async () => {
    const token = (JSON.parse(localStorage.getItem('uvtrace.session') ?? '{}') as { token?: string }).token;
    await fetch('/api/v1/auth/me/notifications', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ language: 'en', email_alert_kinds: null }),
    });
  });
}

test.describe('e-mail notifications', () => {
  test('a clinic user starts with failures and expiries, chooses kinds and Italian mails, and keeps them', async ({
    page,
  }) => {
    await loginAs(page, DEMO.customer);
    try {
      await page.goto('/profile');
      const form = settingsForm(page);
      await expect(form.getByRole('checkbox', { name: 'Failed cycle' })).toBeChecked();
      await expect(form.getByRole('checkbox', { name: 'Certificate expired' })).toBeChecked();
      await expect(form.getByRole('checkbox', { name: 'Device silent' })).not.toBeChecked();
      // A clinic is never told about the manufacturer's blockchain machinery.
      await expect(form.getByRole('checkbox', { name: 'Blockchain block not mined' })).toHaveCount(0);
      const save = form.getByRole('button', { name: 'Save notifications' });
      await expect(save).toBeDisabled();

      await form.getByRole('checkbox', { name: 'Device silent' }).check();
      await form.getByRole('checkbox', { name: 'Certificate expiring' }).uncheck();
      await form.getByRole('combobox', { name: 'Language of the e-mails' }).click();
      await page.getByRole('option', { name: 'Italian' }).click();
      await save.click();
      await expect(page.getByRole('alert').filter({ hasText: 'Notification settings saved' })).toBeVisible();

      await inItalian(page);
      await page.reload();
      const italian = settingsForm(page);
      await expect(italian.getByRole('checkbox', { name: 'Dispositivo silente' })).toBeChecked();
      await expect(italian.getByRole('checkbox', { name: 'Certificato in scadenza' })).not.toBeChecked();
      await expect(italian.getByRole('combobox', { name: 'Lingua delle e-mail' })).toHaveText('Italiano');
    } finally {
      await putSettingsBack(page);
    }
  });

  test('managers read the e-mail outbox, in English and Italian; customer care has no such view', async ({
    page,
  }) => {
    await loginAs(page, DEMO.admin);
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'E-mail outbox' })
      .click();
    await expect(page).toHaveURL(/\/outbox/);
    await expect(page.getByRole('heading', { level: 1, name: 'E-mail outbox' })).toBeVisible();
    await expect(page).toHaveTitle('E-mail outbox · uvtrace');
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await expect(page).toHaveURL(/state=failed/);
    await inItalian(page);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Posta in uscita' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Stato' })).toHaveText('Non inviata');
  });

  test('customer care has no outbox entry and is turned away from its address', async ({ page }) => {
    await loginAs(page, DEMO.care);
    await expect(
      page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'E-mail outbox' }),
    ).toHaveCount(0);
    await page.goto('/outbox');
    await expect(page.getByRole('heading', { level: 1, name: 'E-mail outbox' })).toHaveCount(0);
  });
});
