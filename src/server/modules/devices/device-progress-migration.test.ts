/**
 * Migration 0007 (gaps and order) on a database holding records from before it: the late records are
 * flagged by the order of their ids and each (device, owner) pair's progress and gap ranges are built;
 * then the trigger carries on from there, and a delete, a key change or a truncate leaves the tables
 * equal to a rebuild. Earlier migrations are applied statement by statement, data is written as the old
 * schema had it, then 0007 runs: on PostgreSQL (TEST_DATABASE_URL) or PGlite.
 */
import { describe, expect, it } from 'vitest';
import { setUpMigrationDatabase } from '#server/test/migration-database.ts';

const { query, applyBefore, applyFrom, insertTwoClinicsWithDevices } = setUpMigrationDatabase();

const record = (device: number, owner: number, progressive: number) =>
  `(${device}, ${owner}, '2024-01-01T10:00Z', ${progressive}, 1, 1, 1, 1, 0)`;
const insert = (rows: string[]) =>
  query(`insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy,
    nominal_time, effective_time, residual_lamp_life, status_code) values ${rows.join(', ')}`);

const ranges = async () =>
  (
    await query(
      'select device_id, customer_id, first_missing, last_missing from device_progress_gaps order by 1, 2, 3',
    )
  ).rows;
const progress = async () =>
  (
    await query(`select device_id, customer_id, min_progressive_id as min, max_progressive_id as max,
      missing_count::int as missing, out_of_order_count as late from device_progress order by 1, 2`)
  ).rows;
const late = async () =>
  (await query('select progressive_id from sterilizations where arrived_out_of_order order by id')).rows.map(
    (row) => row.progressive_id,
  );

/** The kept tables equal what a rebuild from the records gives. */
async function expectRebuilt() {
  const [kept, keptProgress] = [await ranges(), await progress()];
  await query('select device_progress_rebuild(null, null)');
  expect(await ranges()).toEqual(kept);
  expect(await progress()).toEqual(keptProgress);
}

describe('migration 0007 (gaps and order)', () => {
  it('builds the gaps and flags of stored records, then keeps them at every insert', async () => {
    await applyBefore('_device_progress_gaps');
    await insertTwoClinicsWithDevices();
    // Device 1 under clinic 10: 1, 2, 6, then 4 late; under clinic 11 (after a move): 20, 23.
    // Device 2: 7, then 5 late (extends the sequence downwards: 6 missing).
    await insert([record(1, 10, 1), record(1, 10, 2), record(1, 10, 6), record(2, 11, 7)]);
    await insert([record(1, 10, 4), record(2, 11, 5), record(1, 11, 20), record(1, 11, 23)]);

    await applyFrom('_device_progress_gaps');

    expect(await late()).toEqual([4, 5]);
    expect(await ranges()).toEqual([
      { device_id: 1, customer_id: 10, first_missing: 3, last_missing: 3 },
      { device_id: 1, customer_id: 10, first_missing: 5, last_missing: 5 },
      { device_id: 1, customer_id: 11, first_missing: 21, last_missing: 22 },
      { device_id: 2, customer_id: 11, first_missing: 6, last_missing: 6 },
    ]);
    expect(await progress()).toEqual([
      { device_id: 1, customer_id: 10, min: 1, max: 6, missing: 2, late: 1 },
      { device_id: 1, customer_id: 11, min: 20, max: 23, missing: 2, late: 0 },
      { device_id: 2, customer_id: 11, min: 5, max: 7, missing: 1, late: 1 },
    ]);

    // From here the trigger: 3 fills a gap (late), 24 follows, 30 opens one, 22 shrinks one.
    await insert([record(1, 10, 3)]);
    await insert([record(1, 11, 24)]);
    await insert([record(1, 11, 30)]);
    await insert([record(1, 11, 22)]);
    expect(await late()).toEqual([4, 5, 3, 22]);
    expect(await ranges()).toEqual([
      { device_id: 1, customer_id: 10, first_missing: 5, last_missing: 5 },
      { device_id: 1, customer_id: 11, first_missing: 21, last_missing: 21 },
      { device_id: 1, customer_id: 11, first_missing: 25, last_missing: 29 },
      { device_id: 2, customer_id: 11, first_missing: 6, last_missing: 6 },
    ]);
    await expectRebuilt();
  });

  it('rebuilds the pairs a delete or a key change touches, and empties with a truncate', async () => {
    // The bookkeeping follows every change a database owner could still make, past the trigger that
    // refuses the application any change of a record's values (migration 0017).
    await query('alter table sterilizations disable trigger sterilizations_immutable');
    await query('delete from sterilizations where device_id = 1 and progressive_id in (1, 24)');
    expect((await progress())[0]).toMatchObject({
      device_id: 1,
      customer_id: 10,
      min: 2,
      max: 6,
      missing: 1,
    });
    await expectRebuilt();
    await query('update sterilizations set progressive_id = 8 where device_id = 2 and progressive_id = 5');
    expect((await progress()).find((row) => row.device_id === 2)).toMatchObject({
      min: 7,
      max: 8,
      missing: 0,
    });
    await expectRebuilt();
    await query('truncate sterilizations cascade');
    expect(await progress()).toEqual([]);
    expect(await ranges()).toEqual([]);
  });
});
