import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PER_PAGE } from '#server/http/paging.ts';
import { makeCustomer, makeDevice, makeUser } from '#server/test/fixtures.ts';
import { expectPageFrame, idsInOrder } from '#server/test/paging.ts';
import { expectContract, expectExactKeys } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, formBody, type TestApp } from '#server/test/test-app.ts';

let t: TestApp;
let admin: string;
let care: string;
/** A customer with known sterilizations around a date boundary (see the filter test). */
let counted: number;
let disabled: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(DEMO.admin);
  care = await t.login(DEMO.care);
  // Enough customers for three pages, some of them disabled, with names that differ only by case.
  await t.database.pool.query(
    `insert into customers (name, country, deleted_at)
     select case when n % 2 = 0 then 'paging clinic ' else 'Paging Clinic ' end || lpad(n::text, 3, '0'), 'IT',
       case when n % 7 = 0 then now() - n * interval '1 hour' end
     from generate_series(1, 45) as n`,
  );
  disabled = await makeCustomer(t, { name: 'Disabled clinic', deleted: true });
  counted = await makeCustomer(t, { name: 'Counted clinic' });
  const device = await makeDevice(t, counted);
  await makeDevice(t, counted);
  await makeUser(t, counted);
  const records: [string, number][] = [
    ['2024-02-29T23:59:59.999Z', 0],
    ['2024-03-01T00:00:00.000Z', 0],
    ['2024-03-01T12:00:00.000Z', 1],
    ['2024-03-01T23:59:59.999Z', 0],
    ['2024-03-02T00:00:00.000Z', 0],
    ['2024-03-02T10:00:00.000Z', 3],
  ];
  for (const [index, [received, status]] of records.entries()) {
    await t.database.pool.query(
      `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code)
       values ($1, (select customer_id from devices where id = $1), $2, $3, 10, 5, 5, 100, $4)`,
      [device, received, index + 1, status],
    );
  }
});
afterAll(() => t?.close());

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });

const expectedOrder = (orderBy: string, limit: number, offset: number) =>
  idsInOrder(t, 'select id from customers c', orderBy, offset, limit);

interface CountedRow {
  sterilizations_ok_count: number;
  devices_count: number;
  users_count: number;
}

/** The fixture customer's row in the list with these filters, walking the pages until it shows up. */
async function countedRow(query: string): Promise<CountedRow> {
  for (let page = 1; page <= 10; page++) {
    const response = await get(admin, `/api/v1/customers?${query}&page=${page}`);
    expectContract('listCustomers', response, 200);
    const rows: (CountedRow & { id: number })[] = response.json().data.data;
    const row = rows.find((item) => item.id === counted);
    if (row) return row;
    if (rows.length === 0) break;
  }
  throw new Error('counted customer not listed');
}

describe('GET /customers', () => {
  it('pages by name, case-insensitively, with the id breaking ties', async () => {
    const total = Number((await t.database.pool.query('select count(*) as n from customers')).rows[0].n);
    expect(total).toBeGreaterThan(2 * PER_PAGE);
    for (const page of [1, 2, 3]) {
      const response = await get(care, `/api/v1/customers?page=${page}`);
      expectContract('listCustomers', response, 200);
      const body = response.json().data;
      expectPageFrame(body, total, page);
      expect(body.data.map((row: { id: number }) => row.id)).toEqual(
        await expectedOrder('lower(c.name), c.id', PER_PAGE, (page - 1) * PER_PAGE),
      );
      for (const row of body.data) expectExactKeys(row, 'Customer');
    }
    const beyond = (await get(care, '/api/v1/customers?page=99')).json().data;
    expect(beyond).toMatchObject({ data: [], total, page: 99 });
  });

  it('sorts by name descending and by active (deleted_at) both ways', async () => {
    const byNameDesc = (await get(admin, '/api/v1/customers?sortBy=name&sortDir=desc')).json().data.data;
    expect(byNameDesc.map((row: { id: number }) => row.id)).toEqual(
      await expectedOrder('lower(c.name) desc, c.id desc', PER_PAGE, 0),
    );
    const activeAsc = (await get(admin, '/api/v1/customers?sortBy=active&sortDir=asc')).json().data.data;
    expect(activeAsc.map((row: { id: number }) => row.id)).toEqual(
      await expectedOrder('c.deleted_at asc nulls last, lower(c.name), c.id', PER_PAGE, 0),
    );
    // Ascending: the disabled customers first, the oldest deactivation first.
    const disabledCount = Number(
      (await t.database.pool.query('select count(*) as n from customers where deleted_at is not null'))
        .rows[0].n,
    );
    expect(
      activeAsc
        .slice(0, disabledCount)
        .every((row: { deleted_at: string | null }) => row.deleted_at !== null),
    ).toBe(true);
    const activeDesc = (await get(admin, '/api/v1/customers?sortBy=active&sortDir=desc')).json().data.data;
    expect(activeDesc[0].deleted_at).toBeNull();
    expect(activeDesc.map((row: { id: number }) => row.id)).toEqual(
      await expectedOrder('c.deleted_at desc nulls first, lower(c.name) desc, c.id desc', PER_PAGE, 0),
    );
  });

  it('counts devices, users and ok sterilizations as JSON numbers', async () => {
    const row = await countedRow('sortBy=name');
    expect(row).toMatchObject({ devices_count: 2, users_count: 1, sterilizations_ok_count: 4 });
  });

  it('restricts the ok count to whole UTC days, both ends inclusive', async () => {
    const count = async (query: string) => (await countedRow(query)).sterilizations_ok_count;
    expect(await count('filterFrom=2024-03-01&filterTo=2024-03-01')).toBe(2);
    expect(await count('filterFrom=2024-03-01&filterTo=2024-03-02')).toBe(3);
    expect(await count('filterFrom=2024-02-29&filterTo=2024-03-02')).toBe(4);
    expect(await count('filterFrom=2024-03-02')).toBe(1);
    expect(await count('filterTo=2024-02-29')).toBe(1);
    expect(await count('filterFrom=2024-03-03&filterTo=2024-03-01')).toBe(0);
  });

  it('refuses malformed query values', async () => {
    for (const query of [
      'filterFrom=2024-13-01',
      'filterTo=yesterday',
      'sortBy=email',
      'sortDir=up',
      'page=0',
    ]) {
      const response = await get(admin, `/api/v1/customers?${query}`);
      expect([query, response.statusCode]).toEqual([query, 422]);
      expect(response.json().message).toBe('validation_error');
    }
  });
});

describe('GET /customers/full-list', () => {
  it('lists only active customers as id and name, by name', async () => {
    const response = await get(care, '/api/v1/customers/full-list');
    expectContract('getCustomerFullList', response, 200);
    const options: { id: number; name: string }[] = response.json().data;
    const active = await t.database.pool.query(
      'select id from customers where deleted_at is null order by lower(name), id',
    );
    expect(options.map((option) => option.id)).toEqual(active.rows.map((row) => Number(row.id)));
    expect(options.some((option) => option.id === disabled)).toBe(false);
    for (const option of options) expect(Object.keys(option).sort()).toEqual(['id', 'name']);
  });
});

describe('GET /customers/{id}', () => {
  it('answers the customer with its counts', async () => {
    const response = await get(care, `/api/v1/customers/${counted}`);
    expectContract('getCustomer', response, 200);
    expectExactKeys(response.json().data, 'Customer');
    expect(response.json().data).toMatchObject({
      id: counted,
      name: 'Counted clinic',
      country: 'IT',
      enable_blockchain: false,
      devices_count: 2,
      users_count: 1,
      sterilizations_ok_count: 4,
      deleted_at: null,
    });
  });
});

describe('POST /customers', () => {
  const post = (fields: Record<string, string>) =>
    t.as(admin, { method: 'POST', url: '/api/v1/customers', ...formBody(fields) });
  const customerCount = async () =>
    Number((await t.database.pool.query('select count(*) as n from customers')).rows[0].n);

  it('creates a trimmed customer with an upper-case country', async () => {
    const response = await post({
      name: '  Studio Bianchi ',
      address: ' Via Roma 1 ',
      postcode: '20100',
      city: 'Milano',
      country: ' it ',
      email: ' info@bianchi.example ',
      phone: '',
      referrer: 'Mario',
      enable_blockchain: '1',
    });
    expectContract('createCustomer', response, 201);
    expect(response.json().message).toBe('customers.created');
    expect(response.json().data).toMatchObject({
      name: 'Studio Bianchi',
      address: 'Via Roma 1',
      country: 'IT',
      email: 'info@bianchi.example',
      phone: null,
      enable_blockchain: true,
      devices_count: 0,
      users_count: 0,
      sterilizations_ok_count: 0,
    });
  });

  it('explains every invalid field with its message id and creates nothing', async () => {
    const before = await customerCount();
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [
        {},
        { name: ['validation.customer.name.required'], country: ['validation.customer.country.required'] },
      ],
      [{ name: '   ', country: 'IT' }, { name: ['validation.customer.name.required'] }],
      // A line break would forge a header line in the alert e-mails that name the customer.
      [
        { name: 'Clinic\r\nBcc: x@example.com', country: 'IT' },
        { name: ['validation.name.control_characters'] },
      ],
      [{ name: 'Clinic\u0007', country: 'IT' }, { name: ['validation.name.control_characters'] }],
      [{ name: 'X', country: 'ITA' }, { country: ['validation.customer.country.required'] }],
      [{ name: 'X', country: 'I1' }, { country: ['validation.customer.country.required'] }],
      [{ name: 'X', country: 'I' }, { country: ['validation.customer.country.required'] }],
      [{ name: 'X', country: 'IT', email: 'not-an-email' }, { email: ['validation.customer.email.invalid'] }],
      [{ name: 'X', country: 'IT', enable_blockchain: 'yes' }, { enable_blockchain: ['validation.generic'] }],
      [{ name: 'X'.repeat(256), country: 'IT' }, { name: ['validation.generic'] }],
    ];
    for (const [fields, errors] of cases) {
      const response = await post(fields);
      expectContract('createCustomer', response, 422);
      expect([fields, response.json().data]).toEqual([fields, errors]);
    }
    expect(await customerCount()).toBe(before);
  });

  it('accepts a customer without an email', async () => {
    const response = await post({ name: 'No mail clinic', country: 'FR', email: '   ' });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.email).toBeNull();
  });
});

describe('PATCH /customers/{id}', () => {
  it('changes only the filled fields and trims them; also through the method override', async () => {
    const id = await makeCustomer(t, { name: 'Patch me' });
    const response = await t.as(admin, {
      method: 'PATCH',
      url: `/api/v1/customers/${id}`,
      ...formBody({ name: '', city: ' Torino ', country: 'de', enable_blockchain: '1' }),
    });
    expectContract('updateCustomer', response, 200);
    expect(response.json().message).toBe('customers.updated');
    expect(response.json().data).toMatchObject({
      name: 'Patch me',
      city: 'Torino',
      country: 'DE',
      enable_blockchain: true,
    });

    const override = await t.as(admin, {
      method: 'POST',
      url: `/api/v1/customers/${id}`,
      ...formBody({ _method: 'PATCH', referrer: 'Anna', enable_blockchain: '0' }),
    });
    expectContract('updateCustomer', override, 200);
    expect(override.json().data).toMatchObject({
      name: 'Patch me',
      city: 'Torino',
      referrer: 'Anna',
      enable_blockchain: false,
    });
  });

  it('refuses invalid values and changes nothing', async () => {
    const id = await makeCustomer(t, { name: 'Keep me' });
    const before = (await t.database.pool.query('select * from customers where id = $1', [id])).rows;
    for (const [fields, errors] of [
      [{ country: 'ITA', city: 'Roma' }, { country: ['validation.customer.country.required'] }],
      [{ email: 'x@', city: 'Roma' }, { email: ['validation.customer.email.invalid'] }],
    ] as const) {
      const response = await t.as(admin, {
        method: 'PATCH',
        url: `/api/v1/customers/${id}`,
        ...formBody(fields),
      });
      expectContract('updateCustomer', response, 422);
      expect(response.json().data).toEqual(errors);
    }
    expect((await t.database.pool.query('select * from customers where id = $1', [id])).rows).toEqual(before);
  });

  it('answers 404 for a customer that does not exist', async () => {
    const response = await t.as(admin, {
      method: 'PATCH',
      url: '/api/v1/customers/987654',
      ...formBody({ city: 'X' }),
    });
    expectContract('updateCustomer', response, 404);
  });
});
