/** Sessions a user sees and ends, and an administrator ending a user's sessions (docs/accounts.md §3). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount } from '#server/test/accounts.ts';
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
  t = await createTestApp();
});
afterAll(() => t?.close());

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function signIn(email: string, userAgent: string, from = uniqueClientAddress()): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'x-forwarded-for': from, 'user-agent': userAgent },
    ...formBody({ email, password: DEMO_PASSWORD }),
  });
  expect(response.statusCode).toBe(200);
  return response.json().data.token;
}
const me = (token: string) => t.as(token, { method: 'GET', url: '/api/v1/auth/me' });
const list = (token: string) => t.as(token, { method: 'GET', url: '/api/v1/auth/me/sessions' });
const endOne = (token: string, sessionId: number, from = uniqueClientAddress()) =>
  t.as(token, {
    method: 'DELETE',
    url: `/api/v1/auth/me/sessions/${sessionId}`,
    headers: { 'x-forwarded-for': from },
  });
const endOthers = (token: string) =>
  t.as(token, { method: 'POST', url: '/api/v1/auth/me/sessions/end-others' });
const endAllOf = (token: string, customerId: number, userId: number, from = uniqueClientAddress()) =>
  t.as(token, {
    method: 'POST',
    url: `/api/v1/customers/${customerId}/users/${userId}/end-sessions`,
    headers: { 'x-forwarded-for': from },
  });
const endEntries = async (userId: number) =>
  (
    await t.database.pool.query(
      `select actor_user_id, actor_email, client_address, changes, occurred_at from audit_log
       where action = 'sessions_end' and entity_type = 'user' and entity_id = $1 order by id`,
      [userId],
    )
  ).rows;

describe('GET /auth/me/sessions', () => {
  it("lists the user's live sessions, newest first, with browser, system, address and times, this one marked", async () => {
    const account = await makeAccount(t);
    const phone = await signIn(account.email, SAFARI, '203.0.113.21');
    const desk = await signIn(account.email, FIREFOX, '203.0.113.22');
    // An ended one and another user's are not listed.
    const gone = await signIn(account.email, FIREFOX);
    await t.as(gone, { method: 'POST', url: '/api/v1/auth/logout' });
    await signIn(DEMO.care, FIREFOX);

    const response = await list(desk);
    expect(response.statusCode).toBe(200);
    expectContract('listOwnSessions', response, 200);
    const sessions = response.json().data;
    expect(
      sessions.map(({ browser, os, ip, current }: Record<string, unknown>) => ({ browser, os, ip, current })),
    ).toEqual([
      { browser: 'Firefox 128', os: 'Windows 10', ip: '203.0.113.22', current: true },
      { browser: 'Safari 17', os: 'iOS 17', ip: '203.0.113.21', current: false },
    ]);
    for (const session of sessions) {
      expect(Date.parse(session.created_at)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(session.last_seen_at)).toBeGreaterThanOrEqual(Date.parse(session.created_at));
    }
    expect((await list(phone)).json().data.map((session: { current: boolean }) => session.current)).toEqual([
      false,
      true,
    ]);
  });
});

describe('ending one own session', () => {
  it('refuses the other session at its next request and records who, whom, when and from where', async () => {
    const account = await makeAccount(t);
    const stolen = await signIn(account.email, SAFARI);
    const mine = await signIn(account.email, FIREFOX);
    expect((await me(stolen)).statusCode).toBe(200);
    const [, other] = (await list(mine)).json().data;
    const response = await endOne(mine, other.id, '203.0.113.30');
    expect(response.statusCode).toBe(200);
    expectContract('endOwnSession', response, 200);
    expect(response.json().data).toEqual({ ended: 1 });
    expect((await me(stolen)).json()).toEqual({ status: 'error', message: 'session_expired', data: null });
    expect((await me(mine)).statusCode).toBe(200);
    const [entry] = await endEntries(account.userId);
    expect(entry).toMatchObject({
      actor_user_id: account.userId,
      actor_email: account.email,
      client_address: '203.0.113.30',
      changes: { ended_sessions: { old: null, new: 1 } },
    });
    expect(Date.parse(entry.occurred_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("answers 404 for another user's session or one already ended, and 409 for the calling one", async () => {
    const account = await makeAccount(t);
    const victim = await makeAccount(t);
    const mine = await signIn(account.email, FIREFOX);
    const theirs = await signIn(victim.email, FIREFOX);
    const [theirSession] = (await list(theirs)).json().data;
    const [mySession] = (await list(mine)).json().data;

    const foreign = await endOne(mine, theirSession.id);
    expect(foreign.statusCode).toBe(404);
    expectContract('endOwnSession', foreign, 404);
    expect((await me(theirs)).statusCode).toBe(200);

    const current = await endOne(mine, mySession.id);
    expect(current.statusCode).toBe(409);
    expect(current.json().message).toBe('sessions.current');
    expectContract('endOwnSession', current, 409);
    expect((await me(mine)).statusCode).toBe(200);

    const other = await signIn(account.email, SAFARI);
    const otherId = (await list(other)).json().data[0].id;
    expect((await endOne(mine, otherId)).statusCode).toBe(200);
    expect((await endOne(mine, otherId)).statusCode).toBe(404);
    expect(await endEntries(victim.userId)).toEqual([]);
    expect(await endEntries(account.userId)).toHaveLength(1);
  });

  it('ends every other session at once and keeps this one', async () => {
    const account = await makeAccount(t);
    const others = [await signIn(account.email, SAFARI), await signIn(account.email, FIREFOX)];
    const mine = await signIn(account.email, FIREFOX);
    const response = await endOthers(mine);
    expect(response.statusCode).toBe(200);
    expectContract('endOtherOwnSessions', response, 200);
    expect(response.json().data).toEqual({ ended: 2 });
    for (const token of others) expect((await me(token)).statusCode).toBe(401);
    expect((await me(mine)).statusCode).toBe(200);
    expect((await list(mine)).json().data).toHaveLength(1);
    // Nothing left to end: no entry.
    expect((await endOthers(mine)).json().data).toEqual({ ended: 0 });
    expect(await endEntries(account.userId)).toHaveLength(1);
  });
});

describe('POST /customers/{id}/users/{userId}/end-sessions', () => {
  it("lets an administrator sign a user out everywhere, recorded under the administrator's name", async () => {
    const account = await makeAccount(t);
    const tokens = [await signIn(account.email, SAFARI), await signIn(account.email, FIREFOX)];
    const admin = await t.login(DEMO.admin);
    const response = await endAllOf(admin, account.customerId, account.userId, '203.0.113.40');
    expect(response.statusCode).toBe(200);
    expectContract('endUserSessions', response, 200);
    expect(response.json().data).toEqual({ ended: 2 });
    for (const token of tokens) expect((await me(token)).statusCode).toBe(401);
    expect(await endEntries(account.userId)).toEqual([
      expect.objectContaining({
        actor_email: DEMO.admin,
        client_address: '203.0.113.40',
        changes: { ended_sessions: { old: null, new: 2 } },
      }),
    ]);
  });

  it("refuses roles without canUpdateUsers, an ADMIN ending a SUPER_ADMIN's sessions, and another clinic's user", async () => {
    const staffer = await makeAccount(t, { role: 'SUPER_ADMIN' });
    const token = await signIn(staffer.email, FIREFOX);
    for (const caller of [DEMO.care, DEMO.customer, DEMO.admin]) {
      const refused = await endAllOf(await t.login(caller), staffer.customerId, staffer.userId);
      expect([caller, refused.statusCode]).toEqual([caller, 403]);
    }
    expect((await me(token)).statusCode).toBe(200);
    // The user under another customer's id is not found.
    const clinicUser = await makeAccount(t);
    const wrongCustomer = await endAllOf(await t.login(DEMO.super), staffer.customerId, clinicUser.userId);
    expect(wrongCustomer.statusCode).toBe(404);
    const superAdmin = await endAllOf(await t.login(DEMO.super), staffer.customerId, staffer.userId);
    expect(superAdmin.json().data).toEqual({ ended: 1 });
    expect((await me(token)).statusCode).toBe(401);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('several processes on one PostgreSQL', () => {
  it('refuses an ended session in another process that had it cached', async () => {
    const peer = await createPeerApp(t, { SESSION_CACHE_SECONDS: '3600' });
    try {
      const account = await makeAccount(t);
      const other = await signIn(account.email, SAFARI);
      const mine = await signIn(account.email, FIREFOX);
      const onPeer = () =>
        peer.app.inject({
          method: 'GET',
          url: '/api/v1/auth/me',
          headers: { authorization: `Bearer ${other}` },
        });
      expect((await onPeer()).statusCode).toBe(200);
      const [, otherSession] = (await list(mine)).json().data;
      expect((await endOne(mine, otherSession.id)).statusCode).toBe(200);
      const until = Date.now() + 5_000;
      let status = (await onPeer()).statusCode;
      while (status !== 401 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await onPeer()).statusCode;
      }
      expect(status).toBe(401);
    } finally {
      await peer.close();
    }
  });
});
