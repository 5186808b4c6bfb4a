import { expect, type Page, test } from '@playwright/test';
import { DEMO, emailField, passwordField, sessionUser } from './fixtures.ts';

const enButton = (page: Page) => page.getByRole('button', { name: 'EN', exact: true });
const itButton = (page: Page) => page.getByRole('button', { name: 'IT', exact: true });

test.describe('language switch', () => {
  test('English is the default', async ({ page }) => {
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(enButton(page)).toHaveAttribute('aria-pressed', 'true');
    await expect(itButton(page)).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
  });

  test('IT translates the login page and the dashboard, and survives a reload', async ({ page }) => {
    await page.goto('/login');
    await itButton(page).click();

    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    await expect(itButton(page)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('heading', { level: 1, name: 'Accedi' })).toBeVisible();
    await expect(page.getByText('Back-office per la tracciabilità della sterilizzazione UV')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeDisabled();

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    await expect(page.getByRole('heading', { level: 1, name: 'Accedi' })).toBeVisible();

    // A failed login is reported in Italian too.
    await emailField(page).fill(DEMO.care);
    await passwordField(page).fill('wrong-password');
    await page.getByRole('button', { name: 'Accedi', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Accesso non riuscito' })).toBeVisible();

    await passwordField(page).fill('demo-password');
    await page.getByRole('button', { name: 'Accedi', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Bentornato' })).toBeVisible();
    await expect(page).toHaveURL('/');
    const { name } = await sessionUser(page);

    await expect(page.getByRole('heading', { level: 1, name: `Benvenuto, ${name}` })).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Menu principale' });
    await expect(menu.getByRole('link', { name: 'Profilo', exact: true })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Clienti', exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Clienti', exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Vasche sterilizzanti', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Lotti di guaine monouso' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Legenda' }).getByRole('listitem')).toHaveText([
      'Uso inferiore all’80%',
      'Uso dall’80%',
      'Esaurito',
    ]);
    await expect(page.getByRole('article', { name: /^Lotto / }).first()).toBeVisible();

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: `Benvenuto, ${name}` })).toBeVisible();
    await expect(itButton(page)).toHaveAttribute('aria-pressed', 'true');

    await page.getByRole('banner').getByRole('button', { name }).click();
    await expect(page.getByRole('menuitem', { name: 'Esci' })).toBeVisible();
    await page.keyboard.press('Escape');

    // And back to English.
    await enButton(page).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${name}` })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  });
});
