import { expect, type Page, test } from '@playwright/test';
import { apiCreateCustomer, apiToken } from './api.ts';
import { unique } from './customers-helpers.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/**
 * The device page's copy buttons (components/copy-button): a generated private key, a test JWT and the
 * ingestion URL a device posts its token to, which the page names. On a 390 px phone, in Italian.
 */
test.use({ viewport: { width: 390, height: 844 } });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test('copy the private key, the test JWT and the ingestion URL', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const customer = await apiCreateCustomer(request, await apiToken(request), `E2E Copy ${unique()}`);
  await loginAs(page, DEMO.super);
  await inItalian(page);
  await page.goto(`/customers/${customer.id}/devices/new`);

  await button(page, 'Genera chiavi 2').click();
  const privateKey = page.getByLabel('Chiave privata 2');
  await expect(privateKey).toHaveValue(/^-----BEGIN PRIVATE KEY-----\n/, { timeout: 10_000 });
  await button(page, 'Copia la chiave privata 2').click();
  await expect(page.getByRole('status').filter({ hasText: 'Copiato' })).toHaveCount(1);
  expect(await clipboard(page)).toBe(await privateKey.inputValue());

  await button(page, 'Genera JWT di prova 2').click();
  const jwt = page.getByRole('group', { name: 'JWT di prova 2' });
  const token = (await jwt.getByTestId('jwt-token-2').textContent()) ?? '';
  expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  await jwt.getByRole('button', { name: 'Copia il token' }).click();
  await expect.poll(() => clipboard(page)).toBe(token);

  const url = `${baseURL}/api/v1/ingest/sterilizations`;
  await expect(jwt).toContainText(
    `Un dispositivo invia il suo token come {"token": "…"} con una POST a ${url}`,
  );
  await jwt.getByRole('button', { name: "Copia l'URL" }).click();
  await expect.poll(() => clipboard(page)).toBe(url);
  // The URL named is the one that takes tokens: this device is not saved, so its token is refused.
  const answer = await request.post(url, { data: { token } });
  expect(answer.status()).toBe(401);

  // Nothing sideways at 390 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
