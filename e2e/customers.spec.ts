import { expect, type Page, test } from '@playwright/test';
import { apiCreateCustomer, apiToken } from './api.ts';
import {
  bodyRows,
  columnTexts,
  expectFieldError,
  expectSearch,
  toastWith,
  unique,
} from './customers-helpers.ts';
import { DEMO, loginAs, switchToItalian } from './fixtures.ts';

const form = (page: Page) => page.getByRole('form', { name: /^(Customer data|Dati del cliente)$/ });
const field = (page: Page, label: RegExp) => form(page).getByLabel(label);
const customersTable = (page: Page) => page.getByRole('table', { name: /^(Customers|Clienti)$/ });
const saveButton = (page: Page) => form(page).getByRole('button', { name: /^(Save|Salva)$/ });
const tabs = (page: Page) => page.getByRole('tablist');

async function pickCountry(page: Page, search: string, option: string) {
  const country = field(page, /^(Country|Nazione)/);
  await country.fill(search);
  await page.getByRole('option', { name: option }).click();
  await expect(country).toHaveValue(option);
}

test.describe('customers', () => {
  test('create a customer: validation, "Customer created", its page, then "Customer updated"', async ({
    page,
  }) => {
    const name = `E2E Clinic ${unique()}`;
    await loginAs(page, DEMO.super);
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Customers' })
      .click();
    await expect(page).toHaveURL(/\/customers\?page=1&sortBy=name&sortDir=asc$/);
    await page.getByRole('link', { name: 'New customer' }).click();
    await expect(page).toHaveURL('/customers/new');
    await expect(page.getByRole('heading', { level: 1, name: 'Insert a new customer' })).toBeVisible();
    await expect(tabs(page)).toHaveCount(0);

    // An invalid submit makes no call and shows the alert plus each field's message (docs/product.md §5).
    await field(page, /^Email/).fill('not-an-email');
    // Blur first: the helper text that appears on blur moves the button.
    await field(page, /^Email/).blur();
    await saveButton(page).click();
    await expect(toastWith(page, 'Verify inserted data')).toBeVisible();
    await expectFieldError(field(page, /^Name/), 'The customer name is mandatory');
    await expectFieldError(field(page, /^Country/), 'Country is mandatory');
    await expectFieldError(field(page, /^Email/), 'Email address is not valid');
    await expect(page).toHaveURL('/customers/new');

    await field(page, /^Name/).fill(`  ${name}  `);
    await field(page, /^Email/).fill('info@e2e-clinic.example.com');
    await field(page, /^Address/).fill('Via Roma 1');
    await field(page, /^City/).fill('Milano');
    await field(page, /^Postcode/).fill('20100');
    await field(page, /^Phone/).fill('+39 02 1234567');
    await field(page, /^Referrer/).fill('Dr. Rossi');
    // Searchable by name in the current language (or by code).
    await pickCountry(page, 'ital', 'Italy (IT)');
    await form(page).getByRole('checkbox', { name: 'Enable blockchain' }).check();
    await saveButton(page).click();

    await expect(toastWith(page, 'Customer created')).toBeVisible();
    await expect(page).toHaveURL(/\/customers\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    // The name was trimmed; the heading shows it with the code.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${name} code ${id}`);
    await expect(tabs(page).getByRole('tab')).toHaveText(['Anagraphic', 'Users0', 'Devices0', 'Reports']);
    await expect(tabs(page).getByRole('tab', { name: 'Anagraphic' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(field(page, /^Name/)).toHaveValue(name);
    await expect(field(page, /^Country/)).toHaveValue('Italy (IT)');
    await expect(form(page).getByRole('checkbox', { name: 'Enable blockchain' })).toBeChecked();

    await field(page, /^City/).fill('Bergamo');
    await pickCountry(page, 'CH', 'Switzerland (CH)');
    await saveButton(page).click();
    await expect(toastWith(page, 'Customer updated')).toBeVisible();

    // Saved for real: a reload (and the /edit alias) shows the stored values.
    await page.goto(`/customers/${id}/edit`);
    await expect(page).toHaveURL(`/customers/${id}`);
    await expect(field(page, /^City/)).toHaveValue('Bergamo');
    await expect(field(page, /^Country/)).toHaveValue('Switzerland (CH)');
    await expect(field(page, /^Referrer/)).toHaveValue('Dr. Rossi');

    // The users tab, then back to the list.
    await tabs(page).getByRole('tab', { name: /Users/ }).click();
    await expect(page).toHaveURL(`/customers/${id}/users`);
    await expect(page.getByText('No users found')).toBeVisible();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(`/customers/${id}`);
  });

  test('the list sorts, pages and filters through the URL, and a reload keeps it', async ({
    page,
    request,
  }) => {
    const token = await apiToken(request);
    const prefix = `E2E Paging ${unique()}`;
    for (let index = 0; index < 21; index += 1) {
      await apiCreateCustomer(request, token, `${prefix} ${String(index).padStart(2, '0')}`);
    }
    await loginAs(page, DEMO.admin);
    await page.goto('/customers');
    const table = customersTable(page);
    await expect(table.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
    await expect(bodyRows(table)).toHaveCount(20);
    // Paginators above and below the table.
    await expect(page.getByRole('navigation', { name: /^Pagination/ })).toHaveCount(2);

    await table.getByRole('button', { name: 'Name' }).click();
    await expectSearch(page, { sortBy: 'name', sortDir: 'desc' });
    await expect(table.getByRole('columnheader', { name: 'Name' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    const firstDesc = await columnTexts(table, 0);

    await page
      .getByRole('navigation', { name: 'Pagination (bottom)' })
      .getByRole('button', { name: 'Go to page 2' })
      .click();
    await expectSearch(page, { page: '2' });
    await expect(
      page.getByRole('navigation', { name: 'Pagination (top)' }).getByRole('button', { name: 'Page 2' }),
    ).toHaveAttribute('aria-current', 'page');
    await expect.poll(() => columnTexts(table, 0)).not.toEqual(firstDesc);
    const secondPage = await columnTexts(table, 0);

    await page.reload();
    await expectSearch(page, { page: '2', sortBy: 'name', sortDir: 'desc' });
    await expect(table.getByRole('columnheader', { name: 'Name' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect.poll(() => columnTexts(table, 0)).toEqual(secondPage);

    // Back returns to page 1 of the same sort.
    await page.goBack();
    await expectSearch(page, { page: '1', sortBy: 'name', sortDir: 'desc' });
    await expect.poll(() => columnTexts(table, 0)).toEqual(firstDesc);

    // Sort by active: the sort changes and the page goes back to 1.
    await page.goto('/customers?page=2&sortBy=name&sortDir=asc');
    await table.getByRole('button', { name: 'Active' }).click();
    await expectSearch(page, { page: '1', sortBy: 'active', sortDir: 'asc' });

    // A malformed URL falls back to the defaults instead of an error.
    await page.goto('/customers?page=-4&sortBy=drop&sortDir=sideways&filterFrom=2024-13-45');
    await expect(table.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
    await expect(bodyRows(table)).toHaveCount(20);
  });

  test('date filters go to the URL and refetch; reset clears them; download asks for a ticket', async ({
    page,
  }) => {
    await loginAs(page, DEMO.super);
    await page.goto('/customers');
    const table = customersTable(page);
    await expect(bodyRows(table).first()).toBeVisible();

    const listCall = page.waitForRequest(
      (request) =>
        request.url().includes('/api/v1/customers?') && request.url().includes('filterFrom=2020-01-15'),
    );
    const from = page.getByRole('group', { name: 'Sterilizations from' });
    await from.getByRole('spinbutton', { name: 'Year' }).click();
    await page.keyboard.type('20200115');
    // A typed day is applied when the field is left (or with Enter); a calendar pick at once.
    await page.keyboard.press('Tab');
    await listCall;
    await expectSearch(page, { filterFrom: '2020-01-15' });
    await expectSearch(page, { page: '1' });

    await page.goto('/customers?filterFrom=2020-01-15&filterTo=2020-01-16');
    await expect(page.getByRole('group', { name: 'Sterilizations to' })).toContainText('2020');
    // No ok sterilization fell on those two days of 2020: every count is 0.
    await expect.poll(async () => [...new Set(await columnTexts(table, 4))]).toEqual(['0']);

    // The download link carries the range; a click gets a one-time ticket first.
    const download = page.getByRole('link', { name: 'Download ok sterilizations' });
    await expect(download).toHaveAttribute(
      'href',
      '/download/sterilizations-ok?from=2020-01-15&to=2020-01-16',
    );
    const ticketCall = page.waitForResponse((response) => response.url().endsWith('/api/v1/export-tickets'));
    const fileDownload = page.waitForEvent('download');
    await download.click();
    expect((await ticketCall).status()).toBe(201);
    const exportUrl = new URL((await fileDownload).url());
    expect(exportUrl.pathname).toBe('/export/sterilizations-ok');
    expect(exportUrl.searchParams.get('ticket')).toMatch(/.+/);
    expect(exportUrl.searchParams.get('from')).toBe('2020-01-15');
    expect(exportUrl.searchParams.get('to')).toBe('2020-01-16');

    await page.getByRole('button', { name: 'Reset' }).click();
    await expectSearch(page, { page: '1', filterFrom: null, filterTo: null });
    await expect(page.getByRole('button', { name: 'Reset' })).toBeDisabled();
  });

  test('customer care sees the list without create, download or save; row click opens the customer', async ({
    page,
  }) => {
    await loginAs(page, DEMO.care);
    await page.goto('/customers');
    const table = customersTable(page);
    await expect(bodyRows(table).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'New customer' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Download ok sterilizations' })).toHaveCount(0);
    const name = (await columnTexts(table, 0))[0] as string;
    await bodyRows(table).first().getByRole('cell').first().click();
    await expect(page).toHaveURL(/\/customers\/\d+$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
    await expect(field(page, /^Name/)).toHaveValue(name);
    await expect(saveButton(page)).toHaveCount(0);
  });

  test('the customer screens in Italian', async ({ page }) => {
    await loginAs(page, DEMO.super);
    await switchToItalian(page);
    await page.goto('/customers');
    await expect(page.getByRole('heading', { level: 1, name: 'Clienti' })).toBeVisible();
    const table = customersTable(page);
    await expect(table.getByRole('columnheader')).toHaveText([
      'Nome',
      'Blockchain',
      'Dispositivi',
      'Utenti',
      'Sterilizzazioni ok',
      'Attivo',
      'Azioni',
    ]);
    await expect(page.getByRole('button', { name: 'Azzera' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Scarica sterilizzazioni ok' })).toBeVisible();

    await page.getByRole('link', { name: 'Nuovo cliente' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Inserisci un nuovo cliente' })).toBeVisible();
    await saveButton(page).click();
    await expect(toastWith(page, 'Verifica i dati inseriti')).toBeVisible();
    const name = `E2E Clinica ${unique()}`;
    await field(page, /^Nome/).fill(name);
    // Country names follow the language.
    await pickCountry(page, 'germ', 'Germania (DE)');
    await saveButton(page).click();
    await expect(toastWith(page, 'Cliente creato')).toBeVisible();
    await expect(tabs(page).getByRole('tab')).toHaveText([
      'Anagrafica',
      'Utenti0',
      'Dispositivi0',
      'Rapporti',
    ]);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('codice');
    await saveButton(page).click();
    await expect(toastWith(page, 'Cliente aggiornato')).toBeVisible();
    await tabs(page)
      .getByRole('tab', { name: /Utenti/ })
      .click();
    await expect(page.getByText('Nessun utente trovato')).toBeVisible();
  });
});
