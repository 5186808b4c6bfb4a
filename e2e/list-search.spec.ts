import { expect, type Page, test } from '@playwright/test';
import { apiCreateCustomer, apiCreateDevice, apiCreateUser, apiProductIdOfType, apiToken } from './api.ts';
import { bodyRows, columnTexts, expectSearch, unique } from './customers-helpers.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/*
 * Every list of a small table has a free-text search, kept in the URL as `q`.
 */

const searchBox = (page: Page, label = 'Search') => page.getByRole('textbox', { name: label, exact: true });

test.describe('list search', () => {
  test('customers: typing filters by name or city, back on page 1, the URL holds q and a reload keeps it', async ({
    page,
    request,
  }) => {
    const token = await apiToken(request);
    const tag = unique();
    await apiCreateCustomer(request, token, `E2E Search ${tag} Alpha`);
    await apiCreateCustomer(request, token, `E2E Search ${tag} Beta`, { city: `Città ${tag}` });
    await apiCreateCustomer(request, token, `E2E Elsewhere ${tag}`);

    await loginAs(page, DEMO.super);
    await page.goto('/customers?page=2&sortBy=name&sortDir=asc');
    const table = page.getByRole('table', { name: 'Customers' });
    const search = page.getByRole('search', { name: 'Customer filters' });
    await expect(searchBox(page)).toHaveAttribute('placeholder', 'Name or city');

    await searchBox(page).fill(`search ${tag}`.toUpperCase());
    await expectSearch(page, { q: `SEARCH ${tag.toUpperCase()}`, page: '1' });
    await expect
      .poll(() => columnTexts(table, 0))
      .toEqual([`E2E Search ${tag} Alpha`, `E2E Search ${tag} Beta`]);

    // The city is searched too.
    await searchBox(page).fill(`città ${tag}`);
    await expectSearch(page, { q: `città ${tag}` });
    await expect.poll(() => columnTexts(table, 0)).toEqual([`E2E Search ${tag} Beta`]);

    await page.reload();
    await expect(searchBox(page)).toHaveValue(`città ${tag}`);
    await expect.poll(() => columnTexts(table, 0)).toEqual([`E2E Search ${tag} Beta`]);

    await search.getByRole('button', { name: 'Reset' }).click();
    await expectSearch(page, { q: null });
    await expect(searchBox(page)).toHaveValue('');
    await expect.poll(() => bodyRows(table).count()).toBeGreaterThan(1);
  });

  test('users, devices, products and certificates search what their placeholder says', async ({
    page,
    request,
  }) => {
    const token = await apiToken(request);
    const tag = unique();
    const customer = await apiCreateCustomer(request, token, `E2E Search owner ${tag}`);
    await apiCreateUser(request, token, customer.id, {
      name: `E2E Searched ${tag}`,
      email: `e2e.search.${tag}@example.com`,
      password: 'e2e-search-password',
    });
    const serial = `S${tag}`.slice(-8).toUpperCase().padStart(8, '0');
    await apiCreateDevice(request, token, customer.id, {
      device_serial: serial,
      label: `E2E Search device ${tag}`,
      product_id: String(await apiProductIdOfType(request, token, 1)),
    });
    await loginAs(page, DEMO.super);

    await page.goto('/users');
    await expect(searchBox(page)).toHaveAttribute('placeholder', 'Name or email');
    await searchBox(page).fill(`e2e.search.${tag}@`);
    await expectSearch(page, { q: `e2e.search.${tag}@` });
    const users = page.getByRole('table', { name: 'Users' });
    await expect.poll(() => columnTexts(users, 1)).toEqual([`e2e.search.${tag}@example.com`]);

    await page.goto('/devices');
    await expect(searchBox(page)).toHaveAttribute('placeholder', 'Serial number or label');
    await searchBox(page).fill(serial.toLowerCase());
    await expectSearch(page, { q: serial.toLowerCase() });
    const devices = page.getByRole('table', { name: 'Devices' });
    await expect(bodyRows(devices)).toHaveCount(1);
    await expect(bodyRows(devices)).toContainText(`E2E Search device ${tag}`);

    await page.goto('/products');
    await expect(searchBox(page)).toHaveAttribute('placeholder', 'Product name');
    await searchBox(page).fill('neck plug');
    await expectSearch(page, { q: 'neck plug' });
    const products = page.getByRole('table', { name: 'Products' });
    await expect.poll(() => columnTexts(products, 0)).toEqual(['Sterilizing Neck Plug']);

    // `%` is no wildcard: nothing matches.
    await page.goto('/certificates');
    await expect(searchBox(page)).toHaveAttribute('placeholder', 'Lot or validated treatment number');
    await searchBox(page).fill(`%${tag}`);
    await expectSearch(page, { q: `%${tag}` });
    await expect(page.getByRole('table', { name: 'Certificates' })).toContainText('No certificates found');
  });

  test('in Italian: the search is labelled and explained in Italian, and filters the list', async ({
    page,
    request,
  }) => {
    const token = await apiToken(request);
    const tag = unique();
    const customer = await apiCreateCustomer(request, token, `E2E Cerca ${tag}`);
    await apiCreateUser(request, token, customer.id, {
      name: `Utente Ùnico ${tag}`,
      email: `e2e.cerca.${tag}@example.com`,
      password: 'e2e-search-password',
    });
    await loginAs(page, DEMO.care);
    await inItalian(page);
    await page.goto('/users');

    const box = searchBox(page, 'Cerca');
    await expect(box).toHaveAttribute('placeholder', 'Nome o email');
    await expect(page.getByRole('search', { name: 'Filtri utenti' })).toBeVisible();
    await box.fill(`ùnico ${tag}`);
    await expectSearch(page, { q: `ùnico ${tag}` });
    const table = page.getByRole('table', { name: 'Utenti' });
    await expect.poll(() => columnTexts(table, 1)).toEqual([`e2e.cerca.${tag}@example.com`]);

    await page.reload();
    await expect(searchBox(page, 'Cerca')).toHaveValue(`ùnico ${tag}`);
    await expect.poll(() => columnTexts(table, 1)).toEqual([`e2e.cerca.${tag}@example.com`]);

    await box.fill(`nessuno ${tag}`);
    await expect(table).toContainText('Nessun utente trovato');
  });
  test("the customer page's users and devices tabs search by name or email and by serial or label, kept in the URL", async ({
    page,
    request,
  }) => {
    const token = await apiToken(request);
    const tag = unique();
    const customer = await apiCreateCustomer(request, token, `E2E Tab search ${tag}`);
    await apiCreateUser(request, token, customer.id, {
      name: `Anna Ricerca ${tag}`,
      email: `e2e.tab.anna.${tag}@example.com`,
      password: 'e2e-search-password',
    });
    await apiCreateUser(request, token, customer.id, {
      name: `Bruno ${tag}`,
      email: `e2e.tab.bruno.${tag}@example.com`,
      password: 'e2e-search-password',
    });
    const productId = String(await apiProductIdOfType(request, token, 1));
    const serial = `${tag.slice(-7).toUpperCase()}T`;
    const otherSerial = `${tag.slice(-7).toUpperCase()}U`;
    await apiCreateDevice(request, token, customer.id, {
      device_serial: serial,
      label: `Sala uno ${tag}`,
      product_id: productId,
    });
    await apiCreateDevice(request, token, customer.id, {
      device_serial: otherSerial,
      label: `Sala due ${tag}`,
      product_id: productId,
    });
    await loginAs(page, DEMO.super);

    // Users tab: by name, then by email; the URL holds q and a reload keeps it.
    await page.goto(`/customers/${customer.id}/users`);
    const users = page.getByRole('table', { name: 'Users of the customer' });
    await expect(bodyRows(users)).toHaveCount(2);
    const userSearch = page.getByRole('search', { name: 'User filters' });
    await expect(searchBox(page)).toHaveAttribute('placeholder', 'Name or email');
    await searchBox(page).fill('anna ricerca');
    await expectSearch(page, { q: 'anna ricerca' });
    await expect.poll(() => columnTexts(users, 1)).toEqual([`e2e.tab.anna.${tag}@example.com`]);
    await searchBox(page).fill(`TAB.BRUNO.${tag.toUpperCase()}@`);
    await expect.poll(() => columnTexts(users, 1)).toEqual([`e2e.tab.bruno.${tag}@example.com`]);
    await page.reload();
    await expect(searchBox(page)).toHaveValue(`TAB.BRUNO.${tag.toUpperCase()}@`);
    await expect.poll(() => columnTexts(users, 1)).toEqual([`e2e.tab.bruno.${tag}@example.com`]);
    await searchBox(page).fill(`nobody ${tag}`);
    await expect(users).toContainText('No users found');
    await userSearch.getByRole('button', { name: 'Reset' }).click();
    await expectSearch(page, { q: null });
    await expect(bodyRows(users)).toHaveCount(2);

    // Devices tab: by serial (any case), then by label.
    await page.getByRole('tab', { name: /Devices/ }).click();
    await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}/devices$`));
    const devices = page.getByRole('table', { name: 'Devices' });
    await expect(bodyRows(devices)).toHaveCount(2);
    await expect(searchBox(page)).toHaveAttribute('placeholder', 'Serial number or label');
    await searchBox(page).fill(serial.toLowerCase());
    await expectSearch(page, { q: serial.toLowerCase() });
    await expect.poll(() => columnTexts(devices, 0)).toEqual([serial]);
    await searchBox(page).fill(`sala due ${tag}`);
    await expect.poll(() => columnTexts(devices, 0)).toEqual([otherSerial]);
    await page.reload();
    await expect(searchBox(page)).toHaveValue(`sala due ${tag}`);
    await expect.poll(() => columnTexts(devices, 0)).toEqual([otherSerial]);
    await page.getByRole('search', { name: 'Device filters' }).getByRole('button', { name: 'Reset' }).click();
    await expectSearch(page, { q: null });
    await expect(bodyRows(devices)).toHaveCount(2);
  });

  test('in Italian: the customer page tabs search with Italian labels', async ({ page, request }) => {
    const token = await apiToken(request);
    const tag = unique();
    const customer = await apiCreateCustomer(request, token, `E2E Schede ${tag}`);
    await apiCreateUser(request, token, customer.id, {
      name: `Èlena ${tag}`,
      email: `e2e.schede.${tag}@example.com`,
      password: 'e2e-search-password',
    });
    await apiCreateUser(request, token, customer.id, {
      name: `Altro ${tag}`,
      email: `e2e.altro.${tag}@example.com`,
      password: 'e2e-search-password',
    });
    await loginAs(page, DEMO.admin);
    await inItalian(page);
    await page.goto(`/customers/${customer.id}/users?q=${encodeURIComponent(`èlena ${tag}`)}`);
    await expect(page.getByRole('search', { name: 'Filtri utenti' })).toBeVisible();
    await expect(searchBox(page, 'Cerca')).toHaveValue(`èlena ${tag}`);
    await expect(searchBox(page, 'Cerca')).toHaveAttribute('placeholder', 'Nome o email');
    const users = page.getByRole('table', { name: 'Utenti del cliente' });
    await expect.poll(() => columnTexts(users, 1)).toEqual([`e2e.schede.${tag}@example.com`]);
    await page.goto(`/customers/${customer.id}/devices?q=nessuno`);
    await expect(page.getByRole('search', { name: 'Filtri dispositivi' })).toBeVisible();
    await expect(searchBox(page, 'Cerca')).toHaveAttribute('placeholder', 'Numero di serie o etichetta');
    await expect(page.getByRole('table', { name: 'Dispositivi' })).toContainText(
      'Nessun dispositivo trovato',
    );
  });
});
