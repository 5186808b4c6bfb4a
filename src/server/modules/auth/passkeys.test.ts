/**
 * Passkeys (docs/accounts.md §6) through HTTP, with real WebAuthn answers from a software authenticator
 * (src/server/test/passkeys.ts) verified by the server as a browser's would be: enrolment behind the
 * password and the factor in force, the second step of a sign-in, passwordless sign-in, renaming and
 * removing, a SUPER_ADMIN's reset; and the attacks: another user's passkey, another origin, another RP
 * id, a challenge answered twice, a counter that goes backwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { makeAccount } from '#server/test/accounts.ts';
import { makeReport } from '#server/test/contract-support.ts';
import { enrolPasskey, givePasskey, type SoftPasskey, softPasskey } from '#server/test/passkeys.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { enrolTotp, giveTotp, totpCode } from '#server/test/second-factor.ts';
import { passwordLogin } from '#server/test/sessions.ts';
import {
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  formBody,
  type TestApp,
  uniqueClientAddress,
} from '#server/test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const post = (app: TestApp, url: string, fields?: Record<string, string>) =>
  app.app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    headers: { 'x-forwarded-for': uniqueClientAddress() },
    ...(fields ? formBody(fields) : {}),
  });
const me = (token: string) => t.as(token, { method: 'GET', url: '/api/v1/auth/me' });
const auditOf = async (userId: number) =>
  (
    await t.database.pool.query(
      `select action, changes from audit_log where entity_type = 'user' and entity_id = $1 order by id`,
      [userId],
    )
  ).rows as { action: string; changes: Record<string, { old: unknown; new: unknown }> }[];
const passkeysIn = async (userId: number) =>
  (
    await t.database.pool.query(
      'select name, counter, last_used_at from passkeys where user_id = $1 order by id',
      [userId],
    )
  ).rows;

/** A signed-in account with one passkey enrolled through the API. */
async function withPasskey(name = 'Laptop') {
  const account = await makeAccount(t);
  const token = await t.login(account.email);
  const { passkey, id } = await enrolPasskey(t, token, name);
  return { account, token, passkey, id };
}

/** The step token a right password answers to a user with a second factor. */
async function stepToken(email: string): Promise<string> {
  const response = await passwordLogin(t, email);
  expect(response.json().message).toBe('second_factor_required');
  return response.json().data.step_token;
}

/** The second step of a sign-in answered by `passkey`, with this ceremony. */
async function secondStep(step: string, passkey: SoftPasskey, ceremony = {}) {
  const options = await post(t, '/auth/login/passkey/options', { step_token: step });
  expect(options.statusCode).toBe(200);
  return post(t, '/auth/login/passkey', {
    step_token: step,
    credential: passkey.assert(options.json().data, ceremony),
  });
}

/** A passwordless sign-in answered by `passkey`, with this ceremony. */
async function passwordless(passkey: SoftPasskey, ceremony = {}) {
  const options = await post(t, '/auth/passkey/options');
  expect(options.statusCode).toBe(200);
  return post(t, '/auth/passkey', { credential: passkey.assert(options.json().data, ceremony) });
}

describe('enrolling a passkey', () => {
  it('needs the password again, then stores the passkey under its name', async () => {
    const account = await makeAccount(t);
    const token = await t.login(account.email);
    const start = (fields: Record<string, string>) =>
      t.as(token, { method: 'POST', url: '/api/v1/auth/me/passkeys/options', ...formBody(fields) });
    const wrong = await start({ current_password: 'not my password' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().data).toEqual({ current_password: ['validation.profile.current_password.wrong'] });
    const options = await start({ current_password: DEMO_PASSWORD });
    expect(options.statusCode).toBe(200);
    expectContract('startPasskeyEnrolment', options, 200);
    const creation = options.json().data;
    expect(creation.rp).toEqual({ id: t.config.webauthn.rpId, name: 'uvtrace' });
    expect(creation.user.name).toBe(account.email);
    expect(creation.attestation).toBe('none');
    const passkey = softPasskey(t);
    const enrol = (fields: Record<string, string>) =>
      t.as(token, { method: 'POST', url: '/api/v1/auth/me/passkeys', ...formBody(fields) });
    // A name is needed; the challenge is not spent by a form that never reached it.
    const unnamed = await enrol({ name: '  ', credential: passkey.register(creation) });
    expect(unnamed.json().data).toEqual({ name: ['validation.passkey.name.required'] });
    const added = await enrol({ name: ' YubiKey 5 ', credential: passkey.register(creation) });
    expect(added.statusCode).toBe(200);
    expectContract('enrolPasskey', added, 200);
    expect(added.json().data).toMatchObject({
      name: 'YubiKey 5',
      transports: ['internal'],
      last_used_at: null,
    });
    const list = await t.as(token, { method: 'GET', url: '/api/v1/auth/me/passkeys' });
    expectContract('listPasskeys', list, 200);
    expect(list.json().data.map((row: { name: string }) => row.name)).toEqual(['YubiKey 5']);
    const status = await t.as(token, { method: 'GET', url: '/api/v1/auth/me/second-factor' });
    expect(status.json().data).toEqual({ totp: false, recovery_codes_left: 0, passkeys: 1, required: false });
    const enrolled = (await auditOf(account.userId)).filter((entry) => entry.action === 'mfa_enrol');
    expect(enrolled.at(-1)?.changes).toEqual({
      second_factor: { old: null, new: 'passkey' },
      passkey: { old: null, new: 'YubiKey 5' },
    });
    // The same registration answer again: its challenge was taken.
    const again = await enrol({ name: 'Again', credential: passkey.register(creation) });
    expect(again.json().data).toEqual({ credential: ['validation.passkey.invalid'] });
  });

  it('needs a proof of the factor in force when there is one: an app code or one of the passkeys', async () => {
    const { account, token, passkey } = await withPasskey();
    const start = (fields: Record<string, string>) =>
      t.as(token, { method: 'POST', url: '/api/v1/auth/me/passkeys/options', ...formBody(fields) });
    const bare = await start({ current_password: DEMO_PASSWORD });
    expect(bare.json().data).toEqual({ passkey: ['validation.passkey.required'] });
    const check = await t.as(token, { method: 'POST', url: '/api/v1/auth/me/passkeys/check' });
    expectContract('startPasskeyCheck', check, 200);
    const proof = passkey.assert(check.json().data);
    const proved = await start({ current_password: DEMO_PASSWORD, passkey: proof });
    expect(proved.statusCode).toBe(200);
    // The proof is good once.
    const replayed = await start({ current_password: DEMO_PASSWORD, passkey: proof });
    expect(replayed.json().data).toEqual({ passkey: ['validation.passkey.failed'] });
    const uses = (await auditOf(account.userId)).filter((entry) => entry.action === 'passkey_use');
    expect(uses).toHaveLength(1);
    expect(uses[0]?.changes).toEqual({ passkey: { old: null, new: 'Laptop' } });
    // Setting up an authenticator app beside the passkeys takes the same proof.
    const totp = (fields: Record<string, string>) =>
      t.as(token, { method: 'POST', url: '/api/v1/auth/me/second-factor/totp', ...formBody(fields) });
    expect((await totp({ current_password: DEMO_PASSWORD })).json().data).toEqual({
      passkey: ['validation.passkey.required'],
    });
    const totpCheck = await t.as(token, { method: 'POST', url: '/api/v1/auth/me/passkeys/check' });
    const app = await totp({
      current_password: DEMO_PASSWORD,
      passkey: passkey.assert(totpCheck.json().data),
    });
    expect(app.statusCode).toBe(200);
    expect(app.json().data.secret).toMatch(/^[A-Z2-7]{32}$/);

    // With an app, a code of it does as well.
    const other = await makeAccount(t);
    const otherToken = await t.login(other.email);
    const { secret } = await enrolTotp(t, otherToken);
    const noCode = await t.as(otherToken, {
      method: 'POST',
      url: '/api/v1/auth/me/passkeys/options',
      ...formBody({ current_password: DEMO_PASSWORD }),
    });
    expect(noCode.json().data).toEqual({ code: ['validation.second_factor.code.required'] });
    await t.database.pool.query(
      'update totp_factors set last_time_step = last_time_step - 2 where user_id = $1',
      [other.userId],
    );
    await enrolPasskey(t, otherToken, 'Phone', { code: await totpCode(secret) });
    expect((await passkeysIn(other.userId)).map((row) => row.name)).toEqual(['Phone']);
  });

  it('refuses a registration made for another origin or RP id', async () => {
    const account = await makeAccount(t);
    const token = await t.login(account.email);
    for (const ceremony of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
      const options = await t.as(token, {
        method: 'POST',
        url: '/api/v1/auth/me/passkeys/options',
        ...formBody({ current_password: DEMO_PASSWORD }),
      });
      const refused = await t.as(token, {
        method: 'POST',
        url: '/api/v1/auth/me/passkeys',
        ...formBody({ name: 'Evil', credential: softPasskey(t).register(options.json().data, ceremony) }),
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().data).toEqual({ credential: ['validation.passkey.invalid'] });
    }
    expect(await passkeysIn(account.userId)).toEqual([]);
  });
});

describe('a passkey as the second factor', () => {
  it('is offered after a right password and signs in, recording which passkey', async () => {
    const { account, passkey } = await withPasskey('Office key');
    const login = await passwordLogin(t, account.email);
    expectContract('login', login, 200);
    expect(login.json().data).toEqual({
      step: 'second_factor',
      step_token: expect.any(String),
      expires_in_seconds: 300,
      factors: ['passkey'],
    });
    const step = login.json().data.step_token;
    const options = await post(t, '/auth/login/passkey/options', { step_token: step });
    expectContract('loginPasskeyOptions', options, 200);
    expect(options.json().data.allowCredentials.map((row: { id: string }) => row.id)).toEqual([passkey.id]);
    const done = await post(t, '/auth/login/passkey', {
      step_token: step,
      credential: passkey.assert(options.json().data),
    });
    expect(done.statusCode).toBe(200);
    expectContract('loginPasskey', done, 200);
    expect((await me(done.json().data.token)).json().data.email).toBe(account.email);
    const entry = (await auditOf(account.userId)).filter((row) => row.action === 'login').at(-1);
    expect(entry?.changes).toEqual({
      second_factor: { old: null, new: 'passkey' },
      passkey: { old: null, new: 'Office key' },
    });
    const [stored] = await passkeysIn(account.userId);
    expect(Number(stored.counter)).toBe(passkey.counter);
    expect(stored.last_used_at).not.toBeNull();
    // The step token is spent: no further challenge, no further sign-in with it.
    expect((await post(t, '/auth/login/passkey/options', { step_token: step })).statusCode).toBe(401);
    const again = await post(t, '/auth/login/passkey', {
      step_token: step,
      credential: passkey.assert(options.json().data),
    });
    expect(again.statusCode).toBe(401);
  });

  it('stands beside the app: the step offers both', async () => {
    const account = await makeAccount(t);
    const token = await t.login(account.email);
    const { secret } = await enrolTotp(t, token);
    await t.database.pool.query(
      'update totp_factors set last_time_step = last_time_step - 2 where user_id = $1',
      [account.userId],
    );
    const { passkey } = await enrolPasskey(t, token, 'Key', { code: await totpCode(secret) });
    const login = await passwordLogin(t, account.email);
    expect(login.json().data.factors).toEqual(['totp', 'recovery_code', 'passkey']);
    const done = await secondStep(login.json().data.step_token, passkey);
    expect(done.statusCode).toBe(200);
  });

  it('satisfies MFA_REQUIRED_ROLES: no enrolment of an app is asked', async () => {
    const strict = await createTestApp({ MFA_REQUIRED_ROLES: 'CUSTOMER' });
    try {
      const account = await makeAccount(strict, { role: 'CUSTOMER' });
      const bare = await passwordLogin(strict, account.email);
      expect(bare.json().message).toBe('enrolment_required');
      const { passkey } = await givePasskey(strict, account.userId);
      const login = await passwordLogin(strict, account.email);
      expect(login.json().message).toBe('second_factor_required');
      expect(login.json().data.factors).toEqual(['passkey']);
      const step = login.json().data.step_token;
      const options = await post(strict, '/auth/login/passkey/options', { step_token: step });
      const done = await post(strict, '/auth/login/passkey', {
        step_token: step,
        credential: passkey.assert(options.json().data),
      });
      expect(done.statusCode).toBe(200);
      const token = done.json().data.token;
      const status = await strict.as(token, { method: 'GET', url: '/api/v1/auth/me/second-factor' });
      expect(status.json().data).toMatchObject({ passkeys: 1, required: true });
      // Its last second factor stays.
      const [row] = (await strict.as(token, { method: 'GET', url: '/api/v1/auth/me/passkeys' })).json().data;
      const remove = await strict.as(token, {
        method: 'POST',
        url: `/api/v1/auth/me/passkeys/${row.id}/remove`,
        ...formBody({ current_password: DEMO_PASSWORD }),
      });
      expect(remove.statusCode).toBe(409);
      expect(remove.json().message).toBe('second_factor.required');
      // With an app beside it, the app may go: the passkey remains.
      const secret = await giveTotp(strict, account.userId);
      const dropApp = await strict.as(token, {
        method: 'POST',
        url: '/api/v1/auth/me/second-factor/remove',
        ...formBody({ current_password: DEMO_PASSWORD, code: await totpCode(secret) }),
      });
      expect(dropApp.statusCode).toBe(200);
      expect(
        (await strict.as(token, { method: 'GET', url: '/api/v1/auth/me/second-factor' })).json().data,
      ).toMatchObject({ totp: false, passkeys: 1 });
    } finally {
      await strict.close();
    }
  });
});

describe('passwordless sign-in', () => {
  it('signs in with a discoverable passkey alone: the same session as a password and a second factor', async () => {
    const { account, passkey } = await withPasskey('Phone');
    const options = await post(t, '/auth/passkey/options');
    expectContract('passkeySignInOptions', options, 200);
    expect(options.json().data).toMatchObject({ userVerification: 'required', rpId: t.config.webauthn.rpId });
    expect(options.json().data.allowCredentials ?? []).toEqual([]);
    const done = await post(t, '/auth/passkey', { credential: passkey.assert(options.json().data) });
    expect(done.statusCode).toBe(200);
    expectContract('passkeySignIn', done, 200);
    const session = done.json().data;
    expect(session.user.email).toBe(account.email);
    expect((await me(session.token)).json().data.email).toBe(account.email);
    const entry = (await auditOf(account.userId)).filter((row) => row.action === 'login').at(-1);
    expect(entry?.changes).toEqual({
      passkey: { old: null, new: 'Phone' },
      passwordless: { old: null, new: true },
    });
  });

  it('needs the user verified by the authenticator, and an active account', async () => {
    const { account, passkey } = await withPasskey();
    const unverified = await passwordless(passkey, { userVerified: false });
    expect(unverified.statusCode).toBe(401);
    expect(unverified.json().message).toBe('login_failed');
    expect((await auditOf(account.userId)).at(-1)?.action).toBe('login_failed');
    await t.database.pool.query('update users set deleted_at = now() where id = $1', [account.userId]);
    expect((await passwordless(passkey)).statusCode).toBe(401);
  });

  it('is rate-limited per client address like the login', async () => {
    const limited = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const from = uniqueClientAddress();
      const ask = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/v1/auth/passkey/options',
          headers: { 'x-forwarded-for': from },
        });
      expect((await ask()).statusCode).toBe(200);
      expect((await ask()).statusCode).toBe(200);
      const refused = await ask();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe('too_many_requests');
    } finally {
      await limited.close();
    }
  });

  it('refuses a passkey nobody enrolled', async () => {
    expect((await passwordless(softPasskey(t))).statusCode).toBe(401);
  });
});

describe('renaming and removing', () => {
  it("renames a passkey of one's own only", async () => {
    const { account, token, id } = await withPasskey('Old name');
    const rename = (bearer: string, name: string) =>
      t.as(bearer, { method: 'PUT', url: `/api/v1/auth/me/passkeys/${id}`, ...formBody({ name }) });
    const done = await rename(token, 'New name');
    expect(done.statusCode).toBe(200);
    expectContract('renamePasskey', done, 200);
    expect((await passkeysIn(account.userId)).map((row) => row.name)).toEqual(['New name']);
    expect((await auditOf(account.userId)).at(-1)).toEqual({
      action: 'passkey_rename',
      changes: { passkey: { old: 'Old name', new: 'New name' } },
    });
    expect((await rename(token, 'x'.repeat(65))).json().data).toEqual({
      name: ['validation.passkey.name.required'],
    });
    const stranger = await t.login((await makeAccount(t)).email);
    expect((await rename(stranger, 'Mine now')).statusCode).toBe(404);
    expect((await passkeysIn(account.userId)).map((row) => row.name)).toEqual(['New name']);
  });

  it('removes a passkey with the password and a proof, after which it signs in no more', async () => {
    const { account, token, passkey, id } = await withPasskey('Lost key');
    const remove = (bearer: string, fields: Record<string, string>) =>
      t.as(bearer, { method: 'POST', url: `/api/v1/auth/me/passkeys/${id}/remove`, ...formBody(fields) });
    const stranger = await t.login((await makeAccount(t)).email);
    expect((await remove(stranger, { current_password: DEMO_PASSWORD })).statusCode).toBe(404);
    const noProof = await remove(token, { current_password: DEMO_PASSWORD });
    expect(noProof.json().data).toEqual({ passkey: ['validation.passkey.required'] });
    const wrongPassword = await remove(token, { current_password: 'nope' });
    expect(wrongPassword.json().data).toEqual({
      current_password: ['validation.profile.current_password.wrong'],
    });
    const check = await t.as(token, { method: 'POST', url: '/api/v1/auth/me/passkeys/check' });
    const done = await remove(token, {
      current_password: DEMO_PASSWORD,
      passkey: passkey.assert(check.json().data),
    });
    expect(done.statusCode).toBe(200);
    expectContract('removePasskey', done, 200);
    expect(await passkeysIn(account.userId)).toEqual([]);
    expect((await auditOf(account.userId)).at(-1)).toEqual({
      action: 'mfa_remove',
      changes: { second_factor: { old: 'passkey', new: null }, passkey: { old: 'Lost key', new: null } },
    });
    expect((await passwordless(passkey)).statusCode).toBe(401);
    // Without a second factor left, the password alone signs in again.
    expect((await passwordLogin(t, account.email)).json().data.token).toBeDefined();
  });

  it("goes with a SUPER_ADMIN's reset of the user's second factor", async () => {
    const { account, passkey } = await withPasskey();
    const admin = await t.login(DEMO.super);
    const reset = await t.as(admin, {
      method: 'POST',
      url: `/api/v1/customers/${account.customerId}/users/${account.userId}/reset-second-factor`,
      ...formBody({ reason: 'Lost the key' }),
    });
    expect(reset.statusCode).toBe(200);
    expect(await passkeysIn(account.userId)).toEqual([]);
    const entry = (await auditOf(account.userId)).filter((row) => row.action === 'mfa_reset').at(-1);
    expect(entry?.changes).toMatchObject({
      second_factor: { old: 'passkey', new: null },
      passkeys: { old: 1, new: 0 },
    });
    expect((await passwordless(passkey)).statusCode).toBe(401);
  });
});

describe('attacks', () => {
  it("refuses another user's passkey answering a user's second step", async () => {
    const victim = await withPasskey();
    const attacker = await withPasskey();
    const step = await stepToken(victim.account.email);
    const refused = await secondStep(step, attacker.passkey);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('second_factor_failed');
    const failed = (await auditOf(victim.account.userId)).at(-1);
    expect(failed?.action).toBe('second_factor_failed');
    // Nor does it confirm a change of the victim's factors.
    const check = await t.as(victim.token, { method: 'POST', url: '/api/v1/auth/me/passkeys/check' });
    const proof = attacker.passkey.assert(check.json().data);
    const change = await t.as(victim.token, {
      method: 'POST',
      url: '/api/v1/auth/me/passkeys/options',
      ...formBody({ current_password: DEMO_PASSWORD, passkey: proof }),
    });
    expect(change.json().data).toEqual({ passkey: ['validation.passkey.failed'] });
    // The victim's own passkey still signs in.
    expect((await secondStep(await stepToken(victim.account.email), victim.passkey)).statusCode).toBe(200);
  });

  it('refuses an answer signed for another origin or another RP id', async () => {
    const { account, passkey } = await withPasskey();
    for (const ceremony of [
      { origin: 'https://uvtrace.example.evil' },
      { origin: t.config.webauthn.origin.replace(/:\d+$/, ':1') },
      { rpId: 'evil.example' },
    ]) {
      expect((await secondStep(await stepToken(account.email), passkey, ceremony)).statusCode).toBe(401);
      expect((await passwordless(passkey, ceremony)).statusCode).toBe(401);
    }
    expect((await passkeysIn(account.userId))[0].last_used_at).toBeNull();
  });

  it('refuses a challenge answered twice', async () => {
    const { passkey } = await withPasskey();
    const options = await post(t, '/auth/passkey/options');
    const answer = passkey.assert(options.json().data);
    expect((await post(t, '/auth/passkey', { credential: answer })).statusCode).toBe(200);
    // The same answer again, and a new signature over the spent challenge: both refused.
    expect((await post(t, '/auth/passkey', { credential: answer })).statusCode).toBe(401);
    const fresh = passkey.assert(options.json().data);
    expect((await post(t, '/auth/passkey', { credential: fresh })).statusCode).toBe(401);
    // A challenge made for the second step of another sign-in does not serve a passwordless one.
    const other = await withPasskey();
    const step = await stepToken(other.account.email);
    const stepOptions = await post(t, '/auth/login/passkey/options', { step_token: step });
    const crossed = other.passkey.assert(stepOptions.json().data);
    expect((await post(t, '/auth/passkey', { credential: crossed })).statusCode).toBe(401);
  });

  it('refuses a signature counter that goes backwards (a cloned authenticator), but not one that keeps none', async () => {
    const { account, passkey } = await withPasskey();
    expect((await passwordless(passkey, { counter: 10 })).statusCode).toBe(200);
    expect((await passwordless(passkey, { counter: 10 })).statusCode).toBe(401);
    expect((await passwordless(passkey, { counter: 7 })).statusCode).toBe(401);
    expect((await secondStep(await stepToken(account.email), passkey, { counter: 9 })).statusCode).toBe(401);
    expect(Number((await passkeysIn(account.userId))[0].counter)).toBe(10);
    expect((await passwordless(passkey, { counter: 11 })).statusCode).toBe(200);

    const counterless = await makeAccount(t);
    const { passkey: key } = await givePasskey(t, counterless.userId);
    for (let i = 0; i < 2; i++) expect((await passwordless(key, { counter: 0 })).statusCode).toBe(200);
  });
});

describe('a report signature by a signer with passkeys and no app', () => {
  it('asks for one of their passkeys and records password+passkey', async () => {
    const account = await makeAccount(t, { role: 'ADMIN' });
    const token = await t.login(account.email);
    const { passkey } = await enrolPasskey(t, token);
    const customerId = (
      await t.database.pool.query(`select customer_id from users where email = $1`, [DEMO.customer])
    ).rows[0].customer_id;
    const reportId = await makeReport(t, customerId);
    const sign = (fields: Record<string, string>) =>
      t.as(token, {
        method: 'POST',
        url: `/api/v1/customers/${customerId}/reports/${reportId}/signatures`,
        ...formBody({ password: DEMO_PASSWORD, meaning: 'reviewed', ...fields }),
      });
    expect((await sign({})).json().data).toEqual({ passkey: ['validation.passkey.required'] });
    // Another user's passkey does not sign for this one.
    const stranger = await withPasskey();
    const check = async () =>
      (await t.as(token, { method: 'POST', url: '/api/v1/auth/me/passkeys/check' })).json().data;
    const forged = await sign({ passkey: stranger.passkey.assert(await check()) });
    expect(forged.json().data).toEqual({ passkey: ['validation.passkey.failed'] });
    const signed = await sign({ passkey: passkey.assert(await check()) });
    expect(signed.statusCode).toBe(201);
    const entries = await t.database.pool.query(
      `select action, changes from audit_log where entity_type = 'report' and entity_id = $1 order by id`,
      [reportId],
    );
    expect(entries.rows.map((row) => row.action)).toEqual(['sign_failed', 'sign']);
    expect(entries.rows.at(-1).changes.factors).toEqual({ old: null, new: 'password+passkey' });
  });
});

describe('configuration', () => {
  it('takes the origin and RP id from WEBAUTHN_ORIGIN and WEBAUTHN_RP_ID, or from APP_URL', () => {
    expect(loadConfig({ APP_URL: 'https://uvtrace.example.com/app/' }).webauthn).toEqual({
      origin: 'https://uvtrace.example.com',
      rpId: 'uvtrace.example.com',
      rpName: 'uvtrace',
    });
    expect(
      loadConfig({
        WEBAUTHN_ORIGIN: 'https://app.uvtrace.example.com',
        WEBAUTHN_RP_ID: 'uvtrace.example.com',
      }).webauthn,
    ).toMatchObject({ origin: 'https://app.uvtrace.example.com', rpId: 'uvtrace.example.com' });
    expect(loadConfig({ PORT: '4620' }).webauthn.origin).toBe('http://localhost:4620');
    expect(() =>
      loadConfig({ WEBAUTHN_ORIGIN: 'https://uvtrace.example.com', WEBAUTHN_RP_ID: 'other.example' }),
    ).toThrow(/WEBAUTHN_RP_ID/);
  });
});
