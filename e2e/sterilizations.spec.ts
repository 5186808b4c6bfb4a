import { readFile } from 'node:fs/promises';
import { type Download, expect, type Page, test } from '@playwright/test';
import { apiData, sessionHeaders } from './api.ts';
import { DEMO, loginAs, logout, mainMenu, submitLogin } from './fixtures.ts';

/*
 * The sterilization list (docs/product.md §2): filters, sort and page in the URL (a reload and a link opened
 * logged out show the same view), a customer user confined to their customer, the details card and
 * the filtered CSV export. Reads the seeded demo records only; changes nothing.
 */

type Row = {
  id: number;
  received_ts: string;
  cycle_ts?: string | null;
  device_serial: string;
  progressive_id: number;
  consumables_lot: string | null;
  status_code: number;
  supplied_energy: number;
  device: { customer: { name: string } };
};
type Paged = { data: Row[]; total: number; per_page: number };

const table = (page: Page) => page.getByRole('table', { name: 'Sterilizations' });
const bodyRows = (page: Page) => table(page).locator('tbody tr');
const column = (page: Page, index: number) =>
  bodyRows(page).evaluateAll(
    (rows, i) => rows.map((row) => row.querySelectorAll('td')[i]?.textContent?.trim() ?? ''),
    index,
  );
/** The first text line of a cell (device serial or lot code, without the progressive beneath). */
const mainLine = (page: Page, index: number) =>
  bodyRows(page).evaluateAll(
    (rows, i) =>
      rows.map((row) => row.querySelectorAll('td')[i]?.querySelector('span')?.textContent?.trim() ?? ''),
    index,
  );
const customerSelect = (page: Page) => page.getByRole('combobox', { name: 'Customer' });
const deviceSelect = (page: Page) => page.getByRole('combobox', { name: 'Device' });
const searchOf = (url: string) => Object.fromEntries(new URL(url).searchParams);
const day = (iso: string) => iso.slice(0, 10);
const daysBefore = (iso: string, days: number) =>
  new Date(new Date(iso).getTime() - days * 86_400_000).toISOString().slice(0, 10);

/** yyyy-MM-dd HH:mm:ss in the browser's time zone (the suite runs in Europe/Rome). */
const localTime = (iso: string) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Rome',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(new Date(iso));

test.describe('sterilization list', () => {
  test('filters, sort and page live in the URL; a reload and a logged-out link show the same view', async ({
    page,
    browser,
  }) => {
    test.slow();
    await loginAs(page, DEMO.super);
    const headers = await sessionHeaders(page);
    await mainMenu(page).getByRole('link', { name: 'Sterilizations' }).click();
    await expect(page).toHaveURL(/\/sterilizations/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sterilizations' })).toBeVisible();
    await expect(table(page).getByRole('columnheader')).toHaveText([
      'Date',
      'Customer',
      'Device serial',
      'Lot code',
      'Actions',
    ]);

    // Default sort: newest first, local time yyyy-MM-dd HH:mm:ss.
    const newest = await apiData<Paged>(page.request, '/api/v1/sterilizations', headers);
    await expect(bodyRows(page).first().locator('td').first()).toHaveText(
      localTime(newest.data[0]!.received_ts),
    );
    const dates = await column(page, 0);
    expect(dates.every((text) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text))).toBe(true);
    // The device's own time of the cycle beneath the arrival, on the newest record that has one (the
    // demo's devices send it; records other specs post may not).
    const withDeviceTime = newest.data.findIndex((row) => row.cycle_ts != null);
    expect(withDeviceTime, 'a record with its device time on page 1').toBeGreaterThanOrEqual(0);
    await expect(bodyRows(page).nth(withDeviceTime).getByTestId('cycle-ts')).toHaveAttribute(
      'data-device-time',
      /^device: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/,
    );
    expect([...dates].sort().reverse()).toEqual(dates);
    await expect(table(page).getByRole('columnheader', { name: 'Date' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );

    // Customer, then device; the rows follow.
    await customerSelect(page).click();
    await page.getByRole('option', { name: 'Clinica San Marco' }).click();
    await expect(page).toHaveURL(/customerId=2/);
    await expect.poll(() => column(page, 1)).toEqual(Array(20).fill('Clinica San Marco'));
    await deviceSelect(page).click();
    const deviceOption = page.getByRole('option').nth(1);
    const serial = (await deviceOption.textContent())?.trim() ?? '';
    await deviceOption.click();
    await expect(page).toHaveURL(/deviceId=\d+/);
    await expect.poll(async () => new Set(await mainLine(page, 2))).toEqual(new Set([serial]));

    // Changing the customer clears the device.
    await customerSelect(page).click();
    await page.getByRole('option', { name: 'Clinica Veterinaria Ticino' }).click();
    await expect(page).not.toHaveURL(/deviceId=/);
    await expect(deviceSelect(page)).toHaveText('All devices');
    await customerSelect(page).click();
    await page.getByRole('option', { name: 'Clinica San Marco' }).click();
    await expect(page).toHaveURL(/customerId=2/);

    // Sort by lot code, then page 2.
    await table(page).getByRole('columnheader', { name: 'Lot code' }).getByRole('button').click();
    await expect(page).toHaveURL(/sortBy=consumables_lot/);
    await expect(page).toHaveURL(/sortDir=asc/);
    await page.getByTestId('pagination-bottom').getByRole('button', { name: 'Go to page 2' }).click();
    await expect(page).toHaveURL(/page=2/);

    // Dates come from the URL too (a shared link); the pickers show them.
    const to = day(newest.data[0]!.received_ts);
    const from = daysBefore(newest.data[0]!.received_ts, 90);
    const query = `customerId=2&from=${from}&to=${to}&sortBy=consumables_lot&sortDir=asc&page=2`;
    const expected = await apiData<Paged>(page.request, `/api/v1/sterilizations?${query}`, headers);
    expect(expected.total).toBeGreaterThan(20);
    await page.goto(`/sterilizations?${query}`);
    await expect(page.locator('input[name="from"]')).toHaveValue(from);
    await expect(page.locator('input[name="to"]')).toHaveValue(to);
    const expectedLots = expected.data.map((row) => row.consumables_lot ?? '');
    await expect.poll(() => mainLine(page, 3)).toEqual(expectedLots);
    const shown = await column(page, 0);

    await page.reload();
    await expect.poll(() => column(page, 0)).toEqual(shown);
    expect(searchOf(page.url())).toMatchObject({ customerId: '2', from, to, page: '2' });

    // The same link in a fresh, logged-out browser: login, then back to the same view.
    const link = page.url();
    const context = await browser.newContext({ baseURL: new URL(link).origin, timezoneId: 'Europe/Rome' });
    const fresh = await context.newPage();
    await fresh.goto(link);
    await expect(fresh).toHaveURL(/\/login\?redirect=/);
    await submitLogin(fresh, DEMO.super);
    await expect(fresh).toHaveURL(/\/sterilizations\?/);
    expect(searchOf(fresh.url())).toEqual(searchOf(link));
    await expect.poll(() => column(fresh, 0)).toEqual(shown);
    await context.close();

    // Reset drops every filter.
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(page).not.toHaveURL(/customerId|from=|to=/);
    await expect(customerSelect(page)).toHaveText('All customers');
  });

  test('a malformed URL falls back to the defaults', async ({ page }) => {
    await loginAs(page, DEMO.care);
    await page.goto(
      '/sterilizations?page=-4&sortBy=drop&sortDir=up&customerId=abc&deviceId=3&from=2023-02-30',
    );
    await expect(bodyRows(page)).toHaveCount(20);
    await expect(table(page).getByRole('columnheader', { name: 'Date' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect(customerSelect(page)).toHaveText('All customers');
    await expect(deviceSelect(page)).toBeDisabled();
  });

  test("a customer user sees only their customer's records and devices, whatever the URL says", async ({
    page,
  }) => {
    await loginAs(page, DEMO.customer);
    const headers = await sessionHeaders(page);
    const devices = await apiData<Array<{ device_serial: string }>>(
      page.request,
      '/api/v1/sterilizations/device-filter/2',
      headers,
    );
    await page.goto('/sterilizations?customerId=5');
    await expect(customerSelect(page)).toHaveText('Clinica San Marco');
    await expect(customerSelect(page)).toHaveAttribute('aria-disabled', 'true');
    await expect.poll(() => column(page, 1)).toEqual(Array(20).fill('Clinica San Marco'));
    await deviceSelect(page).click();
    await expect(page.getByRole('option')).toHaveText([
      'All devices',
      ...devices.map((d) => d.device_serial),
    ]);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('link', { name: 'Download', exact: true })).toBeVisible();

    // Their device filter works from a plain /sterilizations too (no customerId in the URL).
    const listed = await apiData<Paged>(
      page.request,
      '/api/v1/sterilizations?sortBy=device_serial&sortDir=desc',
      headers,
    );
    const device = listed.data[0]?.device_serial as string;
    expect(device).not.toBe(devices[0]?.device_serial); // not the first option: the filter really narrows
    await page.goto('/sterilizations');
    await expect(customerSelect(page)).toHaveText('Clinica San Marco');
    await deviceSelect(page).click();
    await page.getByRole('option', { name: device }).click();
    await expect(deviceSelect(page)).toHaveText(device);
    await expect.poll(() => searchOf(page.url()).deviceId).toBeTruthy();
    await expect.poll(async () => new Set(await mainLine(page, 2))).toEqual(new Set([device]));
  });

  test('the details card shows the record', async ({ page }) => {
    await loginAs(page, DEMO.admin);
    const headers = await sessionHeaders(page);
    const first = (await apiData<Paged>(page.request, '/api/v1/sterilizations?customerId=2', headers))
      .data[0]!;
    await page.goto('/sterilizations?customerId=2');
    const row = bodyRows(page).first();
    await expect(row.locator('td').nth(2)).toContainText(
      `${first.device_serial}Progressive ${first.progressive_id}`,
    );
    await row.getByRole('button', { name: 'Show details' }).click();
    // The card opens in its own full-width row beneath the record, which the toggle controls.
    const hide = row.getByRole('button', { name: 'Hide details' });
    const detailRow = page.locator(`[id="${await hide.getAttribute('aria-controls')}"]`);
    await expect(detailRow.locator('td')).toHaveAttribute('colspan', String(await row.locator('td').count()));
    const details = detailRow.getByTestId('sterilization-details');
    await expect(details).toBeVisible();
    await expect(details.locator('dt')).toHaveText([
      'Status',
      'UV dose',
      'Nominal time',
      'Effective time',
      'Residual lamp life',
      'Notes',
      'Cycle time (device)',
      'Arrival order',
      'Lot certificate',
      'Anchoring',
    ]);
    const status =
      ['Ok', 'Nulled', 'Lamp malfunction', 'Probe malfunction'][first.status_code] ??
      String(first.status_code);
    await expect(details.locator('dd').first()).toHaveText(status);
    await expect(details.locator('dd').nth(2)).toContainText('minutes');
    await expect(details.locator('dd').nth(4)).toContainText('hours');
    // Where its anchoring stands, in words: Clinica San Marco anchors on chain.
    await expect(details.getByTestId('anchor-status')).toHaveText(
      /^(Waiting for a block|Waiting to be sent|Sent, waiting to be mined|Mined|Final)$/,
    );
    await hide.click();
    await expect(details).toBeHidden();
    await expect(row.getByRole('button', { name: 'Show details' })).not.toHaveAttribute('aria-controls');
  });

  test('the download exports the filtered records as CSV with a header row', async ({ page }) => {
    await loginAs(page, DEMO.super);
    const headers = await sessionHeaders(page);
    const devices = await apiData<Array<{ id: number }>>(
      page.request,
      '/api/v1/sterilizations/device-filter/2',
      headers,
    );
    const deviceId = devices[0]!.id;
    const { total } = await apiData<Paged>(
      page.request,
      `/api/v1/sterilizations?customerId=2&deviceId=${deviceId}`,
      headers,
    );
    await page.goto(`/sterilizations?customerId=2&deviceId=${deviceId}`);
    const link = page.getByRole('link', { name: 'Download', exact: true });
    await expect(link).toHaveAttribute(
      'href',
      `/download/sterilizations-filtered?customerId=2&deviceId=${deviceId}`,
    );
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^sterilizations-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
    const lines = text.split('\r\n').filter((line) => line !== '');
    expect(lines[0]).toBe(
      'id,received_ts_utc,customer,device_serial,progressive_id,status_code,status,supplied_energy,' +
        'nominal_time_min,effective_time_min,residual_lamp_life_h,consumables_lot,lot_progressive_id,' +
        'latitude,longitude,notes,lot_status,out_of_order,cycle_ts_utc,device_clock_ahead',
    );
    expect(lines.length - 1).toBe(total);
    // The ticket, not the session token, authorised the download.
    expect(download.url()).toMatch(/ticket=/);
    expect(download.url()).not.toContain(headers.Authorization!.slice(7));
  });

  test('a download link opened on its own (new tab, copied, logged out) downloads the same file', async ({
    page,
    browser,
  }) => {
    const name = await loginAs(page, DEMO.super);
    const headers = await sessionHeaders(page);
    const { total } = await apiData<Paged>(page.request, '/api/v1/sterilizations?customerId=2', headers);
    await page.goto('/sterilizations?customerId=2');
    const href = await page.getByRole('link', { name: 'Download', exact: true }).getAttribute('href');
    expect(href).toBe('/download/sterilizations-filtered?customerId=2');
    const csvRows = async (download: Download) =>
      (await readFile(await download.path(), 'utf8')).split('\r\n').filter((line) => line !== '').length - 1;

    // Opened logged out: login first, then the download starts by itself.
    const context = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const fresh = await context.newPage();
    await fresh.goto(href as string);
    await expect(fresh).toHaveURL(/\/login\?redirect=/);
    const first = fresh.waitForEvent('download');
    await submitLogin(fresh, DEMO.super);
    const download = await first;
    expect(download.suggestedFilename()).toMatch(/^sterilizations-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(await csvRows(download)).toBe(total);
    await expect(fresh.getByRole('heading', { level: 1, name: 'Download' })).toBeVisible();
    await expect(fresh.getByText('The download has started: the file is in your downloads.')).toBeVisible();
    // Again: a new ticket (each is good for one download), the same rows.
    const second = fresh.waitForEvent('download');
    await fresh.getByRole('button', { name: 'Download again' }).click();
    expect(await csvRows(await second)).toBe(total);
    await context.close();

    // Without the export's ability the server refuses, and the page says so.
    await logout(page, name);
    await expect(page).toHaveURL(/\/login/);
    await loginAs(page, DEMO.customer);
    let downloaded = false;
    page.on('download', () => {
      downloaded = true;
    });
    await page.goto('/download/sterilizations-ok?from=2020-01-01');
    await expect(page.getByText('The download could not start.')).toBeVisible();
    await expect(page.getByText('You are not allowed to do this')).toBeVisible();
    expect(downloaded).toBe(false);
  });
});
