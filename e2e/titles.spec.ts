import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { apiToken } from './api.ts';
import { DEMO, loginAs, switchToItalian } from './fixtures.ts';

/*
 * Every screen names the browser tab `<screen> · uvtrace`, in the current language:
 * the public pages logged out, every other screen as SUPER_ADMIN, a detail page with its entity's
 * name, a page the role may not see, an id that does not exist, and the switch to Italian.
 */

/** The seed's Clinica San Marco (customer 2), one of its users and one of its devices. */
async function clinic(request: APIRequestContext) {
  const headers = { Authorization: `Bearer ${await apiToken(request)}` };
  const get = async <T>(url: string): Promise<T> => {
    const response = await request.get(url, { headers });
    expect(response.status(), url).toBe(200);
    return ((await response.json()) as { data: T }).data;
  };
  const customer = await get<{ id: number; name: string }>('/api/v1/customers/2');
  const users = await get<Array<{ id: number; name: string }>>(`/api/v1/customers/${customer.id}/users`);
  const devices = await get<Array<{ id: number; device_serial: string }>>(
    `/api/v1/customers/${customer.id}/devices`,
  );
  const user = users[0];
  const device = devices[0];
  expect(user, 'a user of the clinic').toBeDefined();
  expect(device, 'a device of the clinic').toBeDefined();
  return {
    customer,
    user: user as { id: number; name: string },
    device: device as { id: number; device_serial: string },
  };
}

async function expectTitleAt(page: Page, path: string, title: string) {
  await page.goto(path);
  await expect(page, path).toHaveTitle(title);
}

test.describe('browser tab titles', () => {
  test('public pages, logged out', async ({ page }) => {
    await expectTitleAt(page, '/login', 'Log in · uvtrace');
    await expectTitleAt(page, '/verify', 'Verify a record · uvtrace');
    await expectTitleAt(page, '/blockchain', 'Blockchain seal · uvtrace');
  });

  test('every list, form and page of the app as SUPER_ADMIN', async ({ page }) => {
    test.slow(); // one full page load per screen
    await loginAs(page, DEMO.super);
    await expect(page).toHaveTitle('Dashboard · uvtrace');
    const screens: Array<[string, string]> = [
      ['/dashboard', 'Dashboard · uvtrace'],
      ['/sterilizations', 'Sterilizations · uvtrace'],
      ['/customers', 'Customers · uvtrace'],
      ['/customers/new', 'New customer · uvtrace'],
      ['/devices', 'Devices · uvtrace'],
      ['/products', 'Products · uvtrace'],
      ['/users', 'Users · uvtrace'],
      ['/certificates', 'Certificates · uvtrace'],
      ['/certificates/upload', 'Upload a certificate · uvtrace'],
      ['/audit', 'Audit trail · uvtrace'],
      ['/profile', 'Profile · uvtrace'],
      ['/blockchain', 'Blockchain seal · uvtrace'],
      ['/verify', 'Verify a record · uvtrace'],
      ['/download/sterilizations-ok', 'Download · uvtrace'],
      // A path that does not exist goes to the dashboard (docs/product.md §2).
      ['/no-such-page', 'Dashboard · uvtrace'],
    ];
    for (const [path, title] of screens) await expectTitleAt(page, path, title);
  });

  test('detail pages name their entity; an id that does not exist is "Not found"', async ({ page }) => {
    test.slow(); // one full page load per screen
    const { customer, user, device } = await clinic(page.request);
    await loginAs(page, DEMO.super);
    const c = `/customers/${customer.id}`;
    const screens: Array<[string, string]> = [
      [c, `Customer: ${customer.name} · uvtrace`],
      [`${c}/edit`, `Customer: ${customer.name} · uvtrace`],
      [`${c}/users`, `Users of ${customer.name} · uvtrace`],
      [`${c}/users/new`, 'New user · uvtrace'],
      [`${c}/users/${user.id}`, `User: ${user.name} · uvtrace`],
      [`${c}/devices`, `Devices of ${customer.name} · uvtrace`],
      [`${c}/devices/new`, 'New device · uvtrace'],
      [`${c}/devices/${device.id}`, `Device: ${device.device_serial} · uvtrace`],
      [`${c}/devices/2147483647`, 'Not found · uvtrace'],
      ['/customers/2147483647', 'Not found · uvtrace'],
    ];
    for (const [path, title] of screens) await expectTitleAt(page, path, title);

    // Moving inside the app (no reload) renames the tab as well.
    await page.goto(c);
    await page.getByRole('tab', { name: /^Users/ }).click();
    await expect(page).toHaveTitle(`Users of ${customer.name} · uvtrace`);
  });

  test('a page the role may not see', async ({ page }) => {
    await loginAs(page, DEMO.customer);
    await expectTitleAt(page, '/customers', 'Not allowed · uvtrace');
  });

  test('in Italian, following the language switch', async ({ page }) => {
    const { customer } = await clinic(page.request);
    await page.goto('/login');
    await switchToItalian(page);
    await expect(page).toHaveTitle('Accedi · uvtrace');
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await expect(page).toHaveTitle('Log in · uvtrace');

    await loginAs(page, DEMO.super);
    await page.goto('/sterilizations');
    await expect(page).toHaveTitle('Sterilizations · uvtrace');
    // The switch renames the tab of the screen already open, without a reload.
    await switchToItalian(page);
    await expect(page).toHaveTitle('Sterilizzazioni · uvtrace');

    await expectTitleAt(page, `/customers/${customer.id}`, `Cliente: ${customer.name} · uvtrace`);
    await expectTitleAt(page, '/customers/new', 'Nuovo cliente · uvtrace');
    await expectTitleAt(page, '/audit', 'Registro attività · uvtrace');
    await expectTitleAt(page, '/customers/2147483647', 'Non trovato · uvtrace');

    await page.goto('/audit');
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await expect(page).toHaveTitle('Audit trail · uvtrace');
  });
});
