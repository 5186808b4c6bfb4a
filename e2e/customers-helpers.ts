/**
 * API shortcuts for the customer, customer-users and users-list specs: data they need but do not
 * test through the screens (many customers to page through, a user to disable) is made through the
 * API, with unique names so runs and specs never collide.
 */
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { DEMO, DEMO_PASSWORD } from './fixtures.ts';

/** A short unique suffix for this run. */
export const unique = (): string => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export async function apiToken(
  request: APIRequestContext,
  email: string = DEMO.super,
  password = DEMO_PASSWORD,
) {
  const response = await request.post('/api/v1/auth/login', { multipart: { email, password } });
  expect(response.status(), `login of ${email}`).toBe(200);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

type Created = { id: number; name: string };

export async function apiCreateCustomer(
  request: APIRequestContext,
  token: string,
  name: string,
  extra: Record<string, string> = {},
): Promise<Created> {
  const response = await request.post('/api/v1/customers', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { name, country: 'IT', ...extra },
  });
  expect(response.status(), `create customer ${name}`).toBe(201);
  return ((await response.json()) as { data: Created }).data;
}

export async function apiCreateUser(
  request: APIRequestContext,
  token: string,
  customerId: number,
  values: { name: string; email: string; password: string },
): Promise<Created> {
  const response = await request.post(`/api/v1/customers/${customerId}/users`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      name: values.name,
      email: values.email,
      new_password: values.password,
      repeat_new_password: values.password,
    },
  });
  expect(response.status(), `create user ${values.email}`).toBe(201);
  return ((await response.json()) as { data: Created }).data;
}

/** The helper text under a field (MUI links it with aria-describedby). */
export const expectFieldError = (input: Locator, message: string) =>
  expect(input).toHaveAccessibleDescription(message);

/** A toast (alert) with this text. */
export const toastWith = (page: Page, text: string | RegExp): Locator =>
  page.getByRole('alert').filter({ hasText: text });

/** The data rows of the (first) list table, header excluded. */
export const bodyRows = (table: Locator): Locator => table.locator('tbody tr');

/** Texts of column `index` (0-based) of the list's rows. */
export async function columnTexts(table: Locator, index: number): Promise<string[]> {
  return bodyRows(table).evaluateAll(
    (rows, column) => rows.map((row) => row.children[column]?.textContent?.trim() ?? ''),
    index,
  );
}

/** The page's search params have these values, in any order (null: absent). */
export async function expectSearch(page: Page, expected: Record<string, string | null>): Promise<void> {
  await expect
    .poll(() => {
      const params = new URL(page.url()).searchParams;
      return Object.fromEntries(Object.keys(expected).map((key) => [key, params.get(key)]));
    })
    .toEqual(expected);
}

/** The id of a product of this type (1 plug, 2 bath). */
export async function apiProductIdOfType(
  request: APIRequestContext,
  token: string,
  type: 1 | 2,
): Promise<string> {
  const response = await request.get('/api/v1/products?sortBy=type', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const { data } = (await response.json()) as { data: { data: Array<{ id: number; type: number }> } };
  const product = data.data.find((row) => row.type === type);
  expect(product, `a product of type ${type}`).toBeTruthy();
  return String(product?.id);
}

export async function apiCreateDevice(
  request: APIRequestContext,
  token: string,
  customerId: number,
  values: { device_serial: string; label: string; product_id: string },
): Promise<Created> {
  const response = await request.post(`/api/v1/customers/${customerId}/devices`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: values,
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: Created }).data;
}
