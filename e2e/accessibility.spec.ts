import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { apiData, sessionHeaders } from './api.ts';
import {
  DEMO,
  DEMO_PASSWORD,
  loginAs,
  loginButton,
  mainMenu,
  sessionUser,
  switchToItalian,
} from './fixtures.ts';

/*
 * Accessibility: axe (WCAG 2.1 A and AA) on every screen and dialog must find no serious or
 * critical violation, and the app must be usable with the keyboard alone.
 *
 * The screens come from the route tree (src/client/routes):
 *   /login, /blockchain, / (dashboard; /dashboard is a redirect to it), /profile,
 *   /customers, /customers/new, /customers/$id (anagraphic; /edit is a redirect to it),
 *   /customers/$id/users, users/new, users/$userId, /customers/$id/devices, devices/new,
 *   devices/$deviceId, /users, /products, /devices, /sterilizations, /certificates,
 *   /certificates/upload, /audit (with the history panels of the customer, user and device pages)
 * and every dialog and popup they open: user menu, date picker calendar, country and customer
 * listboxes, disable / enable user, assign device, delete certificate, profile updated, the
 * verification modal (anchored and not yet sent), the details card, the mobile menu drawer.
 * Not here, on purpose:
 *   - forgot / reset password and a 404 page: the app has none (docs/product.md §2 sends any unknown path to
 *     the dashboard, covered by guards.spec.ts);
 *   - the not-authorised view (a page the session's modules or abilities do not grant) is checked
 *     below with a customer user on a staff-only list.
 */

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
type Violation = AxeResults['violations'][number];

function report(violations: Violation[]): string {
  return violations
    .map((violation) => {
      const nodes = violation.nodes.map((node) => {
        const summary = (node.failureSummary ?? '').split('\n').join('\n        ');
        return `  - ${node.target.join(' ')}\n      ${node.html.slice(0, 240)}\n        ${summary}`;
      });
      return `[${violation.impact}] ${violation.id}: ${violation.help}\n  ${violation.helpUrl}\n${nodes.join('\n')}`;
    })
    .join('\n\n');
}

/**
 * Waits for opening transitions (dialogs fade in, menus grow): contrast measured on a half-faded
 * element is meaningless. Spinners and progress bars run forever and are not waited for.
 */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
}

/** axe on the page as it is now; the serious and critical violations fail the test (softly). */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  await settle(page);
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  const blocking = results.violations.filter((violation) => BLOCKING.has(violation.impact ?? ''));
  const others = results.violations.filter((violation) => !BLOCKING.has(violation.impact ?? ''));
  if (others.length > 0) {
    test.info().annotations.push({ type: `axe (minor) ${screen}`, description: report(others) });
  }
  expect
    .soft(blocking.length, `axe WCAG 2.1 AA on ${screen}, serious or critical:\n${report(blocking)}\n`)
    .toBe(0);
}

const dialog = (page: Page, name: string | RegExp): Locator => page.getByRole('dialog', { name });
/** The audit history panel of a customer, user or device page (shown to managers). */
const history = (page: Page): Locator => page.getByRole('region', { name: 'History' });
const firstRow = (page: Page): Locator => page.getByRole('table').locator('tbody tr').first();

/** Opens the calendar of the date field whose sections are `group` (named after the field). */
async function openCalendar(page: Page, name: string): Promise<void> {
  const group = page.getByRole('group', { name });
  // The calendar button sits beside the sections, in the same input.
  await group
    .locator('xpath=..')
    .getByRole('button', { name: /^Choose date/ })
    .click();
  await expect(dialog(page, name).getByRole('grid')).toBeVisible();
}

test.describe('accessibility: axe WCAG 2.1 AA on every screen', () => {
  // Each test runs axe several times, a few CPU-heavy seconds each on a busy machine.
  test.describe.configure({ timeout: 120_000 });

  test('guest screens: login, its errors, the blockchain teaser', async ({ page }) => {
    await page.goto('/login');
    await expect(loginButton(page)).toBeVisible();
    await expectAccessible(page, 'login');

    await page.getByLabel(/^Email/).fill('not-an-email');
    await page.getByLabel(/^Password/).fill('wrong-password');
    await page.getByLabel(/^Password/).fill('');
    await page.getByLabel(/^Email/).focus();
    await expect(page.getByText('Email address is not valid')).toBeVisible();
    await expectAccessible(page, 'login with field errors');

    await page.getByLabel(/^Email/).fill(DEMO.admin);
    await page.getByLabel(/^Password/).fill('wrong-password');
    await loginButton(page).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Login failed' })).toBeVisible();
    await expectAccessible(page, 'login failed toast');

    await page.goto('/blockchain');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page, 'blockchain (guest)');
  });

  test('dashboard, user menu, profile and its dialog, mobile menu', async ({ page }) => {
    const name = await loginAs(page, DEMO.super);
    await expect(page.getByRole('region', { name: 'Totals' })).toBeVisible();
    await expect(page.getByRole('article').first()).toBeVisible();
    await expectAccessible(page, 'dashboard (super admin)');

    await page.getByRole('banner').getByRole('button', { name }).click();
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
    await expectAccessible(page, 'user menu');
    await page.keyboard.press('Escape');

    await page.goto('/blockchain');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page, 'blockchain (logged in)');

    await mainMenu(page).getByRole('link', { name: 'Profile' }).click();
    const form = page.getByRole('form', { name: 'Profile data' });
    await expect(form.getByLabel(/^User name/)).not.toHaveValue('');
    await expectAccessible(page, 'profile');
    // Saving the same password again leaves the account as it was.
    await form.getByLabel(/^Current password/).fill(DEMO_PASSWORD);
    await form.getByLabel(/^New password/).fill(DEMO_PASSWORD);
    await form.getByLabel(/^Repeat new password/).fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Save' }).click();
    const updated = dialog(page, 'Profile updated');
    await expect(updated).toBeVisible();
    await expectAccessible(page, 'profile updated dialog');
    await updated.getByRole('button', { name: 'OK' }).click();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(mainMenu(page)).toBeVisible();
    await expectAccessible(page, 'mobile menu drawer');
  });

  test('customers: list, date picker, new, anagraphic, country list', async ({ page }) => {
    await loginAs(page, DEMO.super);
    await page.goto('/customers');
    await expect(firstRow(page)).toBeVisible();
    await expectAccessible(page, 'customer list');
    await openCalendar(page, 'Sterilizations from');
    await expectAccessible(page, 'customer list, date picker calendar');
    await page.keyboard.press('Escape');

    await page.goto('/customers/new');
    await page.getByRole('form', { name: 'Customer data' }).getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('The customer name is mandatory')).toBeVisible();
    await expectAccessible(page, 'new customer with field errors');

    await page.goto('/customers/2');
    const country = page.getByLabel(/^Country/);
    await expect(country).toHaveValue('Italy (IT)');
    await expect(history(page).getByRole('table')).toBeVisible();
    await expectAccessible(page, 'customer anagraphic tab with its history panel');
    await country.fill('ger');
    await expect(page.getByRole('listbox')).toBeVisible();
    await expectAccessible(page, 'customer country listbox');
  });

  test('customer users: list, new, edit, disable and enable dialogs', async ({ page }) => {
    await loginAs(page, DEMO.super);
    await page.goto('/customers/2/users');
    await expect(firstRow(page)).toBeVisible();
    await expectAccessible(page, 'customer users tab');

    await page.goto('/customers/2/users/new');
    await page.getByRole('form', { name: 'User data' }).getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText("User's name is mandatory")).toBeVisible();
    await expectAccessible(page, 'new user with field errors');

    await page.goto('/customers/2/users');
    await page.getByRole('row').filter({ hasText: 'Elena Ricci' }).click();
    await expect(page.getByRole('form', { name: 'User data' }).getByLabel(/^Name/)).toHaveValue(
      'Elena Ricci',
    );
    await expect(history(page).getByRole('table')).toBeVisible();
    await expectAccessible(page, 'user edit with its history panel');
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    const disable = dialog(page, 'Disable this user?');
    await expect(disable).toBeVisible();
    await expectAccessible(page, 'disable user dialog');
    await disable.getByRole('button', { name: 'Cancel' }).click();
    await expect(disable).toBeHidden();

    await page.goto('/customers/2/users');
    await page.getByRole('row').filter({ hasText: 'Paolo Greco' }).click();
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    const enable = dialog(page, 'Enable this user?');
    await expect(enable).toBeVisible();
    await expectAccessible(page, 'enable user dialog');
    await enable.getByRole('button', { name: 'Cancel' }).click();
    await expect(enable).toBeHidden();
  });

  test('customer devices: list, new, edit with keys and test JWT, assign dialog', async ({ page }) => {
    test.slow(); // RSA key generation in the browser
    await loginAs(page, DEMO.super);
    await page.goto('/customers/2/devices');
    await expect(firstRow(page)).toBeVisible();
    await expectAccessible(page, 'customer devices tab');

    await page.goto('/customers/2/devices/new');
    await page.getByRole('form', { name: 'Device data' }).getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText("Device's serial must be 8 chars length")).toBeVisible();
    await expectAccessible(page, 'new device with field errors');

    await page.goto('/customers/2/devices');
    await firstRow(page).click();
    await expect(page).toHaveURL(/\/customers\/2\/devices\/\d+$/);
    await expect(page.getByRole('form', { name: 'Device data' })).toBeVisible();
    await expect(history(page).getByRole('table')).toBeVisible();
    await expectAccessible(page, 'device edit with its history panel');
    // Generated in the page only: nothing is saved.
    await page.getByRole('button', { name: 'Generate keys 1', exact: true }).click();
    await expect(page.getByLabel('Private key 1')).toHaveValue(/BEGIN PRIVATE KEY/, { timeout: 15_000 });
    await page.getByRole('button', { name: 'Generate test JWT 1', exact: true }).click();
    await expect(page.getByTestId('jwt-token-1')).toBeVisible();
    await expectAccessible(page, 'device edit with new keys and a test JWT');

    await page.getByRole('button', { name: 'Assign to another customer' }).click();
    const assign = dialog(page, 'Assign to another customer');
    await expect(assign).toBeVisible();
    await expectAccessible(page, 'assign device dialog');
    await assign.getByRole('combobox').click();
    await expect(page.getByRole('listbox')).toBeVisible();
    await expectAccessible(page, 'assign device customer listbox');
    await page.keyboard.press('Escape');
    await assign.getByRole('button', { name: 'Cancel' }).click();
    await expect(assign).toBeHidden();
  });

  test('staff lists: users, products, devices, alerts, the audit trail', async ({ page }) => {
    await loginAs(page, DEMO.admin);
    for (const [path, title] of [
      ['/users', 'Users'],
      ['/products', 'Products'],
      ['/devices', 'Devices'],
      ['/alerts', 'Alerts'],
      ['/audit', 'Audit trail'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(firstRow(page)).toBeVisible();
      await expect(page.getByTestId('list-fetching')).toHaveCount(0);
      await expectAccessible(page, `${title.toLowerCase()} list`);
    }
    await page.getByLabel('Entity', { exact: true }).click();
    await expect(page.getByRole('listbox')).toBeVisible();
    await expectAccessible(page, 'audit trail entity filter menu');
  });

  test('sterilizations: list, filters, details card, verification modals', async ({ page }) => {
    test.slow(); // waits for the anchor worker to mine the demo records
    await loginAs(page, DEMO.super);
    const headers = await sessionHeaders(page);
    await expect
      .poll(
        async () => {
          const rows = await apiData<{
            data: Array<{ blockchain_data: { blockchain_data_block: { status: string } } | null }>;
          }>(page.request, '/api/v1/sterilizations?customerId=2', headers);
          return rows.data[0]?.blockchain_data?.blockchain_data_block.status ?? 'none';
        },
        { timeout: 60_000, intervals: [500, 1000, 2000] },
      )
      .toMatch(/^(MINED|FINAL)$/);

    await page.goto('/sterilizations?customerId=2');
    await expect(firstRow(page)).toBeVisible();
    await firstRow(page).getByRole('button', { name: 'Show details' }).click();
    await expect(page.getByTestId('sterilization-details').first()).toBeVisible();
    await expectAccessible(page, 'sterilization list with the details card open');

    await page.getByLabel('Device').click();
    await expect(page.getByRole('listbox')).toBeVisible();
    await expectAccessible(page, 'sterilization device filter menu');
    await page.keyboard.press('Escape');

    await firstRow(page).getByRole('button', { name: 'Verify data' }).click();
    const modal = dialog(page, 'Data integrity verification');
    await expect(modal.getByRole('button', { name: 'Verification successful' })).toBeVisible({
      timeout: 20_000,
    });
    await expectAccessible(page, 'verification modal (anchored, verified)');
    await modal.getByLabel('UV dose (supplied energy)', { exact: true }).fill('123456');
    await expect(modal.getByRole('button', { name: 'Verification failed' })).toBeVisible();
    await expectAccessible(page, 'verification modal (edited, failed)');
    await modal.getByRole('button', { name: 'OK' }).click();
    await expect(modal).toBeHidden();

    // Customer 3 has blockchain off: its records are never sent.
    await page.goto('/sterilizations?customerId=3');
    await firstRow(page).getByRole('button', { name: 'Verify data' }).click();
    await expect(modal.getByText('Blockchain is not enabled for this customer')).toBeVisible();
    await expectAccessible(page, 'verification modal (blockchain not enabled)');
  });

  test('certificates: list, delete dialog, upload with errors and calendar', async ({ page }) => {
    await loginAs(page, DEMO.super);
    const headers = await sessionHeaders(page);
    const document = await PDFDocument.create();
    document.addPage();
    const lot = `A11Y${Date.now().toString(36).toUpperCase()}`;
    const created = await page.request.post('/api/v1/certificates', {
      headers,
      multipart: {
        lot_number: lot,
        validated_treatment_number: '1',
        expiration_date: '2030-06-30',
        italian_file: {
          name: 'a11y.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from(await document.save()),
        },
      },
    });
    expect(created.status()).toBe(201);
    const id = ((await created.json()) as { data: { id: number } }).data.id;
    try {
      await page.goto('/certificates?sortBy=lot_number&sortDir=asc&page=1');
      const row = page.getByRole('row').filter({ hasText: lot });
      await expect(row).toBeVisible();
      await expectAccessible(page, 'certificate list');
      await row.getByRole('button', { name: /^Delete the certificate/ }).click();
      const confirm = dialog(page, 'Are you sure?');
      await expect(confirm).toBeVisible();
      await expectAccessible(page, 'delete certificate dialog');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();
    } finally {
      await page.request.delete(`/api/v1/certificates/${id}`, { headers });
    }

    await page.goto('/certificates/upload');
    const form = page.getByRole('form', { name: 'Certificate upload' });
    await form.getByLabel(/^Lot number/).fill('x');
    await form.getByLabel(/^Lot number/).fill('');
    await form.getByLabel(/^Validated treatment number/).focus();
    await expect(page.getByText('lot number is mandatory', { exact: false })).toBeVisible();
    await expectAccessible(page, 'certificate upload with a field error');
    await openCalendar(page, 'Expiration date');
    await expectAccessible(page, 'certificate upload, date picker calendar');
  });

  test('customer user: dashboard, own sterilizations, certificates, the not-authorised view', async ({
    page,
  }) => {
    await loginAs(page, DEMO.customer);
    await expect(page.getByRole('article').first()).toBeVisible();
    await expectAccessible(page, 'dashboard (customer)');

    await page.goto('/sterilizations');
    await expect(firstRow(page)).toBeVisible();
    await expectAccessible(page, 'sterilization list (customer, fixed customer filter)');

    await page.goto('/certificates');
    await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible();
    await expect(page.getByTestId('list-fetching')).toHaveCount(0);
    await expectAccessible(page, 'certificate list (no upload ability)');

    await page.goto('/customers');
    await expect(page.getByText('You are not allowed to see this page')).toBeVisible();
    await expectAccessible(page, 'not authorised (customer user on the customer list)');
  });

  test('customer care: read-only customer, user and device pages', async ({ page }) => {
    await loginAs(page, DEMO.care);
    await page.goto('/customers/2');
    await expect(page.getByLabel(/^Name/)).toHaveValue('Clinica San Marco');
    await expectAccessible(page, 'customer anagraphic (read-only)');
    await page.goto('/customers/2/users');
    await firstRow(page).click();
    await expect(page.getByRole('form', { name: 'User data' })).toBeVisible();
    await expectAccessible(page, 'user edit (read-only)');
    await page.goto('/customers/2/devices');
    await firstRow(page).click();
    await expect(page.getByRole('form', { name: 'Device data' })).toBeVisible();
    await expectAccessible(page, 'device edit (read-only)');
  });

  test('in Italian: dashboard, customer form, sterilizations, verification modal', async ({ page }) => {
    test.slow(); // the verification reads the chain
    await loginAs(page, DEMO.admin);
    await switchToItalian(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    await expect(page.getByRole('heading', { level: 1, name: /^Benvenuto/ })).toBeVisible();
    await expectAccessible(page, 'dashboard (it)');

    await page.goto('/customers/2');
    await expect(page.getByLabel(/^Nome/)).toHaveValue('Clinica San Marco');
    await expectAccessible(page, 'customer anagraphic (it)');

    await page.goto('/sterilizations?customerId=2');
    await firstRow(page).getByRole('button', { name: 'Mostra dettagli' }).click();
    await expectAccessible(page, 'sterilization list with details (it)');
    await firstRow(page).getByRole('button', { name: 'Verifica dati' }).click();
    const modal = dialog(page, 'Verifica integrità dati');
    await expect(modal.getByRole('button', { name: /^Verifica / })).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page, 'verification modal (it)');
  });
});

/** The element's surroundings (outlines may be drawn outside its box), as pixels. */
async function pixelsAround(page: Page, target: Locator): Promise<Buffer> {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  expect(box, 'the element is on screen').not.toBeNull();
  const pad = 6;
  const { x, y, width, height } = box as NonNullable<typeof box>;
  return page.screenshot({
    animations: 'disabled',
    clip: {
      x: Math.max(0, x - pad),
      y: Math.max(0, y - pad),
      width: width + 2 * pad,
      height: height + 2 * pad,
    },
  });
}

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, and checks that the focus shows: the
 * element looks different focused than it did before. Failing to get there means a trap or an
 * element out of the tab order.
 */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  const before = await pixelsAround(page, target);
  for (let presses = 0; presses < 80; presses += 1) {
    await page.keyboard.press(key);
    if (await target.evaluate((element) => element === document.activeElement)) {
      await settle(page);
      const focused = await pixelsAround(page, target);
      expect(focused.equals(before), `the focus on ${target} is visible`).toBe(false);
      return;
    }
  }
  throw new Error(`${key} never reached ${target}`);
}

test.describe('accessibility: the keyboard alone', () => {
  test.describe.configure({ timeout: 120_000 });

  test('log in, menu, sort, open a row, a dialog filled, refused and closed, a form submitted, logout', async ({
    page,
  }) => {
    await page.goto('/login');
    const email = page.getByLabel(/^Email/);
    await expect(email).toBeFocused();
    await page.keyboard.type(DEMO.super);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel(/^Password/)).toBeFocused();
    await page.keyboard.type(DEMO_PASSWORD);
    await tabTo(page, loginButton(page));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();

    // The main menu to a list.
    const devicesLink = mainMenu(page).getByRole('link', { name: 'Devices' });
    await tabTo(page, devicesLink);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/devices\?/);
    const table = page.getByRole('table', { name: 'Devices' });
    await expect(table.locator('tbody tr').first()).toBeVisible();

    // Sort a column, both ways.
    const serialHeader = table.getByRole('columnheader', { name: 'Serial' });
    const serialSort = serialHeader.getByRole('button');
    await tabTo(page, serialSort);
    await page.keyboard.press('Enter');
    await expect(serialHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(page).toHaveURL(/sortBy=device_serial&sortDir=asc/);
    await page.keyboard.press('Enter');
    await expect(serialHeader).toHaveAttribute('aria-sort', 'descending');
    // The active column's label shows its focus too.
    await page.keyboard.press('Tab');
    await tabTo(page, serialSort, 'Shift+Tab');

    // Open a row.
    await tabTo(page, table.locator('tbody tr').first());
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/customers\/\d+\/devices\/\d+$/);
    const customerId = Number(new URL(page.url()).pathname.split('/')[2]);
    const form = page.getByRole('form', { name: 'Device data' });
    await expect(form.getByLabel(/^Label/)).not.toHaveValue('');

    // A dialog: filled and submitted with the keyboard; the device's own customer is refused.
    const opener = page.getByRole('button', { name: 'Assign to another customer' });
    await tabTo(page, opener);
    await page.keyboard.press('Enter');
    const assign = dialog(page, 'Assign to another customer');
    await expect(assign).toBeVisible();
    const customerField = assign.getByRole('combobox', { name: 'Customer' });
    await expect(customerField).toBeFocused();
    await page.keyboard.type(`(${customerId})`);
    await expect(page.getByRole('option')).toHaveCount(1);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(customerField).toHaveValue(new RegExp(`\\(${customerId}\\)$`));
    await tabTo(page, assign.getByRole('button', { name: 'Assign', exact: true }));
    await page.keyboard.press('Enter');
    await expect(assign.getByRole('alert')).toHaveText('This device is already of the selected customer');
    // Escape closes it and the focus goes back to the button that opened it.
    await page.keyboard.press('Escape');
    await expect(assign).toBeHidden();
    await expect(opener).toBeFocused();

    // Again, closed with its Cancel button (Shift+Tab from the customer field goes round the trap).
    await page.keyboard.press('Enter');
    await expect(customerField).toBeFocused();
    await tabTo(page, assign.getByRole('button', { name: 'Cancel' }), 'Shift+Tab');
    await page.keyboard.press('Enter');
    await expect(assign).toBeHidden();
    await expect(opener).toBeFocused();

    // A form submitted with Enter from one of its fields (the same values: nothing changes).
    await tabTo(page, form.getByLabel(/^Label/), 'Shift+Tab');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'Device updated' })).toBeVisible();

    // The user menu: opened, closed with Escape (focus back on its button), then logout.
    const { name } = await sessionUser(page);
    const userButton = page.getByRole('banner').getByRole('button', { name });
    await tabTo(page, userButton, 'Shift+Tab');
    await page.keyboard.press('Enter');
    const logoutItem = page.getByRole('menuitem', { name: 'Logout' });
    await expect(logoutItem).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(logoutItem).toBeHidden();
    await expect(userButton).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(logoutItem).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/login');
  });

  test('skip link; details and the verification modal open and close from the keyboard', async ({ page }) => {
    await loginAs(page, DEMO.customer);
    await page.goto('/sterilizations');
    const row = firstRow(page);
    await expect(row).toBeVisible();

    // The first Tab of a page offers to skip the top bar and the menu.
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).not.toBeInViewport();
    await page.keyboard.press('Tab');
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await page.keyboard.press('Tab');
    expect(await page.getByRole('main').evaluate((main) => main.contains(document.activeElement))).toBe(true);

    const details = row.getByRole('button', { name: 'Show details' });
    await tabTo(page, details);
    await page.keyboard.press('Enter');
    const hide = page.getByRole('button', { name: 'Hide details' });
    await expect(hide).toHaveAttribute('aria-expanded', 'true');
    await expect(hide).toBeFocused();
    await expect(page.getByTestId('sterilization-details')).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('sterilization-details')).toHaveCount(0);

    const verify = row.getByRole('button', { name: 'Verify data' });
    await tabTo(page, verify);
    await page.keyboard.press('Enter');
    const modal = dialog(page, 'Data integrity verification');
    await expect(modal).toBeVisible();
    // The fields are reachable and editable from the keyboard inside the modal.
    await expect(modal.getByRole('button', { name: 'OK' })).toBeFocused();
    await tabTo(page, modal.getByLabel('Record ID', { exact: true }));
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await expect(verify).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(modal.getByRole('button', { name: 'OK' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(modal).toBeHidden();
    await expect(verify).toBeFocused();
  });
});
