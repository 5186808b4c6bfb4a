import { expect, type Page, test } from '@playwright/test';
import { ACCOUNT_PASSWORD, expectNoAxeViolations, freshAccount } from './accounts-helpers.ts';
import { DEMO, loginAs, submitLogin, switchToItalian } from './fixtures.ts';
import { type CaughtMail, caughtMails } from './mail-catcher.ts';

/** "Forgot your password?" through the e-mail the test SMTP server catches (docs/accounts.md §4). */

/** The mail's text body, whatever transfer encoding the sender chose. */
function bodyOf(mail: CaughtMail): string {
  const [headers = '', ...rest] = mail.raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  const encoding = /^Content-Transfer-Encoding: *(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

async function resetLinkMailedTo(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mail = caughtMails().find((caught) => caught.to === email);
        link = mail ? /https?:\/\/\S+\/reset-password#token=[\w-]+/.exec(bodyOf(mail))?.[0] : undefined;
        return link;
      },
      { timeout: 20_000 },
    )
    .toBeDefined();
  return link as string;
}

const newPassword = (page: Page) => page.getByLabel(/^(New password|Nuova password)/);
const repeatPassword = (page: Page) => page.getByLabel(/^(Repeat new password|Ripeti la nuova password)/);

test.describe('forgot password', () => {
  test('a link by e-mail sets a new password once; the outbox never shows the link', async ({
    page,
    request,
  }) => {
    const account = await freshAccount(request);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL('/forgot-password');
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
    await expectNoAxeViolations(page, 'main', 'forgot password');
    await page.getByLabel(/^Email/).fill(account.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect(page.getByRole('status')).toContainText('If an account uses this address');
    await expectNoAxeViolations(page, 'main', 'forgot password, sent');

    const link = await resetLinkMailedTo(account.email);
    const token = new URL(link).hash.replace('#token=', '');
    await page.goto(new URL(link).pathname + new URL(link).hash);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
    await expectNoAxeViolations(page, 'main', 'reset password');
    // The rules of docs/accounts.md §1, in the browser before any call.
    await newPassword(page).fill('password123');
    await repeatPassword(page).fill('password123');
    await newPassword(page).blur();
    await expect(newPassword(page)).toHaveAccessibleDescription(
      'This password is too common: choose another one',
    );
    await expect(page.getByRole('button', { name: 'Save the new password' })).toBeDisabled();
    await newPassword(page).fill('e2e reset password 1');
    await repeatPassword(page).fill('e2e reset password 1');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect(page).toHaveURL('/login');
    await expect(
      page.getByRole('alert').filter({ hasText: 'Your password was changed: log in with it' }),
    ).toBeVisible();

    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await expect(page.getByRole('alert').filter({ hasText: 'Login failed' })).toBeVisible();
    await loginAs(page, account.email, 'e2e reset password 1');

    // Used once: the same link is refused now.
    const second = await page.context().browser()?.newContext();
    const again = await second?.newPage();
    if (!again) throw new Error('no second page');
    await again.goto(`/reset-password#token=${token}`);
    await newPassword(again).fill('e2e reset password 2');
    await repeatPassword(again).fill('e2e reset password 2');
    await again.getByRole('button', { name: 'Save the new password' }).click();
    await expect(again.getByText(/This link no longer works/)).toBeVisible();
    await expect(again.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
    await second?.close();

    // Staff see that a reset mail went out, without its link.
    const staff = await page.context().browser()?.newContext();
    const outbox = await staff?.newPage();
    if (!outbox) throw new Error('no staff page');
    await loginAs(outbox, DEMO.admin);
    await outbox.goto(`/outbox?to=${encodeURIComponent(account.email)}`);
    await expect(outbox.getByText('Reset your uvtrace password')).toBeVisible();
    await expect(outbox.locator('body')).not.toContainText(token);
    await staff?.close();
  });

  test('the pages speak Italian', async ({ page }) => {
    await page.goto('/login');
    await switchToItalian(page);
    await page.getByRole('link', { name: 'Password dimenticata?' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Password dimenticata?' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Invia il link' })).toBeDisabled();
    await page.goto('/reset-password');
    await expect(page.getByText(/Questo link non funziona più/)).toBeVisible();
    await expectNoAxeViolations(page, 'main', 'reset password without a link, Italian');
  });
});
