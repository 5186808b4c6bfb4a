/**
 * The record writer gathers the requests that arrive while it writes (record-writer.ts). Requests are
 * handed over in one tick here, so the first is written alone and the others wait for the next write.
 * A write is one statement, so its records share its transaction's now(): their received_ts.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedDevice } from '#server/db/seed.ts';
import { cycleClaim, signedWriteRequest, slotOneKeyEvent } from '#server/test/fixtures.ts';
import { createTestApp, type TestApp } from '#server/test/test-app.ts';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';
import { createRecordWriter, type RecordWriter, type WriteRequest } from './record-writer.ts';

let t: TestApp;
let devices: SeedDevice[];
let writer: RecordWriter;
let nextProgressive = 700_000;
const keyEvents = new Map<number, number>();

beforeAll(async () => {
  t = await createTestApp();
  devices = t.seed.devices.slice(0, 5);
  writer = createRecordWriter(t.database.db, { concurrentWrites: 1, deviceClockSkewSeconds: 300 });
  for (const device of devices) keyEvents.set(device.id, await slotOneKeyEvent(t, device.id));
});

/** What ingestion hands the writer for these records of a device: signed, synchronously. */
function request(device: SeedDevice, records: SterilizationClaim[]): WriteRequest {
  return signedWriteRequest(device, records, keyEvents.get(device.id)!);
}
afterAll(() => t?.close());

function record(overrides: Partial<SterilizationClaim> = {}): SterilizationClaim {
  nextProgressive += 1;
  return cycleClaim(nextProgressive, {
    consumables_lot: 'L-WRITER-01',
    lot_progressive_id: 1,
    batch_quantity: 100,
    ...overrides,
  });
}

async function storedRows(ids: number[]) {
  const result = await t.database.db.execute<{
    id: string;
    device_id: number;
    customer_id: number;
    progressive_id: number;
    received_ts: string;
    arrived_out_of_order: boolean;
  }>(sql`
    select id, device_id, customer_id, progressive_id, received_ts::text, arrived_out_of_order
    from sterilizations where id = any(${`{${ids.join(',')}}`}::bigint[]) order by id`);
  return result.rows;
}

async function batchCount(deviceId: number, lot: string) {
  const result = await t.database.db.execute<{ n: number }>(sql`
    select coalesce(sum(sterilization_count), 0)::int as n from consumable_batches
    where device_id = ${deviceId} and lot_code = ${lot}`);
  return result.rows[0]?.n ?? 0;
}

describe('record writer', () => {
  it('stores the requests that waited for a write together, each with its own answer and owner', async () => {
    const sent = devices.map((device) => ({ device, records: [record(), record()] }));
    const results = await Promise.all(
      sent.map(({ device, records }) => writer.write(request(device, records))),
    );
    for (const [i, { device, records }] of sent.entries()) {
      const result = results[i]!;
      expect(result.answer.map((row) => [row.device_id, row.progressive_id])).toEqual(
        records.map((r) => [device.id, r.progressive_id]),
      );
      expect(result.stored.every((s) => s.newOwner === device.customerId)).toBe(true);
    }
    const rows = await storedRows(results.flatMap((result) => result.stored.map((s) => s.id)));
    expect(rows).toHaveLength(sent.length * 2);
    for (const row of rows) {
      const device = devices.find((d) => d.id === row.device_id)!;
      expect(row.customer_id).toBe(device.customerId);
    }
    // The first request was written alone; the four that waited for it, in one statement.
    const times = new Set(rows.map((row) => row.received_ts));
    expect(times.size).toBe(2);
    const first = new Set(rows.filter((row) => row.device_id === devices[0]!.id).map((r) => r.received_ts));
    expect(first.size).toBe(1);
    expect(times.has([...first][0]!)).toBe(true);
  });

  it("keeps a device's requests in arrival order, one per write", async () => {
    const [device, other] = devices as [SeedDevice, SeedDevice];
    const [a, b, c] = [record(), record(), record()];
    const results = await Promise.all([
      writer.write(request(other, [record()])),
      writer.write(request(device, [a])),
      writer.write(request(device, [b])),
      writer.write(request(device, [c])),
    ]);
    const ids = results.slice(1).map((result) => result.stored[0]!.id);
    const rows = await storedRows(ids);
    expect(rows.map((row) => row.progressive_id)).toEqual([a, b, c].map((r) => r.progressive_id));
    expect(rows.every((row) => !row.arrived_out_of_order)).toBe(true);
    // Three writes after the first one: a device's next request waits for the following write.
    expect(new Set(rows.map((row) => row.received_ts)).size).toBe(3);
  });

  it("keeps each device's order with several writes under way at once", async () => {
    const parallel = createRecordWriter(t.database.db, { concurrentWrites: 3, deviceClockSkewSeconds: 300 });
    const sent = devices
      .slice(0, 3)
      .flatMap((device) => [record(), record(), record()].map((claim) => request(device, [claim])));
    const results = await Promise.all(sent.map((request) => parallel.write(request)));
    const rows = await storedRows(results.map((result) => result.stored[0]!.id));
    expect(rows).toHaveLength(sent.length);
    for (const device of devices.slice(0, 3)) {
      // Ids follow insertion: a device's records went in in the order its requests arrived.
      const mine = rows.filter((row) => row.device_id === device.id);
      const sentOrder = sent.filter((r) => r.deviceId === device.id).map((r) => r.records[0]!.progressive_id);
      expect(mine.map((row) => row.progressive_id)).toEqual(sentOrder);
      expect(mine.every((row) => !row.arrived_out_of_order)).toBe(true);
    }
  });

  it('answers a record sent before with its stored id, and counts it once', async () => {
    const [device, other] = devices as [SeedDevice, SeedDevice];
    const lot = 'L-WRITER-RESENT';
    const original = record({ consumables_lot: lot });
    const [first] = (await writer.write(request(device, [original]))).stored;
    const fresh = record({ consumables_lot: lot });
    const results = await Promise.all([
      writer.write(request(other, [record()])),
      writer.write(request(device, [original, fresh])),
    ]);
    const again = results[1]!;
    expect(again.stored[0]).toEqual({ id: first!.id, newOwner: null });
    expect(again.stored[1]!.newOwner).toBe(device.customerId);
    expect(again.answer.map((row) => row.id)).toEqual(again.stored.map((s) => s.id));
    expect(await batchCount(device.id, lot)).toBe(2);
  });

  it('fails only the request whose records the database refuses, and stores the others', async () => {
    const [starter, good, bad, alsoGood] = devices as [SeedDevice, SeedDevice, SeedDevice, SeedDevice];
    // Past numeric(12, 2): what validation refuses before a request gets here, refused by the column.
    const overflowing = record({ supplied_energy: 1e12 });
    const outcomes = await Promise.allSettled([
      writer.write(request(starter, [record()])),
      writer.write(request(good, [record()])),
      writer.write(request(bad, [record(), overflowing])),
      writer.write(request(alsoGood, [record()])),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const stored = await t.database.db.execute<{ n: number }>(sql`
      select count(*)::int as n from sterilizations
      where device_id = ${bad.id} and progressive_id in (${overflowing.progressive_id - 1}, ${overflowing.progressive_id})`);
    expect(stored.rows[0]?.n).toBe(0);
    for (const outcome of outcomes)
      if (outcome.status === 'fulfilled') expect(outcome.value.stored).toHaveLength(1);
  });
});
