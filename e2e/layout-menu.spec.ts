import { expect, test } from '@playwright/test';
import { DEMO, loginAs, mainMenu } from './fixtures.ts';

/** docs/product.md §2 Layout and §6 menu modules: profile, dashboard, the granted modules, blockchain. */
const ALL_MODULES = [
  ['Customers', '/customers'],
  ['Users', '/users'],
  ['Products', '/products'],
  ['Devices', '/devices'],
  ['Sterilizations', '/sterilizations'],
  ['Certificates', '/certificates'],
  ['Alerts', '/alerts'],
  ['Reports', '/reports'],
  ['Recall by lot', '/recall'],
  ['Audit trail', '/audit'],
  ['E-mail outbox', '/outbox'],
] as const;

// Recall by lot comes with the sterilizations module (docs/adr/0024-lot-compliance-and-recall.md).
const EXPECTED: Record<keyof typeof DEMO, readonly string[]> = {
  super: [
    'Customers',
    'Users',
    'Products',
    'Devices',
    'Sterilizations',
    'Certificates',
    'Alerts',
    'Recall by lot',
    'Audit trail',
    'E-mail outbox',
  ],
  admin: [
    'Customers',
    'Users',
    'Products',
    'Devices',
    'Sterilizations',
    'Certificates',
    'Alerts',
    'Recall by lot',
    'Audit trail',
    'E-mail outbox',
  ],
  care: ['Customers', 'Users', 'Devices', 'Sterilizations', 'Certificates', 'Alerts', 'Recall by lot'],
  customer: ['Sterilizations', 'Certificates', 'Alerts', 'Reports', 'Recall by lot'],
};

for (const role of Object.keys(EXPECTED) as Array<keyof typeof DEMO>) {
  test(`the left menu of ${DEMO[role]} lists exactly its modules`, async ({ page }) => {
    await loginAs(page, DEMO[role]);
    const menu = mainMenu(page);
    const modules = EXPECTED[role];

    await expect(menu.getByRole('link')).toHaveText(['Profile', 'Dashboard', ...modules, 'Blockchain']);
    for (const [label, path] of ALL_MODULES) {
      const link = menu.getByRole('link', { name: label, exact: true });
      if (modules.includes(label)) await expect(link).toHaveAttribute('href', path);
      else await expect(link).toHaveCount(0);
    }
    await expect(menu.getByRole('link', { name: 'Profile', exact: true })).toHaveAttribute(
      'href',
      '/profile',
    );
    await expect(menu.getByRole('link', { name: 'Dashboard', exact: true })).toHaveAttribute('href', '/');
    await expect(menu.getByRole('link', { name: 'Blockchain', exact: true })).toHaveAttribute(
      'href',
      '/blockchain',
    );
  });
}

test.describe('top bar and menu links', () => {
  test('the top bar shows the logo link and the user menu with the name and Logout', async ({ page }) => {
    const name = await loginAs(page, DEMO.care);
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('link', { name: 'uvtrace, go to the dashboard' })).toHaveAttribute(
      'href',
      '/',
    );
    const userButton = banner.getByRole('button', { name });
    await expect(userButton).toBeVisible();
    await userButton.click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expect(page.getByRole('menuitem')).toHaveText(['Logout']);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
  });

  test('menu links and the logo navigate between profile, blockchain and the dashboard', async ({ page }) => {
    const name = await loginAs(page, DEMO.care);
    const menu = mainMenu(page);

    await menu.getByRole('link', { name: 'Profile', exact: true }).click();
    await expect(page).toHaveURL('/profile');
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Profile', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await menu.getByRole('link', { name: 'Blockchain', exact: true }).click();
    await expect(page).toHaveURL('/blockchain');
    await expect(page.getByRole('heading', { level: 1, name: 'uvtrace Blockchain Seal' })).toBeVisible();

    await page.getByRole('banner').getByRole('link', { name: 'uvtrace, go to the dashboard' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${name}` })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Dashboard', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });
});
