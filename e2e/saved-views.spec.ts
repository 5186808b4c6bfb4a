import { expect, type Page, test } from '@playwright/test';
import { unique } from './customers-helpers.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/*
 * Saved views (docs/lists.md "Saved views"): every list's Views menu saves the list's filters, sort and
 * columns under a name, shared or not, and picks them again: a view is the list's URL, so picking one
 * is navigation and the URL is the one saved (without its page). Each test deletes what it saved.
 */

const PHONE = { width: 390, height: 844 };

const params = (page: Page) => new URL(page.url()).searchParams;

async function tokenOf(page: Page): Promise<string> {
  const raw = await page.evaluate(() => localStorage.getItem('uvtrace.session'));
  return (JSON.parse(raw ?? '{}') as { token?: string }).token ?? '';
}

/** Deletes the caller's views of a list whose name starts with `prefix`, through the API. */
async function deleteViews(page: Page, list: string, prefix: string) {
  const headers = { Authorization: `Bearer ${await tokenOf(page)}` };
  const response = await page.request.get(`/api/v1/saved-views?list=${list}`, { headers });
  const views = ((await response.json()) as { data: { id: number; name: string; mine: boolean }[] }).data;
  for (const view of views.filter((item) => item.mine && item.name.startsWith(prefix)))
    await page.request.delete(`/api/v1/saved-views/${view.id}`, { headers });
}

test.describe('saved views', () => {
  test('save the filters and sort under a name, share them with staff, open, rename and delete them', async ({
    page,
    browser,
  }) => {
    const name = `E2E uncertified ${unique()}`;
    await loginAs(page, DEMO.admin);
    try {
      await page.goto('/sterilizations?lotStatus=uncertified&sortDir=asc&columns=received_ts,notes&page=2');
      await expect(page.getByRole('table', { name: 'Sterilizations' })).toBeVisible();
      await page.getByRole('button', { name: 'Views', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Save current view…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Save current view' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
      await dialog.getByRole('combobox', { name: 'Shared with' }).click();
      await page.getByRole('option', { name: 'All staff' }).click();
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText('View saved')).toBeVisible();

      // From the plain list, the menu opens the view: its filters, sort and columns, on page 1.
      await page.goto('/sterilizations');
      await page.getByRole('button', { name: 'Views', exact: true }).click();
      await page.getByRole('menuitem', { name }).click();
      await expect.poll(() => params(page).get('lotStatus')).toBe('uncertified');
      expect(params(page).get('sortDir')).toBe('asc');
      expect(params(page).get('columns')).toBe('received_ts,notes');
      expect(params(page).get('page')).toBeNull();
      await expect(page.getByRole('table', { name: 'Sterilizations' }).getByRole('columnheader')).toHaveText([
        'Date',
        'Notes',
        'Actions',
      ]);
      const link = page.url();

      // Shared with staff: customer care picks it too, and the link works for them.
      const other = await browser.newContext();
      const care = await other.newPage();
      await loginAs(care, DEMO.care);
      await care.goto('/sterilizations');
      await care.getByRole('button', { name: 'Views', exact: true }).click();
      await expect(care.getByRole('menuitem', { name })).toContainText('Shared by');
      await care.keyboard.press('Escape');
      await care.goto(link);
      await expect(care.getByRole('table', { name: 'Sterilizations' }).getByRole('columnheader')).toHaveText([
        'Date',
        'Notes',
        'Actions',
      ]);
      // …and a customer user never sees a staff view.
      const clinic = await browser.newContext();
      const customer = await clinic.newPage();
      await loginAs(customer, DEMO.customer);
      await customer.goto('/sterilizations');
      await customer.getByRole('button', { name: 'Views', exact: true }).click();
      await expect(customer.getByRole('menu')).toBeVisible();
      await expect(customer.getByRole('menuitem', { name })).toHaveCount(0);
      await other.close();
      await clinic.close();

      // Rename, then delete, from the owner's menu.
      await page.getByRole('button', { name: 'Views', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Rename or delete my views…' }).click();
      const manage = page.getByRole('dialog', { name: 'My saved views' });
      await manage.getByRole('button', { name: `Rename ${name}` }).click();
      const rename = page.getByRole('dialog', { name: 'Rename view' });
      await rename.getByRole('textbox', { name: 'Name' }).fill(`${name} (renamed)`);
      await rename.getByRole('button', { name: 'Rename', exact: true }).click();
      await expect(page.getByText('View renamed')).toBeVisible();
      await page.getByRole('button', { name: 'Views', exact: true }).click();
      await expect(page.getByRole('menuitem', { name: `${name} (renamed)` })).toBeVisible();
      await page.getByRole('menuitem', { name: 'Rename or delete my views…' }).click();
      await manage.getByRole('button', { name: `Delete ${name} (renamed)` }).click();
      await expect(page.getByText('View deleted')).toBeVisible();
      await expect(manage.getByText(`${name} (renamed)`)).toHaveCount(0);
    } finally {
      await deleteViews(page, 'sterilizations', name);
    }
  });

  test.describe('on a 390 px phone, in Italian', () => {
    test.use({ viewport: PHONE });

    test("a clinic's shared view: saved, refused twice under one name, picked from a menu that fits the screen", async ({
      page,
    }) => {
      const name = `E2E lacune ${unique()}`;
      await loginAs(page, DEMO.customer);
      await inItalian(page);
      try {
        await page.goto('/sterilizations?anomaly=gaps&sortBy=device_serial&sortDir=asc');
        await expect(page.getByRole('button', { name: 'Viste', exact: true })).toBeVisible();
        const save = async () => {
          await page.getByRole('button', { name: 'Viste', exact: true }).click();
          const menu = page.getByRole('menu');
          const box = await menu.boundingBox();
          expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
          await page.getByRole('menuitem', { name: 'Salva la vista attuale…' }).click();
          const dialog = page.getByRole('dialog', { name: 'Salva la vista attuale' });
          await dialog.getByRole('textbox', { name: 'Nome' }).fill(name);
          await dialog.getByRole('combobox', { name: 'Condivisa con' }).click();
          await page.getByRole('option', { name: 'Tutti nella mia clinica' }).click();
          await dialog.getByRole('button', { name: 'Salva', exact: true }).click();
          return dialog;
        };
        await expect(await save()).toBeHidden();
        await expect(page.getByText('Vista salvata')).toBeVisible();

        // The same name again on this list is refused, and said so beside the name.
        const again = await save();
        await expect(again.getByText('Hai già una vista con questo nome in questo elenco')).toBeVisible();
        await again.getByRole('button', { name: 'Annulla' }).click();

        await page.goto('/sterilizations');
        await page.getByRole('button', { name: 'Viste', exact: true }).click();
        await page.getByRole('menuitem', { name }).click();
        await expect.poll(() => params(page).get('anomaly')).toBe('gaps');
        expect(params(page).get('sortBy')).toBe('device_serial');
        expect(params(page).get('sortDir')).toBe('asc');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          PHONE.width,
        );
      } finally {
        await deleteViews(page, 'sterilizations', name);
      }
    });
  });
});
