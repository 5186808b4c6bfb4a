import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContract } from '#server/test/response-checks.ts';
import {
  createPeerApp,
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  formBody,
  type TestApp,
  uniqueClientAddress,
} from '#server/test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_FAILURES: '4', LOGIN_ADDRESS_MAX_FAILURES: '5' });
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
      'alerts',
    ]);
  });

  it('accepts the email in any case and with spaces around it', async () => {
    const response = await login('  Customer@Example.COM ', DEMO_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.modules).toEqual(['sterilizations', 'certificates', 'alerts', 'reports']);
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

  it('slows a wrong-password storm from one address without locking the account out elsewhere', async () => {
    const attacker = uniqueClientAddress();
    const storm = (password = 'wrong') => login(DEMO.super, password, { 'x-forwarded-for': attacker });
    for (let attempt = 0; attempt < 4; attempt++) expect((await storm()).statusCode).toBe(401);
    // Past LOGIN_MAX_FAILURES each failure doubles the pair's wait; the right password waits too.
    const waits: number[] = [];
    for (let round = 0; round < 4; round++) {
      const blocked = await storm(DEMO_PASSWORD);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toBe('too_many_login_attempts');
      expectContract('login', blocked, 429);
      waits.push(blocked.json().data.retry_after_seconds);
      expect(blocked.headers['retry-after']).toBe(String(blocked.json().data.retry_after_seconds));
      // Only the database clock knows the wait: let it pass, then fail once more.
      await passWait();
      expect((await storm()).statusCode).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8]);

    // Meanwhile the account's owner, from their own address, is not slowed at all.
    const owner = uniqueClientAddress();
    expect((await login(DEMO.super, DEMO_PASSWORD, { 'x-forwarded-for': owner })).statusCode).toBe(200);
    expect((await storm(DEMO_PASSWORD)).statusCode).toBe(429);
  });

  it('caps the wait at LOGIN_MAX_DELAY_SECONDS and forgets the pair after a success', async () => {
    const capped = await createTestApp({ LOGIN_MAX_FAILURES: '1', LOGIN_MAX_DELAY_SECONDS: '3' });
    try {
      const from = uniqueClientAddress();
      const attempt = (password: string) =>
        capped.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          headers: { 'x-forwarded-for': from },
          ...formBody({ email: DEMO.admin, password }),
        });
      const waits: number[] = [];
      for (let round = 0; round < 4; round++) {
        expect((await attempt('wrong')).statusCode).toBe(401);
        waits.push((await attempt('wrong')).json().data.retry_after_seconds);
        await passWait(capped);
      }
      expect(waits).toEqual([1, 2, 3, 3]);
      expect((await attempt(DEMO_PASSWORD)).statusCode).toBe(200);
      // The success forgot the pair: its next failure is the first again, with no wait.
      expect((await attempt('wrong')).statusCode).toBe(401);
      expect((await attempt(DEMO_PASSWORD)).statusCode).toBe(429);
    } finally {
      await capped.close();
    }
  });

  it('slows one address trying many accounts (LOGIN_ADDRESS_MAX_FAILURES)', async () => {
    const sprayer = uniqueClientAddress();
    for (const other of [
      'a@example.com',
      'b@example.com',
      'c@example.com',
      'd@example.com',
      'e@example.com',
    ]) {
      expect((await login(other, 'wrong', { 'x-forwarded-for': sprayer })).statusCode).toBe(401);
    }
    const blocked = await login(DEMO.admin, DEMO_PASSWORD, { 'x-forwarded-for': sprayer });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().data.retry_after_seconds).toBe(1);
    expect((await login(DEMO.admin, DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('counts one IPv6 /64 as one client, however its addresses are written', async () => {
    // Four failures (LOGIN_MAX_FAILURES) from addresses of one /64, each spelt differently.
    for (const from of [
      '2001:0db8:0009::0001',
      '2001:DB8:9:0:0:0:0:1',
      '2001:db8:9::2',
      '2001:db8:9:0:ffff::7',
    ])
      expect((await login(DEMO.care, 'wrong', { 'x-forwarded-for': from })).statusCode).toBe(401);
    const sameNetwork = await login(DEMO.care, DEMO_PASSWORD, { 'x-forwarded-for': '2001:db8:9::abcd' });
    expect(sameNetwork.statusCode).toBe(429);
    expect(sameNetwork.json().message).toBe('too_many_login_attempts');
    // The next /64 is another client.
    const nextNetwork = await login(DEMO.care, DEMO_PASSWORD, { 'x-forwarded-for': '2001:db8:9:1::1' });
    expect(nextNetwork.statusCode).toBe(200);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    const address = uniqueClientAddress();
    for (let attempt = 0; attempt < 4; attempt++) {
      const from = attempt % 2 === 0 ? address : `::ffff:${address}`;
      expect((await login(DEMO.admin, 'wrong', { 'x-forwarded-for': from })).statusCode).toBe(401);
    }
    expect((await login(DEMO.admin, DEMO_PASSWORD, { 'x-forwarded-for': address })).statusCode).toBe(429);
  });

  it('takes the client address from the request as TRUST_PROXY resolves it', async () => {
    const direct = await createTestApp({ TRUST_PROXY: 'false', LOGIN_MAX_FAILURES: '2' });
    try {
      // Without a trusted proxy X-Forwarded-For is the client's own claim: changing it changes nothing.
      const attempt = (password: string) =>
        direct.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          headers: { 'x-forwarded-for': uniqueClientAddress() },
          ...formBody({ email: DEMO.admin, password }),
        });
      expect((await attempt('wrong')).statusCode).toBe(401);
      expect((await attempt('wrong')).statusCode).toBe(401);
      expect((await attempt(DEMO_PASSWORD)).statusCode).toBe(429);
      // inject() connects from 127.0.0.1, which is the key the throttle used.
      const keys = await direct.database.pool.query<{ key: string }>(
        'select key from login_throttle order by key',
      );
      expect(keys.rows.map((row) => row.key)).toEqual([
        'address:127.0.0.1',
        `pair:${JSON.stringify([DEMO.admin, '127.0.0.1'])}`,
      ]);
    } finally {
      await direct.close();
    }
  });

  it('shares the throttle between two app instances on one database', async () => {
    const peer = await createPeerApp(t);
    try {
      const from = uniqueClientAddress();
      const on = (app: TestApp['app'], password: string) =>
        app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          headers: { 'x-forwarded-for': from },
          ...formBody({ email: DEMO.care, password }),
        });
      for (const app of [t.app, peer.app, t.app, peer.app])
        expect((await on(app, 'wrong')).statusCode).toBe(401);
      expect((await on(peer.app, DEMO_PASSWORD)).statusCode).toBe(429);
      expect((await on(t.app, DEMO_PASSWORD)).statusCode).toBe(429);
    } finally {
      await peer.close();
    }
  });
});

/** Ends every wait now, as if the time had passed (the counts stay). */
async function passWait(app: TestApp = t): Promise<void> {
  await app.database.pool.query(
    `update login_throttle set blocked_until = now() where blocked_until > now()`,
  );
}

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

  it('refuses a name with a line break or another control character', async () => {
    const token = await t.login(DEMO.care);
    for (const name of ['Carla\r\nBcc: x@example.com', 'Carla\u001b[2J']) {
      const response = await t.as(token, {
        method: 'PUT',
        url: '/api/v1/auth/me',
        ...formBody({ ...profile, name, new_password: DEMO_PASSWORD, repeat_new_password: DEMO_PASSWORD }),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().data).toEqual({ name: ['validation.name.control_characters'] });
    }
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
