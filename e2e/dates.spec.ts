import { expect, type Locator, test } from '@playwright/test';
import { apiCreateCustomer, apiToken } from './api.ts';
import { bodyRows, columnTexts, expectSearch, unique } from './customers-helpers.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

async function expectDateTimes(table: Locator, column: number): Promise<void> {
  await expect(bodyRows(table).first()).toBeVisible();
  const texts = await columnTexts(table, column);
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) expect(text).toMatch(DATE_TIME);
}

/**
 * One date policy (docs/adr/0015-dates-forms-and-abilities-in-the-client.md): an instant is yyyy-MM-dd
 * HH:mm:ss and a day yyyy-MM-dd in every language, in lists, the audit trail, history panels and pickers
 * alike. Checked in Italian, whose pickers used to read dd/MM/yyyy and whose audit trail used to read
 * 24/11/26, 14:30.
 */
test.describe('dates', () => {
  test('lists, audit trail, history and pickers read the same in Italian', async ({ page, request }) => {
    const customer = await apiCreateCustomer(request, await apiToken(request), `E2E Dates ${unique()}`);
    await loginAs(page, DEMO.super);
    await inItalian(page);

    await page.goto('/sterilizations');
    await expectDateTimes(page.getByRole('table', { name: 'Sterilizzazioni' }), 0);
    // Local times say their zone, once per list (the suite runs in Europe/Rome).
    await expect(page.getByTestId('list-time-zone')).toContainText(
      /Orari nel tuo fuso orario: Europe\/Rome, UTC\+0[12]:00/,
    );

    await page.goto('/audit');
    await expectDateTimes(page.getByRole('table', { name: 'Registro attività' }), 0);
    await expect(page.getByTestId('list-time-zone')).toContainText('Europe/Rome');

    await page.goto(`/customers/${customer.id}`);
    await expectDateTimes(page.getByRole('region', { name: 'Cronologia' }).getByRole('table'), 0);

    await page.goto('/certificates/upload');
    await expect(page.locator('input[name="expiration_date"]')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
    await expect(page.getByRole('group', { name: /^Data di scadenza/ })).toContainText(/\d{4}-\d{2}-\d{2}/);
  });

  test('a day typed after a click in the middle of an empty date field is the day typed', async ({
    page,
  }) => {
    await loginAs(page, DEMO.super);
    await inItalian(page);
    await page.goto('/customers');
    const from = page.getByRole('group', { name: 'Sterilizzazioni dal' });
    await expect(from).toBeVisible();
    // The middle of the empty field is the month's placeholder: MUI X used to start typing there.
    const box = await from.boundingBox();
    if (!box) throw new Error('the date field has no box');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.type('2026-11-01');
    await page.keyboard.press('Tab');
    await expectSearch(page, { filterFrom: '2026-11-01' });
    await expect(page.locator('input[name="filterFrom"]')).toHaveValue('2026-11-01');

    // With a value in it, a click still picks the section under the pointer: the month is corrected.
    await from.getByRole('spinbutton', { name: 'Mese' }).click();
    await page.keyboard.type('12');
    await page.keyboard.press('Tab');
    await expectSearch(page, { filterFrom: '2026-12-01' });
  });

  test('a whole day typed over a filled date field is the day typed', async ({ page }) => {
    await loginAs(page, DEMO.super);
    await page.goto('/customers?filterFrom=2026-10-31');
    const from = page.getByRole('group', { name: 'Sterilizations from' });
    const input = page.locator('input[name="filterFrom"]');
    await expect(input).toHaveValue('2026-10-31');
    // Everything selected, then the new day typed: it used to lose its first digit (0202-…).
    await from.getByRole('spinbutton', { name: 'Day' }).click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('2026-09-30');
    await page.keyboard.press('Tab');
    await expectSearch(page, { filterFrom: '2026-09-30' });
    await expect(input).toHaveValue('2026-09-30');
    // From the year on, as typed.
    await from.getByRole('spinbutton', { name: 'Year' }).click();
    await page.keyboard.type('2025-01-15');
    await page.keyboard.press('Tab');
    await expectSearch(page, { filterFrom: '2025-01-15' });
    // From the month on: the month and the day took the first digits and the rest was lost (2025-02-02).
    await from.getByRole('spinbutton', { name: 'Month' }).click();
    await page.keyboard.type('2024-02-29');
    await page.keyboard.press('Tab');
    await expectSearch(page, { filterFrom: '2024-02-29' });
    await expect(input).toHaveValue('2024-02-29');
    // And from the day on.
    await from.getByRole('spinbutton', { name: 'Day' }).click();
    await page.keyboard.type('2023-12-31');
    await page.keyboard.press('Tab');
    await expectSearch(page, { filterFrom: '2023-12-31' });
  });
});
