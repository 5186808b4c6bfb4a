import { expect, type Page, test } from '@playwright/test';
import { apiToken } from './api.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/**
 * Lists on a 390 px phone, in Italian (components/list/filter-bar, docs/product.md §2): the sterilization
 * filters fold behind a "Filtri" button that counts the filters set, so the records are on the first
 * screen; the recall summary's counts are cards like every list's, with nothing scrolling sideways.
 */
test.use({ viewport: { width: 390, height: 844 } });

const noSidewaysScroll = (page: Page) =>
  expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

test('the sterilization filters fold behind a button that counts them', async ({ page }) => {
  await loginAs(page, DEMO.admin);
  await inItalian(page);
  await page.goto('/sterilizations');
  const filters = page.getByRole('search', { name: 'Filtri sterilizzazioni' });
  const toggle = filters.getByRole('button', { name: 'Filtri', exact: true });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(filters.getByRole('combobox', { name: 'Anomalia' })).toBeHidden();
  // The first record is on the first screen.
  await expect(
    page.getByRole('list', { name: 'Sterilizzazioni' }).getByRole('listitem').first(),
  ).toBeInViewport();
  await noSidewaysScroll(page);

  // Opened from the keyboard, a filter set: the button counts it.
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const anomaly = filters.getByRole('combobox', { name: 'Anomalia' });
  await expect(anomaly).toBeVisible();
  await anomaly.click();
  await page.getByRole('option').nth(1).click();
  await expect(page).toHaveURL(/anomaly=/);
  await expect(filters.getByRole('button', { name: 'Filtri, 1 attivo' })).toBeVisible();

  // A link with two filters: counted at once, folded.
  await page.goto('/sterilizations?lotStatus=flagged&from=2020-01-01');
  const two = filters.getByRole('button', { name: 'Filtri, 2 attivi' });
  await expect(two).toHaveAttribute('aria-expanded', 'false');
  await two.click();
  await filters.getByRole('button', { name: 'Azzera' }).click();
  await expect(filters.getByRole('button', { name: 'Filtri', exact: true })).toBeVisible();
  await expect(page).not.toHaveURL(/lotStatus/);
});

test('the recall summary counts are cards, nothing scrolls sideways', async ({ page, request }) => {
  const token = await apiToken(request, DEMO.admin);
  const response = await request.get('/api/v1/sterilizations?lotStatus=uncertified', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const rows = ((await response.json()) as { data: { data: { consumables_lot: string | null }[] } }).data
    .data;
  const lot = rows.find((row) => row.consumables_lot)?.consumables_lot ?? '';
  expect(lot, 'a seeded record with a lot').not.toBe('');

  await loginAs(page, DEMO.admin);
  await inItalian(page);
  await page.goto(`/recall?lot=${encodeURIComponent(lot)}`);
  for (const [testId, name] of [
    ['recall-customers', 'Per cliente'],
    ['recall-devices', 'Per dispositivo'],
  ] as const) {
    const section = page.getByTestId(testId);
    const cards = section.getByRole('list', { name });
    await expect(cards.getByRole('listitem').first()).toBeVisible();
    await expect(section.getByRole('table')).toHaveCount(0);
    await expect(cards.getByRole('listitem').first()).toContainText('Sterilizzazioni');
    const width = await section.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(width, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await noSidewaysScroll(page);
});
