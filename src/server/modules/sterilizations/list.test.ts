import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PER_PAGE } from '#server/http/paging.ts';
import { customerIdOf } from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import { totals } from './list.ts';
import { expectedIds, type Fixture, makeFixture } from './test-fixtures.ts';

let t: TestApp;
let fx: Fixture;
const tokens: Record<'super' | 'admin' | 'care' | 'customer', string> = {
  super: '',
  admin: '',
  care: '',
  customer: '',
};
let ownCustomer: number;
const defaultLimit = totals.exactLimit;

beforeAll(async () => {
  t = await createTestApp();
  fx = await makeFixture(t);
  for (const role of ['super', 'admin', 'care', 'customer'] as const)
    tokens[role] = await t.login(DEMO[role]);
  ownCustomer = await customerIdOf(t, DEMO.customer);
});
afterAll(() => t?.close());
afterEach(() => {
  totals.exactLimit = defaultLimit;
});

interface Listed {
  id: number;
  device_id: number;
  device_serial: string;
  received_ts: string;
  device: { customer: { name: string } };
}
interface ListPage {
  data: Listed[];
  total: number;
  per_page: number;
  page: number;
}

async function list(token: string, query: string): Promise<ListPage> {
  const response = await t.as(token, { method: 'GET', url: `/api/v1/sterilizations?${query}` });
  expectContract('listSterilizations', response, 200);
  return response.json().data;
}

/** Every page of a query, concatenated. */
async function allIds(token: string, query: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; page < 100; page++) {
    const { data } = await list(token, `${query}&page=${page}`);
    ids.push(...data.map((row) => row.id));
    if (data.length < PER_PAGE) break;
  }
  return ids;
}

const alphaWhere = () => `s.customer_id = ${fx.alpha}`;

describe('GET /sterilizations', () => {
  it('answers 401 without a session and 422 for a bad query', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/sterilizations' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ status: 'error', message: 'session_expired' });
    for (const query of ['sortBy=notes', 'sortDir=up', 'from=yesterday', 'customerId=abc', 'page=0']) {
      const response = await t.as(tokens.admin, { method: 'GET', url: `/api/v1/sterilizations?${query}` });
      expect(response.statusCode, query).toBe(422);
      expect(response.json().message).toBe('validation_error');
    }
  });

  it('sorts by received_ts descending by default, ties broken by id, and pages', async () => {
    const expected = await expectedIds(t, alphaWhere(), 's.received_ts desc, s.id desc');
    const first = await list(tokens.admin, `customerId=${fx.alpha}`);
    expect(first).toMatchObject({ total: fx.alphaCount, per_page: PER_PAGE, page: 1 });
    expect(first.data.map((row) => row.id)).toEqual(expected.slice(0, PER_PAGE));
    const second = await list(tokens.admin, `customerId=${fx.alpha}&page=2`);
    expect(second).toMatchObject({ total: fx.alphaCount, page: 2 });
    expect(second.data.map((row) => row.id)).toEqual(expected.slice(PER_PAGE));
    const beyond = await list(tokens.admin, `customerId=${fx.alpha}&page=9`);
    expect(beyond).toMatchObject({ data: [], total: fx.alphaCount, page: 9 });
  });

  it('returns the same record view as ingestion (device, customer name, blockchain data)', async () => {
    const { data } = await list(tokens.admin, `deviceId=${fx.betaDevice}`);
    expect(data[0]).toMatchObject({
      device_id: fx.betaDevice,
      supplied_energy: 312.5,
      effective_time: 9.75,
      longitude: -7.25,
      consumables_lot: '+LOT-BETA',
      device: { customer: { name: 'Beta fixture clinic' } },
      blockchain_data: null,
    });
  });

  it.each([
    ['received_ts', 'asc', 's.received_ts asc, s.id asc'],
    ['device_serial', 'asc', 'd.device_serial asc, s.received_ts asc, s.id asc'],
    ['device_serial', 'desc', 'd.device_serial desc, s.received_ts desc, s.id desc'],
    ['consumables_lot', 'asc', 's.consumables_lot asc, s.id asc'],
    ['consumables_lot', 'desc', 's.consumables_lot desc, s.id desc'],
  ])('sorts by %s %s (filtered and unfiltered)', async (sortBy, sortDir, order) => {
    expect(await allIds(tokens.admin, `customerId=${fx.alpha}&sortBy=${sortBy}&sortDir=${sortDir}`)).toEqual(
      await expectedIds(t, alphaWhere(), order),
    );
    // Unfiltered, the global indexes serve the sort: compare the first two pages.
    const everything = await expectedIds(t, 'true', order);
    const page2 = await list(tokens.admin, `sortBy=${sortBy}&sortDir=${sortDir}&page=2`);
    expect(page2.data.map((row) => row.id)).toEqual(everything.slice(PER_PAGE, 2 * PER_PAGE));
  });

  it('filters by device, and by whole UTC days with both ends inclusive', async () => {
    const [deviceA] = fx.alphaDevices;
    expect(await allIds(tokens.admin, `deviceId=${deviceA}`)).toEqual(
      await expectedIds(t, `s.device_id = ${deviceA}`, 's.received_ts desc, s.id desc'),
    );
    const window = await list(tokens.admin, `customerId=${fx.alpha}&from=2024-03-01&to=2024-03-03`);
    expect(window.total).toBe(25);
    const day = await list(tokens.admin, `customerId=${fx.alpha}&from=2024-02-29&to=2024-02-29`);
    expect(day.data.map((row) => row.received_ts)).toEqual(['2024-02-29T23:59:59.999Z']);
    const after = await list(tokens.admin, `customerId=${fx.alpha}&from=2024-03-04`);
    expect(after.data.map((row) => row.received_ts)).toEqual(['2024-03-04T00:00:00.000Z']);
    const reversed = await list(tokens.admin, `customerId=${fx.alpha}&from=2024-03-03&to=2024-03-01`);
    expect(reversed).toMatchObject({ data: [], total: 0 });
    // A device of another customer than the one filtered: nothing.
    const mismatch = await list(tokens.admin, `customerId=${fx.alpha}&deviceId=${fx.betaDevice}`);
    expect(mismatch).toMatchObject({ data: [], total: 0 });
    const unknown = await list(tokens.admin, `deviceId=999999`);
    expect(unknown).toMatchObject({ data: [], total: 0 });
  });

  it('counts exactly up to the limit and estimates above it; one customer over whole days is always exact', async () => {
    totals.exactLimit = 5;
    const small = await list(tokens.admin, `deviceId=${fx.betaDevice}`);
    expect(small.total).toBe(4);
    // One owner over whole UTC days: the sum of its daily counts, exact above the limit too.
    const customer = await list(tokens.admin, `customerId=${fx.alpha}`);
    expect(customer.data).toHaveLength(PER_PAGE);
    expect(customer.total).toBe(fx.alphaCount);
    const window = await list(tokens.admin, `customerId=${fx.alpha}&from=2024-03-01&to=2024-03-03`);
    expect(window.total).toBe(25);
    const own = await list(tokens.customer, '');
    expect(own.total).toBe(
      (await expectedIds(t, `s.customer_id = ${ownCustomer}`, 's.received_ts desc, s.id desc')).length,
    );
    // Every customer's records above the limit: at least the limit + 1 and the rows seen so far,
    // whatever the planner guesses; exact again on the last page.
    totals.exactLimit = 1;
    const everything = await list(tokens.admin, '');
    expect(everything.data).toHaveLength(PER_PAGE);
    expect(everything.total).toBeGreaterThanOrEqual(PER_PAGE);
    expect(Number.isInteger(everything.total)).toBe(true);
    const all = await expectedIds(t, 'true', 's.received_ts desc, s.id desc');
    const lastPage = Math.ceil(all.length / PER_PAGE);
    expect(all.length % PER_PAGE, 'the last page is a short one').not.toBe(0);
    const last = await list(tokens.admin, `page=${lastPage}`);
    expect(last.total).toBe(all.length);
  });

  it("pages a customer's records in every sort, to the last page", async () => {
    const orders = {
      received_ts: 's.received_ts desc, s.id desc',
      consumables_lot: 's.consumables_lot desc, s.id desc',
      device_serial: 'd.device_serial desc, s.received_ts desc, s.id desc',
    };
    for (const [sortBy, order] of Object.entries(orders)) {
      const expected = await expectedIds(t, alphaWhere(), order);
      expect(expected.length, 'more than a page').toBeGreaterThan(PER_PAGE);
      const query = `customerId=${fx.alpha}&sortBy=${sortBy}&sortDir=desc`;
      expect(await allIds(tokens.admin, query), sortBy).toEqual(expected);
    }
  });

  it('shows every customer to staff', async () => {
    const count = Number((await t.database.pool.query('select count(*) as n from sterilizations')).rows[0].n);
    for (const role of ['super', 'admin', 'care'] as const) {
      expect((await list(tokens[role], '')).total, role).toBe(count);
      expect((await list(tokens[role], `customerId=${fx.beta}`)).total, role).toBe(4);
    }
  });

  it("confines a customer user to their own customer's records, whatever the parameters say", async () => {
    const own = await expectedIds(t, `s.customer_id = $1`, 's.received_ts desc, s.id desc', [ownCustomer]);
    expect(own.length).toBeGreaterThan(0);
    expect(await allIds(tokens.customer, '')).toEqual(own);
    expect(await allIds(tokens.customer, `customerId=${ownCustomer}`)).toEqual(own);
    for (const query of [
      `customerId=${fx.alpha}`,
      `deviceId=${fx.betaDevice}`,
      `customerId=${ownCustomer}&deviceId=${fx.alphaDevices[0]}`,
      `customerId=${fx.alpha}&deviceId=${fx.alphaDevices[0]}`,
      `customerId=${fx.alpha}&sortBy=device_serial`,
      `deviceId=${fx.alphaDevices[1]}&sortBy=consumables_lot`,
    ]) {
      expect(await list(tokens.customer, query), query).toMatchObject({ data: [], total: 0 });
    }
    const ownDevice = (
      await t.database.pool.query('select id from devices where customer_id = $1 order by id limit 1', [
        ownCustomer,
      ])
    ).rows[0].id;
    const byDevice = await list(tokens.customer, `deviceId=${ownDevice}`);
    expect(byDevice.data.every((row) => row.device_id === Number(ownDevice))).toBe(true);
  });
});

describe('GET /sterilizations/customer-filter and /device-filter/{customerId}', () => {
  it('offers staff every customer and a customer user only their own', async () => {
    const all = (await t.database.pool.query('select id, name from customers order by lower(name), id')).rows;
    for (const role of ['super', 'admin', 'care'] as const) {
      const response = await t.as(tokens[role], {
        method: 'GET',
        url: '/api/v1/sterilizations/customer-filter',
      });
      expectContract('getSterilizationCustomerFilter', response, 200);
      expect(response.json().data).toEqual(all.map((row) => ({ id: Number(row.id), name: row.name })));
    }
    const response = await t.as(tokens.customer, {
      method: 'GET',
      url: '/api/v1/sterilizations/customer-filter',
    });
    expect(response.json().data).toEqual([{ id: ownCustomer, name: expect.any(String) }]);
  });

  it("lists a customer's devices, and answers 404 for another tenant or an unknown customer", async () => {
    const get = (token: string, id: number | string) =>
      t.as(token, { method: 'GET', url: `/api/v1/sterilizations/device-filter/${id}` });
    const response = await get(tokens.care, fx.alpha);
    expectContract('getSterilizationDeviceFilter', response, 200);
    expect(
      response
        .json()
        .data.map((row: { id: number }) => row.id)
        .sort(),
    ).toEqual([...fx.alphaDevices].sort());
    expect(Object.keys(response.json().data[0]).sort()).toEqual(['device_serial', 'id']);
    const own = await get(tokens.customer, ownCustomer);
    expect(own.statusCode).toBe(200);
    expect(own.json().data.length).toBeGreaterThan(0);
    for (const [token, id] of [
      [tokens.customer, fx.alpha],
      [tokens.admin, 999_999],
      [tokens.admin, 'abc'],
    ] as const) {
      const refused = await get(token, id);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ status: 'error', message: 'not_found' });
    }
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/sterilizations/device-filter/${fx.alpha}` }))
        .statusCode,
    ).toBe(401);
  });
});
