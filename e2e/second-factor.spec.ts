import { expect, test } from '@playwright/test';
import { generate } from 'otplib';
import { ACCOUNT_PASSWORD, expectNoAxeViolations, freshAccount } from './accounts-helpers.ts';
import { apiToken } from './api.ts';
import { DEMO, loginAs, logout, sessionUser, submitLogin, switchToItalian } from './fixtures.ts';

/** Two-step verification with an authenticator app (docs/accounts.md §5); codes computed like the app's. */

const codeAt = (secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

test.describe('two-step verification', () => {
  test('a user sets up an app in the profile and signs in with its codes', async ({ page, request }) => {
    const account = await freshAccount(request);
    await page.goto('/login');
    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await expect(page).toHaveURL('/');
    await page.goto('/profile');
    const card = page.getByRole('region', { name: 'Two-step verification' });
    await expect(card).toContainText('Off');
    await card.getByRole('button', { name: 'Set up an authenticator app' }).click();

    const dialog = page.getByRole('dialog', { name: 'Set up an authenticator app' });
    await dialog.getByLabel(/^Current password/).fill(ACCOUNT_PASSWORD);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog.getByRole('img', { name: 'QR code to set up the authenticator app' })).toBeVisible();
    await expectNoAxeViolations(page, '[role="dialog"]', 'authenticator setup');
    const secret = (await dialog.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await dialog.getByLabel(/^First code from the app/).fill('000000');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog.getByLabel(/^First code from the app/)).toHaveAccessibleDescription(
      'This code is not right, or was used already',
    );
    await dialog.getByLabel(/^First code from the app/).fill(await codeAt(secret));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const codes = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    await expectNoAxeViolations(page, '[role="dialog"]', 'recovery codes');
    await dialog.getByRole('button', { name: 'I have kept these codes' }).click();
    await expect(card).toContainText('On');
    await expect(card).toContainText('10 recovery codes left');

    // Signing in now asks for a code after the password; a wrong one is refused.
    await logout(page, account.name);
    await expect(page).toHaveURL('/login');
    await switchToItalian(page);
    await page.getByLabel(/^Email/).fill(account.email);
    await page.getByLabel(/^Password/).fill(ACCOUNT_PASSWORD);
    await page.getByRole('button', { name: 'Accedi', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Verifica in due passaggi' })).toBeVisible();
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    await expectNoAxeViolations(page, 'main', 'login second factor');
    expect(await page.evaluate(() => localStorage.getItem('uvtrace.session'))).toBeNull();
    await page.getByLabel(/^Code/).fill('123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByLabel(/^Code/)).toHaveAccessibleDescription(
      'This code is not right, was used already or has expired',
    );
    // The next time step's code (the confirming one is spent).
    await page.getByLabel(/^Code/).fill(await codeAt(secret, 30));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL('/');
    expect((await sessionUser(page)).email).toBe(account.email);
  });

  test("a recovery code signs in once; a SUPER_ADMIN resets a user's app with a reason", async ({
    browser,
    page,
    request,
  }) => {
    const account = await freshAccount(request);
    // The app set up through the API, as the profile does it.
    const token = await apiToken(request, account.email, ACCOUNT_PASSWORD);
    const headers = { Authorization: `Bearer ${token}` };
    const setup = await request.post('/api/v1/auth/me/second-factor/totp', {
      headers,
      multipart: { current_password: ACCOUNT_PASSWORD },
    });
    const { secret } = (await setup.json()).data as { secret: string };
    const confirmed = await request.post('/api/v1/auth/me/second-factor/totp/confirm', {
      headers,
      multipart: { code: await codeAt(secret) },
    });
    const [recoveryCode] = (await confirmed.json()).data.recovery_codes as string[];

    await page.goto('/login');
    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await page.getByLabel(/^Code/).fill(recoveryCode ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL('/');
    await logout(page, account.name);
    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await page.getByLabel(/^Code/).fill(recoveryCode ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByLabel(/^Code/)).toHaveAccessibleDescription(
      'This code is not right, was used already or has expired',
    );

    const staff = await browser.newContext();
    const admin = await staff.newPage();
    try {
      await loginAs(admin, DEMO.super);
      await admin.goto(`/customers/${account.customerId}/users/${account.id}`);
      await admin.getByRole('button', { name: 'Reset two-step verification' }).click();
      const dialog = admin.getByRole('dialog', { name: "Reset this user's two-step verification?" });
      await expect(dialog.getByRole('button', { name: 'Reset', exact: true })).toBeDisabled();
      await dialog.getByLabel(/^Reason/).fill('Lost phone; identity checked by a call');
      await expectNoAxeViolations(admin, '[role="dialog"]', 'reset two-step verification');
      await dialog.getByRole('button', { name: 'Reset', exact: true }).click();
      await expect(admin.getByRole('alert').filter({ hasText: 'Two-step verification reset' })).toBeVisible();
    } finally {
      await staff.close();
    }
    // The password alone signs in again.
    await page.getByRole('button', { name: 'Start again' }).click();
    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await expect(page).toHaveURL('/');
  });
});
