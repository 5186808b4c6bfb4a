import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { apiCreateCustomer, apiCreateDevice, apiCreateUser, apiProductIdOfType, apiToken } from './api.ts';
import { unique } from './customers-helpers.ts';
import { DEMO, loginAs, mainMenu } from './fixtures.ts';

/*
 * Every list is usable on a 390 px phone. Each list shows its rows as cards (the
 * list frame's narrow layout), the document does not scroll sideways, every control of the page —
 * the row actions first — lies within the viewport, and axe (WCAG 2.1 AA) finds nothing serious.
 * A screenshot of each is attached to the report (geometry is asserted, not pixels: fonts differ
 * between machines).
 */

const PHONE = { width: 390, height: 844 };

/** The lists, their card list's name, and a row action that must be reachable on a phone. */
const LISTS: ReadonlyArray<{ path: string; name: string; action?: RegExp }> = [
  { path: '/customers', name: 'Customers', action: /^Open / },
  { path: '/users', name: 'Users', action: /^Open / },
  { path: '/devices', name: 'Devices' },
  { path: '/products', name: 'Products' },
  { path: '/sterilizations', name: 'Sterilizations', action: /^Verify data$/ },
  { path: '/certificates', name: 'Certificates', action: /^Delete the certificate of lot / },
  { path: '/audit', name: 'Audit trail' },
  { path: '/alerts', name: 'Alerts', action: /^Acknowledge/ },
];

/** Uploads a certificate with a long file name (the list is empty on a fresh database); returns its delete. */
async function withCertificate(page: Page): Promise<() => Promise<unknown>> {
  const raw = await page.evaluate(() => localStorage.getItem('uvtrace.session'));
  const headers = { Authorization: `Bearer ${(JSON.parse(raw ?? '{}') as { token?: string }).token}` };
  const pdf = await PDFDocument.create();
  pdf.addPage();
  const created = await page.request.post('/api/v1/certificates', {
    headers,
    multipart: {
      lot_number: `NARROW${Date.now().toString(36).toUpperCase()}`,
      validated_treatment_number: '1',
      expiration_date: '2030-06-30',
      italian_file: {
        name: 'certificato_di_sterilizzazione_del_lotto_molto_lungo.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(await pdf.save()),
      },
    },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { data: { id: number } }).data.id;
  return () => page.request.delete(`/api/v1/certificates/${id}`, { headers });
}

/** Controls (buttons, links, fields) in `scope` lying partly outside the viewport's width. */
async function offscreenControls(scope: Locator): Promise<string[]> {
  return scope.locator('button, a[href], input, [role="combobox"]').evaluateAll(
    (elements, width) =>
      elements
        .filter((element) => {
          const box = element.getBoundingClientRect();
          // Hidden inputs (MUI's select keeps one) have no box and are not controls anyone reaches.
          if (box.width === 0 && box.height === 0) return false;
          return box.left < -0.5 || box.right > width + 0.5;
        })
        .map((element) => element.outerHTML.slice(0, 160)),
    PHONE.width,
  );
}

async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, 'the document scrolls sideways').toBeLessThanOrEqual(client);
}

async function expectAxeClean(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect
    .soft(
      blocking.map((v) => `${v.id}: ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`),
      `axe at 390 px on ${screen}`,
    )
    .toEqual([]);
}

/**
 * Brings an element to the middle of the screen. Not scrollIntoViewIfNeeded: Chromium treats an
 * element cut by a fraction of a pixel at an edge as visible and leaves it there, and the check that
 * follows asks for all of it.
 */
async function scrollToCentre(target: Locator) {
  await target.evaluate((element) => element.scrollIntoView({ block: 'center', inline: 'center' }));
}

/** One list at 390 px: cards, no sideways scroll, its controls and row action in reach, axe clean; a screenshot. */
async function expectUsableOnPhone(page: Page, list: { path: string; name: string; action?: RegExp }) {
  await test.step(list.path, async () => {
    await page.goto(list.path);
    const cards = page.getByRole('list', { name: list.name, exact: true });
    await expect(cards.getByRole('listitem').first()).toBeVisible();
    // The narrow layout replaces the table: no header row to scroll to.
    await expect(page.getByRole('table')).toHaveCount(0);
    // Not 'networkidle': the live-update stream keeps a request open for as long as the page is.
    await page.waitForLoadState('load');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));

    await expectNoHorizontalOverflow(page);
    expect(await offscreenControls(page.getByRole('main')), 'controls outside the viewport').toEqual([]);
    if (list.action) {
      const action = cards.getByRole('listitem').first().getByRole('button', { name: list.action });
      await scrollToCentre(action.first());
      await expect(action.first()).toBeInViewport({ ratio: 1 });
    }
    await expectAxeClean(page, list.path);
    await test.info().attach(`${list.path} at 390 px`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: 'image/png',
    });
  });
}

test.describe('lists on a 390 px screen', () => {
  test.use({ viewport: PHONE });
  test.describe.configure({ timeout: 180_000 });

  test('every list is cards, fits the width, its actions within reach, axe clean', async ({ page }) => {
    await loginAs(page, DEMO.super);
    const removeCertificate = await withCertificate(page);
    try {
      for (const list of LISTS) await expectUsableOnPhone(page, list);
    } finally {
      await removeCertificate();
    }
  });

  test("the customer page's tabs: users and devices are cards with their search, tabs and actions in reach", async ({
    page,
    request,
  }) => {
    const token = await apiToken(request);
    const tag = unique();
    const customer = await apiCreateCustomer(request, token, `E2E Narrow tabs ${tag}`);
    await apiCreateUser(request, token, customer.id, {
      name: `Utente con un nome piuttosto lungo ${tag}`,
      email: `e2e.narrow.tabs.with.a.long.address.${tag}@example.com`,
      password: 'e2e-narrow-password',
    });
    await apiCreateDevice(request, token, customer.id, {
      device_serial: `${tag.slice(-7).toUpperCase()}N`,
      label: `Dispositivo con etichetta lunga ${tag}`,
      product_id: await apiProductIdOfType(request, token, 2),
    });
    await loginAs(page, DEMO.super);
    for (const list of [
      { path: `/customers/${customer.id}/users`, name: 'Users of the customer' },
      { path: `/customers/${customer.id}/devices`, name: 'Devices' },
    ]) {
      await expectUsableOnPhone(page, list);
      // The search and the customer page's tabs are within reach too.
      await expect(page.getByRole('textbox', { name: 'Search', exact: true })).toBeInViewport({ ratio: 1 });
      const tabs = page.getByRole('tablist', { name: /./ });
      for (const tab of await tabs.getByRole('tab').all()) {
        await scrollToCentre(tab);
        await expect(tab).toBeInViewport({ ratio: 1 });
      }
    }
  });

  test('the user menu is the initials, named after the user; the menu is a drawer', async ({ page }) => {
    const name = await loginAs(page, DEMO.super);
    const banner = page.getByRole('banner');
    const user = banner.getByRole('button', { name });
    await expect(user).toBeInViewport({ ratio: 1 });
    const initials = name
      .split(/\s+/)
      .map((word) => word[0] ?? '')
      .filter(Boolean);
    await expect(user.locator('[aria-hidden="true"]')).toHaveText(
      `${initials[0]}${initials.length > 1 ? initials.at(-1) : ''}`.toUpperCase(),
    );
    expect(await offscreenControls(banner)).toEqual([]);
    await user.click();
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeInViewport();
    await page.keyboard.press('Escape');

    await expect(mainMenu(page)).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await mainMenu(page).getByRole('link', { name: 'Sterilizations' }).click();
    await expect(mainMenu(page)).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Sterilizations' })).toBeVisible();
  });

  test('sorting, row details and a row click work on cards', async ({ page }) => {
    await loginAs(page, DEMO.super);
    await page.goto('/sterilizations');
    const cards = page.getByRole('list', { name: 'Sterilizations', exact: true });
    const first = cards.getByRole('listitem').first();
    await first.getByRole('button', { name: 'Show details' }).click();
    const details = first.getByRole('button', { name: 'Hide details' });
    await expect(details).toHaveAttribute('aria-expanded', 'true');
    const detailId = await details.getAttribute('aria-controls');
    await expect(page.locator(`#${detailId}`)).toBeVisible();
    await expectNoHorizontalOverflow(page);

    await page.goto('/customers');
    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Name, descending' }).click();
    await expect(page).toHaveURL(/sortDir=desc/);
    const customers = page.getByRole('list', { name: 'Customers', exact: true });
    await customers.getByRole('listitem').first().click();
    await expect(page).toHaveURL(/\/customers\/\d+$/);
  });
});
