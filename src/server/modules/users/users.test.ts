import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PER_PAGE } from '#server/http/paging.ts';
import { customerIdOf, makeCustomer, makeUser, snapshot, unique, userIdOf } from '#server/test/fixtures.ts';
import { expectPageFrame, idsInOrder } from '#server/test/paging.ts';
import { expectContract, expectExactKeys } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, formBody, type TestApp } from '#server/test/test-app.ts';

let t: TestApp;
let superAdmin: string;
let admin: string;
let manufacturer: number;
let clinic: number;

beforeAll(async () => {
  t = await createTestApp();
  superAdmin = await t.login(DEMO.super);
  admin = await t.login(DEMO.admin);
  manufacturer = await customerIdOf(t, DEMO.care);
  clinic = await makeCustomer(t, { name: 'Users clinic' });
  await t.database.pool.query(
    `insert into users (customer_id, name, email, password_hash, role, deleted_at)
     select $1, case when n % 2 = 0 then 'paging user ' else 'Paging User ' end || lpad(n::text, 3, '0'),
       'paging-' || n || '@example.com', 'x', 'CUSTOMER', case when n % 5 = 0 then now() - n * interval '1 minute' end
     from generate_series(1, 45) as n`,
    [clinic],
  );
});
afterAll(() => t?.close());

const password = 'password-123';
const newUserForm = (fields: Record<string, string> = {}) => {
  const tag = unique().toLowerCase();
  return {
    name: `User ${tag}`,
    email: `user-${tag}@example.com`,
    new_password: password,
    repeat_new_password: password,
    ...fields,
  };
};
const createUser = (token: string, customerId: number, fields: Record<string, string>) =>
  t.as(token, { method: 'POST', url: `/api/v1/customers/${customerId}/users`, ...formBody(fields) });
const updateUser = (token: string, customerId: number, userId: number, fields: Record<string, string>) =>
  t.as(token, {
    method: 'PATCH',
    url: `/api/v1/customers/${customerId}/users/${userId}`,
    ...formBody(fields),
  });
const me = (token: string) => t.as(token, { method: 'GET', url: '/api/v1/auth/me' });

const expectedIds = (orderBy: string, offset: number) =>
  idsInOrder(t, 'select u.id from users u', orderBy, offset);

describe('GET /users', () => {
  it('pages by name with the role and customer name', async () => {
    const total = Number((await t.database.pool.query('select count(*) as n from users')).rows[0].n);
    for (const page of [1, 2, 3]) {
      const response = await t.as(admin, { method: 'GET', url: `/api/v1/users?page=${page}` });
      expectContract('listUsers', response, 200);
      const body = response.json().data;
      expectPageFrame(body, total, page);
      expect(body.data.map((row: { id: number }) => row.id)).toEqual(
        await expectedIds('lower(u.name), u.id', (page - 1) * PER_PAGE),
      );
      for (const row of body.data) {
        expectExactKeys(row, 'User');
        expect(row.customer.name).toEqual(expect.any(String));
      }
    }
  });

  it('sorts by email and by active both ways', async () => {
    const ids = async (query: string) =>
      (await t.as(admin, { method: 'GET', url: `/api/v1/users?${query}` }))
        .json()
        .data.data.map((row: { id: number }) => row.id);
    expect(await ids('sortBy=email')).toEqual(await expectedIds('u.email, u.id', 0));
    expect(await ids('sortBy=email&sortDir=desc')).toEqual(await expectedIds('u.email desc, u.id desc', 0));
    expect(await ids('sortBy=active')).toEqual(
      await expectedIds('u.deleted_at asc nulls last, lower(u.name), u.id', 0),
    );
    expect(await ids('sortBy=active&sortDir=desc&page=2')).toEqual(
      await expectedIds('u.deleted_at desc nulls first, lower(u.name) desc, u.id desc', PER_PAGE),
    );
    expect(await ids('sortBy=name&sortDir=desc')).toEqual(
      await expectedIds('lower(u.name) desc, u.id desc', 0),
    );
  });
});

describe('GET /customers/{id}/users', () => {
  it('lists every user of the customer, disabled ones too, by name', async () => {
    const response = await t.as(admin, { method: 'GET', url: `/api/v1/customers/${clinic}/users` });
    expectContract('listCustomerUsers', response, 200);
    const rows: { id: number; customer_id: number; deleted_at: string | null }[] = response.json().data;
    const expected = await t.database.pool.query(
      'select id from users where customer_id = $1 order by lower(name), id',
      [clinic],
    );
    expect(rows.map((row) => row.id)).toEqual(expected.rows.map((row) => Number(row.id)));
    expect(rows.some((row) => row.deleted_at !== null)).toBe(true);
  });
});

describe('POST /customers/{id}/users', () => {
  it('creates a CUSTOMER by default, with a lower-case email, who can then log in', async () => {
    const form = newUserForm({ name: '  Giulia Verdi ', email: ' Giulia.Verdi.Fixture@Example.COM ' });
    const response = await createUser(admin, clinic, form);
    expectContract('createCustomerUser', response, 201);
    expectExactKeys(response.json().data, 'User');
    expect(response.json().message).toBe('users.created');
    expect(response.json().data).toMatchObject({
      name: 'Giulia Verdi',
      email: 'giulia.verdi.fixture@example.com',
      role: 'CUSTOMER',
      customer_id: clinic,
      customer: { name: 'Users clinic' },
      deleted_at: null,
    });
    const token = await t.login('giulia.verdi.fixture@example.com', password);
    expect((await me(token)).json().data).toMatchObject({ role: 'CUSTOMER', customer_id: clinic });
  });

  it('explains every invalid field with its message id and creates nothing', async () => {
    const before = await snapshot(t);
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [
        {},
        {
          name: ['validation.user.name.required'],
          email: ['validation.user.email.required'],
          new_password: ['validation.user.password.required'],
        },
      ],
      [newUserForm({ name: '  ' }), { name: ['validation.user.name.required'] }],
      [
        newUserForm({ name: 'Mario\r\nBcc: x@example.com' }),
        { name: ['validation.name.control_characters'] },
      ],
      [newUserForm({ email: 'nope' }), { email: ['validation.user.email.invalid'] }],
      [newUserForm({ email: 'ADMIN@Example.com' }), { email: ['validation.user.email.taken'] }],
      [
        newUserForm({ new_password: 'short', repeat_new_password: 'short' }),
        { new_password: ['validation.user.password.short'] },
      ],
      [
        newUserForm({ repeat_new_password: 'different-1' }),
        { repeat_new_password: ['validation.user.password.mismatch'] },
      ],
      [
        newUserForm({ new_password: '', repeat_new_password: '' }),
        { new_password: ['validation.user.password.required'] },
      ],
      [newUserForm({ role: 'CUSTOMER_CARE' }), { role: ['validation.user.role.invalid'] }],
      [newUserForm({ role: 'OWNER' }), { role: ['validation.user.role.invalid'] }],
    ];
    for (const [fields, errors] of cases) {
      const response = await createUser(admin, clinic, fields);
      expectContract('createCustomerUser', response, 422);
      expect([fields, response.json().data]).toEqual([fields, errors]);
    }
    // The manufacturer holds staff only.
    const customerOnStaff = await createUser(superAdmin, manufacturer, newUserForm({ role: 'CUSTOMER' }));
    expect(customerOnStaff.json().data).toEqual({ role: ['validation.user.role.invalid'] });
    expect(await snapshot(t)).toEqual(before);
  });

  it('gives a new manufacturer user CUSTOMER_CARE by default; only a SUPER_ADMIN creates admins', async () => {
    const care = await createUser(admin, manufacturer, newUserForm());
    expect(care.statusCode).toBe(201);
    expect(care.json().data.role).toBe('CUSTOMER_CARE');

    const before = await snapshot(t);
    for (const role of ['ADMIN', 'SUPER_ADMIN']) {
      const refused = await createUser(admin, manufacturer, newUserForm({ role }));
      expectContract('createCustomerUser', refused, 403);
    }
    expect(await snapshot(t)).toEqual(before);
    const created = await createUser(superAdmin, manufacturer, newUserForm({ role: 'ADMIN' }));
    expect(created.statusCode).toBe(201);
    expect(created.json().data.role).toBe('ADMIN');
  });
});

describe('PATCH /customers/{id}/users/{userId}', () => {
  it('changes the filled fields only; the password is optional', async () => {
    const userId = await makeUser(t, clinic);
    const response = await updateUser(admin, clinic, userId, {
      name: ' Renamed ',
      email: '',
      new_password: '',
    });
    expectContract('updateCustomerUser', response, 200);
    expect(response.json().message).toBe('users.updated');
    expect(response.json().data).toMatchObject({
      id: userId,
      name: 'Renamed',
      email: expect.stringMatching(/^fixture-/),
    });
  });

  it('refuses a taken email (any case), a short or unmatched password, and changes nothing', async () => {
    const userId = await makeUser(t, clinic);
    const before = await snapshot(t);
    for (const [fields, errors] of [
      [{ email: 'Super@Example.com' }, { email: ['validation.user.email.taken'] }],
      [{ email: 'bad@' }, { email: ['validation.user.email.invalid'] }],
      [
        { new_password: 'short', repeat_new_password: 'short' },
        { new_password: ['validation.user.password.short'] },
      ],
      [
        { new_password: 'long-enough', repeat_new_password: 'other-one' },
        { repeat_new_password: ['validation.user.password.mismatch'] },
      ],
      // The password rules of docs/accounts.md §1 hold for a password an administrator sets too.
      [
        { new_password: 'password123', repeat_new_password: 'password123' },
        { new_password: ['validation.password.common'] },
      ],
      [
        { new_password: 'y'.repeat(129), repeat_new_password: 'y'.repeat(129) },
        { new_password: ['validation.password.too_long'] },
      ],
      [
        {
          email: 'new-owner@example.com',
          new_password: 'new-owner@example.com#1',
          repeat_new_password: 'new-owner@example.com#1',
        },
        { new_password: ['validation.password.contains_email'] },
      ],
      [
        { name: 'Maria Bianchi', new_password: 'maria bianchi', repeat_new_password: 'maria bianchi' },
        { new_password: ['validation.password.equals_name'] },
      ],
    ] as const) {
      const response = await updateUser(admin, clinic, userId, fields);
      expectContract('updateCustomerUser', response, 422);
      expect(response.json().data).toEqual(errors);
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('keeps the own email of the user being edited', async () => {
    const userId = await makeUser(t, clinic);
    const { rows } = await t.database.pool.query('select email from users where id = $1', [userId]);
    const response = await updateUser(admin, clinic, userId, { email: rows[0].email.toUpperCase() });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.email).toBe(rows[0].email);
  });

  it('ends the sessions of a user whose password changes', async () => {
    const form = newUserForm();
    const created = (await createUser(admin, clinic, form)).json().data;
    const token = await t.login(form.email, password);
    const response = await updateUser(admin, clinic, created.id, {
      new_password: 'password-456',
      repeat_new_password: 'password-456',
    });
    expect(response.statusCode).toBe(200);
    expect((await me(token)).json()).toEqual({ status: 'error', message: 'session_expired', data: null });
    await t.login(form.email, 'password-456');
  });

  it('lets only a SUPER_ADMIN touch or grant admin roles, and nobody change their own role', async () => {
    const careId = (await createUser(superAdmin, manufacturer, newUserForm())).json().data.id;
    const superId = await userIdOf(t, DEMO.super);
    const adminId = await userIdOf(t, DEMO.admin);
    const before = await snapshot(t);
    for (const [userId, fields] of [
      [careId, { role: 'ADMIN' }],
      [careId, { role: 'SUPER_ADMIN' }],
      [superId, { name: 'Taken over' }],
      [superId, { role: 'CUSTOMER_CARE' }],
      [adminId, { role: 'CUSTOMER_CARE' }],
    ] as const) {
      const response = await updateUser(admin, manufacturer, userId, fields);
      expectContract('updateCustomerUser', response, 403);
    }
    const selfDemote = await updateUser(superAdmin, manufacturer, superId, { role: 'ADMIN' });
    expectContract('updateCustomerUser', selfDemote, 403);
    expect(await snapshot(t)).toEqual(before);

    expect((await updateUser(admin, manufacturer, adminId, { name: 'Admin Himself' })).statusCode).toBe(200);
    const promoted = await updateUser(superAdmin, manufacturer, careId, { role: 'ADMIN' });
    expect(promoted.json().data.role).toBe('ADMIN');
    const misplaced = await updateUser(superAdmin, clinic, await makeUser(t, clinic), {
      role: 'CUSTOMER_CARE',
    });
    expect(misplaced.json()).toMatchObject({
      message: 'validation_error',
      data: { role: ['validation.user.role.invalid'] },
    });
  });
});

describe('DELETE /customers/{id}/users/{userId} and POST …/undelete', () => {
  it('disables a user and ends their session at once; enabling lets them log in again', async () => {
    const form = newUserForm();
    const userId = (await createUser(admin, clinic, form)).json().data.id;
    const token = await t.login(form.email, password);
    expect((await me(token)).statusCode).toBe(200);

    const disabled = await t.as(admin, {
      method: 'DELETE',
      url: `/api/v1/customers/${clinic}/users/${userId}`,
    });
    expectContract('disableCustomerUser', disabled, 200);
    expect(disabled.json().message).toBe('users.disabled');
    expect(disabled.json().data.deleted_at).not.toBeNull();
    const refused = await t.as(token, { method: 'GET', url: `/api/v1/customers/${clinic}` });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('session_expired');
    await expect(t.login(form.email, password)).rejects.toThrow(/401/);
    const open = await t.database.pool.query(
      'select count(*) as n from sessions where user_id = $1 and revoked_at is null',
      [userId],
    );
    expect(Number(open.rows[0].n)).toBe(0);

    const enabled = await t.as(admin, {
      method: 'POST',
      url: `/api/v1/customers/${clinic}/users/${userId}/undelete`,
    });
    expectContract('enableCustomerUser', enabled, 200);
    expect(enabled.json()).toMatchObject({ message: 'users.enabled', data: { deleted_at: null } });
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(await t.login(form.email, password))).statusCode).toBe(200);
  });

  it('disables through the method override too', async () => {
    const userId = await makeUser(t, clinic);
    const response = await t.as(admin, {
      method: 'POST',
      url: `/api/v1/customers/${clinic}/users/${userId}`,
      ...formBody({ _method: 'DELETE' }),
    });
    expectContract('disableCustomerUser', response, 200);
    expect(response.json().data.deleted_at).not.toBeNull();
  });

  it('refuses to disable yourself or, for an ADMIN, an admin; nothing changes', async () => {
    const adminId = await userIdOf(t, DEMO.admin);
    const superId = await userIdOf(t, DEMO.super);
    const before = await snapshot(t);
    const self = await t.as(admin, {
      method: 'DELETE',
      url: `/api/v1/customers/${manufacturer}/users/${adminId}`,
    });
    expectContract('disableCustomerUser', self, 403);
    const boss = await t.as(admin, {
      method: 'DELETE',
      url: `/api/v1/customers/${manufacturer}/users/${superId}`,
    });
    expectContract('disableCustomerUser', boss, 403);
    const superSelf = await t.as(superAdmin, {
      method: 'DELETE',
      url: `/api/v1/customers/${manufacturer}/users/${superId}`,
    });
    expectContract('disableCustomerUser', superSelf, 403);
    expect(await snapshot(t)).toEqual(before);
    expect((await me(admin)).statusCode).toBe(200);
  });
});
