import { expect, type Page, test } from '@playwright/test';
import { DEMO, DEMO_PASSWORD, loginAs, logout, sessionUser, switchToItalian } from './fixtures.ts';

/*
 * The successful update changes care@example.com's name and password and puts both back at the end
 * (afterAll repairs them through the API should the test fail half way), so other spec files still
 * find the demo data as seeded.
 */
const NEW_PASSWORD = 'e2e-new-password-1';
const NEW_NAME = 'Care E2E Renamed';
/** care@example.com's seeded name, read at login by the update test. */
let careName: string | undefined;

const field = (page: Page, label: RegExp) =>
  page.getByRole('form', { name: /^(Profile data|Dati del profilo)$/ }).getByLabel(label);
const nameField = (page: Page) => field(page, /^(User name|Nome utente)/);
const emailField = (page: Page) => field(page, /^Email/);
const currentPasswordField = (page: Page) => field(page, /^(Current password|Password attuale)/);
const newPasswordField = (page: Page) => field(page, /^(New password|Nuova password)/);
const repeatField = (page: Page) => field(page, /^(Repeat new password|Ripeti la nuova password)/);
const saveButton = (page: Page) => page.getByRole('button', { name: /^(Save|Salva)$/ });

/** The helper text under a field (MUI links it with aria-describedby). */
const expectFieldError = async (input: ReturnType<typeof field>, message: string) =>
  expect(input).toHaveAccessibleDescription(message);

async function saveProfile(
  page: Page,
  values: { name: string; email: string; password: string; currentPassword: string },
) {
  await nameField(page).fill(values.name);
  await emailField(page).fill(values.email);
  await currentPasswordField(page).fill(values.currentPassword);
  await newPasswordField(page).fill(values.password);
  await repeatField(page).fill(values.password);
  await expect(saveButton(page)).toBeEnabled();
  await saveButton(page).click();
  const dialog = page.getByRole('dialog', { name: 'Profile updated' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Your changes will be visible after your next login.');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toBeHidden();
}

test.describe('profile', () => {
  test('shows the user and validates every field, in English and Italian', async ({ page }) => {
    const name = await loginAs(page, DEMO.admin);
    await page.goto('/profile');
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(nameField(page)).toHaveValue(name);
    await expect(emailField(page)).toHaveValue(DEMO.admin);
    await expect(page.getByLabel(/^Email \(used for login\)/)).toBeVisible();
    await expect(currentPasswordField(page)).toHaveValue('');
    await expect(newPasswordField(page)).toHaveValue('');
    await expectFieldError(currentPasswordField(page), 'Needed to change your e-mail or password');
    // Every password field may stay empty: the name alone can change.
    await expect(saveButton(page)).toBeEnabled();

    await nameField(page).fill('   ');
    await emailField(page).fill('not-an-email');
    await newPasswordField(page).fill('short');
    await repeatField(page).fill('short');
    await nameField(page).focus();
    await expectFieldError(nameField(page), 'user name is required');
    await expectFieldError(emailField(page), 'email is mandatory');
    await expectFieldError(newPasswordField(page), 'password is too short');
    await expectFieldError(repeatField(page), '');
    await expect(saveButton(page)).toBeDisabled();

    await newPasswordField(page).fill('long-enough-1');
    await expectFieldError(newPasswordField(page), 'password must match');
    await expectFieldError(repeatField(page), 'password confirmation is mandatory');
    await currentPasswordField(page).focus();
    await nameField(page).focus();
    await expectFieldError(
      currentPasswordField(page),
      'Enter your current password to change your e-mail or password',
    );
    // The password rules of docs/accounts.md: common passwords, the e-mail, the name.
    const refusals: [password: string, message: string][] = [
      ['Password123', 'This password is too common: choose another one'],
      [`my-${DEMO.admin}`, "The password must not contain the account's e-mail address"],
      [name, "The password must not be the account holder's name"],
      ['x'.repeat(129), 'The password is too long (at most 128 characters)'],
    ];
    for (const [password, message] of refusals) {
      await newPasswordField(page).fill(password);
      await repeatField(page).fill(password);
      await emailField(page).fill(DEMO.admin);
      await nameField(page).fill(name);
      await expectFieldError(newPasswordField(page), message);
    }
    await newPasswordField(page).fill('');
    await repeatField(page).fill('');
    await emailField(page).fill('');
    await expectFieldError(emailField(page), 'email is mandatory');

    await switchToItalian(page);
    await expect(page.getByRole('form', { name: 'Dati del profilo' })).toBeVisible();
    await nameField(page).fill('   ');
    await expectFieldError(nameField(page), 'il nome utente è obbligatorio');
    await expectFieldError(emailField(page), "l'email è obbligatoria");
    await newPasswordField(page).fill('corta');
    await repeatField(page).fill('corta');
    await expectFieldError(newPasswordField(page), 'la password è troppo corta');
    await newPasswordField(page).fill('abbastanza-lunga');
    await expectFieldError(newPasswordField(page), 'le password devono coincidere');
    await expectFieldError(
      currentPasswordField(page),
      'Inserisci la password attuale per cambiare email o password',
    );
    await newPasswordField(page).fill('password123');
    await repeatField(page).fill('password123');
    await expectFieldError(newPasswordField(page), "Questa password è troppo comune: scegline un'altra");
    await expect(page.getByRole('button', { name: 'Salva', exact: true })).toBeDisabled();

    // Fixing every field enables saving (nothing is saved here).
    await nameField(page).fill(name);
    await emailField(page).fill(DEMO.admin);
    await newPasswordField(page).fill('abbastanza-lunga');
    await repeatField(page).fill('abbastanza-lunga');
    await currentPasswordField(page).fill('qualcosa');
    await expect(page.getByRole('button', { name: 'Salva', exact: true })).toBeEnabled();
  });

  test('a wrong current password changes nothing and says so on its field', async ({ page }) => {
    const name = await loginAs(page, DEMO.admin);
    await page.goto('/profile');
    await expect(nameField(page)).toHaveValue(name);
    await currentPasswordField(page).fill('not-my-password');
    await newPasswordField(page).fill('e2e-never-set-1');
    await repeatField(page).fill('e2e-never-set-1');
    await saveButton(page).click();
    await expectFieldError(currentPasswordField(page), 'The current password is not correct');
    await expect(page.getByRole('dialog', { name: 'Profile updated' })).toBeHidden();
    await logout(page, name);
    expect(await loginAs(page, DEMO.admin)).toBe(name);
  });

  test('a successful update shows the "profile updated" popup; the new password works at the next login', async ({
    page,
  }) => {
    const originalName = await loginAs(page, DEMO.care);
    careName = originalName;
    await page.goto('/profile');
    await expect(emailField(page)).toHaveValue(DEMO.care);

    await saveProfile(page, {
      name: NEW_NAME,
      email: DEMO.care,
      password: NEW_PASSWORD,
      currentPassword: DEMO_PASSWORD,
    });
    await expect(page).toHaveURL('/profile');
    // The session made the change stays valid.
    await page.reload();
    await expect(emailField(page)).toHaveValue(DEMO.care);
    await expect(nameField(page)).toHaveValue(NEW_NAME);

    await logout(page, originalName);
    await expect(page).toHaveURL('/login');

    // The old password no longer works; the new one does, and the new name shows after login.
    await page.getByLabel(/^Email/).fill(DEMO.care);
    await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Login failed' })).toBeVisible();

    const renamed = await loginAs(page, DEMO.care, NEW_PASSWORD);
    expect(renamed).toBe(NEW_NAME);
    expect((await sessionUser(page)).email).toBe(DEMO.care);

    // Put the demo account back as it was.
    await page.goto('/profile');
    await expect(nameField(page)).toHaveValue(NEW_NAME);
    await saveProfile(page, {
      name: originalName,
      email: DEMO.care,
      password: DEMO_PASSWORD,
      currentPassword: NEW_PASSWORD,
    });
    await logout(page, NEW_NAME);
    expect(await loginAs(page, DEMO.care)).toBe(originalName);
  });

  test.afterAll(async ({ playwright, baseURL }) => {
    // Repair care@example.com if the update test stopped after changing the password.
    const api = await playwright.request.newContext({ baseURL });
    try {
      const login = await api.post('/api/v1/auth/login', {
        multipart: { email: DEMO.care, password: NEW_PASSWORD },
      });
      if (login.status() !== 200 || !careName) return;
      const token = (await login.json()).data.token as string;
      await api.put('/api/v1/auth/me', {
        headers: { Authorization: `Bearer ${token}` },
        multipart: {
          name: careName,
          email: DEMO.care,
          current_password: NEW_PASSWORD,
          new_password: DEMO_PASSWORD,
          repeat_new_password: DEMO_PASSWORD,
        },
      });
      await api.post('/api/v1/auth/logout', { headers: { Authorization: `Bearer ${token}` } });
    } finally {
      await api.dispose();
    }
  });
});
