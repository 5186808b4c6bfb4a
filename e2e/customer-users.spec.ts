import { expect, type Page, test } from '@playwright/test';
import { apiCreateCustomer, apiCreateUser, apiToken } from './api.ts';
import { bodyRows, expectFieldError, toastWith, unique } from './customers-helpers.ts';
import { DEMO, emailField, loginAs, loginButton, passwordField, submitLogin } from './fixtures.ts';

const form = (page: Page) => page.getByRole('form', { name: 'User data' });
const field = (page: Page, label: RegExp) => form(page).getByLabel(label);
const nameField = (page: Page) => field(page, /^Name/);
const userEmail = (page: Page) => field(page, /^Email \(used for login\)/);
const newPassword = (page: Page) => field(page, /^New password/);
const repeatPassword = (page: Page) => field(page, /^Repeat new password/);
const saveButton = (page: Page) => form(page).getByRole('button', { name: 'Save' });
const usersTable = (page: Page) => page.getByRole('table', { name: 'Users of the customer' });

const PASSWORD = 'e2e-user-password';

test.describe('customer users', () => {
  test('add a user to a new customer (validation, "User created", edit page), then log in as that user', async ({
    page,
    browser,
    request,
  }) => {
    const token = await apiToken(request);
    const customer = await apiCreateCustomer(request, token, `E2E Users Clinic ${unique()}`);
    const email = `e2e.user.${unique()}@example.com`;

    await loginAs(page, DEMO.admin);
    await page.goto(`/customers/${customer.id}/users`);
    await expect(page.getByRole('tab', { name: /Users/ })).toHaveText('Users0');
    await expect(page.getByText('No users found')).toBeVisible();
    await page.getByRole('link', { name: 'New user' }).click();
    await expect(page).toHaveURL(`/customers/${customer.id}/users/new`);
    await expect(page.getByRole('heading', { name: 'New user' })).toBeVisible();

    // Invalid submit: the alert and every message (docs/product.md §5); a new user needs a password.
    await saveButton(page).click();
    await expect(toastWith(page, 'Verify inserted data')).toBeVisible();
    await expectFieldError(nameField(page), "User's name is mandatory");
    await expectFieldError(userEmail(page), 'Email address is mandatory');
    await expectFieldError(newPassword(page), 'Password is mandatory');
    await newPassword(page).fill('short');
    await newPassword(page).blur();
    await expectFieldError(newPassword(page), 'Password too short');
    await newPassword(page).fill(PASSWORD);
    await repeatPassword(page).fill('something-else');
    await repeatPassword(page).blur();
    await expectFieldError(repeatPassword(page), 'Passwords must match');

    // A client's users are customers: no other role to pick.
    await expect(form(page).getByRole('combobox', { name: 'Role' })).toHaveText('Customer');
    await expect(form(page).getByRole('combobox', { name: 'Role' })).toHaveAttribute('aria-disabled', 'true');

    // The email of another user is refused by the server, shown on the field.
    await nameField(page).fill('  E2E Clinic User  ');
    await userEmail(page).fill(DEMO.customer);
    await repeatPassword(page).fill(PASSWORD);
    await repeatPassword(page).blur();
    await saveButton(page).click();
    await expectFieldError(userEmail(page), 'Email address is already used by another user');
    await expect(toastWith(page, 'Email address is already used by another user')).toBeVisible();
    await expect(page).toHaveURL(`/customers/${customer.id}/users/new`);

    await userEmail(page).fill(email);
    await saveButton(page).click();
    await expect(toastWith(page, 'User created')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}/users/\\d+$`));
    const userId = Number(new URL(page.url()).pathname.split('/').pop());
    await expect(page.getByRole('heading', { name: `User code ${userId}` })).toBeVisible();
    await expect(page.locator('[data-role="CUSTOMER"]')).toHaveClass(/MuiChip-colorSuccess/);
    await expect(nameField(page)).toHaveValue('E2E Clinic User');
    await expect(userEmail(page)).toHaveValue(email);
    // An existing user's password fields are optional.
    await expect(newPassword(page)).toHaveValue('');
    await expect(page.getByRole('tab', { name: /Users/ })).toHaveText('Users1');

    // The list shows it; a row click opens it.
    await page.getByRole('tab', { name: /Users/ }).click();
    await expect(bodyRows(usersTable(page))).toHaveCount(1);
    await expect(bodyRows(usersTable(page)).first()).toContainText('E2E Clinic User');
    await expect(bodyRows(usersTable(page)).first()).toContainText(email);
    await bodyRows(usersTable(page)).first().getByRole('cell').nth(1).click();
    await expect(page).toHaveURL(`/customers/${customer.id}/users/${userId}`);

    // Rename without touching the password: "User updated".
    await nameField(page).fill('E2E Clinic User Renamed');
    await saveButton(page).click();
    await expect(toastWith(page, 'User updated')).toBeVisible();

    // The new user logs in (own browser context: own localStorage).
    const context = await browser.newContext();
    const userPage = await context.newPage();
    await userPage.goto('/login');
    await submitLogin(userPage, email, PASSWORD);
    await expect(
      userPage.getByRole('heading', { level: 1, name: 'Welcome, E2E Clinic User Renamed' }),
    ).toBeVisible();
    await context.close();
  });

  test("disable ends the user's open session at once; enable lets them log in again", async ({
    page,
    browser,
    request,
  }) => {
    const token = await apiToken(request);
    const customer = await apiCreateCustomer(request, token, `E2E Disable Clinic ${unique()}`);
    const email = `e2e.disable.${unique()}@example.com`;
    const user = await apiCreateUser(request, token, customer.id, {
      name: 'E2E Disable Me',
      email,
      password: PASSWORD,
    });

    // The user is logged in elsewhere.
    const context = await browser.newContext();
    const userPage = await context.newPage();
    await userPage.goto('/login');
    await submitLogin(userPage, email, PASSWORD);
    await expect(userPage.getByRole('heading', { level: 1, name: 'Welcome, E2E Disable Me' })).toBeVisible();

    await loginAs(page, DEMO.super);
    await page.goto(`/customers/${customer.id}/users/${user.id}`);
    await expect(page.getByRole('button', { name: 'Enable' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Disable' }).click();
    const disableDialog = page.getByRole('dialog', { name: 'Disable this user?' });
    await expect(disableDialog).toContainText('PDF files will be deleted');
    // Cancel changes nothing.
    await disableDialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(disableDialog).toBeHidden();
    await page.getByRole('button', { name: 'Disable' }).click();
    await disableDialog.getByRole('button', { name: 'Disable' }).click();
    await expect(toastWith(page, 'User disabled')).toBeVisible();
    await expect(page.getByText('Disabled', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Enable' })).toBeVisible();

    // The open session is refused on its next call: "Session expired", back to login.
    await userPage.reload();
    await expect(userPage).toHaveURL(/\/login/);
    await expect(toastWith(userPage, 'Session expired. Log in again')).toBeVisible();
    await submitLogin(userPage, email, PASSWORD);
    await expect(toastWith(userPage, 'Login failed')).toBeVisible();

    // The list says active No.
    await page.getByRole('tab', { name: /Users/ }).click();
    await expect(bodyRows(usersTable(page)).first().getByRole('cell').nth(2)).toHaveText('NO');
    await bodyRows(usersTable(page)).first().getByRole('cell').first().click();

    await page.getByRole('button', { name: 'Enable' }).click();
    const enableDialog = page.getByRole('dialog', { name: 'Enable this user?' });
    await expect(enableDialog).toContainText('will be able to log in again');
    await enableDialog.getByRole('button', { name: 'Enable' }).click();
    await expect(toastWith(page, 'User enabled')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Disable' })).toBeVisible();

    await emailField(userPage).fill(email);
    await passwordField(userPage).fill(PASSWORD);
    await loginButton(userPage).click();
    await expect(userPage.getByRole('heading', { level: 1, name: 'Welcome, E2E Disable Me' })).toBeVisible();
    await context.close();
  });

  test('staff roles on the manufacturer: a super admin may give every staff role, an admin only customer care', async ({
    page,
  }) => {
    await loginAs(page, DEMO.super);
    await page.goto('/customers/1/users/new');
    await form(page).getByRole('combobox', { name: 'Role' }).click();
    await expect(page.getByRole('option')).toHaveText(['Customer care', 'Admin', 'Super admin']);
    await page.keyboard.press('Escape');

    const context = await page.context().browser()?.newContext();
    if (!context) throw new Error('no browser');
    const adminPage = await context.newPage();
    await loginAs(adminPage, DEMO.admin);
    await adminPage.goto('/customers/1/users');
    // Staff users carry their role badge colours.
    await expect(adminPage.locator('[data-role="SUPER_ADMIN"]').first()).toHaveClass(/MuiChip-colorError/);
    await expect(adminPage.locator('[data-role="ADMIN"]').first()).toHaveClass(/MuiChip-colorWarning/);
    await expect(adminPage.locator('[data-role="CUSTOMER_CARE"]').first()).toHaveClass(/MuiChip-colorInfo/);
    await adminPage.goto('/customers/1/users/new');
    await expect(form(adminPage).getByRole('combobox', { name: 'Role' })).toHaveText('Customer care');
    await expect(form(adminPage).getByRole('combobox', { name: 'Role' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await context.close();
  });

  test('customer care sees users without create, save or disable', async ({ page }) => {
    await loginAs(page, DEMO.care);
    await page.goto('/customers/2/users');
    await expect(bodyRows(usersTable(page)).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'New user' })).toHaveCount(0);
    await bodyRows(usersTable(page)).first().getByRole('cell').first().click();
    await expect(page).toHaveURL(/\/customers\/2\/users\/\d+$/);
    await expect(nameField(page)).toBeVisible();
    await expect(saveButton(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^(Disable|Enable)$/ })).toHaveCount(0);
  });
});
