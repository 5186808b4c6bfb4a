import { expect, type Page, test } from '@playwright/test';
import { apiCreateCustomer, apiToken } from './api.ts';
import { unique } from './customers-helpers.ts';
import { DEMO, inItalian, loginAs } from './fixtures.ts';

/*
 * Routes as the router intends: an id in the path is parsed once by its route (anything but
 * a positive integer is not found, which leads to the dashboard as every unknown path does), and a
 * page whose loader fails shows the shared error with a retry.
 */

const dashboardHeading = (page: Page) => page.getByRole('heading', { level: 1, name: /^(Welcome|Benvenut)/ });

test('an id that is not a positive integer is not found: the dashboard', async ({ page }) => {
  await loginAs(page, DEMO.super);
  for (const path of [
    '/customers/abc',
    '/customers/0',
    '/customers/1.5',
    '/customers/1/users/abc',
    '/customers/1/devices/-3',
  ]) {
    await page.goto(path);
    await expect(page, path).toHaveURL('/');
    await expect(dashboardHeading(page), path).toBeVisible();
  }
});

test('a customer page whose data fails to load says so, in Italian too, and Retry loads it', async ({
  page,
  request,
}) => {
  const name = `E2E Route error ${unique()}`;
  const customer = await apiCreateCustomer(request, await apiToken(request), name);
  await loginAs(page, DEMO.super);
  await inItalian(page);
  const path = `/api/v1/customers/${customer.id}`;
  const matches = (url: URL) => url.pathname === path;
  await page.route(matches, (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ status: 'error', message: 'server_error' }),
    }),
  );

  await page.goto(`/customers/${customer.id}`);
  // The page's own alert (a toast may say the same): the one that offers to retry.
  const failure = page
    .getByRole('alert')
    .filter({ hasText: 'Si è verificato un errore, ci scusiamo' })
    .filter({ has: page.getByRole('button', { name: 'Riprova' }) });
  await expect(failure).toBeVisible({ timeout: 10_000 });

  await page.unroute(matches);
  await failure.getByRole('button', { name: 'Riprova' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
});
