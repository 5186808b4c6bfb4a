/**
 * Sessions checked once per few seconds (session-cache.ts): a session is read from the database once
 * and then trusted for SESSION_CACHE_SECONDS (an hour here, so that only forgetting can end it), and
 * every change that ends or alters it reaches the next request at once, in this process and, on a
 * PostgreSQL server, in every other one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerIdOf, makeCustomer, makeUser } from '#server/test/fixtures.ts';
import { createPeerApp, createTestApp, DEMO, formBody, type TestApp } from '#server/test/test-app.ts';
import { mintSession } from '../test/sessions.ts';

let t: TestApp;
let admin: string;
let superAdmin: string;
let manufacturer: number;
beforeAll(async () => {
  t = await createTestApp({ SESSION_CACHE_SECONDS: '3600', SERVER_TIMING: 'true' });
  admin = await t.login(DEMO.admin);
  superAdmin = await t.login(DEMO.super);
  manufacturer = await customerIdOf(t, DEMO.super);
});
afterAll(() => t?.close());

const me = (token: string) => t.as(token, { method: 'GET', url: '/api/v1/auth/me' });
/** The database round trips the answer says it took (Server-Timing). */
const roundTrips = (answer: { headers: Record<string, unknown> }) =>
  Number(/queries;desc="(\d+)"/.exec(String(answer.headers['server-timing']))?.[1]);

/** A clinic user, or a member of the manufacturer's staff. */
async function freshUser(role: 'CUSTOMER_CARE' | 'CUSTOMER' = 'CUSTOMER') {
  const customerId = role === 'CUSTOMER' ? await makeCustomer(t) : manufacturer;
  const userId = await makeUser(t, customerId, role);
  return { customerId, userId, token: await mintSession(t, userId) };
}

/** Polls until `check` holds (a notification from another process takes milliseconds, not seconds). */
async function eventually(check: () => Promise<boolean>, withinMs = 5_000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe('a session checked recently', () => {
  it('is trusted without reading it again', async () => {
    const { token } = await freshUser();
    const first = await me(token);
    const second = await me(token);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(roundTrips(first)).toBeGreaterThan(0);
    expect(roundTrips(second)).toBe(roundTrips(first) - 1);
  });

  it('ends at once with its logout, and the other sessions of the user stay', async () => {
    const { userId, token } = await freshUser();
    const other = await mintSession(t, userId);
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(200);
    const logout = await t.as(token, { method: 'POST', url: '/api/v1/auth/logout' });
    expect(logout.statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(200);
  });

  it("follows at once its user's role and name, and its customer's name", async () => {
    const staff = await freshUser('CUSTOMER_CARE');
    expect((await me(staff.token)).json().data.role).toBe('CUSTOMER_CARE');
    const promoted = await t.as(superAdmin, {
      method: 'PATCH',
      url: `/api/v1/customers/${manufacturer}/users/${staff.userId}`,
      ...formBody({ role: 'ADMIN', name: 'Renamed user' }),
    });
    expect(promoted.statusCode).toBe(200);
    const after = (await me(staff.token)).json().data;
    expect({ role: after.role, name: after.name }).toEqual({ role: 'ADMIN', name: 'Renamed user' });

    const clinic = await freshUser('CUSTOMER');
    expect((await me(clinic.token)).statusCode).toBe(200);
    const renamed = await t.as(admin, {
      method: 'PATCH',
      url: `/api/v1/customers/${clinic.customerId}`,
      ...formBody({ name: 'Renamed clinic' }),
    });
    expect(renamed.statusCode).toBe(200);
    expect((await me(clinic.token)).json().data.customer_name).toBe('Renamed clinic');
  });

  it('ends at once when its user is disabled', async () => {
    const { customerId, userId, token } = await freshUser();
    expect((await me(token)).statusCode).toBe(200);
    const disabled = await t.as(admin, {
      method: 'DELETE',
      url: `/api/v1/customers/${customerId}/users/${userId}`,
    });
    expect(disabled.statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('several processes on one PostgreSQL', () => {
  it("hears another process's logout, user change and any change made in the database", async () => {
    const peer = await createPeerApp(t, { SESSION_CACHE_SECONDS: '3600' });
    try {
      const onPeer = (token: string) =>
        peer.app.inject({
          method: 'GET',
          url: '/api/v1/auth/me',
          headers: { authorization: `Bearer ${token}` },
        });

      const loggedOut = await freshUser();
      expect((await onPeer(loggedOut.token)).statusCode).toBe(200);
      await t.as(loggedOut.token, { method: 'POST', url: '/api/v1/auth/logout' });
      expect(await eventually(async () => (await onPeer(loggedOut.token)).statusCode === 401)).toBe(true);

      const promoted = await freshUser('CUSTOMER_CARE');
      expect((await onPeer(promoted.token)).json().data.role).toBe('CUSTOMER_CARE');
      await t.as(superAdmin, {
        method: 'PATCH',
        url: `/api/v1/customers/${manufacturer}/users/${promoted.userId}`,
        ...formBody({ role: 'ADMIN' }),
      });
      expect(await eventually(async () => (await onPeer(promoted.token)).json().data.role === 'ADMIN')).toBe(
        true,
      );

      // Not through any route: a trigger announces it.
      const revoked = await freshUser();
      expect((await onPeer(revoked.token)).statusCode).toBe(200);
      expect((await me(revoked.token)).statusCode).toBe(200);
      await t.database.pool.query('update sessions set revoked_at = now() where user_id = $1', [
        revoked.userId,
      ]);
      expect(await eventually(async () => (await onPeer(revoked.token)).statusCode === 401)).toBe(true);
      expect(await eventually(async () => (await me(revoked.token)).statusCode === 401)).toBe(true);
    } finally {
      await peer.close();
    }
  });

  it('reads every session again once its listening connection was lost (changes may have been missed)', async () => {
    const { token } = await freshUser();
    const read = (await me(token)).headers;
    const cached = await me(token);
    expect(roundTrips(cached)).toBe(roundTrips({ headers: read }) - 1);
    await t.database.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query like 'LISTEN%' and pid <> pg_backend_pid()`,
    );
    expect(await eventually(async () => roundTrips(await me(token)) === roundTrips({ headers: read }))).toBe(
      true,
    );
  });

  it('forgets every session on an announcement it cannot read (it may be a change)', async () => {
    const { token } = await freshUser();
    const read = (await me(token)).headers;
    // Cached (once the channel listens: the test before this one cut it).
    expect(
      await eventually(async () => roundTrips(await me(token)) === roundTrips({ headers: read }) - 1),
    ).toBe(true);
    await t.database.pool.query(`select pg_notify('uvtrace_auth', 'not a change this version reads')`);
    expect(await eventually(async () => roundTrips(await me(token)) === roundTrips({ headers: read }))).toBe(
      true,
    );
  });
});
