/**
 * The specs' way to the API for the data they need but do not test through the screens: a login's
 * token, the bearer headers of a token or of the page's own session, a call's data, customers, users
 * and devices made with unique names (so runs and specs never collide), and a device's signed records.
 */
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { DEMO, DEMO_PASSWORD } from './fixtures.ts';

/** A bearer token, or the headers that carry one. */
export type ApiAuth = string | Record<string, string>;

/** The Authorization header of a bearer token. */
export const authHeaders = (auth: ApiAuth): Record<string, string> =>
  typeof auth === 'string' ? { Authorization: `Bearer ${auth}` } : auth;

/** Logs in through the API; answers the bearer token. */
export async function apiToken(
  request: APIRequestContext,
  email: string = DEMO.super,
  password = DEMO_PASSWORD,
): Promise<string> {
  const response = await request.post('/api/v1/auth/login', { multipart: { email, password } });
  expect(response.status(), `login of ${email}`).toBe(200);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

/** The bearer headers of the session the page signed in with. */
export async function sessionHeaders(page: Page): Promise<Record<string, string>> {
  const raw = await page.evaluate(() => localStorage.getItem('uvtrace.session'));
  const { token } = JSON.parse(raw ?? '{}') as { token?: string };
  expect(token, 'a session token').toBeTruthy();
  return authHeaders(token as string);
}

/** GET `url` (200 expected); answers the envelope's data. */
export async function apiData<T>(request: APIRequestContext, url: string, auth: ApiAuth): Promise<T> {
  const response = await request.get(url, { headers: authHeaders(auth) });
  expect(response.status(), url).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

type Created = { id: number; name: string };

export async function apiCreateCustomer(
  request: APIRequestContext,
  auth: ApiAuth,
  name: string,
  extra: Record<string, string> = {},
): Promise<Created> {
  const response = await request.post('/api/v1/customers', {
    headers: authHeaders(auth),
    multipart: { name, country: 'IT', ...extra },
  });
  expect(response.status(), `create customer ${name}`).toBe(201);
  return ((await response.json()) as { data: Created }).data;
}

export async function apiCreateUser(
  request: APIRequestContext,
  auth: ApiAuth,
  customerId: number,
  values: { name: string; email: string; password: string },
): Promise<Created> {
  const response = await request.post(`/api/v1/customers/${customerId}/users`, {
    headers: authHeaders(auth),
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

/** The id of a product of this type (1 plug, 2 bath). */
export async function apiProductIdOfType(
  request: APIRequestContext,
  auth: ApiAuth,
  type: 1 | 2,
): Promise<string> {
  const { data } = await apiData<{ data: Array<{ id: number; type: number }> }>(
    request,
    '/api/v1/products?sortBy=type',
    auth,
  );
  const product = data.find((row) => row.type === type);
  expect(product, `a product of type ${type}`).toBeTruthy();
  return String(product?.id);
}

export async function apiCreateDevice(
  request: APIRequestContext,
  auth: ApiAuth,
  customerId: number,
  values: { device_serial: string; label: string; product_id: string },
): Promise<Created> {
  const response = await request.post(`/api/v1/customers/${customerId}/devices`, {
    headers: authHeaders(auth),
    multipart: values,
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: Created }).data;
}

/** Posts a device's signed token to the ingestion call (200 expected); answers the stored records. */
export async function apiIngest<T = { id: number }>(request: APIRequestContext, token: string): Promise<T[]> {
  const response = await request.post('/api/v1/ingest/sterilizations', { data: { token } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: T[] }).data;
}
