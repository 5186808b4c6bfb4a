import { generateKeyPairSync } from 'node:crypto';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { importPKCS8, SignJWT } from 'jose';
import { ingestionClaims, type SterilizationClaim } from '#shared/ingestion/claims.ts';
import { initialState, nextRecord, signRecords } from '../scripts/simulate-devices.ts';
import { apiCreateCustomer, apiCreateUser, apiIngest, apiProductIdOfType, apiToken } from './api.ts';
import { bodyRows, expectFieldError, expectSearch, toastWith, unique } from './customers-helpers.ts';
import { DEMO, inItalian, loginAs, mainMenu } from './fixtures.ts';

/**
 * Alerts end to end, on a clinic of the spec's own (so the counts are its own): signed failed cycles
 * posted as the device would raise alerts; the bell counts them, acknowledges from its menu; the
 * alerts page keeps its filters in the URL; a failed cycle posted while the app is open reaches the bell
 * and the list live; the same in Italian.
 */

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PASSWORD = 'alerts-password';

interface Clinic {
  customerId: number;
  email: string;
  serial: string;
  progressive: number;
}

async function clinicWithDevice(request: APIRequestContext): Promise<Clinic> {
  const token = await apiToken(request, DEMO.super);
  const tag = unique();
  const customer = await apiCreateCustomer(request, token, `E2E Alerts ${tag}`);
  const serial = `A${tag.slice(-6).toUpperCase()}Z`.slice(0, 8).padEnd(8, '0');
  const productId = await apiProductIdOfType(request, token, 1);
  const response = await request.post(`/api/v1/customers/${customer.id}/devices`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      device_serial: serial,
      label: 'Alerts device',
      product_id: productId,
      public_key: publicPem,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const email = `alerts-${tag}@example.com`;
  await apiCreateUser(request, token, customer.id, { name: `Alerts ${tag}`, email, password: PASSWORD });
  return { customerId: customer.id, email, serial, progressive: 0 };
}

/** Posts one signed record as the device does. */
async function ingest(request: APIRequestContext, clinic: Clinic, overrides: Partial<SterilizationClaim>) {
  clinic.progressive += 1;
  const record: SterilizationClaim = {
    progressive_id: clinic.progressive,
    supplied_energy: 300,
    nominal_time: 10,
    effective_time: 4,
    residual_lamp_life: 4000,
    status_code: 0,
    ...overrides,
  };
  const key = await importPKCS8(privatePem, 'RS256');
  const token = await new SignJWT({ ...ingestionClaims(clinic.serial, [record]) })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .sign(key);
  await apiIngest(request, token);
}

/**
 * Posts one record as `npm run simulate-devices` does (its record, signed by its signer), with a progressive id
 * of the clinic's sequence (no gap), no lot (no lot alert) and a healthy lamp, so the status alone decides
 * which alert it raises.
 */
async function simulatorPost(request: APIRequestContext, clinic: Clinic, statusCode: number) {
  clinic.progressive += 1;
  const { record } = nextRecord(clinic.serial, initialState(Math.random), Math.random, new Date());
  const token = await signRecords(
    clinic.serial,
    [
      {
        ...record,
        progressive_id: clinic.progressive,
        status_code: statusCode,
        residual_lamp_life: 4000,
        consumables_lot: null,
        lot_progressive_id: null,
        batch_quantity: null,
      },
    ],
    keys.privateKey,
  );
  await apiIngest(request, token);
}

const bell = (page: Page, name: RegExp) => page.getByRole('button', { name });
const alertsTable = (page: Page, name: RegExp) => page.getByRole('table', { name });

test.describe('alerts', () => {
  test('the bell counts failed cycles, acknowledges from its menu; the list keeps its filters in the URL', async ({
    page,
    request,
  }) => {
    const clinic = await clinicWithDevice(request);
    await ingest(request, clinic, { status_code: 2 });
    await ingest(request, clinic, { status_code: 1 });

    await loginAs(page, clinic.email, PASSWORD);
    await expect(bell(page, /^2 unread alerts$/)).toBeVisible();
    await bell(page, /unread alert/).click();
    const menu = page.getByRole('menu', { name: '2 unread alerts' });
    await expect(menu.getByText('Failed cycle')).toHaveCount(2);
    await expect(menu).toContainText('ended with “Lamp malfunction”');
    await menu.getByRole('button', { name: 'Acknowledge' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Acknowledge alert' });
    await dialog.getByLabel('Comment (optional)').fill('Cycle repeated');
    await dialog.getByRole('button', { name: 'Acknowledge' }).click();
    await expect(toastWith(page, 'Alert acknowledged')).toBeVisible();
    await expect(bell(page, /^1 unread alert$/)).toBeVisible();

    // The list: a filter goes to the URL, a reload keeps it.
    await mainMenu(page).getByRole('link', { name: 'Alerts' }).click();
    await expect(page).toHaveURL(/\/alerts/);
    const table = alertsTable(page, /^Alerts$/);
    await expect(bodyRows(table)).toHaveCount(2);
    await page.getByLabel('State').click();
    await page.getByRole('option', { name: 'Acknowledged' }).click();
    await expectSearch(page, { state: 'acknowledged', page: '1' });
    await expect(bodyRows(table)).toHaveCount(1);
    await expect(bodyRows(table).first()).toContainText('Cycle repeated');
    await page.reload();
    await expectSearch(page, { state: 'acknowledged' });
    await expect(bodyRows(table)).toHaveCount(1);

    // Resolve the other one from the list.
    await page.goto('/alerts?state=open');
    await bodyRows(table).first().getByRole('button', { name: 'Resolve' }).click();
    await page
      .getByRole('dialog', { name: 'Resolve alert' })
      .getByRole('button', { name: 'Resolve' })
      .click();
    await expect(toastWith(page, 'Alert resolved')).toBeVisible();
    await expect(bell(page, /^No unread alerts$/)).toBeVisible();
    await expect(page.getByText('No alerts')).toBeVisible();
  });

  test('a failed cycle the device posts while the app is open raises the bell and joins the list without a reload; acknowledged from the bell', async ({
    page,
    request,
  }) => {
    const clinic = await clinicWithDevice(request);
    await simulatorPost(request, clinic, 0);
    await loginAs(page, clinic.email, PASSWORD);
    const streaming = page.waitForResponse(
      (response) => response.url().endsWith('/api/v1/events') && response.status() === 200,
    );
    await page.goto('/sterilizations');
    await streaming;
    const records = bodyRows(page.getByRole('table'));
    await expect(records).toHaveCount(1);
    await expect(bell(page, /^No unread alerts$/)).toBeVisible();
    // A mark on this document: gone if anything reloads the page.
    await page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });

    await simulatorPost(request, clinic, 2);
    await expect(bell(page, /^1 unread alert$/)).toBeVisible();
    await expect(records).toHaveCount(2);
    await expect(records.first()).toContainText(clinic.serial);
    await expect(records.first()).toContainText(`Progressive ${clinic.progressive}`);

    await bell(page, /unread alert/).click();
    const menu = page.getByRole('menu', { name: '1 unread alert' });
    await expect(menu).toContainText('ended with “Lamp malfunction”');
    await menu.getByRole('button', { name: 'Acknowledge' }).click();
    await page
      .getByRole('dialog', { name: 'Acknowledge alert' })
      .getByRole('button', { name: 'Acknowledge' })
      .click();
    await expect(toastWith(page, 'Alert acknowledged')).toBeVisible();
    await expect(bell(page, /^No unread alerts$/)).toBeVisible();
    await expect(page).toHaveURL(/\/sterilizations(\?|$)/);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    );
  });

  test("a clinic's own lamp threshold, set on its customer form, decides its lamp alert", async ({
    page,
    request,
  }) => {
    const clinic = await clinicWithDevice(request);
    await loginAs(page, DEMO.super);
    await page.goto(`/customers/${clinic.customerId}`);
    const form = page.getByRole('form', { name: 'Customer data' });
    const lamp = form.getByLabel('Lamp life alert under (hours)');
    const silent = form.getByLabel('Device silent alert after (hours)');
    await expect(lamp).toHaveValue('');
    await expect(lamp).toHaveAccessibleDescription("Empty: the server's default");
    await silent.fill('0');
    await silent.blur();
    await form.getByRole('button', { name: 'Save' }).click();
    await expectFieldError(silent, 'Enter whole hours from 1 to 99999, or leave empty');
    await silent.fill('');
    await lamp.fill('5000');
    // Blur first: the helper texts that change on blur move the button.
    await lamp.blur();
    await expect(silent).toHaveAccessibleDescription("Empty: the server's default");
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(toastWith(page, 'Customer updated')).toBeVisible();
    await page.reload();
    await expect(lamp).toHaveValue('5000');

    // 4,500 hours left: above the server's default (200), under the clinic's own 5,000.
    await ingest(request, clinic, { residual_lamp_life: 4500 });
    await page.goto(`/alerts?customerId=${clinic.customerId}&kind=lamp_life_low`);
    const table = alertsTable(page, /^Alerts$/);
    await expect(bodyRows(table)).toHaveCount(1);
    await expect(bodyRows(table).first()).toContainText(
      `${clinic.serial}: 4,500 hours of lamp life left (threshold 5,000)`,
    );
  });

  test('in Italian', async ({ page, request }) => {
    const clinic = await clinicWithDevice(request);
    await ingest(request, clinic, { status_code: 3 });
    await loginAs(page, clinic.email, PASSWORD);
    await inItalian(page);
    await page.goto('/alerts?kind=failed_cycle');
    await expect(bell(page, /^1 avviso da leggere$/)).toBeVisible();
    const table = alertsTable(page, /^Avvisi$/);
    await expect(bodyRows(table)).toHaveCount(1);
    await expect(bodyRows(table).first()).toContainText('Ciclo non riuscito');
    await expect(bodyRows(table).first()).toContainText('terminato con “Malfunzionamento sonda”');
    await bell(page, /avviso da leggere/).click();
    await page.getByRole('menu').getByRole('button', { name: 'Presa visione' }).click();
    const dialog = page.getByRole('dialog', { name: "Presa visione dell'avviso" });
    await dialog.getByRole('button', { name: 'Conferma presa visione' }).click();
    await expect(toastWith(page, 'Presa visione registrata')).toBeVisible();
    await expect(bell(page, /^Nessun avviso da leggere$/)).toBeVisible();
    await expectSearch(page, { kind: 'failed_cycle' });
  });

  test("staff's bell names each alert's customer, and its date and time stay on one line", async ({
    page,
    request,
  }) => {
    const clinic = await clinicWithDevice(request);
    await ingest(request, clinic, { status_code: 1 });
    await page.setViewportSize({ width: 390, height: 844 });
    await loginAs(page, DEMO.super);
    await bell(page, /unread alert/).click();
    const item = page.getByRole('menu').getByRole('menuitem').filter({ hasText: clinic.serial });
    await expect(item).toContainText('E2E Alerts');
    await expect(item).toContainText('Failed cycle');
    const when = item.getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await expect(when).toHaveCSS('white-space', 'nowrap');
    const box = await when.boundingBox();
    const lineHeight = await when.evaluate((element) =>
      Number.parseFloat(getComputedStyle(element).lineHeight),
    );
    expect(box?.height ?? 0).toBeLessThan(lineHeight * 1.5);
  });

  test('several alerts at once: chosen rows acknowledged, then the whole page resolved', async ({
    page,
    request,
  }) => {
    const clinic = await clinicWithDevice(request);
    for (const status of [1, 2, 3]) await ingest(request, clinic, { status_code: status });
    await loginAs(page, clinic.email, PASSWORD);
    await page.goto('/alerts?kind=failed_cycle');
    const table = alertsTable(page, /^Alerts$/);
    await expect(bodyRows(table)).toHaveCount(3);
    const toolbar = page.getByRole('toolbar', { name: 'Selected alerts' });

    const boxes = table.getByRole('checkbox', { name: /^Select alert #\d+$/ });
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await expect(toolbar).toContainText('2 alerts selected');
    await toolbar.getByRole('button', { name: 'Acknowledge selected' }).click();
    await expect(toastWith(page, '2 alerts done')).toBeVisible();
    await expect(bodyRows(table).filter({ hasText: 'Acknowledged' })).toHaveCount(2);
    await expect(toolbar.getByText(/selected$/)).toHaveCount(0);

    // The whole page, resolved: the one still open and the two acknowledged.
    await toolbar.getByRole('checkbox', { name: 'Select this page' }).check();
    await expect(toolbar).toContainText('3 alerts selected');
    await toolbar.getByRole('button', { name: 'Resolve selected' }).click();
    await expect(toastWith(page, '3 alerts done')).toBeVisible();
    await expect(bodyRows(table).filter({ hasText: 'Resolved' })).toHaveCount(3);
  });

  test('several alerts at once in Italian, on a phone: a skipped one is said so', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const clinic = await clinicWithDevice(request);
    for (const status of [1, 2]) await ingest(request, clinic, { status_code: status });
    await loginAs(page, clinic.email, PASSWORD);
    await inItalian(page);
    await page.goto('/alerts?kind=failed_cycle');
    const toolbar = page.getByRole('toolbar', { name: 'Avvisi selezionati' });
    await toolbar.getByRole('checkbox', { name: 'Seleziona questa pagina' }).check();
    await expect(toolbar).toContainText('2 avvisi selezionati');
    await toolbar.getByRole('button', { name: 'Prendi in carico i selezionati' }).click();
    await expect(toastWith(page, '2 avvisi gestiti')).toBeVisible();
    await toolbar.getByRole('checkbox', { name: 'Seleziona questa pagina' }).check();
    await toolbar.getByRole('button', { name: 'Prendi in carico i selezionati' }).click();
    await expect(
      toastWith(page, '0 avvisi gestiti, 2 saltati (già gestiti o non più presenti)'),
    ).toBeVisible();
  });
});
