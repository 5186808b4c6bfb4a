import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount } from '#server/test/accounts.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { passwordLogin } from '#server/test/sessions.ts';
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

/** A password login from `from`, or from an address of its own. */
const login = (email: string, password: string, from?: string) => passwordLogin(t, email, password, from);
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
    const storm = (password = 'wrong') => login(DEMO.super, password, attacker);
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
    expect((await login(DEMO.super, DEMO_PASSWORD, owner)).statusCode).toBe(200);
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
      expect((await login(other, 'wrong', sprayer)).statusCode).toBe(401);
    }
    const blocked = await login(DEMO.admin, DEMO_PASSWORD, sprayer);
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
      expect((await login(DEMO.care, 'wrong', from)).statusCode).toBe(401);
    const sameNetwork = await login(DEMO.care, DEMO_PASSWORD, '2001:db8:9::abcd');
    expect(sameNetwork.statusCode).toBe(429);
    expect(sameNetwork.json().message).toBe('too_many_login_attempts');
    // The next /64 is another client.
    const nextNetwork = await login(DEMO.care, DEMO_PASSWORD, '2001:db8:9:1::1');
    expect(nextNetwork.statusCode).toBe(200);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    const address = uniqueClientAddress();
    for (let attempt = 0; attempt < 4; attempt++) {
      const from = attempt % 2 === 0 ? address : `::ffff:${address}`;
      expect((await login(DEMO.admin, 'wrong', from)).statusCode).toBe(401);
    }
    expect((await login(DEMO.admin, DEMO_PASSWORD, address)).statusCode).toBe(429);
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
    current_password: DEMO_PASSWORD,
    new_password: 'new-password-1',
    repeat_new_password: 'new-password-1',
  };
  const put = (token: string, fields: Record<string, string>, from = uniqueClientAddress()) =>
    t.as(token, {
      method: 'PUT',
      url: '/api/v1/auth/me',
      headers: { 'x-forwarded-for': from },
      ...formBody(fields),
    });
  /** A user of their own, so a changed password or email never disturbs the demo logins. */
  async function ownUser(name?: string) {
    const account = await makeAccount(t, { name });
    return { ...account, token: await t.login(account.email) };
  }
  const auditActions = async (userId: number) =>
    (
      await t.database.pool.query<{ action: string; client_address: string | null }>(
        `select action, client_address from audit_log where entity_type = 'user' and entity_id = $1 order by id`,
        [userId],
      )
    ).rows;

  it('validates with the profile messages and changes nothing', async () => {
    const token = await t.login(DEMO.care);
    const response = await put(token, {
      name: ' ',
      email: DEMO.care,
      current_password: DEMO_PASSWORD,
      new_password: 'short',
      repeat_new_password: 'other',
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
      const response = await put(token, { name, email: DEMO.care });
      expect(response.statusCode).toBe(422);
      expect(response.json().data).toEqual({ name: ['validation.name.control_characters'] });
    }
  });

  it('refuses an email used by another user', async () => {
    const token = await t.login(DEMO.care);
    const response = await put(token, { ...profile, email: 'ADMIN@example.com' });
    expect(response.statusCode).toBe(422);
    expect(response.json().data).toEqual({ email: ['validation.profile.email.taken'] });
  });

  it('changes the name alone without any password, keeping the password and the sessions', async () => {
    const user = await ownUser();
    const other = await t.login(user.email);
    const response = await put(user.token, { name: 'Renamed Alone', email: user.email });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.name).toBe('Renamed Alone');
    expect((await me(other)).statusCode).toBe(200);
    expect((await login(user.email, DEMO_PASSWORD)).statusCode).toBe(200);
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
    expect((await login(DEMO.care, DEMO_PASSWORD, '10.0.0.9')).statusCode).toBe(401);
    // Put the demo password back for the tests after this one.
    const back = await put(token, {
      ...profile,
      current_password: 'new-password-1',
      new_password: DEMO_PASSWORD,
      repeat_new_password: DEMO_PASSWORD,
    });
    expect(back.statusCode).toBe(200);
  });

  it('asks for the current password to change the password or the email, and refuses a wrong one', async () => {
    const user = await ownUser();
    const { current_password: _current, ...withoutCurrent } = {
      ...profile,
      name: user.name,
      email: user.email,
    };
    const missing = await put(user.token, withoutCurrent);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().data).toEqual({
      current_password: ['validation.profile.current_password.required'],
    });
    const newEmail = await put(user.token, { name: user.name, email: `moved-${user.email}` });
    expect(newEmail.json().data).toEqual({
      current_password: ['validation.profile.current_password.required'],
    });

    for (const fields of [
      { ...withoutCurrent, current_password: 'not-my-password' },
      { name: user.name, email: `moved-${user.email}`, current_password: 'not-my-password' },
    ]) {
      const wrong = await put(user.token, fields, '203.0.113.7');
      expect(wrong.statusCode).toBe(422);
      expectContract('updateProfile', wrong, 422);
      expect(wrong.json().data).toEqual({ current_password: ['validation.profile.current_password.wrong'] });
    }
    // Nothing changed; each checked failure is in the audit trail, with the address it came from.
    expect((await login(user.email, DEMO_PASSWORD)).statusCode).toBe(200);
    expect((await me(user.token)).json().data.email).toBe(user.email);
    expect((await auditActions(user.userId)).filter((entry) => entry.action === 'reauth_failed')).toEqual([
      { action: 'reauth_failed', client_address: '203.0.113.7' },
      { action: 'reauth_failed', client_address: '203.0.113.7' },
    ]);
  });

  it('counts wrong current passwords in the login throttle of the account and address', async () => {
    const user = await ownUser();
    const from = uniqueClientAddress();
    const wrong = {
      name: user.name,
      email: user.email,
      current_password: 'wrong',
      ...{ new_password: 'a-new-pass-1', repeat_new_password: 'a-new-pass-1' },
    };
    // LOGIN_MAX_FAILURES is 4 in this file.
    for (let attempt = 0; attempt < 4; attempt++)
      expect((await put(user.token, wrong, from)).statusCode).toBe(422);
    const throttled = await put(user.token, { ...wrong, current_password: DEMO_PASSWORD }, from);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().message).toBe('too_many_login_attempts');
    expectContract('updateProfile', throttled, 429);
    // A login of that account from that address waits too.
    expect((await login(user.email, DEMO_PASSWORD, from)).statusCode).toBe(429);
  });

  it('refuses the passwords the rules refuse, each with its message', async () => {
    const user = await ownUser('Dana Scully');
    const attempt = (password: string) =>
      put(user.token, {
        name: user.name,
        email: user.email,
        current_password: DEMO_PASSWORD,
        new_password: password,
        repeat_new_password: password,
      });
    const refusals: [string, string][] = [
      ['1234567', 'validation.profile.password.short'],
      ['x'.repeat(129), 'validation.password.too_long'],
      ['password123', 'validation.password.common'],
      ['Password123', 'validation.password.common'],
      [`${user.email}!`, 'validation.password.contains_email'],
      ['dana scully', 'validation.password.equals_name'],
    ];
    for (const [password, message] of refusals) {
      const response = await attempt(password);
      expect([password.slice(0, 20), response.statusCode, response.json().data]).toEqual([
        password.slice(0, 20),
        422,
        { new_password: [message] },
      ]);
    }
    expect((await login(user.email, DEMO_PASSWORD)).statusCode).toBe(200);
    // 128 characters of any kind are accepted, exactly as typed.
    const longest = ` ${'ünïcödé '.repeat(15)}éèàòù  `;
    expect([...longest].length).toBe(128);
    expect((await attempt(longest)).statusCode).toBe(200);
    expect((await login(user.email, longest)).statusCode).toBe(200);
    expect((await login(user.email, longest.trim())).statusCode).toBe(401);
  });

  it("sends a notice to the old address when the email changes, in the user's language", async () => {
    const user = await ownUser();
    await t.database.pool.query(`update users set language = 'it' where id = $1`, [user.userId]);
    const moved = `moved-${user.email}`;
    const response = await put(user.token, {
      name: user.name,
      email: moved,
      current_password: DEMO_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.email).toBe(moved);
    const mails = await t.database.pool.query<{
      to_address: string;
      subject: string;
      body_text: string;
      language: string;
    }>(`select to_address, subject, body_text, language from mail_outbox where user_id = $1`, [user.userId]);
    expect(mails.rows).toHaveLength(1);
    expect(mails.rows[0]).toMatchObject({ to_address: user.email, language: 'it' });
    expect(mails.rows[0]?.subject).toMatch(/indirizzo email/);
    expect(mails.rows[0]?.body_text).toContain(`da ${user.email} a ${moved}`);
    // A save that keeps the email sends nothing.
    expect((await put(user.token, { name: 'Other name', email: moved })).statusCode).toBe(200);
    const after = await t.database.pool.query(
      `select count(*)::int as n from mail_outbox where user_id = $1`,
      [user.userId],
    );
    expect(after.rows[0].n).toBe(1);
    expect((await auditActions(user.userId)).map((entry) => entry.action)).toContain('profile_update');
  });
});
