import { expect, test } from '@playwright/test';
import { apiCreateCustomer, apiCreateDevice, apiCreateUser, apiProductIdOfType, apiToken } from './api.ts';
import { bodyRows, unique } from './customers-helpers.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/**
 * History panels name what an entry refers to by id, as the rest of the app does: a product by its
 * type, a customer by name, a role by its name (they used to read "Tipo di prodotto: → 2", "Id
 * cliente: → 7"). In Italian.
 */
test('a device history names its product type and customers in words', async ({ page, request }) => {
  const token = await apiToken(request);
  const headers = { Authorization: `Bearer ${token}` };
  const first = await apiCreateCustomer(request, token, `E2E History From ${unique()}`);
  const second = await apiCreateCustomer(request, token, `E2E History To ${unique()}`);
  const serial = `H${unique()}`.slice(0, 8);
  const device = await apiCreateDevice(request, token, first.id, {
    device_serial: serial,
    label: 'History',
    product_id: await apiProductIdOfType(request, token, 1),
  });
  const changed = await request.patch(`/api/v1/customers/${first.id}/devices/${device.id}`, {
    headers,
    multipart: {
      device_serial: serial,
      label: 'History',
      product_id: await apiProductIdOfType(request, token, 2),
    },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  const assigned = await request.post(`/api/v1/device/${device.id}/assign-to/${second.id}`, { headers });
  expect(assigned.status(), await assigned.text()).toBe(200);

  await loginAs(page, DEMO.super);
  await inItalian(page);
  await page.goto(`/customers/${second.id}/devices/${device.id}`);
  const rows = bodyRows(page.getByRole('region', { name: 'Cronologia' }).getByRole('table'));
  await expect(rows).toHaveCount(3);
  // Newest first: the reassignment, the type change, the creation.
  await expect(rows.nth(0)).toContainText(`Cliente: ${first.name} → ${second.name}`);
  await expect(rows.nth(1)).toContainText('Tipo di prodotto: Tappo sterilizzante → Vasca sterilizzante');
  await expect(rows.nth(2)).toContainText(`Cliente: (vuoto) → ${first.name}`);
  await expect(rows.nth(2)).toContainText('Tipo di prodotto: (vuoto) → Tappo sterilizzante');
});

test("a user's history names its role in words", async ({ page, request }) => {
  const token = await apiToken(request);
  const customer = await apiCreateCustomer(request, token, `E2E History Role ${unique()}`);
  const user = await apiCreateUser(request, token, customer.id, {
    name: 'Ruolo in parole',
    email: `e2e.history.role.${unique()}@example.com`,
    password: 'e2e-history-password',
  });

  await loginAs(page, DEMO.super);
  await inItalian(page);
  await page.goto(`/customers/${customer.id}/users/${user.id}`);
  const history = page.getByRole('region', { name: 'Cronologia' });
  await expect(bodyRows(history.getByRole('table'))).toHaveCount(1);
  await expect(history).toContainText('Ruolo: (vuoto) → Cliente');
  await expect(history).not.toContainText('CUSTOMER');
});
