/**
 * Shared helpers for the end-to-end suite. Every test gets a fresh browser context (empty
 * localStorage), so only the server's database is shared between tests: specs must leave it as found.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'demo-password';

export const DEMO = {
  super: 'super@example.com',
  admin: 'admin@example.com',
  care: 'care@example.com',
  customer: 'customer@example.com',
} as const;

/** Fields are labelled "Email *" when required: match the label loosely. */
export const emailField = (page: Page): Locator => page.getByLabel(/^Email/);
export const passwordField = (page: Page): Locator => page.getByLabel(/^Password/);
export const loginButton = (page: Page): Locator => page.getByRole('button', { name: 'Log in', exact: true });
export const mainMenu = (page: Page): Locator => page.getByRole('navigation', { name: 'Main menu' });

/** Fills and submits the login form on the current page (which must be /login). */
export async function submitLogin(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  await expect(loginButton(page)).toBeEnabled();
  await loginButton(page).click();
}

/** The user stored by the app after login (docs/product.md §1: the session lives in localStorage). */
export async function sessionUser(page: Page): Promise<{ name: string; email: string; role: string }> {
  const raw = await page.evaluate(() => localStorage.getItem('uvtrace.session'));
  expect(raw, 'a session in localStorage').not.toBeNull();
  return (JSON.parse(raw as string) as { user: { name: string; email: string; role: string } }).user;
}

/**
 * Logs in through the login page and waits for the dashboard. Returns the user's display name
 * (the user menu button is named after it).
 */
export async function loginAs(page: Page, email: string, password = DEMO_PASSWORD): Promise<string> {
  await page.goto('/login');
  await submitLogin(page, email, password);
  await expect(page).toHaveURL('/');
  const { name } = await sessionUser(page);
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${name}` })).toBeVisible();
  return name;
}

/** Opens the top-bar user menu and clicks Logout. */
export async function logout(page: Page, name: string): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
}

/**
 * The top bar's language switch to Italian, waiting until the choice is made: the Italian catalogue
 * loads first and only then is the choice stored, so a page opened at once could still be English.
 */
export async function switchToItalian(page: Page): Promise<void> {
  const italian = page.getByRole('button', { name: 'IT', exact: true });
  await italian.click();
  await expect(italian).toHaveAttribute('aria-pressed', 'true');
}

/** From the next page load on, the app in Italian (the choice the language switch stores). */
export async function inItalian(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem('uvtrace.locale', 'it'));
}

type RecordRow = { id: number; blockchain_data: { blockchain_data_block: { status: string } } | null };

/** Waits until the newest record of Clinica San Marco (blockchain enabled) is anchored: MINED or FINAL. */
export async function waitForMinedRecord(page: Page): Promise<number> {
  const raw = await page.evaluate(() => localStorage.getItem('uvtrace.session'));
  const { token } = JSON.parse(raw ?? '{}') as { token?: string };
  let id = 0;
  await expect
    .poll(
      async () => {
        const response = await page.request.get('/api/v1/sterilizations?customerId=2', {
          headers: { Authorization: `Bearer ${token}` },
        });
        const first = ((await response.json()) as { data: { data: RecordRow[] } }).data.data[0];
        id = first?.id ?? 0;
        return first?.blockchain_data?.blockchain_data_block.status ?? 'none';
      },
      { timeout: 60_000, intervals: [500, 1000, 2000] },
    )
    .toMatch(/^(MINED|FINAL)$/);
  return id;
}
