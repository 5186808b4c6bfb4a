import { expect, type Locator, type Page, test } from '@playwright/test';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/*
 * Columns (docs/lists.md "Columns"): every list's Columns button opens a dialog to show, hide and move
 * the columns with the keyboard; the choice is in the URL (`columns=`) and kept for the user on the
 * server, so a reload, a new page and another browser show it. The sterilization list offers the
 * details card's fields. Each test puts the user's list back to its default columns.
 */

const PHONE = { width: 390, height: 844 };

const headers = (table: Locator) => table.getByRole('columnheader');
const columnsInUrl = (page: Page) => new URL(page.url()).searchParams.get('columns');

/** The user's kept columns of every list back to the default, through the API with the page's session. */
async function resetKeptColumns(page: Page, list: string) {
  const raw = await page.evaluate(() => localStorage.getItem('uvtrace.session'));
  const token = (JSON.parse(raw ?? '{}') as { token?: string }).token;
  const response = await page.request.put(`/api/v1/auth/me/list-columns/${list}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { columns: [] },
  });
  expect(response.status()).toBe(200);
}

test.describe('choosing columns', () => {
  test('on the sterilization list: a detail field shown and moved with the keyboard, kept after a reload, in a new page and another browser', async ({
    page,
    browser,
  }) => {
    await loginAs(page, DEMO.care);
    try {
      await page.goto('/sterilizations');
      const table = page.getByRole('table', { name: 'Sterilizations' });
      await expect(headers(table)).toHaveText(['Date', 'Customer', 'Device serial', 'Lot code', 'Actions']);

      await page.getByRole('button', { name: 'Columns', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Choose columns' });
      await dialog.getByRole('checkbox', { name: 'UV dose', exact: true }).press('Space');
      await dialog.getByRole('checkbox', { name: 'Customer', exact: true }).press('Space');
      await expect(dialog.getByRole('checkbox', { name: 'Customer', exact: true })).not.toBeChecked();
      // UV dose comes after Date, Customer, Device serial, Lot code and Status: four places up.
      const up = dialog.getByRole('button', { name: 'Move UV dose up' });
      for (let step = 0; step < 4; step += 1) await up.press('Enter');
      const kept = page.waitForResponse(
        (response) =>
          response.url().endsWith('/api/v1/auth/me/list-columns/sterilizations') &&
          response.request().method() === 'PUT',
      );
      await dialog.getByRole('button', { name: 'Apply' }).press('Enter');
      await expect(dialog).toBeHidden();
      expect((await kept).status()).toBe(200);

      const chosen = ['Date', 'UV dose', 'Device serial', 'Lot code', 'Actions'];
      await expect(headers(table)).toHaveText(chosen);
      await expect
        .poll(() => columnsInUrl(page))
        .toBe('received_ts,supplied_energy,device_serial,consumables_lot');
      await expect(table.getByRole('row').nth(1).getByRole('cell').nth(1)).toHaveText(/^\d/);

      await page.reload();
      await expect(headers(table)).toHaveText(chosen);

      // A new page without `columns` in its URL shows the kept choice.
      const second = await page.context().newPage();
      await second.goto('/sterilizations');
      await expect(headers(second.getByRole('table', { name: 'Sterilizations' }))).toHaveText(chosen);
      await second.close();

      // Another browser: the choice is kept on the server, not in this one's storage.
      const other = await browser.newContext();
      const otherPage = await other.newPage();
      await loginAs(otherPage, DEMO.care);
      await otherPage.goto('/sterilizations');
      await expect(headers(otherPage.getByRole('table', { name: 'Sterilizations' }))).toHaveText(chosen);
      await other.close();

      // Back to the default: the URL loses `columns` and the kept choice is gone.
      await page.getByRole('button', { name: 'Columns', exact: true }).click();
      await page
        .getByRole('dialog', { name: 'Choose columns' })
        .getByRole('button', { name: 'Default columns' })
        .click();
      await expect(headers(table)).toHaveText(['Date', 'Customer', 'Device serial', 'Lot code', 'Actions']);
      await expect.poll(() => columnsInUrl(page)).toBeNull();
      await page.reload();
      await expect(headers(table)).toHaveText(['Date', 'Customer', 'Device serial', 'Lot code', 'Actions']);
    } finally {
      await resetKeptColumns(page, 'sterilizations');
    }
  });

  test('a link names its columns, unknown names ignored; on another list too', async ({ page }) => {
    await loginAs(page, DEMO.admin);
    await page.goto('/sterilizations?columns=notes,nonsense,received_ts');
    await expect(headers(page.getByRole('table', { name: 'Sterilizations' }))).toHaveText([
      'Notes',
      'Date',
      'Actions',
    ]);
    await page.goto('/devices?columns=nonsense');
    const devices = page.getByRole('table', { name: 'Devices' });
    await expect(headers(devices).first()).toBeVisible();
    const defaults = await headers(devices).allTextContents();
    expect(defaults.length).toBeGreaterThan(1);
    await expect(page.getByRole('button', { name: 'Columns', exact: true })).toBeVisible();
  });

  test.describe('on a 390 px phone, in Italian', () => {
    test.use({ viewport: PHONE });

    test('the cards show the chosen fields, and the dialog fits the screen', async ({ page }) => {
      await loginAs(page, DEMO.customer);
      await inItalian(page);
      try {
        await page.goto('/sterilizations');
        const cards = page.getByRole('list', { name: 'Sterilizzazioni', exact: true });
        await expect(cards.getByRole('listitem').first()).toBeVisible();
        await page.getByRole('button', { name: 'Colonne', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: 'Scegli le colonne' });
        const box = await dialog.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
        await dialog.getByRole('checkbox', { name: 'Vita residua lampada', exact: true }).check();
        await dialog.getByRole('checkbox', { name: 'Note', exact: true }).check();
        // Notes is last: five places up puts it before the lamp life.
        const up = dialog.getByRole('button', { name: 'Sposta Note in su', exact: true });
        for (let step = 0; step < 5; step += 1) await up.click();
        await dialog.getByRole('button', { name: 'Applica', exact: true }).click();
        await expect
          .poll(() => columnsInUrl(page))
          .toBe('received_ts,customer,device_serial,consumables_lot,notes,residual_lamp_life');
        const first = cards.getByRole('listitem').first();
        await expect(first.getByRole('term')).toContainText(['Note', 'Vita residua lampada']);
        await expect(first.getByText(/\d ore$/)).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          PHONE.width,
        );
      } finally {
        await resetKeptColumns(page, 'sterilizations');
      }
    });
  });
});
