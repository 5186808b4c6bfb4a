import { expect, type Page, test } from '@playwright/test';
import { ACCOUNT_PASSWORD, expectNoAxeViolations, freshAccount } from './accounts-helpers.ts';
import { logout, mainMenu, sessionUser, submitLogin, switchToItalian } from './fixtures.ts';

/**
 * Passkeys (docs/accounts.md §6) in Chromium with the DevTools protocol's virtual authenticator: a
 * platform authenticator that keeps discoverable credentials and verifies its user, answering every
 * navigator.credentials call of the page as a phone or laptop would, with its own keys.
 */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

/** Adds a passkey named `name` from the profile (the user has no second factor yet). */
async function addPasskey(page: Page, name: string): Promise<void> {
  await page.goto('/profile');
  await page
    .getByRole('region', { name: 'Passkeys and security keys' })
    .getByRole('button', { name: 'Add a passkey' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByLabel(/^Name/).fill(name);
  await dialog.getByLabel(/^Current password/).fill(ACCOUNT_PASSWORD);
  await dialog.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Passkey added' })).toBeVisible();
}

test.describe('passkeys', () => {
  test('a user adds a passkey in the profile and signs in with it, after the password and without one', async ({
    page,
    request,
  }) => {
    const account = await freshAccount(request);
    await page.goto('/login');
    const authenticator = await virtualAuthenticator(page);
    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await expect(page).toHaveURL('/');
    await page.goto('/profile');
    const card = page.getByRole('region', { name: 'Passkeys and security keys' });
    await expect(card).toContainText('No passkey yet.');
    await card.getByRole('button', { name: 'Add a passkey' }).click();

    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByLabel(/^Name/).fill('Work laptop');
    await dialog.getByLabel(/^Current password/).fill('not my password');
    await expectNoAxeViolations(page, '[role="dialog"]', 'add a passkey');
    await dialog.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(dialog.getByLabel(/^Current password/)).toHaveAccessibleDescription(
      'The current password is not correct',
    );
    expect(await authenticator.credentials()).toHaveLength(0);
    await dialog.getByLabel(/^Current password/).fill(ACCOUNT_PASSWORD);
    await dialog.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Passkey added' })).toBeVisible();
    await expect(dialog).toBeHidden();
    const list = card.getByRole('list', { name: 'Passkeys and security keys' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).toContainText('Work laptop');
    await expect(list).toContainText('not used yet');
    // A discoverable credential of this site, for this account.
    const [credential] = await authenticator.credentials();
    expect(credential?.isResidentCredential).toBe(true);
    expect(credential?.rpId).toBe('localhost');

    await card.getByRole('button', { name: 'Rename Work laptop' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename the passkey' });
    await rename.getByLabel(/^Name/).fill('Office laptop');
    await expectNoAxeViolations(page, '[role="dialog"]', 'rename a passkey');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect(list).toContainText('Office laptop');
    await expectNoAxeViolations(page, 'main', 'profile with a passkey');

    // The password alone no longer signs in: the second step offers the passkey.
    await logout(page, account.name);
    await expect(page).toHaveURL('/login');
    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    await expect(page.getByText('Confirm with one of your passkeys or security keys.')).toBeVisible();
    await expect(page.getByLabel(/^Code/)).toHaveCount(0);
    await expectNoAxeViolations(page, 'main', 'login second step with a passkey');
    expect(await page.evaluate(() => localStorage.getItem('uvtrace.session'))).toBeNull();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page).toHaveURL('/');
    expect((await sessionUser(page)).email).toBe(account.email);

    // Passwordless: the passkey alone.
    await logout(page, account.name);
    await expect(page).toHaveURL('/login');
    await expectNoAxeViolations(page, 'main', 'login with the passkey button');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL('/');
    expect((await sessionUser(page)).email).toBe(account.email);
    await page.goto('/profile');
    await expect(list).toContainText('last used');
  });

  test('in Italian: a passkey added, used without a password, and removed with the passkey as proof', async ({
    page,
    request,
  }) => {
    const account = await freshAccount(request);
    await page.goto('/login');
    await virtualAuthenticator(page);
    await switchToItalian(page);
    await page.getByLabel(/^Email/).fill(account.email);
    await page.getByLabel(/^Password/).fill(ACCOUNT_PASSWORD);
    await page.getByRole('button', { name: 'Accedi', exact: true }).click();
    await expect(page).toHaveURL('/');
    await page.goto('/profile');
    const card = page.getByRole('region', { name: 'Passkey e chiavi di sicurezza' });
    await expect(card).toContainText('Ancora nessuna passkey.');
    await card.getByRole('button', { name: 'Aggiungi una passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Aggiungi una passkey' });
    await dialog.getByLabel(/^Nome/).fill('Telefono');
    await dialog.getByLabel(/^Password attuale/).fill(ACCOUNT_PASSWORD);
    await expectNoAxeViolations(page, '[role="dialog"]', 'add a passkey (it)');
    await dialog.getByRole('button', { name: 'Aggiungi una passkey' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Passkey aggiunta' })).toBeVisible();
    const list = card.getByRole('list', { name: 'Passkey e chiavi di sicurezza' });
    await expect(list).toContainText('Telefono');
    await expect(list).toContainText('non ancora usata');

    await page.getByRole('banner').getByRole('button', { name: account.name }).click();
    await page.getByRole('menuitem', { name: 'Esci' }).click();
    await expect(page).toHaveURL('/login');
    await page.getByRole('button', { name: 'Accedi con una passkey' }).click();
    await expect(page).toHaveURL('/');
    expect((await sessionUser(page)).email).toBe(account.email);

    // Removing it needs the password and, the passkey being the only factor, the passkey itself.
    await page.goto('/profile');
    await card.getByRole('button', { name: 'Rimuovi Telefono' }).click();
    const remove = page.getByRole('dialog', { name: 'Rimuovere questa passkey?' });
    await expect(remove).toContainText('"Telefono" non ti farà più accedere.');
    await remove.getByLabel(/^Password attuale/).fill(ACCOUNT_PASSWORD);
    await expectNoAxeViolations(page, '[role="dialog"]', 'remove a passkey (it)');
    await remove.getByRole('button', { name: 'Rimuovi', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Passkey rimossa' })).toBeVisible();
    await expect(card).toContainText('Ancora nessuna passkey.');
  });

  test('a signer with a passkey and no app confirms a report signature with it', async ({
    page,
    request,
  }) => {
    const account = await freshAccount(request);
    await page.goto('/login');
    const authenticator = await virtualAuthenticator(page);
    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await expect(page).toHaveURL('/');
    await addPasskey(page, 'Signing key');
    const [before] = await authenticator.credentials();

    await mainMenu(page).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('button', { name: 'Generate report' }).click();
    const generate = page.getByRole('dialog', { name: 'Generate a compliance report' });
    await generate.getByRole('button', { name: 'Generate', exact: true }).click();
    await expect(generate).toBeHidden();
    await page
      .getByRole('button', { name: /^Sign #\d+$/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Sign the report electronically' });
    await dialog.getByRole('radio', { name: 'Reviewed' }).check();
    await dialog.getByLabel(/^Your password/).fill(ACCOUNT_PASSWORD);
    await expect(
      dialog.getByText('After Sign, confirm with one of your passkeys: your browser asks for it.'),
    ).toBeVisible();
    await expectNoAxeViolations(page, '[role="dialog"]', 'sign with a passkey');
    await dialog.getByRole('button', { name: 'Sign', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('alert').filter({ hasText: 'Report signed' })).toBeVisible();
    // The passkey signed: its counter moved.
    const [after] = await authenticator.credentials();
    expect(after?.signCount).toBeGreaterThan(before?.signCount ?? 0);
  });
});
