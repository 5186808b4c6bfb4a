import { generateKeyPairSync } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { initialState, nextRecord, signRecords } from '../scripts/simulate-devices.ts';
import { apiCreateCustomer, apiIngest, apiProductIdOfType, apiToken } from './api.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/*
 * Gaps and order: a device of the test's own sends signed records through the ingestion API
 * (the device simulator's record builder) with progressive ids 1, 2, 5 and then 3; its page shows the
 * missing id 4 and the late record 3, the dashboard counts the device among those with missing records
 * and its card leads to their records, and the late record's details say it arrived out of order.
 */

async function deviceWithGap(page: Page) {
  const token = await apiToken(page.request);
  const tag = Math.random().toString(36).slice(2, 7).toUpperCase().padEnd(5, 'X');
  const customer = await apiCreateCustomer(page.request, token, `E2E Gaps ${tag}`);
  const serial = `E2G${tag}`;
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const created = await page.request.post(`/api/v1/customers/${customer.id}/devices`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      device_serial: serial,
      label: `Gaps ${tag}`,
      product_id: await apiProductIdOfType(page.request, token, 1),
      public_key: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const device = ((await created.json()) as { data: { id: number } }).data;
  let state = initialState(Math.random, Math.floor(Date.now() / 1000));
  const send = async (progressive_id: number) => {
    const next = nextRecord(serial, state, Math.random, new Date());
    state = next.state;
    const signed = await signRecords(serial, [{ ...next.record, progressive_id }], keys.privateKey);
    await apiIngest(page.request, signed);
  };
  return { customerId: customer.id, deviceId: device.id, serial, send };
}

const gapsCard = (page: Page) => page.getByRole('region', { name: 'Devices with missing records' });

async function devicesWithGaps(page: Page): Promise<number> {
  const text = await gapsCard(page).locator('p').last().textContent();
  return Number((text ?? '').replace(/\D/g, ''));
}

test.describe('gaps and order', () => {
  test('the device page, the dashboard card and the list show a gap and a late record', async ({ page }) => {
    await loginAs(page, DEMO.super);
    await expect(gapsCard(page)).toBeVisible();
    const before = await devicesWithGaps(page);

    const device = await deviceWithGap(page);
    for (const id of [1, 2, 5, 3]) await device.send(id);

    await page.goto(`/customers/${device.customerId}/devices/${device.deviceId}`);
    const section = page.getByRole('region', { name: 'Missing records and arrival order' });
    await expect(section.getByTestId('device-gaps-summary')).toHaveText(
      '1 progressive number missing in 1 range',
    );
    const ranges = section.getByRole('table', { name: 'Missing progressive numbers' });
    await expect(ranges.locator('tbody tr')).toHaveCount(1);
    await expect(ranges.locator('tbody td').nth(0)).toHaveText('4');
    await expect(ranges.locator('tbody td').nth(1)).toHaveText('4');
    await expect(ranges.locator('tbody td').nth(2)).toHaveText('1');
    await expect(section.getByTestId('device-late-summary')).toHaveText(
      '1 record stored after a higher progressive number',
    );
    const late = section.getByRole('table', { name: 'Records that arrived out of order' });
    await expect(late.locator('tbody tr')).toHaveCount(1);
    await expect(late.locator('tbody td').first()).toHaveText('3');

    // From the section to the late record in the list, whose details say so.
    await section.getByRole('link', { name: 'Show the late records in the sterilization list' }).click();
    await expect(page).toHaveURL(/anomaly=out_of_order/);
    const rows = page.getByRole('table', { name: 'Sterilizations' }).locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`${device.serial}Progressive 3`);
    await rows.first().getByRole('button', { name: 'Show details' }).click();
    await expect(page.getByTestId('sterilization-details')).toContainText(
      'Arrival orderOut of order: stored after a higher progressive number',
    );

    // The dashboard counts the device once more, and its card leads to the records of such devices.
    await page.goto('/');
    await expect.poll(() => devicesWithGaps(page)).toBe(before + 1);
    await gapsCard(page).getByRole('link', { name: 'Show their records' }).click();
    await expect(page).toHaveURL(/anomaly=gaps/);
    await expect(page.getByRole('combobox', { name: 'Anomaly' })).toHaveText('Devices with missing records');
    const listed = page.getByRole('table', { name: 'Sterilizations' }).locator('tbody tr');
    // The newest records are this device's (every record of a device with a gap, the late one too).
    await expect(listed.first()).toContainText(device.serial);
  });

  test('the section speaks Italian, and a clinic without the device gets no gaps', async ({ page }) => {
    await loginAs(page, DEMO.super);
    const device = await deviceWithGap(page);
    for (const id of [10, 13]) await device.send(id);
    await inItalian(page);
    await page.goto(`/customers/${device.customerId}/devices/${device.deviceId}`);
    const section = page.getByRole('region', { name: 'Registrazioni mancanti e ordine di arrivo' });
    await expect(section.getByTestId('device-gaps-summary')).toHaveText(
      '2 numeri progressivi mancanti in 1 intervallo',
      { timeout: 20_000 },
    );
    await expect(section).toContainText('Tutte le registrazioni sono arrivate in ordine.');

    // The demo clinic user asks for this device's gaps: another clinic's device is not found.
    const token = await apiToken(page.request, DEMO.customer);
    const response = await page.request.get(`/api/v1/devices/${device.deviceId}/gaps`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status()).toBe(404);
  });
});
