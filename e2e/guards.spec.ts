import { expect, test } from '@playwright/test';
import { DEMO, loginAs, loginButton, logout, mainMenu, submitLogin, switchToItalian } from './fixtures.ts';

test.describe('route guards and redirects, logged out', () => {
  test('the dashboard sends a guest to login', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login(\?|$)/);
    await expect(loginButton(page)).toBeVisible();
    await expect(mainMenu(page)).toHaveCount(0);
  });

  test('a protected page sends a guest to login and back to that page after login', async ({ page }) => {
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/);
    await submitLogin(page, DEMO.admin);
    await expect(page).toHaveURL('/profile');
    await expect(page.getByRole('form', { name: 'Profile data' })).toBeVisible();
  });

  test('an unknown path sends a guest to /, hence to login', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/login(\?|$)/);
    await expect(loginButton(page)).toBeVisible();
  });
});

test.describe('route guards and redirects, logged in', () => {
  test('login, /dashboard and unknown paths all lead to the dashboard', async ({ page }) => {
    const name = await loginAs(page, DEMO.admin);
    const heading = page.getByRole('heading', { level: 1, name: `Welcome, ${name}` });

    await page.goto('/login');
    await expect(page).toHaveURL('/');
    await expect(heading).toBeVisible();

    await page.goto('/dashboard');
    await expect(page).toHaveURL('/');
    await expect(heading).toBeVisible();

    await page.goto('/no/such/page');
    await expect(page).toHaveURL('/');
    await expect(heading).toBeVisible();
  });

  test('logout goes to login and protected pages then redirect to login', async ({ page }) => {
    const name = await loginAs(page, DEMO.admin);
    await logout(page, name);
    await expect(page).toHaveURL('/login');
    await expect(loginButton(page)).toBeVisible();
    await expect(mainMenu(page)).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('button', { name })).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('uvtrace.session'))).toBeNull();

    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/);
    await page.goto('/');
    await expect(page).toHaveURL(/\/login(\?|$)/);
  });

  test('the token is revoked on the server at logout', async ({ page }) => {
    const name = await loginAs(page, DEMO.admin);
    const token = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('uvtrace.session') ?? '{}') as { token?: string }).token,
    );
    expect(token).toBeTruthy();
    const before = await page.request.get('/api/v1/auth/me', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(before.status()).toBe(200);

    await logout(page, name);
    await expect(page).toHaveURL('/login');
    await expect
      .poll(async () => {
        const after = await page.request.get('/api/v1/auth/me', {
          headers: { Authorization: `Bearer ${token}` },
        });
        return after.status();
      })
      .toBe(401);
  });
});

test.describe('pages the session does not grant', () => {
  test('a customer user on staff pages sees the not-authorised view, in either language, and no list', async ({
    page,
  }) => {
    await loginAs(page, DEMO.customer);
    const listCalls: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/v1\/(customers|users|products|devices|audit)(\?|$)/.test(request.url()))
        listCalls.push(request.url());
    });
    for (const path of [
      '/customers',
      '/customers/new',
      '/customers/2',
      '/users',
      '/products',
      '/devices',
      '/audit',
    ]) {
      await page.goto(path);
      await expect(page.getByText('You are not allowed to see this page'), path).toBeVisible();
      await expect(page.getByRole('table'), path).toHaveCount(0);
    }
    // Nothing was asked of the server for them (the server would refuse anyway: contract tests).
    expect(listCalls).toEqual([]);
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await expect(page).toHaveURL('/');

    // The pages it does grant open as usual.
    await page.goto('/sterilizations');
    await expect(page.getByRole('heading', { level: 1, name: 'Sterilizations' })).toBeVisible();
    await page.goto('/certificates');
    await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible();

    await switchToItalian(page);
    await page.goto('/users');
    await expect(page.getByText('Non hai i permessi per vedere questa pagina')).toBeVisible();
  });

  test('customer care has no audit trail, but the customer pages', async ({ page }) => {
    await loginAs(page, DEMO.care);
    await page.goto('/audit');
    await expect(page.getByText('You are not allowed to see this page')).toBeVisible();
    await page.goto('/customers');
    await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  });
});
