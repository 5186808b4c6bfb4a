import { expect, type Page, test } from '@playwright/test';
import { ACCOUNT_PASSWORD, expectNoAxeViolations, freshAccount } from './accounts-helpers.ts';
import { DEMO, loginAs, switchToItalian } from './fixtures.ts';

/** Signed-in sessions in the profile, and an administrator ending a user's (docs/accounts.md §3). */

const sessionsCard = (page: Page) =>
  page.getByRole('region', { name: /^(Signed-in sessions|Sessioni attive)$/ });

test.describe('sessions', () => {
  test('a user sees where they are signed in, ends another session, and that session is refused', async ({
    browser,
    request,
  }) => {
    const account = await freshAccount(request);
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    try {
      await loginAs(otherPage, account.email, ACCOUNT_PASSWORD);

      const page = await (await browser.newContext()).newPage();
      await loginAs(page, account.email, ACCOUNT_PASSWORD);
      await page.goto('/profile');
      const card = sessionsCard(page);
      await expect(card).toBeVisible();
      const rows = card.locator('tbody tr');
      await expect(rows).toHaveCount(2);
      // Newest first: this one, marked, with no end button; the other can be ended.
      await expect(rows.nth(0)).toContainText('This session');
      await expect(rows.nth(0)).toContainText(/Chrome \d+ on Windows 10/);
      await expect(rows.nth(0).getByRole('button')).toHaveCount(0);
      await expect(
        rows.nth(1).getByRole('button', { name: /^End the session of Chrome \d+ on Windows 10 from / }),
      ).toBeVisible();
      await expectNoAxeViolations(page, 'main', 'profile with sessions');

      await rows
        .nth(1)
        .getByRole('button', { name: /^End the session/ })
        .click();
      await expect(page.getByRole('alert').filter({ hasText: '1 session ended' })).toBeVisible();
      await expect(rows).toHaveCount(1);
      await expect(card).toContainText('No other session is open.');
      await expect(card.getByRole('button', { name: 'End all other sessions' })).toBeDisabled();

      // The ended session's next call is refused: the app says so and goes to login.
      await otherPage.goto('/profile');
      await expect(otherPage).toHaveURL(/\/login/);
      await expect(
        otherPage.getByRole('alert').filter({ hasText: 'Session expired. Log in again' }),
      ).toBeVisible();

      await switchToItalian(page);
      await expect(sessionsCard(page)).toContainText('Questa sessione');
      await expect(
        sessionsCard(page).getByRole('button', { name: 'Termina tutte le altre sessioni' }),
      ).toBeDisabled();
    } finally {
      await other.close();
    }
  });

  test('an administrator ends every session of a user from the user page', async ({
    browser,
    page,
    request,
  }) => {
    const account = await freshAccount(request);
    const userContext = await browser.newContext();
    const userPage = await userContext.newPage();
    try {
      await loginAs(userPage, account.email, ACCOUNT_PASSWORD);
      await loginAs(page, DEMO.admin);
      await page.goto(`/customers/${account.customerId}/users/${account.id}`);
      await page.getByRole('button', { name: 'End all sessions' }).click();
      const dialog = page.getByRole('dialog', { name: 'End all sessions of this user?' });
      await expect(dialog).toContainText(`${account.name} is signed out everywhere at once`);
      await expectNoAxeViolations(page, 'main', 'user page with the end sessions button');
      await expectNoAxeViolations(page, '[role="dialog"]', 'end sessions dialog');
      await dialog.getByRole('button', { name: 'End all sessions' }).click();
      await expect(page.getByRole('alert').filter({ hasText: '1 session ended' })).toBeVisible();

      await userPage.goto('/profile');
      await expect(userPage).toHaveURL(/\/login/);
    } finally {
      await userContext.close();
    }
  });
});
