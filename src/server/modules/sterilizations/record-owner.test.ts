/**
 * A record belongs to the customer that owned its device when it was received. Both clinics'
 * views (list, device filter, CSV export, customer counts, dashboard) through HTTP, before and after a
 * reassignment: the history stays with the former owner, the new owner sees only what came after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedDevice } from '#server/db/seed.ts';
import { cycleClaim } from '#server/test/fixtures.ts';
import { ingestRecords } from '#server/test/ingest.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';

const FORMER = DEMO.customer; // customer 2
const NEW_OWNER = 'direzione@santachiara.example.com'; // customer 3

let t: TestApp;
let device: SeedDevice;
let target: number;
const tokens: Record<'admin' | 'former' | 'newOwner', string> = { admin: '', former: '', newOwner: '' };

beforeAll(async () => {
  t = await createTestApp();
  device = t.seed.devices.find((d) => d.customerId === 2) as SeedDevice;
  target = 3;
  tokens.admin = await t.login(DEMO.admin);
  tokens.former = await t.login(FORMER);
  tokens.newOwner = await t.login(NEW_OWNER);
});
afterAll(() => t?.close());

let progressive = 800_000;
/** One OK record sent by the device through the ingestion API; its id. */
async function ingest(lot: string): Promise<number> {
  progressive += 1;
  const record = cycleClaim(progressive, {
    latitude: 45.1,
    longitude: 9.2,
    consumables_lot: lot,
    lot_progressive_id: 1,
    batch_quantity: 100,
  });
  const [stored] = await ingestRecords(t.app, device, [record]);
  return stored!.id;
}

const get = async (token: string, url: string) => {
  const response = await t.as(token, { method: 'GET', url: `/api/v1${url}` });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json().data;
};

/** Every record id a user's list shows (all pages) for a query. */
async function listed(token: string, query = ''): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const data = await get(token, `/sterilizations?page=${page}&${query}`);
    ids.push(...data.data.map((row: { id: number }) => row.id));
    if (data.data.length < data.per_page) return ids;
  }
}

/** The ids (first column) of the user's filtered CSV export. */
async function exported(token: string, query = ''): Promise<number[]> {
  const ticket = await t.as(token, {
    method: 'POST',
    url: '/api/v1/export-tickets',
    payload: { export: 'sterilizations-filtered' },
  });
  const response = await t.app.inject({
    method: 'GET',
    url: `/export/sterilizations-filtered?${query}&ticket=${ticket.json().data.ticket}`,
  });
  expect(response.statusCode).toBe(200);
  return response.body
    .split('\r\n')
    .slice(1)
    .map((line) => Number(line.split(',')[0]))
    .filter((id) => Number.isInteger(id) && id > 0);
}

const okCount = async (customerId: number) =>
  (await get(tokens.admin, `/customers/${customerId}`)).sterilizations_ok_count as number;
const batchSerials = async (token: string, lot: string) =>
  (await get(token, '/dashboard')).disposables
    .filter((batch: { lot_code: string }) => batch.lot_code === lot)
    .map((batch: { device: { device_serial: string }; sterilization_count: number }) => [
      batch.device.device_serial,
      batch.sterilization_count,
    ]);
const deviceChoices = async (token: string, customerId: number) =>
  (await get(token, `/sterilizations/device-filter/${customerId}`)).map((d: { id: number }) => d.id);

describe('a reassigned device', () => {
  it('leaves its history with the customer that owned it and gives the new owner only what follows', async () => {
    const before = await ingest('L-OWNER-1');
    expect(await listed(tokens.former)).toContain(before);
    expect(await listed(tokens.newOwner)).not.toContain(before);
    expect(await batchSerials(tokens.former, 'L-OWNER-1')).toEqual([[device.serial, 1]]);
    const formerCount = await okCount(2);
    const newOwnerCount = await okCount(target);

    const moved = await t.as(tokens.admin, {
      method: 'POST',
      url: `/api/v1/device/${device.id}/assign-to/${target}`,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // The same lot, installed before the move, goes on being used by the new owner.
    const after = await ingest('L-OWNER-1');

    // Lists, with and without the device filter, and the exports.
    const formerAll = await listed(tokens.former);
    expect(formerAll).toContain(before);
    expect(formerAll).not.toContain(after);
    const formerOfDevice = await listed(tokens.former, `customerId=2&deviceId=${device.id}`);
    expect(formerOfDevice[0]).toBe(before);
    expect(formerOfDevice).not.toContain(after);
    const newAll = await listed(tokens.newOwner);
    expect(newAll).toContain(after);
    expect(newAll).not.toContain(before);
    expect(await listed(tokens.newOwner, `customerId=${target}&deviceId=${device.id}`)).toEqual([after]);
    expect(await exported(tokens.former)).toEqual(formerAll);
    expect(await exported(tokens.newOwner)).toEqual(newAll);
    expect(await exported(tokens.former, `customerId=2&deviceId=${device.id}`)).toEqual(formerOfDevice);
    // Staff see the device's whole history, each record under its own owner.
    const staff = await get(tokens.admin, `/sterilizations?deviceId=${device.id}`);
    const owners = new Map(
      staff.data.map((row: { id: number; device: { customer: { name: string } } }) => [
        row.id,
        row.device.customer.name,
      ]),
    );
    expect(owners.get(before)).toBe((await get(tokens.admin, '/customers/2')).name);
    expect(owners.get(after)).toBe((await get(tokens.admin, `/customers/${target}`)).name);
    // A device the customer had stays among its device choices; its new owner has it too.
    expect(await deviceChoices(tokens.former, 2)).toContain(device.id);
    expect(await deviceChoices(tokens.newOwner, target)).toContain(device.id);

    // Counts: each owner keeps its own, on the customer page and the customer list.
    expect(await okCount(2)).toBe(formerCount);
    expect(await okCount(target)).toBe(newOwnerCount + 1);
    const listedCounts = await get(tokens.admin, '/customers');
    const countOf = (id: number) =>
      listedCounts.data.find((row: { id: number }) => row.id === id).sterilizations_ok_count;
    expect([countOf(2), countOf(target)]).toEqual([formerCount, newOwnerCount + 1]);

    // Dashboard: the device's current batch is its new owner's, counted from the move.
    expect(await batchSerials(tokens.former, 'L-OWNER-1')).toEqual([]);
    expect(await batchSerials(tokens.newOwner, 'L-OWNER-1')).toEqual([[device.serial, 1]]);
  });
});
