import { expect, test } from '@playwright/test';
import { DEMO, loginAs, mainMenu, switchToItalian } from './fixtures.ts';

test.describe('blockchain teaser', () => {
  test('is public: a guest sees the banner without being sent to login', async ({ page }) => {
    await page.goto('/blockchain');
    await expect(page).toHaveURL('/blockchain');
    const banner = page.getByRole('region', { name: 'uvtrace Blockchain Seal' });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole('heading', { level: 1, name: 'uvtrace Blockchain Seal' })).toBeVisible();
    await expect(banner.getByRole('img', { name: 'Blockchain' })).toBeVisible();
    await expect(banner.getByText('Every sterilization cycle, sealed on a public blockchain.')).toBeVisible();
    await expect(banner.getByText('Coming soon', { exact: true })).toBeVisible();
    // Logged out: no left menu and no user menu.
    await expect(mainMenu(page)).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('button', { name: /Logout/ })).toHaveCount(0);
  });

  test('is shown in Italian after the language switch', async ({ page }) => {
    await page.goto('/blockchain');
    await switchToItalian(page);
    await expect(
      page.getByText('Ogni ciclo di sterilizzazione, sigillato su una blockchain pubblica.'),
    ).toBeVisible();
    await expect(page.getByText('Prossimamente', { exact: true })).toBeVisible();
  });

  test('stays reachable when logged in, with the left menu', async ({ page }) => {
    await loginAs(page, DEMO.customer);
    await page.goto('/blockchain');
    await expect(page).toHaveURL('/blockchain');
    await expect(page.getByRole('heading', { level: 1, name: 'uvtrace Blockchain Seal' })).toBeVisible();
    await expect(mainMenu(page).getByRole('link', { name: 'Blockchain', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });
});
