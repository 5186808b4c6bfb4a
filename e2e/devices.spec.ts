import { expect, type Page, test } from '@playwright/test';
import { apiCreateCustomer, apiCreateDevice, apiIngest, apiProductIdOfType, sessionHeaders } from './api.ts';
import { DEMO, loginAs, switchToItalian } from './fixtures.ts';

/*
 * Customer devices (docs/product.md §2): create, keys generated in the browser, save, test JWT accepted by
 * the ingestion call, reassignment, and what each role may do on the device page. Every test works on
 * customers and devices it creates itself (unique names and serials), so the demo data stays as seeded.
 */

const unique = () => Math.random().toString(36).slice(2, 7).toUpperCase().padEnd(5, 'X');
/** 8 characters, as docs/product.md §5 requires. */
const newSerial = () => `E2E${unique()}`;

const form = (page: Page) => page.getByRole('form', { name: 'Device data' });
const serialField = (page: Page) => form(page).getByLabel(/^Device serial/);
const labelField = (page: Page) => form(page).getByLabel(/^Label/);
const typeSelect = (page: Page) => form(page).getByRole('combobox', { name: /^Product type/ });
const publicKey = (page: Page, slot: 1 | 2) => form(page).getByLabel(new RegExp(`^Public key ${slot}`));
const privateKey = (page: Page, slot: 1 | 2) => form(page).getByLabel(`Private key ${slot}`);
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

async function generateKeys(page: Page, slot: 1 | 2) {
  await button(page, `Generate keys ${slot}`).click();
  await expect(page.getByRole('status').filter({ hasText: 'Generating the keys…' })).toBeVisible();
  await expect(privateKey(page, slot)).toHaveValue(/^-----BEGIN PRIVATE KEY-----\n/, { timeout: 10_000 });
  await expect(publicKey(page, slot)).toHaveValue(/^-----BEGIN PUBLIC KEY-----\n/);
}

test.describe('customer devices', () => {
  test('create a device, generate keys, save, sign a test JWT, ingest it, reassign the device', async ({
    page,
  }) => {
    test.slow(); // key generation and several logins
    await loginAs(page, DEMO.super);
    const headers = await sessionHeaders(page);
    const tag = unique();
    const home = (await apiCreateCustomer(page.request, headers, `E2E Devices Home ${tag}`)).id;
    const other = (await apiCreateCustomer(page.request, headers, `E2E Devices Other ${tag}`)).id;
    const serial = newSerial();

    // The devices tab of a new customer: empty, with the create button.
    await page.goto(`/customers/${home}/devices`);
    await expect(page.getByRole('table', { name: 'Devices' })).toContainText('No devices found');
    await page.getByRole('link', { name: 'New device' }).click();
    await expect(page).toHaveURL(`/customers/${home}/devices/new`);
    await expect(page.getByRole('heading', { name: 'Insert a new device' })).toBeVisible();
    await expect(button(page, 'Assign to another customer')).toHaveCount(0);

    // An invalid submit makes no call and shows the form alert and the field messages.
    await serialField(page).fill('SHORT');
    await serialField(page).blur();
    await expect(serialField(page)).toHaveAccessibleDescription("Device's serial must be 8 chars length");
    await button(page, 'Save').click();
    await expect(toast(page, 'Verify inserted data')).toBeVisible();
    await expect(serialField(page)).toHaveAccessibleDescription("Device's serial must be 8 chars length");
    await expect(labelField(page)).toHaveAccessibleDescription('Device label is mandatory');
    // Eight characters, but markup: a serial is letters, digits, - and _ only.
    await serialField(page).fill('<b>X</b>');
    await serialField(page).blur();
    await expect(serialField(page)).toHaveAccessibleDescription(
      "Device's serial may hold only letters, digits, - and _",
    );

    await serialField(page).fill(serial);
    await labelField(page).fill(`  Room ${tag}  `);
    await typeSelect(page).click();
    await page.getByRole('option', { name: 'Sterilizing Bath' }).click();
    await expect(button(page, 'Generate test JWT 1')).toBeDisabled();
    await generateKeys(page, 1);
    await expect(page.getByText('The private key is never saved: copy it now')).toBeVisible();
    const privatePem = await privateKey(page, 1).inputValue();

    // Only the public keys travel: watch the create call's body.
    const createCall = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith(`/api/v1/customers/${home}/devices`),
    );
    await button(page, 'Save').click();
    const body = (await createCall).postData() ?? '';
    expect(body).toContain('-----BEGIN PUBLIC KEY-----');
    expect(body).not.toContain('PRIVATE KEY');
    expect(body).toContain(`Room ${tag}\r\n`); // trimmed
    await expect(toast(page, 'Device created')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/customers/${home}/devices/\\d+$`));
    const deviceId = Number(page.url().split('/').pop());
    await expect(page.getByRole('heading', { name: `Device ${serial}` })).toBeVisible();
    // The private key made before saving is still on the page (and nowhere else).
    await expect(privateKey(page, 1)).toHaveValue(privatePem);
    await expect(typeSelect(page)).toHaveText('Sterilizing Bath');

    // Second key pair on the edit page, then save it.
    await generateKeys(page, 2);
    await expect(page.getByText('Save the device to register the new public key.')).toBeVisible();
    await button(page, 'Save').click();
    await expect(toast(page, 'Device updated')).toBeVisible();
    await expect(page.getByText('Save the device to register the new public key.')).toHaveCount(0);

    // Test JWT 2: decoded header and payload, and the token.
    await button(page, 'Generate test JWT 2').click();
    const jwt = page.getByRole('group', { name: 'Test JWT 2' });
    await expect(jwt.getByTestId('jwt-header-2')).toContainText('"alg": "RS256"');
    await expect(jwt.getByTestId('jwt-payload-2')).toContainText(`"iss": "${serial}"`);
    await expect(jwt.getByTestId('jwt-payload-2')).toContainText('"progressive_id": 1');
    const token = (await jwt.getByTestId('jwt-token-2').textContent()) ?? '';
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

    // Reassignment: the same customer is refused, another one moves the device.
    await button(page, 'Assign to another customer').click();
    const dialog = page.getByRole('dialog', { name: 'Assign to another customer' });
    await dialog.getByLabel('Customer').fill(`E2E Devices Home ${tag}`);
    await page.getByRole('option', { name: `E2E Devices Home ${tag} (${home})` }).click();
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await expect(dialog.getByText('This device is already of the selected customer')).toBeVisible();
    await dialog.getByLabel('Customer').fill(`E2E Devices Other ${tag}`);
    await page.getByRole('option', { name: `E2E Devices Other ${tag} (${other})` }).click();
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await expect(toast(page, 'Device succesfully reassigned')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(`/customers/${other}/devices/${deviceId}`);
    await expect(page.getByRole('heading', { name: `Device ${serial}` })).toBeVisible();
    // No error after the success: the page at the former address is not read again.
    await page.waitForTimeout(1500);
    await expect(page.getByRole('alert').filter({ hasText: /not found/i })).toHaveCount(0);
    await page.goto(`/customers/${other}/devices`);
    await expect(page.getByRole('row').filter({ hasText: serial })).toContainText('Sterilizing Bath');
    await page.goto(`/customers/${home}/devices`);
    await expect(page.getByRole('table', { name: 'Devices' })).toContainText('No devices found');

    // The browser's test token is accepted by the device ingestion call (public key 2 is saved).
    const stored = await apiIngest<{ device_serial: string; progressive_id: number }>(page.request, token);
    expect(stored[0]).toMatchObject({ device_serial: serial, progressive_id: 1 });
  });

  test('ADMIN edits a device but cannot generate keys; CUSTOMER_CARE only reads it', async ({ browser }) => {
    test.slow(); // key generation and several logins
    const superPage = await browser.newPage();
    await loginAs(superPage, DEMO.super);
    const headers = await sessionHeaders(superPage);
    const tag = unique();
    const customerId = (await apiCreateCustomer(superPage.request, headers, `E2E Devices Roles ${tag}`)).id;
    const serial = newSerial();
    const { id: deviceId } = await apiCreateDevice(superPage.request, headers, customerId, {
      device_serial: serial,
      label: `Roles ${tag}`,
      product_id: await apiProductIdOfType(superPage.request, headers, 1),
    });
    await superPage.close();

    const adminPage = await browser.newPage();
    await loginAs(adminPage, DEMO.admin);
    await adminPage.goto(`/customers/${customerId}/devices/${deviceId}`);
    await expect(adminPage.getByRole('heading', { name: `Device ${serial}` })).toBeVisible();
    await expect(button(adminPage, 'Generate keys 1')).toBeDisabled();
    await expect(button(adminPage, 'Generate keys 2')).toBeDisabled();
    await expect(button(adminPage, 'Generate test JWT 1')).toBeDisabled();
    await expect(typeSelect(adminPage)).toBeEnabled();
    await expect(button(adminPage, 'Assign to another customer')).toBeVisible();
    // The same page in Italian.
    await switchToItalian(adminPage);
    await expect(button(adminPage, 'Genera chiavi 1')).toBeDisabled();
    await expect(button(adminPage, 'Assegna a un altro cliente')).toBeVisible();
    await adminPage.getByRole('button', { name: 'EN', exact: true }).click();
    await labelField(adminPage).fill(`Roles ${tag} renamed`);
    await button(adminPage, 'Save').click();
    await expect(toast(adminPage, 'Device updated')).toBeVisible();
    await adminPage.close();

    const carePage = await browser.newPage();
    await loginAs(carePage, DEMO.care);
    await carePage.goto(`/customers/${customerId}/devices`);
    await expect(carePage.getByRole('link', { name: 'New device' })).toHaveCount(0);
    await carePage.getByRole('row').filter({ hasText: serial }).click();
    await expect(carePage).toHaveURL(`/customers/${customerId}/devices/${deviceId}`);
    await expect(labelField(carePage)).toHaveValue(`Roles ${tag} renamed`);
    await expect(labelField(carePage)).toHaveAttribute('readonly');
    await expect(serialField(carePage)).toHaveAttribute('readonly');
    await expect(typeSelect(carePage)).toHaveAttribute('aria-disabled', 'true');
    await expect(typeSelect(carePage)).toHaveText('Sterilizing Neck Plug');
    await expect(button(carePage, 'Save')).toHaveCount(0);
    await expect(button(carePage, 'Assign to another customer')).toHaveCount(0);
    await expect(button(carePage, 'Generate keys 1')).toBeDisabled();
    await carePage.close();
  });
});
