import { expect, type Page, test } from '@playwright/test';
import { apiCreateCustomer, apiToken } from './api.ts';
import { bodyRows, expectSearch, toastWith, unique } from './customers-helpers.ts';
import { DEMO, loginAs, mainMenu, switchToItalian } from './fixtures.ts';

const form = (page: Page) => page.getByRole('form', { name: /^(Customer data|Dati del cliente)$/ });
const history = (page: Page) => page.getByRole('region', { name: /^(History|Cronologia)$/ });
const auditTable = (page: Page) => page.getByRole('table', { name: /^(Audit trail|Registro attività)$/ });
const filters = (page: Page) =>
  page.getByRole('search', { name: /^(Audit trail filters|Filtri del registro attività)$/ });

/**
 * The audit trail end to end: an edit shows in the customer's history panel and in the audit view,
 * whose filters live in the URL (a reload keeps them); Italian once. The spec's customer is its own
 * (unique name); the entries it leaves are the point of an append-only trail.
 */
test.describe('audit trail', () => {
  test('an edit appears in the history panel and in the filtered audit view, which survives a reload', async ({
    page,
    request,
  }) => {
    const token = await apiToken(request, DEMO.admin);
    const name = `E2E Audit ${unique()}`;
    const customer = await apiCreateCustomer(request, token, name, { phone: '0101' });

    await loginAs(page, DEMO.admin);
    await page.goto(`/customers/${customer.id}`);
    // The creation is already there.
    await expect(bodyRows(history(page).getByRole('table'))).toHaveCount(1);
    await expect(history(page)).toContainText('Creation');

    await form(page)
      .getByLabel(/^Phone/)
      .fill('0202');
    await form(page).getByRole('button', { name: 'Save' }).click();
    await expect(toastWith(page, 'Customer updated')).toBeVisible();
    const rows = bodyRows(history(page).getByRole('table'));
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('Update');
    await expect(rows.first()).toContainText(DEMO.admin);
    await expect(rows.first()).toContainText('Phone: 0101 → 0202');

    // From the panel to the audit view, filtered to this customer.
    await history(page).getByRole('link', { name: 'Open in the audit trail' }).click();
    await expect(page).toHaveURL(/\/audit\?/);
    await expectSearch(page, { entityType: 'customer', entityId: String(customer.id), page: '1' });
    await expect(bodyRows(auditTable(page))).toHaveCount(2);

    // A filter typed in the view goes to the URL; a reload keeps it and its result.
    await filters(page).getByLabel('User (id or email)').fill('admin@example');
    await filters(page).getByLabel('User (id or email)').press('Enter');
    await expectSearch(page, {
      entityType: 'customer',
      entityId: String(customer.id),
      actor: 'admin@example',
    });
    await page.reload();
    await expect(filters(page).getByLabel('User (id or email)')).toHaveValue('admin@example');
    await expect(filters(page).getByLabel('Entity id')).toHaveValue(String(customer.id));
    const updated = bodyRows(auditTable(page)).first();
    await expect(updated).toContainText('Update');
    await expect(updated).toContainText('Phone: 0101 → 0202');
    // The entity by its name, linked to its page.
    const entity = updated.getByRole('link', { name: `Customer ${name}` });
    await expect(entity).toHaveAttribute('href', `/customers/${customer.id}`);

    await entity.click();
    await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}$`));
    await page.goBack();

    // Another actor matches nothing; reset clears every filter.
    await filters(page).getByLabel('User (id or email)').fill('super@example');
    await filters(page).getByLabel('User (id or email)').press('Enter');
    await expect(page.getByText('No audit entries found')).toBeVisible();
    await filters(page).getByRole('button', { name: 'Reset', exact: true }).click();
    await expectSearch(page, { entityType: null, entityId: null, actor: null });
    // Unfiltered, the logins show too.
    await expect(bodyRows(auditTable(page)).filter({ hasText: 'Login' }).first()).toBeVisible();
  });

  test('only SUPER_ADMIN and ADMIN get the menu entry and the history panel', async ({ page, request }) => {
    const token = await apiToken(request, DEMO.super);
    const customer = await apiCreateCustomer(request, token, `E2E Audit care ${unique()}`);
    await loginAs(page, DEMO.care);
    await expect(mainMenu(page).getByRole('link', { name: 'Audit trail' })).toHaveCount(0);
    await page.goto(`/customers/${customer.id}`);
    await expect(form(page)).toBeVisible();
    await expect(history(page)).toHaveCount(0);
  });

  test('the audit view and history in Italian', async ({ page }) => {
    await loginAs(page, DEMO.super);
    await switchToItalian(page);
    await page
      .getByRole('navigation', { name: 'Menu principale' })
      .getByRole('link', { name: 'Registro attività' })
      .click();
    await expect(page).toHaveURL(/\/audit/);
    await expect(page.getByRole('heading', { level: 1, name: 'Registro attività' })).toBeVisible();
    await expect(filters(page).getByLabel('Utente (id o email)')).toBeVisible();
    await expect(auditTable(page).getByRole('columnheader')).toHaveText([
      'Data e ora',
      'Utente',
      'Azione',
      'Oggetto',
      'Modifiche',
      'Indirizzo del client',
    ]);
    // This very login is the newest entry.
    await expect(bodyRows(auditTable(page)).first()).toContainText('Accesso');
    await expect(bodyRows(auditTable(page)).first()).toContainText('Super amministratore');
    // Whom it is about, by name and linked to their page.
    await expect(
      bodyRows(auditTable(page))
        .first()
        .getByRole('link', { name: /^Utente \S/ }),
    ).toHaveAttribute('href', /^\/customers\/\d+\/users\/\d+$/);

    // A customer nobody has edited: the panel says so, in Italian.
    await page.goto('/customers/2');
    await expect(history(page).getByRole('heading', { name: 'Cronologia' })).toBeVisible();
    await expect(history(page)).toContainText('Ancora nessuna voce registrata');
    await expect(history(page).getByRole('link', { name: 'Apri nel registro attività' })).toHaveAttribute(
      'href',
      '/audit?entityType=customer&entityId=2&page=1',
    );
  });
});
