/**
 * Second factors (docs/accounts.md §5) with the attacks: wrong, reused and expired codes, a recovery
 * code used twice, the second-factor step skipped with the step token, enrolment forced by
 * MFA_REQUIRED_ROLES, a SUPER_ADMIN's reset, and a report signature asking for the code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount } from '#server/test/accounts.ts';
import { makeReport } from '#server/test/contract-support.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { enrolTotp, totpCode } from '#server/test/second-factor.ts';
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

const me = (app: TestApp, token: string) => app.as(token, { method: 'GET', url: '/api/v1/auth/me' });
const secondFactor = (app: TestApp, stepToken: string, code: string, from = uniqueClientAddress()) =>
  app.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/second-factor',
    headers: { 'x-forwarded-for': from },
    ...formBody({ step_token: stepToken, code }),
  });
const auditOf = async (app: TestApp, userId: number) =>
  (
    await app.database.pool.query(
      `select action, changes, reason, actor_email from audit_log where entity_type = 'user' and entity_id = $1 order by id`,
      [userId],
    )
  ).rows;
const sessionCount = async (app: TestApp, userId: number) =>
  Number(
    (
      await app.database.pool.query(
        'select count(*) from sessions where user_id = $1 and revoked_at is null',
        [userId],
      )
    ).rows[0].count,
  );

/** An account with an app set up; answers it, its secret and recovery codes. */
async function enrolled(app: TestApp = t, role?: 'SUPER_ADMIN' | 'ADMIN' | 'CUSTOMER') {
  const account = await makeAccount(app, { role });
  const factor = await enrolTotp(app, await app.login(account.email));
  // The confirming code's time step is spent: the sign-ins below use the next ones.
  await app.database.pool.query(
    'update totp_factors set last_time_step = last_time_step - 2 where user_id = $1',
    [account.userId],
  );
  return { account, ...factor };
}

async function stepTokenOf(app: TestApp, email: string): Promise<string> {
  const response = await passwordLogin(app, email);
  expect(response.statusCode).toBe(200);
  return response.json().data.step_token;
}

describe('setting up an authenticator app', () => {
  it('needs the password, shows a QR code and the secret, and is confirmed by a first code', async () => {
    const account = await makeAccount(t);
    const token = await t.login(account.email);
    const wrong = await t.as(token, {
      method: 'POST',
      url: '/api/v1/auth/me/second-factor/totp',
      ...formBody({ current_password: 'not-my-password' }),
    });
    expect(wrong.json().data).toEqual({ current_password: ['validation.profile.current_password.wrong'] });
    const start = await t.as(token, {
      method: 'POST',
      url: '/api/v1/auth/me/second-factor/totp',
      ...formBody({ current_password: DEMO_PASSWORD }),
    });
    expect(start.statusCode).toBe(200);
    expectContract('startTotpEnrolment', start, 200);
    const { secret, otpauth_uri, qr_code } = start.json().data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toBe(
      `otpauth://totp/uvtrace:${encodeURIComponent(account.email)}?secret=${secret}&issuer=uvtrace`,
    );
    expect(qr_code).toMatch(/^data:image\/png;base64,/);
    // Not in force until confirmed: the login still needs no code.
    expect((await passwordLogin(t, account.email)).json().data.token).toBeDefined();
    const confirm = (code: string) =>
      t.as(token, {
        method: 'POST',
        url: '/api/v1/auth/me/second-factor/totp/confirm',
        ...formBody({ code }),
      });
    const bad = await confirm('000000');
    expect(bad.json().data).toEqual({ code: ['validation.second_factor.code.wrong'] });
    const good = await confirm(await totpCode(secret));
    expect(good.statusCode).toBe(200);
    expectContract('confirmTotpEnrolment', good, 200);
    const codes: string[] = good.json().data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    // Stored hashed: no code in the database as it was shown.
    const stored = await t.database.pool.query('select code_hash from recovery_codes where user_id = $1', [
      account.userId,
    ]);
    expect(stored.rows.map((row) => row.code_hash).some((hash: string) => codes.includes(hash))).toBe(false);
    const status = await t.as(token, { method: 'GET', url: '/api/v1/auth/me/second-factor' });
    expectContract('getSecondFactor', status, 200);
    expect(status.json().data).toEqual({ totp: true, recovery_codes_left: 10, passkeys: 0, required: false });
    expect((await auditOf(t, account.userId)).map((entry) => entry.action)).toContain('mfa_enrol');
  });
});

describe('signing in with an authenticator app', () => {
  it('gives a step token for the password alone, never a usable session', async () => {
    const { account, secret } = await enrolled();
    const before = await sessionCount(t, account.userId);
    const response = await passwordLogin(t, account.email);
    expect(response.statusCode).toBe(200);
    expectContract('login', response, 200);
    expect(response.json().message).toBe('second_factor_required');
    const step = response.json().data;
    expect(step).toEqual({
      step: 'second_factor',
      step_token: expect.any(String),
      expires_in_seconds: 300,
      factors: ['totp', 'recovery_code'],
    });
    expect(await sessionCount(t, account.userId)).toBe(before);
    // The step token opens nothing but the second step.
    for (const url of ['/api/v1/auth/me', '/api/v1/dashboard', '/api/v1/auth/me/sessions'])
      expect((await t.as(step.step_token, { method: 'GET', url })).statusCode).toBe(401);
    const done = await secondFactor(t, step.step_token, await totpCode(secret));
    expect(done.statusCode).toBe(200);
    expectContract('loginSecondFactor', done, 200);
    expect((await me(t, done.json().data.token)).json().data.email).toBe(account.email);
    const login = (await auditOf(t, account.userId)).filter((entry) => entry.action === 'login').at(-1);
    expect(login?.changes).toEqual({ second_factor: { old: null, new: 'totp' } });
    // Spent: the step token does not sign in twice.
    expect((await secondFactor(t, step.step_token, await totpCode(secret, 30))).statusCode).toBe(401);
  });

  it('refuses a wrong code, a code used before and an expired code', async () => {
    const { account, secret } = await enrolled();
    const wrong = await secondFactor(t, await stepTokenOf(t, account.email), '123456');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('second_factor_failed');
    expectContract('loginSecondFactor', wrong, 401);
    const code = await totpCode(secret);
    expect((await secondFactor(t, await stepTokenOf(t, account.email), code)).statusCode).toBe(200);
    // The same code again, within its 30 seconds: refused.
    expect((await secondFactor(t, await stepTokenOf(t, account.email), code)).statusCode).toBe(401);
    // A code of five minutes ago: refused.
    expect(
      (await secondFactor(t, await stepTokenOf(t, account.email), await totpCode(secret, -300))).statusCode,
    ).toBe(401);
    const failures = (await auditOf(t, account.userId)).filter(
      (entry) => entry.action === 'second_factor_failed',
    );
    expect(failures).toHaveLength(3);
  });

  it('takes a recovery code once', async () => {
    const { account, recoveryCodes } = await enrolled();
    const [first] = recoveryCodes as [string];
    // Typed however: lower case, without dashes.
    const used = await secondFactor(
      t,
      await stepTokenOf(t, account.email),
      first.toLowerCase().replaceAll('-', ''),
    );
    expect(used.statusCode).toBe(200);
    expect((await secondFactor(t, await stepTokenOf(t, account.email), first)).statusCode).toBe(401);
    const actions = (await auditOf(t, account.userId)).map((entry) => entry.action);
    expect(actions).toContain('recovery_code_use');
    const status = await t.as(used.json().data.token, {
      method: 'GET',
      url: '/api/v1/auth/me/second-factor',
    });
    expect(status.json().data.recovery_codes_left).toBe(9);
  });

  it('spends a step token after five wrong codes, and slows the account from any address', async () => {
    const { account, secret } = await enrolled();
    const step = await stepTokenOf(t, account.email);
    for (let guess = 0; guess < 5; guess++)
      expect((await secondFactor(t, step, String(100000 + guess))).statusCode).toBe(401);
    expect((await secondFactor(t, step, await totpCode(secret))).statusCode).toBe(401);
    // Past five wrong codes the account waits, whatever the address and the step token.
    const fresh = await secondFactor(
      t,
      await stepTokenOf(t, account.email),
      await totpCode(secret),
      '203.0.113.99',
    );
    expect(fresh.statusCode).toBe(429);
    expect(fresh.json().message).toBe('too_many_login_attempts');
  });

  it('refuses an expired step token', async () => {
    const { account, secret } = await enrolled();
    const step = await stepTokenOf(t, account.email);
    await t.database.pool.query(
      `update login_steps set expires_at = now() - interval '1 second' where user_id = $1`,
      [account.userId],
    );
    expect((await secondFactor(t, step, await totpCode(secret))).statusCode).toBe(401);
  });

  it('signs a user without a second factor in exactly as before', async () => {
    const response = await passwordLogin(t, DEMO.customer);
    expect(response.json()).toMatchObject({ status: 'success', message: 'logged_in' });
    expect(Object.keys(response.json().data).sort()).toEqual(['modules', 'token', 'user']);
  });
});

describe('removing and replacing the app', () => {
  it('needs the password and a code, then the login needs no code', async () => {
    const { account, secret } = await enrolled();
    const token = (await secondFactor(t, await stepTokenOf(t, account.email), await totpCode(secret))).json()
      .data.token;
    const remove = (fields: Record<string, string>) =>
      t.as(token, { method: 'POST', url: '/api/v1/auth/me/second-factor/remove', ...formBody(fields) });
    expect((await remove({ current_password: DEMO_PASSWORD })).json().data).toEqual({
      code: ['validation.second_factor.code.required'],
    });
    expect(
      (await remove({ current_password: 'nope-nope', code: await totpCode(secret, 30) })).statusCode,
    ).toBe(422);
    expect((await remove({ current_password: DEMO_PASSWORD, code: '999999' })).json().data).toEqual({
      code: ['validation.second_factor.code.wrong'],
    });
    const removed = await remove({ current_password: DEMO_PASSWORD, code: await totpCode(secret, 30) });
    expect(removed.statusCode).toBe(200);
    expect((await passwordLogin(t, account.email)).json().message).toBe('logged_in');
    expect((await auditOf(t, account.userId)).map((entry) => entry.action)).toContain('mfa_remove');
    // Nothing left to remove: refused, and nothing recorded.
    const again = await remove({ current_password: DEMO_PASSWORD });
    expect([again.statusCode, again.json().message]).toEqual([409, 'second_factor.none']);
    expect((await auditOf(t, account.userId)).filter((entry) => entry.action === 'mfa_remove')).toHaveLength(
      1,
    );
  });
});

describe("a SUPER_ADMIN's reset of another user's second factor", () => {
  const reset = (token: string, customerId: number, userId: number, reason?: string) =>
    t.as(token, {
      method: 'POST',
      url: `/api/v1/customers/${customerId}/users/${userId}/reset-second-factor`,
      ...formBody(reason === undefined ? {} : { reason }),
    });

  it('removes the factors with a reason, ends the sessions, and is audited', async () => {
    const { account } = await enrolled();
    const superToken = await t.login(DEMO.super);
    expect((await reset(superToken, account.customerId, account.userId, '  ')).json().data).toEqual({
      reason: ['validation.second_factor.reason.required'],
    });
    const response = await reset(
      superToken,
      account.customerId,
      account.userId,
      'Lost phone, identity checked by call',
    );
    expect(response.statusCode).toBe(200);
    expectContract('resetUserSecondFactor', response, 200);
    expect((await passwordLogin(t, account.email)).json().message).toBe('logged_in');
    const entry = (await auditOf(t, account.userId)).find((item) => item.action === 'mfa_reset');
    expect(entry).toMatchObject({ actor_email: DEMO.super, reason: 'Lost phone, identity checked by call' });
  });

  it("is refused to an ADMIN and for the SUPER_ADMIN's own account", async () => {
    const { account } = await enrolled();
    expect((await reset(await t.login(DEMO.admin), account.customerId, account.userId, 'x')).statusCode).toBe(
      403,
    );
    const superAdmin = await enrolled(t, 'SUPER_ADMIN');
    const own = await secondFactor(
      t,
      await stepTokenOf(t, superAdmin.account.email),
      await totpCode(superAdmin.secret),
    );
    const ownToken = own.json().data.token;
    expect((await reset(ownToken, 1, superAdmin.account.userId, 'myself')).statusCode).toBe(403);
  });
});

describe('a report signature by a signer with a second factor', () => {
  it('asks for a code, refuses a wrong one, and records the factors used', async () => {
    const { account, secret } = await enrolled(t, 'ADMIN');
    const token = (await secondFactor(t, await stepTokenOf(t, account.email), await totpCode(secret))).json()
      .data.token;
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
    expect((await sign({})).json().data).toEqual({ code: ['validation.second_factor.code.required'] });
    const wrong = await sign({ code: '000001' });
    expect(wrong.json().data).toEqual({ code: ['validation.second_factor.code.wrong'] });
    const signed = await sign({ code: await totpCode(secret, 30) });
    expect(signed.statusCode).toBe(201);
    const entries = await t.database.pool.query(
      `select action, changes from audit_log where entity_type = 'report' and entity_id = $1 order by id`,
      [reportId],
    );
    expect(entries.rows.map((row) => row.action)).toEqual(['sign_failed', 'sign']);
    expect(entries.rows[1].changes.factors).toEqual({ old: null, new: 'password+totp' });
  });
});

describe('MFA_REQUIRED_ROLES', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ MFA_REQUIRED_ROLES: 'SUPER_ADMIN,ADMIN' });
  });
  afterAll(() => strict?.close());

  it('makes a SUPER_ADMIN set up an app at the next sign-in before anything else', async () => {
    const response = await passwordLogin(strict, DEMO.super);
    expect(response.json().message).toBe('enrolment_required');
    expectContract('login', response, 200);
    const { step, step_token } = response.json().data;
    expect(step).toBe('enrol');
    // Nothing else opens with it: not the API, not the second-factor step.
    expect((await strict.as(step_token, { method: 'GET', url: '/api/v1/dashboard' })).statusCode).toBe(401);
    expect((await secondFactor(strict, step_token, '123456')).statusCode).toBe(401);
    const start = await strict.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/enrol',
      ...formBody({ step_token }),
    });
    expect(start.statusCode).toBe(200);
    expectContract('loginEnrolStart', start, 200);
    const { secret } = start.json().data;
    const confirm = (code: string) =>
      strict.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login/enrol/confirm',
        ...formBody({ step_token, code }),
      });
    expect((await confirm('000000')).json().data).toEqual({ code: ['validation.second_factor.code.wrong'] });
    const done = await confirm(await totpCode(secret));
    expect(done.statusCode).toBe(200);
    expectContract('loginEnrolConfirm', done, 200);
    expect(done.json().data.recovery_codes).toHaveLength(10);
    const token = done.json().data.token;
    expect((await me(strict, token)).json().data.role).toBe('SUPER_ADMIN');
    // From now on the second factor is asked; it cannot be removed, only replaced.
    expect((await passwordLogin(strict, DEMO.super)).json().message).toBe('second_factor_required');
    const remove = await strict.as(token, {
      method: 'POST',
      url: '/api/v1/auth/me/second-factor/remove',
      ...formBody({ current_password: DEMO_PASSWORD, code: await totpCode(secret, 30) }),
    });
    expect(remove.statusCode).toBe(409);
    expect(remove.json().message).toBe('second_factor.required');
    // Roles outside the policy sign in as before.
    expect((await passwordLogin(strict, DEMO.care)).json().message).toBe('logged_in');
  });

  it('is named in a warning at start in production when it is empty', async () => {
    const lines: string[] = [];
    const app = await createTestApp(
      { NODE_ENV: 'production', LOG_LEVEL: 'warn' },
      { logStream: { write: (line: string) => lines.push(line) } },
    );
    await app.close();
    expect(lines.some((line) => line.includes('MFA_REQUIRED_ROLES is empty'))).toBe(true);
  });
});
