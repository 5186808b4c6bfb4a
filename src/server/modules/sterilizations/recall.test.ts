/**
 * Recall by lot: every record of a lot per customer and device, for each role and tenant,
 * as a list, as counts and as CSV.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PER_PAGE } from '#server/http/paging.ts';
import { customerIdOf, makeCustomer, makeDevice, unique } from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import { RECALL_HEADER } from './recall.ts';
import { parseCsv } from './test-fixtures.ts';

let t: TestApp;
const tokens = { super: '', admin: '', care: '', customer: '' };
let own: number;
let other: number;
let ownDevice: number;
let otherDevices: [number, number];
const lot = `RC-${unique()}`;
/** Records of the lot: own customer 3 (one failed), other customer 2 + PER_PAGE on two devices. */
const OTHER_COUNT = PER_PAGE + 2;

async function insertRecord(
  device: number,
  customer: number,
  received: string,
  progressive: number,
  status = 0,
) {
  await t.database.pool.query(
    `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
       effective_time, residual_lamp_life, status_code, consumables_lot, lot_progressive_id)
     values ($1, $2, $3, $4, 300, 10, 10, 4000, $5, $6, 1)`,
    [device, customer, received, progressive, status, lot],
  );
}

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ['super', 'admin', 'care', 'customer'] as const)
    tokens[role] = await t.login(DEMO[role]);
  own = await customerIdOf(t, DEMO.customer);
  other = await makeCustomer(t, { name: `Recall other clinic ${unique()}` });
  ownDevice = await makeDevice(t, own);
  otherDevices = [await makeDevice(t, other), await makeDevice(t, other)];
  await insertRecord(ownDevice, own, '2024-05-01T08:00:00.000Z', 1);
  await insertRecord(ownDevice, own, '2024-05-02T08:00:00.000Z', 2, 2);
  await insertRecord(ownDevice, own, '2024-05-03T08:00:00.000Z', 3);
  for (let i = 0; i < OTHER_COUNT; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    await insertRecord(
      otherDevices[i % 2] as number,
      other,
      `2024-04-${day}T09:00:${String(i).padStart(2, '0')}.000Z`,
      i + 1,
    );
  }
  // A record of another lot, never part of the recall.
  await t.database.pool.query(
    `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
       effective_time, residual_lamp_life, status_code, consumables_lot)
     values ($1, $2, now(), 99, 300, 10, 10, 4000, 0, 'RC-UNRELATED')`,
    [ownDevice, own],
  );
});
afterAll(() => t?.close());

async function records(token: string, query: string) {
  const response = await t.as(token, { method: 'GET', url: `/api/v1/recall/records?${query}` });
  expectContract('listRecallRecords', response, 200);
  return response.json().data as {
    data: {
      id: number;
      consumables_lot: string;
      device_id: number;
      received_ts: string;
      device_serial: string;
    }[];
    total: number;
  };
}

async function summary(token: string, query: string) {
  const response = await t.as(token, { method: 'GET', url: `/api/v1/recall/summary?${query}` });
  expectContract('getRecallSummary', response, 200);
  return response.json().data as {
    records: number;
    customers: { customer_id: number; records: number; flagged: number; first_received_ts: string }[];
    devices: { device_id: number; customer_id: number; records: number }[];
    certificates: unknown[];
  };
}

const q = `lot=${encodeURIComponent(lot)}`;

describe('GET /recall/records', () => {
  it('lists every record of the lot for staff, newest first, paged', async () => {
    for (const role of ['super', 'admin', 'care'] as const) {
      const first = await records(tokens[role], q);
      expect(first.total, role).toBe(3 + OTHER_COUNT);
      expect(first.data).toHaveLength(PER_PAGE);
      expect(first.data.every((row) => row.consumables_lot === lot)).toBe(true);
      const times = first.data.map((row) => row.received_ts);
      expect(times).toEqual([...times].sort().reverse());
      const second = await records(tokens[role], `${q}&page=2`);
      expect(second.data).toHaveLength(3 + OTHER_COUNT - PER_PAGE);
    }
  });

  it('shows a customer user only its own records, whatever customerId says', async () => {
    const mine = await records(tokens.customer, q);
    expect(mine.total).toBe(3);
    expect(mine.data.every((row) => row.device_id === ownDevice)).toBe(true);
    expect(await records(tokens.customer, `${q}&customerId=${other}`)).toMatchObject({ data: [], total: 0 });
    expect((await records(tokens.customer, `${q}&customerId=${own}`)).total).toBe(3);
  });

  it('narrows by customer, device and days, and sorts by device serial', async () => {
    expect((await records(tokens.admin, `${q}&customerId=${other}`)).total).toBe(OTHER_COUNT);
    const device = await records(tokens.admin, `${q}&customerId=${other}&deviceId=${otherDevices[0]}`);
    expect(device.total).toBe(Math.ceil(OTHER_COUNT / 2));
    expect((await records(tokens.admin, `${q}&from=2024-05-02&to=2024-05-03`)).total).toBe(2);
    const bySerial = await records(tokens.admin, `${q}&sortBy=device_serial&sortDir=asc&customerId=${other}`);
    const serials = bySerial.data.map((row) => row.device_serial);
    expect(serials).toEqual([...serials].sort());
  });

  it('answers an empty page for a lot nobody used, and 422 for a missing or over-long lot', async () => {
    expect(await records(tokens.admin, 'lot=NO-SUCH-LOT')).toMatchObject({ data: [], total: 0 });
    for (const query of ['', 'lot=', `lot=${'L'.repeat(256)}`, `${q}&sortBy=consumables_lot`]) {
      const response = await t.as(tokens.admin, { method: 'GET', url: `/api/v1/recall/records?${query}` });
      expect(response.statusCode, query).toBe(422);
      expect(response.json().message).toBe('validation_error');
    }
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1/recall/records?${q}` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /recall/summary', () => {
  it('counts the lot per customer and per device, with flagged records and dates', async () => {
    const all = await summary(tokens.admin, q);
    expect(all.records).toBe(3 + OTHER_COUNT);
    expect(all.certificates).toEqual([]);
    const byCustomer = Object.fromEntries(all.customers.map((row) => [row.customer_id, row]));
    // No certificate of the lot exists: every record is flagged.
    expect(byCustomer[own]).toMatchObject({
      records: 3,
      flagged: 3,
      first_received_ts: '2024-05-01T08:00:00.000Z',
    });
    expect(byCustomer[other]).toMatchObject({ records: OTHER_COUNT, flagged: OTHER_COUNT });
    expect(all.devices.map((row) => [row.device_id, row.records]).sort()).toEqual(
      [
        [ownDevice, 3],
        [otherDevices[0], Math.ceil(OTHER_COUNT / 2)],
        [otherDevices[1], Math.floor(OTHER_COUNT / 2)],
      ].sort(),
    );
  });

  it('counts only its own records for a customer user, and names the certificates of the lot', async () => {
    await t.database.pool.query(
      `insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name)
       values ($1, 'VT-1', '2024-05-02', 'c.pdf')`,
      [lot],
    );
    const mine = await summary(tokens.customer, q);
    expect(mine.records).toBe(3);
    expect(mine.customers).toEqual([expect.objectContaining({ customer_id: own, records: 3, flagged: 1 })]);
    expect(mine.devices.map((row) => row.device_id)).toEqual([ownDevice]);
    expect(mine.certificates).toEqual([
      { id: expect.any(Number), validated_treatment_number: 'VT-1', expiration_date: '2024-05-02' },
    ]);
    expect(await summary(tokens.customer, `${q}&customerId=${other}`)).toMatchObject({
      records: 0,
      customers: [],
      devices: [],
    });
    expect(await summary(tokens.admin, 'lot=NO-SUCH-LOT')).toMatchObject({ records: 0, customers: [] });
  });
});

describe('GET /export/recall', () => {
  const ticketFor = async (token: string) => {
    const response = await t.as(token, {
      method: 'POST',
      url: '/api/v1/export-tickets',
      payload: { export: 'recall' },
    });
    expect(response.statusCode).toBe(201);
    return response.json().data.ticket as string;
  };

  it('writes the lot customer by customer, device by device, oldest first', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/export/recall?ticket=${await ticketFor(tokens.admin)}&${q}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="recall-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual(RECALL_HEADER);
    const expected = (
      await t.database.pool.query(
        `select s.id from sterilizations s join devices d on d.id = s.device_id join customers c on c.id = s.customer_id
         where s.consumables_lot = $1 order by lower(c.name), c.id, d.device_serial, d.id, s.received_ts, s.id`,
        [lot],
      )
    ).rows.map((row) => Number(row.id));
    expect(rows.map((row) => Number(row[4]))).toEqual(expected);
    const failed = rows.find((row) => row[6] === '2');
    // The certificate added above expires on the failed record's day: covered.
    expect(failed?.slice(6)).toEqual(['2', 'lamp malfunction', lot, '1', 'certified']);
  });

  it('quotes a lot holding a semicolon and guards each of its parts against formulas', async () => {
    const semicolonLot = 'SEMI;=1+1;X';
    await t.database.pool.query(
      `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code, consumables_lot, lot_progressive_id)
       values ($1, $2, '2024-06-01T08:00:00Z', 500, 300, 10, 10, 4000, 0, $3, 1)`,
      [ownDevice, own, semicolonLot],
    );
    const response = await t.app.inject({
      method: 'GET',
      url: `/export/recall?ticket=${await ticketFor(tokens.admin)}&lot=${encodeURIComponent(semicolonLot)}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`,"SEMI;'=1+1;X",`);
    expect(response.body).not.toMatch(/[;,]=1\+1/);
    const [, row] = parseCsv(response.body);
    expect(row?.[RECALL_HEADER.indexOf('consumables_lot')]).toBe("SEMI;'=1+1;X");
  });

  it('gives a customer user its own records only, and refuses a ticket of another export', async () => {
    const mine = await t.app.inject({
      method: 'GET',
      url: `/export/recall?ticket=${await ticketFor(tokens.customer)}&${q}&customerId=${other}`,
    });
    expect(parseCsv(mine.body)).toEqual([RECALL_HEADER]);
    const own3 = await t.app.inject({
      method: 'GET',
      url: `/export/recall?ticket=${await ticketFor(tokens.customer)}&${q}`,
    });
    expect(
      parseCsv(own3.body)
        .slice(1)
        .map((row) => Number(row[0])),
    ).toEqual([own, own, own]);
    const wrong = await t.as(tokens.admin, {
      method: 'POST',
      url: '/api/v1/export-tickets',
      payload: { export: 'sterilizations-filtered' },
    });
    const refused = await t.app.inject({
      method: 'GET',
      url: `/export/recall?ticket=${wrong.json().data.ticket}&${q}`,
    });
    expect(refused.statusCode).toBe(401);
    const overLong = await t.app.inject({
      method: 'GET',
      url: `/export/recall?ticket=${await ticketFor(tokens.admin)}&lot=${'L'.repeat(256)}`,
    });
    expect(overLong.statusCode).toBe(422);
  });
});
