import { expect, type Page, test } from '@playwright/test';
import { DEMO, inItalian, loginAs, mainMenu } from './fixtures.ts';
import { pressUntilFocused } from './keyboard.ts';

/**
 * The keyboard after a navigation (components/layout/focus-on-navigate, docs/product.md §2 Layout): the
 * focus moves from the menu to the new page's main heading, so Tab goes on in the page; a focused menu
 * item looks different from the current page's item. Keyboard only.
 */

const menu = (page: Page) => page.getByRole('navigation', { name: 'Menu principale' });
const heading = (page: Page) => page.getByRole('main').getByRole('heading', { level: 1 });
const focusedInMain = (page: Page) =>
  page.evaluate(() => document.querySelector('main')?.contains(document.activeElement) ?? false);

test('a menu link moves the focus to the page heading; Tab goes on in the page', async ({ page }) => {
  await loginAs(page, DEMO.admin);
  await inItalian(page);
  await page.reload();
  const devices = menu(page).getByRole('link', { name: 'Dispositivi' });
  await pressUntilFocused(page, devices);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/devices/);
  await expect(heading(page)).toHaveText('Dispositivi');
  await expect(heading(page)).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await focusedInMain(page)).toBe(true);

  // Another page, a detail opened from a list: its heading too.
  const customers = menu(page).getByRole('link', { name: 'Clienti' });
  await pressUntilFocused(page, customers, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(heading(page)).toHaveText('Clienti');
  await expect(heading(page)).toBeFocused();

  // Paging or filtering a list (the search only) leaves the focus where it is.
  const search = page.getByRole('search').getByRole('textbox').first();
  await search.focus();
  await page.keyboard.type('Clinica');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/Clinica/);
  await expect(search).toBeFocused();
});

test('on a phone the drawer closes and the heading has the focus', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, DEMO.care);
  await inItalian(page);
  await page.reload();
  const open = page.getByRole('button', { name: 'Apri il menu' });
  await pressUntilFocused(page, open);
  await page.keyboard.press('Enter');
  const sterilizations = menu(page).getByRole('link', { name: 'Sterilizzazioni' });
  await pressUntilFocused(page, sterilizations);
  await page.keyboard.press('Enter');
  await expect(heading(page)).toHaveText('Sterilizzazioni');
  await expect(heading(page)).toBeFocused();
  await expect(menu(page)).toBeHidden();
});

test('a focused menu item looks different from the current page item', async ({ page }) => {
  await loginAs(page, DEMO.admin);
  await page.goto('/devices');
  const current = mainMenu(page).getByRole('link', { name: 'Devices' });
  await expect(current).toHaveAttribute('aria-current', 'page');
  const look = (link: typeof current) =>
    link.evaluate((element) => {
      const style = getComputedStyle(element);
      return `${style.outlineStyle} ${style.outlineColor} ${style.backgroundColor}`;
    });
  const selected = await look(current);
  const other = mainMenu(page).getByRole('link', { name: 'Customers' });
  await pressUntilFocused(page, other);
  const focused = await look(other);
  expect(focused).not.toBe(selected);
  expect(focused).toMatch(/^solid /);
  // The current item, focused, keeps its tint and gets the ring.
  await pressUntilFocused(page, current);
  const both = await look(current);
  expect(both).toMatch(/^solid /);
  expect(both).not.toBe(selected);
});
