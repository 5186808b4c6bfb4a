import { generateKeyPairSync } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { initialState, nextRecord, signRecords } from '../scripts/simulate-devices.ts';
import { apiCreateCustomer, apiIngest, apiProductIdOfType, apiToken } from './api.ts';
import { unique } from './customers-helpers.ts';
import { DEMO, loginAs } from './fixtures.ts';

/*
 * Live updates: a record a device posts reaches an open sterilization list without a
 * reload. The list as it opens (page 1, newest first) shows it by itself; a paged list keeps its rows
 * and offers "N new records" instead.
 */

/** A clinic and device of the test's own, and a way for that device to post one signed record. */
async function ownDevice(page: Page) {
  const token = await apiToken(page.request);
  const tag = unique().toUpperCase();
  const customer = await apiCreateCustomer(page.request, token, `E2E Live ${tag}`);
  // Serials are 8 characters; the random end of the tag keeps runs apart.
  const serial = `LV${tag.slice(-6)}`;
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const device = await page.request.post(`/api/v1/customers/${customer.id}/devices`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      device_serial: serial,
      label: `Live ${tag}`,
      product_id: await apiProductIdOfType(page.request, token, 1),
      public_key: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    },
  });
  expect(device.status(), await device.text()).toBe(201);
  let state = initialState(Math.random, Math.floor(Date.now() / 1000));
  return {
    /** Posts one record of this lot, as the device simulator does. */
    async post(lot: string) {
      const next = nextRecord(serial, state, Math.random, new Date());
      state = next.state;
      const signed = await signRecords(serial, [{ ...next.record, consumables_lot: lot }], keys.privateKey);
      await apiIngest(page.request, signed);
    },
  };
}

/** Opens a sterilization list URL and waits until its live stream is open (so nothing posted is missed). */
async function openList(page: Page, url: string) {
  const streaming = page.waitForResponse(
    (response) => response.url().endsWith('/api/v1/events') && response.status() === 200,
  );
  await page.goto(url);
  await streaming;
  await expect(page.getByRole('table').locator('tbody tr').first()).toBeVisible();
}

const table = (page: Page) => page.getByRole('table');

test.describe('live updates', () => {
  test('the list as it opens shows a record the device posts, without a reload', async ({ page }) => {
    const device = await ownDevice(page);
    await loginAs(page, DEMO.care);
    await openList(page, '/sterilizations');
    const lot = `LV-${unique()}`;
    await device.post(lot);
    await expect(table(page).locator('tbody tr').first()).toContainText(lot);
    await expect(page.getByRole('button', { name: /new record/ })).toHaveCount(0);
  });

  test('a paged list stays still and offers the new records, loaded on click', async ({ page }) => {
    const device = await ownDevice(page);
    await loginAs(page, DEMO.super);
    await openList(page, '/sterilizations?page=2');
    const firstRow = table(page).locator('tbody tr').first();
    const before = await firstRow.innerText();

    await device.post(`LV-${unique()}`);
    const offer = page.getByRole('button', { name: '1 new record' });
    await expect(offer).toBeVisible();
    await device.post(`LV-${unique()}`);
    await expect(page.getByRole('button', { name: '2 new records' })).toBeVisible();
    // Still the rows the user was reading.
    expect(await firstRow.innerText()).toBe(before);
    await expect(page).toHaveURL(/page=2/);

    await page.getByRole('button', { name: '2 new records' }).click();
    await expect(page.getByRole('button', { name: /new record/ })).toHaveCount(0);
    // Two newer records pushed every row down by two: page 2 now starts two rows earlier.
    await expect(firstRow).not.toHaveText(before);
  });

  test('two tabs share one stream, and the other tab takes over when its holder closes', async ({
    page,
    context,
  }) => {
    const device = await ownDevice(page);
    await loginAs(page, DEMO.care);
    const streams: ('first' | 'second')[] = [];
    context.on('request', (request) => {
      if (request.url().endsWith('/api/v1/events'))
        streams.push(request.frame().page() === page ? 'first' : 'second');
    });
    await openList(page, '/sterilizations');
    const second = await context.newPage();
    await second.goto('/sterilizations');
    await expect(second.getByRole('table').locator('tbody tr').first()).toBeVisible();

    const lot = `LV-${unique()}`;
    await device.post(lot);
    for (const tab of [page, second]) await expect(table(tab).locator('tbody tr').first()).toContainText(lot);
    // The second tab received it through the first one's stream: it opened none of its own.
    expect(streams.filter((tab) => tab === 'second')).toEqual([]);

    // The holder closes: the other tab opens the stream itself and keeps receiving.
    const takeover = second.waitForResponse(
      (response) => response.url().endsWith('/api/v1/events') && response.status() === 200,
    );
    await page.close();
    await takeover;
    const later = `LV-${unique()}`;
    await device.post(later);
    await expect(table(second).locator('tbody tr').first()).toContainText(later);
  });
});
