/**
 * Gaps and order, as a property: random sets of progressive ids, sent by a device in random
 * order and random token sizes through the real ingestion code against the database (some of them
 * again, and with the device reassigned midway), leave device_progress and device_progress_gaps equal
 * to the ranges computed naively per (device, owner) from the stored ids, flag exactly the records that
 * came after a higher id of their pair, and agree with a rebuild from the records. A second property
 * sends groups of tokens at once (on PostgreSQL they run concurrently, each taking the pair's row lock):
 * the ranges must still be exact and each flag consistent with some order of the group.
 */
import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDeviceToken } from '#server/test/contract-support.ts';
import { cycleClaim, makeCustomer, makeDevice } from '#server/test/fixtures.ts';
import { createTestApp, type TestApp } from '#server/test/test-app.ts';
import { ingestionClaims } from '#shared/ingestion/claims.ts';
import { ingest } from './ingestion.ts';
import { createRecordWriter } from './record-writer.ts';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const RUNS = Number(process.env.GAPS_PROPERTY_RUNS ?? 25);

let t: TestApp;
let firstOwner: number;
let secondOwner: number;
beforeAll(async () => {
  t = await createTestApp();
  firstOwner = await makeCustomer(t);
  secondOwner = await makeCustomer(t);
});
afterAll(() => t?.close());

const claim = (progressive: number) => cycleClaim(progressive);

async function send(serial: string, ids: number[]) {
  const token = await signDeviceToken(ingestionClaims(serial, ids.map(claim)), privatePem);
  // A writer of its own per token, as if each came through another server process: what is tested here
  // is the database's ordering and locking, not one process's queue (record-writer.test.ts).
  await ingest(
    t.database.db,
    createRecordWriter(t.database.db, { concurrentWrites: 1, deviceClockSkewSeconds: 300 }),
    token,
  );
}

async function newDevice(): Promise<{ id: number; serial: string }> {
  const id = await makeDevice(t, firstOwner, publicPem);
  const found = await t.database.pool.query('select device_serial from devices where id = $1', [id]);
  return { id, serial: found.rows[0].device_serial };
}

/** Missing ranges between the lowest and highest id, computed the obvious way. */
function naiveRanges(ids: number[]): [number, number][] {
  const sorted = [...ids].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (let i = 1; i < sorted.length; i++) {
    const [before, after] = [sorted[i - 1] as number, sorted[i] as number];
    if (after > before + 1) ranges.push([before + 1, after - 1]);
  }
  return ranges;
}

interface Kept {
  progress: { customer_id: number; min: number; max: number; missing: number; late: number }[];
  ranges: { customer_id: number; first: number; last: number }[];
  records: { customer_id: number; progressive_id: number; late: boolean }[];
}

async function kept(deviceId: number): Promise<Kept> {
  const q = async (text: string) => (await t.database.pool.query(text, [deviceId])).rows;
  return {
    progress: (
      await q(`select customer_id, min_progressive_id as min, max_progressive_id as max,
        missing_count as missing, out_of_order_count as late from device_progress where device_id = $1
        order by customer_id`)
    ).map((row) => ({ ...row, missing: Number(row.missing) })),
    ranges:
      await q(`select customer_id, first_missing as first, last_missing as last from device_progress_gaps
      where device_id = $1 order by customer_id, first_missing`),
    records: await q(`select customer_id, progressive_id, arrived_out_of_order as late from sterilizations
      where device_id = $1 order by customer_id, progressive_id`),
  };
}

/** What the tables must hold for these stored ids per owner (late records as given). */
function expected(byOwner: Map<number, number[]>, late: Set<number>): Omit<Kept, 'records'> {
  const owners = [...byOwner.keys()].sort((a, b) => a - b);
  return {
    progress: owners.map((owner) => {
      const ids = byOwner.get(owner) as number[];
      const ranges = naiveRanges(ids);
      return {
        customer_id: owner,
        min: Math.min(...ids),
        max: Math.max(...ids),
        missing: ranges.reduce((sum, [first, last]) => sum + last - first + 1, 0),
        late: ids.filter((id) => late.has(id)).length,
      };
    }),
    ranges: owners.flatMap((owner) =>
      naiveRanges(byOwner.get(owner) as number[]).map(([first, last]) => ({
        customer_id: owner,
        first,
        last,
      })),
    ),
  };
}

/** The kept tables equal a rebuild of the device's pairs from its records. */
async function expectRebuildAgrees(deviceId: number, before: Kept) {
  await t.database.pool.query(
    `select device_progress_rebuild(device_id, customer_id) from device_progress where device_id = $1`,
    [deviceId],
  );
  expect(await kept(deviceId)).toEqual(before);
}

const deliveries = fc
  .uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 24 })
  .chain((ids) =>
    fc.record({
      // ids in the order the device sends them, cut into tokens of 1–3 records
      tokens: fc
        .array(fc.integer({ min: 1, max: 3 }), { minLength: ids.length, maxLength: ids.length })
        .map((sizes) => {
          const tokens: number[][] = [];
          for (let i = 0, k = 0; i < ids.length; k++) {
            const size = sizes[k] as number;
            tokens.push(ids.slice(i, i + size));
            i += size;
          }
          return tokens;
        }),
      reassignBefore: fc.option(fc.integer({ min: 1, max: ids.length })),
      resend: fc.subarray(ids),
    }),
  );

describe('device progress kept at ingestion', () => {
  it('matches the naive ranges and flags for ids sent in any order', async () => {
    await fc.assert(
      fc.asyncProperty(deliveries, async ({ tokens, reassignBefore, resend }) => {
        const device = await newDevice();
        const byOwner = new Map<number, number[]>();
        const late = new Set<number>();
        let owner = firstOwner;
        for (const [k, token] of tokens.entries()) {
          if (k === reassignBefore) {
            owner = secondOwner;
            await t.database.pool.query('update devices set customer_id = $1 where id = $2', [
              owner,
              device.id,
            ]);
          }
          await send(device.serial, token);
          for (const id of token) {
            const ownIds = byOwner.get(owner) ?? [];
            if (ownIds.some((stored) => stored > id)) late.add(id);
            byOwner.set(owner, [...ownIds, id]);
          }
        }
        const after = await kept(device.id);
        const { records, ...tables } = after;
        expect(tables).toEqual(expected(byOwner, late));
        expect(records.filter((r) => r.late).map((r) => r.progressive_id)).toEqual(
          records.map((r) => r.progressive_id).filter((id) => late.has(id)),
        );
        // Sent again (whoever owns the device now): nothing is stored, nothing moves.
        if (resend.length > 0) await send(device.serial, resend);
        expect(await kept(device.id)).toEqual(after);
        await expectRebuildAgrees(device.id, after);
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps exact ranges when tokens of one device arrive at once', async () => {
    const groups = fc
      .uniqueArray(fc.integer({ min: 1, max: 80 }), { minLength: 2, maxLength: 24 })
      .chain((ids) =>
        fc
          .array(fc.integer({ min: 1, max: 4 }), { minLength: ids.length, maxLength: ids.length })
          .map((sizes) => {
            const grouped: number[][] = [];
            for (let i = 0, k = 0; i < ids.length; k++) {
              grouped.push(ids.slice(i, i + (sizes[k] as number)));
              i += sizes[k] as number;
            }
            return grouped;
          }),
      );
    await fc.assert(
      fc.asyncProperty(groups, async (grouped) => {
        const device = await newDevice();
        // Each group's ids are sent as single-record tokens at the same time.
        for (const group of grouped) await Promise.all(group.map((id) => send(device.serial, [id])));
        const all = grouped.flat();
        const { records, ...tables } = await kept(device.id);
        const flagged = new Set(records.filter((r) => r.late).map((r) => r.progressive_id));
        expect(tables).toEqual(expected(new Map([[firstOwner, all]]), flagged));
        grouped.forEach((group, g) => {
          const earlier = grouped.slice(0, g).flat();
          for (const id of group) {
            // Late for certain when a higher id was stored by an earlier group; maybe when one of its
            // own group was stored first.
            const mustBe = earlier.some((other) => other > id);
            const mayBe = mustBe || group.some((other) => other > id);
            if (mustBe) expect(flagged.has(id), `id ${id} after ${earlier}`).toBe(true);
            if (!mayBe) expect(flagged.has(id), `id ${id} in ${group} after ${earlier}`).toBe(false);
          }
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('stores overlapping tokens of one device sent at once without a deadlock', async () => {
    const device = await newDevice();
    await send(device.serial, [1]);
    for (let n = 2; n < 60; n += 3) {
      // A multi-record token and a retry of part of it, at once: each would hold a unique index entry or
      // the progress row the other one waits for, were the device row not locked first.
      await Promise.all([
        send(device.serial, [n + 2, n + 1]),
        send(device.serial, [n + 1]),
        send(device.serial, [n, n + 2]),
      ]);
    }
    const { records, ...tables } = await kept(device.id);
    expect(records).toHaveLength(61);
    expect(tables.ranges).toEqual([]);
  });
});
