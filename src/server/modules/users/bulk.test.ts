/**
 * Bulk user actions through HTTP: the chosen users, or every user a search matches, disabled or enabled
 * one by one (each audited on its own, disabling ending their sessions), what cannot be done skipped
 * with its reason; the same ability and rules as one user at a time; bad input changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCustomer, makeUser, unique, userIdOf } from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { mintSession } from '#server/test/sessions.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';

let t: TestApp;
let clinic: number;
let manufacturer: number;
let tokens: Record<'super' | 'admin' | 'care' | 'clinicUser', string>;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  clinic = await makeCustomer(t, { name: `Bulk users clinic ${unique()}` });
  adminId = await userIdOf(t, DEMO.admin);
  manufacturer = Number(
    (await t.database.pool.query('select customer_id from users where id = $1', [adminId])).rows[0]
      .customer_id,
  );
  tokens = {
    super: await mintSession(t, await userIdOf(t, DEMO.super)),
    admin: await mintSession(t, adminId),
    care: await mintSession(t, await userIdOf(t, DEMO.care)),
    clinicUser: await mintSession(t, await makeUser(t, clinic, 'CUSTOMER')),
  };
});
afterAll(() => t?.close());

const bulk = (token: string, payload: object) =>
  t.as(token, { method: 'POST', url: '/api/v1/users/bulk', payload });

const disabledOf = async (ids: number[]) =>
  (
    await t.database.pool.query(
      'select id, deleted_at is not null as disabled from users where id = any($1) order by id',
      [ids],
    )
  ).rows as { id: number; disabled: boolean }[];
const auditCount = async (ids: number[]) =>
  Number(
    (
      await t.database.pool.query(
        `select count(*) as n from audit_log where entity_type = 'user' and entity_id = any($1)`,
        [ids],
      )
    ).rows[0].n,
  );
const liveSessions = async (userId: number) =>
  Number(
    (
      await t.database.pool.query(
        'select count(*) as n from sessions where user_id = $1 and revoked_at is null',
        [userId],
      )
    ).rows[0].n,
  );

describe('POST /users/bulk', () => {
  it('disables the chosen users one by one, each audited, ends their sessions, and skips what it cannot do', async () => {
    const [a, b, c] = [await makeUser(t, clinic), await makeUser(t, clinic), await makeUser(t, clinic)];
    await mintSession(t, a);
    await t.database.pool.query('update users set deleted_at = now() where id = $1', [c]);
    const privileged = await makeUser(t, manufacturer, 'SUPER_ADMIN');
    const before = await auditCount([a, b, c, privileged, adminId]);

    const response = await bulk(tokens.admin, {
      action: 'disable',
      ids: [a, b, c, privileged, adminId, 2_000_000_000],
    });
    expectContract('bulkUserAction', response, 200);
    expect(response.json().data).toEqual({
      done: [a, b],
      skipped: [
        { id: c, reason: 'users.already_disabled' },
        // An ADMIN manages no SUPER_ADMIN, and never disables itself.
        { id: privileged, reason: 'forbidden' },
        { id: adminId, reason: 'users.self' },
        { id: 2_000_000_000, reason: 'not_found' },
      ],
      more: false,
    });
    expect(await disabledOf([a, b, privileged, adminId])).toEqual(
      [
        { id: a, disabled: true },
        { id: b, disabled: true },
        { id: privileged, disabled: false },
        { id: adminId, disabled: false },
      ].sort((x, y) => x.id - y.id),
    );
    expect((await auditCount([a, b, c, privileged, adminId])) - before).toBe(2);
    expect(await liveSessions(a)).toBe(0);

    // Enabling them again: the one never disabled is skipped as already enabled.
    const enabled = await bulk(tokens.admin, { action: 'enable', ids: [a, b, privileged] });
    expectContract('bulkUserAction', enabled, 200);
    expect(enabled.json().data).toEqual({
      done: [a, b],
      skipped: [{ id: privileged, reason: 'forbidden' }],
      more: false,
    });
    // A SUPER_ADMIN may manage the privileged user; it is already enabled.
    const bySuper = await bulk(tokens.super, { action: 'enable', ids: [privileged] });
    expect(bySuper.json().data.skipped).toEqual([{ id: privileged, reason: 'users.already_enabled' }]);
  });

  it('acts on every user a search matches', async () => {
    const tag = unique().toLowerCase();
    const otherClinic = await makeCustomer(t, { name: `Bulk users other ${unique()}` });
    const ids: number[] = [];
    for (const customer of [clinic, otherClinic]) {
      const id = await makeUser(t, customer);
      await t.database.pool.query('update users set name = $2 where id = $1', [id, `Bulk ${tag} ${id}`]);
      ids.push(id);
    }
    const response = await bulk(tokens.admin, { action: 'disable', filter: { q: `bulk ${tag}` } });
    expectContract('bulkUserAction', response, 200);
    expect(response.json().data).toEqual({ done: ids, skipped: [], more: false });
    expect((await disabledOf(ids)).every((row) => row.disabled)).toBe(true);
  });

  it('needs canUpdateUsers: customer care and clinic users are refused and nothing changes', async () => {
    const id = await makeUser(t, clinic);
    for (const token of [tokens.care, tokens.clinicUser]) {
      expectContract('bulkUserAction', await bulk(token, { action: 'disable', ids: [id] }), 403);
      expectContract('bulkUserAction', await bulk(token, { action: 'disable', filter: {} }), 403);
    }
    expect(await disabledOf([id])).toEqual([{ id, disabled: false }]);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/users/bulk', payload: {} })).statusCode).toBe(
      401,
    );
  });

  it('refuses bad input and changes nothing', async () => {
    const id = await makeUser(t, clinic);
    for (const payload of [
      { action: 'delete', ids: [id] },
      { action: 'disable' },
      { action: 'disable', ids: [id], filter: {} },
      { action: 'disable', ids: [] },
      { action: 'disable', ids: [id, id] },
      { action: 'disable', ids: Array.from({ length: 501 }, (_, i) => i + 1) },
      { action: 'disable', ids: ['x'] },
      { action: 'disable', filter: { q: 'x'.repeat(101) } },
      { action: 'disable', filter: { role: 'ADMIN' } },
      { action: 'disable', ids: [id], extra: true },
    ]) {
      const response = await bulk(tokens.admin, payload);
      expectContract('bulkUserAction', response, 422);
    }
    expect(await disabledOf([id])).toEqual([{ id, disabled: false }]);
    expect(await auditCount([id])).toBe(0);
  });
});
