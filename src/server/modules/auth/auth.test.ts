import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  formBody,
  type TestApp,
  uniqueClientAddress,
} from '../../test/test-app.ts';
import { expectContract } from '../customers/test-support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_FAILURES: '4' });
});
afterAll(() => t?.close());

const login = (email: string, password: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'x-forwarded-for': uniqueClientAddress(), ...headers },
    ...formBody({ email, password }),
  });
const me = (token: string) => t.as(token, { method: 'GET', url: '/api/v1/auth/me' });
const activeSessions = async (email: string) => {
  const result = await t.database.db.execute<{ n: string }>(
    sql`select count(*) as n from sessions s join users u on u.id = s.user_id where u.email = ${email} and s.revoked_at is null`,
  );
  return Number(result.rows[0]?.n);
};

describe('POST /auth/login', () => {
  it('answers the user, a token and the modules', async () => {
    const response = await login(DEMO.admin, DEMO_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe('success');
    expect(body.data.token).toMatch(/^[\w-]{40,}$/);
    expect(body.data.user).toMatchObject({ email: DEMO.admin, role: 'ADMIN' });
    expect(body.data.user.abilities).toMatchObject({
      canCreateCustomers: true,
      canGenerateDeviceKeys: false,
    });
    expect(body.data.modules).toEqual([
      'customers',
      'users',
      'products',
      'devices',
      'sterilizations',
      'certificates',
    ]);
  });

  it('accepts the email in any case and with spaces around it', async () => {
    const response = await login('  Customer@Example.COM ', DEMO_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.modules).toEqual(['sterilizations', 'certificates']);
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    for (const [email, password] of [
      [DEMO.care, 'wrong-password'],
      ['nobody@example.com', DEMO_PASSWORD],
    ] as const) {
      const response = await login(email, password);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ status: 'error', message: 'login_failed', data: null });
    }
  });

  it('explains a malformed email and missing fields with the spec message ids', async () => {
    const malformed = await login('not-an-email', 'x');
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json()).toEqual({
      status: 'error',
      message: 'validation_error',
      data: { email: ['validation.login.email.invalid'] },
    });
    const missing = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', ...formBody({}) });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().data).toEqual({
      email: ['validation.login.email.required'],
      password: ['validation.login.password.required'],
    });
  });

  it('refuses a disabled user', async () => {
    const token = await t.login(DEMO.care);
    await t.database.db.execute(sql`update users set deleted_at = now() where email = ${DEMO.care}`);
    try {
      expect((await login(DEMO.care, DEMO_PASSWORD)).statusCode).toBe(401);
      expect((await me(token)).json().message).toBe('session_expired');
    } finally {
      await t.database.db.execute(sql`update users set deleted_at = null where email = ${DEMO.care}`);
    }
  });

  it('slows down repeated failures with 429, even for the right password afterwards', async () => {
    const email = 'super@example.com';
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await login(email, `wrong-${attempt}`)).statusCode).toBe(401);
    }
    // The address limit holds on its own too: one address, four different emails.
    for (const other of ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']) {
      await login(other, 'wrong', { 'x-forwarded-for': '203.0.113.7' });
    }
    expect((await login(DEMO.admin, DEMO_PASSWORD, { 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(
      429,
    );
    const blocked = await login(email, DEMO_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe('too_many_login_attempts');
    expect(blocked.json().data.retry_after_seconds).toBeGreaterThan(0);
    expectContract('login', blocked, 429);
  });
});

describe('sessions', () => {
  it('revokes the token at logout', async () => {
    const token = await t.login(DEMO.admin);
    expect((await me(token)).statusCode).toBe(200);
    const logout = await t.as(token, { method: 'POST', url: '/api/v1/auth/logout' });
    expect(logout.statusCode).toBe(200);
    const after = await me(token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ status: 'error', message: 'session_expired', data: null });
  });

  it('ends a session past its absolute expiry or idle limit', async () => {
    const expired = await t.login(DEMO.admin);
    const idle = await t.login(DEMO.admin);
    await t.database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 second' where id = (select max(id) - 1 from sessions)`,
    );
    await t.database.db.execute(
      sql`update sessions set last_seen_at = now() - interval '3 hours' where id = (select max(id) from sessions)`,
    );
    expect((await me(expired)).json().message).toBe('session_expired');
    expect((await me(idle)).json().message).toBe('session_expired');
  });

  it('answers 401 session_expired without a token or with a forged one', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/dashboard' })).statusCode).toBe(401);
    expect((await me('forged-token')).json().message).toBe('session_expired');
  });
});

describe('PUT /auth/me (profile)', () => {
  const profile = {
    name: 'Carla Care',
    email: DEMO.care,
    new_password: 'new-password-1',
    repeat_new_password: 'new-password-1',
  };

  it('validates with the profile messages and changes nothing', async () => {
    const token = await t.login(DEMO.care);
    const response = await t.as(token, {
      method: 'PUT',
      url: '/api/v1/auth/me',
      ...formBody({ name: ' ', email: DEMO.care, new_password: 'short', repeat_new_password: 'other' }),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().data).toEqual({
      name: ['validation.profile.name.required'],
      new_password: ['validation.profile.password.short', 'validation.profile.password.mismatch'],
      repeat_new_password: ['validation.profile.repeat.required'],
    });
    expect((await login(DEMO.care, DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses an email used by another user', async () => {
    const token = await t.login(DEMO.care);
    const response = await t.as(token, {
      method: 'PUT',
      url: '/api/v1/auth/me',
      ...formBody({ ...profile, email: 'ADMIN@example.com' }),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().data).toEqual({ email: ['validation.profile.email.taken'] });
  });

  it('updates through the method override and ends the other sessions', async () => {
    const other = await t.login(DEMO.care);
    const token = await t.login(DEMO.care);
    const response = await t.as(token, {
      method: 'POST',
      url: '/api/v1/auth/me',
      ...formBody({ ...profile, _method: 'PUT' }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ name: 'Carla Care', email: DEMO.care });
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect(await activeSessions(DEMO.care)).toBe(1);
    expect((await login(DEMO.care, 'new-password-1')).statusCode).toBe(200);
    expect((await login(DEMO.care, DEMO_PASSWORD, { 'x-forwarded-for': '10.0.0.9' })).statusCode).toBe(401);
  });
});
