/**
 * Saved views and kept columns through HTTP: create, list, rename, delete; who sees a shared view (a
 * customer user never another customer's nor staff views, staff never a customer's); duplicates; what
 * is refused changing nothing; the columns a user keeps per list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerIdOf, makeCustomer, makeUser, snapshot, userIdOf } from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { mintSession } from '#server/test/sessions.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';

let t: TestApp;
const tokens = {} as Record<'super' | 'admin' | 'care' | 'customer' | 'colleague' | 'otherCustomer', string>;

beforeAll(async () => {
  t = await createTestApp();
  tokens.super = await t.login(DEMO.super);
  tokens.admin = await t.login(DEMO.admin);
  tokens.care = await t.login(DEMO.care);
  tokens.customer = await t.login(DEMO.customer);
  const own = await customerIdOf(t, DEMO.customer);
  tokens.colleague = await mintSession(t, await makeUser(t, own));
  tokens.otherCustomer = await mintSession(t, await makeUser(t, await makeCustomer(t)));
});
afterAll(() => t?.close());

type Who = keyof typeof tokens;

async function create(who: Who, body: Record<string, unknown>) {
  return t.as(tokens[who], { method: 'POST', url: '/api/v1/saved-views', payload: body });
}

async function names(who: Who, list = 'sterilizations'): Promise<string[]> {
  const res = await t.as(tokens[who], { method: 'GET', url: `/api/v1/saved-views?list=${list}` });
  expect(res.statusCode).toBe(200);
  expectContract('listSavedViews', res);
  return res.json().data.map((view: { name: string }) => view.name);
}

async function savedViewRows() {
  return (await t.database.pool.query('select * from saved_views order by id')).rows;
}

describe('saved views', () => {
  it('saves a view without its page, lists it by name and gives it back to its owner only', async () => {
    const res = await create('customer', {
      list: 'sterilizations',
      name: '  Last week flagged  ',
      search: 'page=3&from=2026-11-01&lotStatus=flagged&columns=received_ts%2Cnotes&sortDir=asc',
      visibility: 'private',
    });
    expect(res.statusCode).toBe(200);
    expectContract('createSavedView', res);
    expect(res.json().data).toMatchObject({
      list: 'sterilizations',
      name: 'Last week flagged',
      search: 'from=2026-11-01&lotStatus=flagged&columns=received_ts%2Cnotes&sortDir=asc',
      visibility: 'private',
      mine: true,
    });
    expect(await names('customer')).toContain('Last week flagged');
    expect(await names('customer', 'alerts')).not.toContain('Last week flagged');
    for (const who of ['colleague', 'otherCustomer', 'super', 'care'] as const)
      expect(await names(who)).not.toContain('Last week flagged');
  });

  it("shares a customer's view with that customer's users only, and a staff view with staff only", async () => {
    expect(
      (
        await create('customer', {
          list: 'alerts',
          name: 'Clinic open',
          search: 'state=open',
          visibility: 'customer',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await create('admin', {
          list: 'alerts',
          name: 'Staff open',
          search: 'state=open',
          visibility: 'staff',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await create('otherCustomer', {
          list: 'alerts',
          name: 'Other clinic',
          search: '',
          visibility: 'customer',
        })
      ).statusCode,
    ).toBe(200);

    expect(await names('colleague', 'alerts')).toEqual(['Clinic open']);
    expect(await names('customer', 'alerts')).toEqual(['Clinic open']);
    // Another customer's shared view and the staff views never reach a customer user.
    expect(await names('otherCustomer', 'alerts')).toEqual(['Other clinic']);
    for (const who of ['super', 'admin', 'care'] as const)
      expect(await names(who, 'alerts')).toEqual(['Staff open']);

    const shared = (
      await t.as(tokens.colleague, { method: 'GET', url: '/api/v1/saved-views?list=alerts' })
    ).json().data[0];
    expect(shared).toMatchObject({ mine: false, visibility: 'customer' });
  });

  it('refuses sharing across the line: a customer user with staff, staff with a customer', async () => {
    const before = await savedViewRows();
    const customer = await create('customer', { list: 'alerts', name: 'X', search: '', visibility: 'staff' });
    expect(customer.statusCode).toBe(403);
    const staff = await create('care', { list: 'alerts', name: 'X', search: '', visibility: 'customer' });
    expect(staff.statusCode).toBe(403);
    expect(await savedViewRows()).toEqual(before);
  });

  it('refuses a name the owner already gave a view of the list, ignoring case, but not on another list', async () => {
    await create('care', { list: 'devices', name: 'Mine', search: 'q=A', visibility: 'private' });
    const before = await savedViewRows();
    const res = await create('care', { list: 'devices', name: 'MINE', search: 'q=B', visibility: 'private' });
    expect(res.statusCode).toBe(422);
    expectContract('createSavedView', res, 422);
    expect(res.json()).toMatchObject({
      message: 'validation_error',
      data: { name: ['validation.saved_view.name.taken'] },
    });
    expect(await savedViewRows()).toEqual(before);
    // Another user may use the name, and so may the same user on another list.
    expect(
      (await create('admin', { list: 'devices', name: 'Mine', search: '', visibility: 'private' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await create('care', { list: 'users', name: 'Mine', search: '', visibility: 'private' })).statusCode,
    ).toBe(200);
  });

  it('refuses bad input with the validation error and changes nothing', async () => {
    const before = await snapshot(t);
    const rows = await savedViewRows();
    for (const body of [
      { list: 'nowhere', name: 'A', search: '', visibility: 'private' },
      { list: 'alerts', name: '', search: '', visibility: 'private' },
      { list: 'alerts', name: '   ', search: '', visibility: 'private' },
      { list: 'alerts', name: 'x'.repeat(81), search: '', visibility: 'private' },
      { list: 'alerts', name: 'A', search: 'x'.repeat(2001), visibility: 'private' },
      { list: 'alerts', name: 'A', search: '?state=open', visibility: 'private' },
      { list: 'alerts', name: 'A', search: '', visibility: 'everyone' },
      { list: 'alerts', name: 'A', search: '', visibility: 'private', extra: 1 },
      { list: 'alerts', name: 'A', search: '' },
    ]) {
      const res = await create('customer', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().message).toBe('validation_error');
    }
    const missingList = await t.as(tokens.customer, { method: 'GET', url: '/api/v1/saved-views' });
    expect(missingList.statusCode).toBe(422);
    expect(await snapshot(t)).toEqual(before);
    expect(await savedViewRows()).toEqual(rows);
  });

  it('lets only the owner rename a view; a view the caller cannot see is not found', async () => {
    const id = (
      await create('customer', { list: 'recall', name: 'Lot A', search: 'lot=A', visibility: 'customer' })
    ).json().data.id;
    const renamed = await t.as(tokens.customer, {
      method: 'PUT',
      url: `/api/v1/saved-views/${id}`,
      payload: { name: 'Lot A (all)', search: 'lot=A&page=2', visibility: 'private' },
    });
    expect(renamed.statusCode).toBe(200);
    expectContract('updateSavedView', renamed);
    expect(renamed.json().data).toMatchObject({
      name: 'Lot A (all)',
      search: 'lot=A',
      visibility: 'private',
    });

    const shared = (
      await create('customer', { list: 'recall', name: 'Lot B', search: 'lot=B', visibility: 'customer' })
    ).json().data.id;
    const before = await savedViewRows();
    const put = (who: Who, viewId: number) =>
      t.as(tokens[who], {
        method: 'PUT',
        url: `/api/v1/saved-views/${viewId}`,
        payload: { name: 'Taken over', search: '', visibility: 'customer' },
      });
    expect((await put('colleague', shared)).statusCode).toBe(403);
    expect((await put('otherCustomer', shared)).statusCode).toBe(404);
    expect((await put('super', shared)).statusCode).toBe(404);
    expect((await put('colleague', id)).statusCode).toBe(404);
    expect(await savedViewRows()).toEqual(before);
  });

  it('lets the owner delete a view, a SUPER_ADMIN any view, and nobody else', async () => {
    const id = (
      await create('customer', {
        list: 'reports',
        name: 'Signed',
        search: 'status=signed',
        visibility: 'customer',
      })
    ).json().data.id;
    const del = (who: Who, viewId: number) =>
      t.as(tokens[who], { method: 'DELETE', url: `/api/v1/saved-views/${viewId}` });
    const before = await savedViewRows();
    expect((await del('colleague', id)).statusCode).toBe(403);
    expect((await del('otherCustomer', id)).statusCode).toBe(404);
    expect((await del('admin', id)).statusCode).toBe(404);
    expect(await savedViewRows()).toEqual(before);
    const deleted = await del('super', id);
    expect(deleted.statusCode).toBe(200);
    expectContract('deleteSavedView', deleted);
    expect(await names('customer', 'reports')).not.toContain('Signed');

    const own = (
      await create('care', { list: 'reports', name: 'Mine', search: '', visibility: 'staff' })
    ).json().data.id;
    expect((await del('admin', own)).statusCode).toBe(403);
    expect((await del('care', own)).statusCode).toBe(200);
    expect((await del('care', own)).statusCode).toBe(404);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/saved-views?list=alerts' })).statusCode).toBe(
      401,
    );
  });
});

describe('kept columns', () => {
  const put = (who: Who, list: string, columns: unknown) =>
    t.as(tokens[who], { method: 'PUT', url: `/api/v1/auth/me/list-columns/${list}`, payload: { columns } });
  const kept = async (who: Who) => {
    const res = await t.as(tokens[who], { method: 'GET', url: '/api/v1/auth/me/list-columns' });
    expect(res.statusCode).toBe(200);
    expectContract('getListColumns', res);
    return res.json().data;
  };

  it('keeps each user their own columns per list, in order, and an empty choice returns to the default', async () => {
    expect(await kept('care')).toEqual([]);
    const res = await put('care', 'sterilizations', ['received_ts', 'supplied_energy', 'device_serial']);
    expect(res.statusCode).toBe(200);
    expectContract('setListColumns', res);
    await put('care', 'devices', ['label']);
    await put('care', 'sterilizations', ['notes', 'received_ts']);
    expect(await kept('care')).toEqual([
      { list: 'devices', columns: ['label'] },
      { list: 'sterilizations', columns: ['notes', 'received_ts'] },
    ]);
    // Another user's choice is theirs alone.
    expect(await kept('admin')).toEqual([]);
    await put('care', 'devices', []);
    expect(await kept('care')).toEqual([{ list: 'sterilizations', columns: ['notes', 'received_ts'] }]);
    const stored = await t.database.pool.query('select columns from list_columns where user_id = $1', [
      await userIdOf(t, DEMO.care),
    ]);
    expect(stored.rows).toEqual([{ columns: ['notes', 'received_ts'] }]);
  });

  it('refuses an unknown list, a malformed or repeated column, and changes nothing', async () => {
    await put('customer', 'alerts', ['kind']);
    const before = (await t.database.pool.query('select * from list_columns order by user_id, list')).rows;
    // A list the app does not have is not a path of the API.
    expect((await put('customer', 'nowhere', ['a'])).statusCode).toBe(404);
    for (const [list, columns] of [
      ['alerts', ['Kind']],
      ['alerts', ['kind', 'kind']],
      ['alerts', 'kind'],
      ['alerts', [1]],
      ['alerts', Array.from({ length: 41 }, (_, i) => `c${i}`)],
      ['alerts', ['x'.repeat(41)]],
    ] as const) {
      const res = await put('customer', list, columns);
      expect(res.statusCode, `${list} ${JSON.stringify(columns)}`).toBe(422);
      expect(res.json().message).toBe('validation_error');
    }
    expect((await t.database.pool.query('select * from list_columns order by user_id, list')).rows).toEqual(
      before,
    );
  });
});
