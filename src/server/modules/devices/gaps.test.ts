/**
 * GET /devices/{deviceId}/gaps, the anomaly filter of the list and its CSV export, and the dashboard's
 * devices_with_gaps, through HTTP with records sent by a device through the ingestion API: each role,
 * each clinic before and after a reassignment (a clinic sees only the sequence of its own records),
 * bad ids and limits.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDevice } from '#server/test/fixtures.ts';
import { ingestRecords } from '#server/test/ingest.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';

const FORMER = DEMO.customer; // customer 2
const NEW_OWNER = 'direzione@santachiara.example.com'; // customer 3
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let t: TestApp;
let deviceId: number;
let serial: string;
let unrelatedDevice: number;
const tokens = { super: '', admin: '', care: '', former: '', newOwner: '' };
const lateIds: Record<'former' | 'newOwner', number> = { former: 0, newOwner: 0 };
let dashboardBefore: Record<'former' | 'newOwner' | 'admin', number>;

async function send(ids: number[]): Promise<number[]> {
  const records = ids.map((progressive_id) => ({
    progressive_id,
    supplied_energy: 300,
    nominal_time: 10,
    effective_time: 10,
    residual_lamp_life: 4000,
    status_code: 0,
    consumables_lot: null,
    notes: null,
  }));
  const stored = await ingestRecords(t.app, { serial, privateKeyPem: privatePem }, records);
  return stored.map((record) => record.id);
}

const gaps = (token: string, id: number | string, query = '') =>
  t.as(token, { method: 'GET', url: `/api/v1/devices/${id}/gaps${query}` });

async function devicesWithGaps(token: string): Promise<number> {
  const response = await t.as(token, { method: 'GET', url: '/api/v1/dashboard' });
  expect(response.statusCode).toBe(200);
  return response.json().data.devices_with_gaps;
}

async function listed(token: string, query: string): Promise<{ id: number; progressive_id: number }[]> {
  const response = await t.as(token, { method: 'GET', url: `/api/v1/sterilizations?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.data;
}

beforeAll(async () => {
  t = await createTestApp();
  tokens.super = await t.login(DEMO.super);
  tokens.admin = await t.login(DEMO.admin);
  tokens.care = await t.login(DEMO.care);
  tokens.former = await t.login(FORMER);
  tokens.newOwner = await t.login(NEW_OWNER);
  dashboardBefore = {
    former: await devicesWithGaps(tokens.former),
    newOwner: await devicesWithGaps(tokens.newOwner),
    admin: await devicesWithGaps(tokens.admin),
  };
  deviceId = await makeDevice(t, 2, publicPem);
  unrelatedDevice = await makeDevice(t, 3, publicPem);
  serial = (await t.database.pool.query('select device_serial from devices where id = $1', [deviceId]))
    .rows[0].device_serial;
  // The former owner's sequence: 1, 2, 5, 6 then 3 late; 4 is missing.
  await send([1, 2]);
  await send([5, 6]);
  [lateIds.former] = (await send([3])) as [number];
  const moved = await t.as(tokens.admin, { method: 'POST', url: `/api/v1/device/${deviceId}/assign-to/3` });
  expect(moved.statusCode).toBe(200);
  // The new owner's: 10, 14, then 12 late (splitting 11–13); 11 and 13 are missing.
  await send([10, 14]);
  [lateIds.newOwner] = (await send([12])) as [number];
});
afterAll(() => t?.close());

describe('GET /devices/{deviceId}/gaps', () => {
  it('gives staff every owner’s ranges and late records, newest first', async () => {
    for (const token of [tokens.super, tokens.admin, tokens.care]) {
      const response = await gaps(token, deviceId);
      expect(response.statusCode).toBe(200);
      expectContract('getDeviceGaps', response);
      expect(response.json().data).toMatchObject({
        device_id: deviceId,
        missing_count: 3,
        ranges_total: 3,
        out_of_order_total: 2,
        ranges: [
          { customer_id: 3, first_missing: 13, last_missing: 13, count: 1 },
          { customer_id: 3, first_missing: 11, last_missing: 11, count: 1 },
          { customer_id: 2, first_missing: 4, last_missing: 4, count: 1 },
        ],
      });
      const late = response.json().data.out_of_order;
      expect(late.map((r: { id: number }) => r.id)).toEqual([lateIds.newOwner, lateIds.former]);
      expect(late[1]).toMatchObject({ progressive_id: 3, customer_id: 2 });
      expect(typeof late[1].customer_name).toBe('string');
    }
  });

  it('gives each clinic only the sequence of its own records of the device, before and after it moved', async () => {
    const former = (await gaps(tokens.former, deviceId)).json().data;
    expect(former).toMatchObject({ missing_count: 1, ranges_total: 1, out_of_order_total: 1 });
    expect(former.ranges.map((r: { first_missing: number }) => r.first_missing)).toEqual([4]);
    expect(former.out_of_order.map((r: { id: number }) => r.id)).toEqual([lateIds.former]);
    const newOwner = (await gaps(tokens.newOwner, deviceId)).json().data;
    expect(newOwner).toMatchObject({ missing_count: 2, ranges_total: 2, out_of_order_total: 1 });
    expect(newOwner.ranges.map((r: { first_missing: number }) => r.first_missing)).toEqual([13, 11]);
    expect(newOwner.out_of_order.map((r: { id: number }) => r.id)).toEqual([lateIds.newOwner]);
    // Nothing of the other clinic, not even its name.
    expect(JSON.stringify(former)).not.toMatch(/"customer_id":3/);
    expect(JSON.stringify(newOwner)).not.toMatch(/"customer_id":2/);
  });

  it('answers 404 for a device a clinic never had, and for ids that are no device', async () => {
    expect((await gaps(tokens.former, unrelatedDevice)).statusCode).toBe(404);
    for (const id of ['0', 'abc', '2147483647', '2147483648', '-1']) {
      const response = await gaps(tokens.admin, id);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toMatchObject({ status: 'error', message: 'not_found' });
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/devices/${deviceId}/gaps` })).statusCode).toBe(
      401,
    );
  });

  it('caps both lists at limit and refuses a limit out of range', async () => {
    const capped = (await gaps(tokens.admin, deviceId, '?limit=1')).json().data;
    expect(capped.ranges).toHaveLength(1);
    expect(capped.out_of_order).toHaveLength(1);
    expect(capped).toMatchObject({ ranges_total: 3, out_of_order_total: 2, missing_count: 3 });
    for (const limit of ['0', '501', 'x', '1.5']) {
      const response = await gaps(tokens.admin, deviceId, `?limit=${limit}`);
      expect(response.statusCode, limit).toBe(422);
      expect(response.json()).toMatchObject({ status: 'error', message: 'validation_error' });
    }
  });

  it('shows a device without records as having no gaps', async () => {
    const response = await gaps(tokens.newOwner, unrelatedDevice);
    expect(response.json().data).toEqual({
      device_id: unrelatedDevice,
      missing_count: 0,
      ranges: [],
      ranges_total: 0,
      out_of_order: [],
      out_of_order_total: 0,
    });
  });
});

describe('the anomaly filter and the dashboard count', () => {
  it('lists each clinic’s late records and its records of devices with gaps only', async () => {
    const formerLate = await listed(tokens.former, 'anomaly=out_of_order');
    expect(formerLate.map((r) => r.id)).toContain(lateIds.former);
    expect(formerLate.map((r) => r.id)).not.toContain(lateIds.newOwner);
    const formerOfDevice = await listed(tokens.former, `anomaly=gaps&deviceId=${deviceId}`);
    expect(formerOfDevice.map((r) => r.progressive_id).sort((a, b) => a - b)).toEqual([1, 2, 3, 5, 6]);
    const newOwnerOfDevice = await listed(tokens.newOwner, `anomaly=gaps&deviceId=${deviceId}`);
    expect(newOwnerOfDevice.map((r) => r.progressive_id).sort((a, b) => a - b)).toEqual([10, 12, 14]);
    const staffLate = await listed(tokens.admin, `anomaly=out_of_order&deviceId=${deviceId}`);
    expect(staffLate.map((r) => r.id)).toEqual([lateIds.newOwner, lateIds.former]);
    expect((await listed(tokens.admin, `anomaly=gaps&deviceId=${unrelatedDevice}`)).length).toBe(0);
    const bad = await t.as(tokens.admin, { method: 'GET', url: '/api/v1/sterilizations?anomaly=late' });
    expect(bad.statusCode).toBe(422);
  });

  it('marks the late record in the list', async () => {
    const rows = await listed(tokens.admin, `deviceId=${deviceId}`);
    const flagged = rows.filter(
      (r) => (r as unknown as { arrived_out_of_order: boolean }).arrived_out_of_order,
    );
    expect(flagged.map((r) => r.id).sort()).toEqual([lateIds.former, lateIds.newOwner].sort());
  });

  it('exports the filtered CSV with the anomaly filter', async () => {
    const ticket = await t.as(tokens.former, {
      method: 'POST',
      url: '/api/v1/export-tickets',
      payload: { export: 'sterilizations-filtered' },
    });
    const csv = await t.app.inject({
      method: 'GET',
      url: `/export/sterilizations-filtered?ticket=${ticket.json().data.ticket}&anomaly=out_of_order&deviceId=${deviceId}`,
    });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.startsWith(`${lateIds.former},`)).toBe(true);
  });

  it('counts the device for each clinic whose own records have a gap', async () => {
    expect(await devicesWithGaps(tokens.former)).toBe(dashboardBefore.former + 1);
    expect(await devicesWithGaps(tokens.newOwner)).toBe(dashboardBefore.newOwner + 1);
    expect(await devicesWithGaps(tokens.admin)).toBe(dashboardBefore.admin + 1);
  });
});
