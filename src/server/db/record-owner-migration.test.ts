/**
 * Migration 0005 on a database holding records from before it: each record's owner is backfilled from
 * its device's customer, the daily OK counts and consumable batches follow the owner, and from then on a
 * reassignment moves neither. The migrations are applied statement by statement up to 0004, data is
 * written as the old schema had it, then 0005 runs: on PostgreSQL (TEST_DATABASE_URL) or PGlite.
 */
import { describe, expect, it } from 'vitest';
import { setUpMigrationDatabase } from '../test/migration-database.ts';

const { query, applyBefore, applyFrom, insertTwoClinicsWithDevices } = setUpMigrationDatabase();

describe('migration 0005 (record owner)', () => {
  it('backfills owners from the devices and keeps them through a later reassignment', async () => {
    await applyBefore('0005_');
    await insertTwoClinicsWithDevices();
    await query(`insert into sterilizations (device_id, received_ts, progressive_id, supplied_energy, nominal_time,
        effective_time, residual_lamp_life, status_code)
      values (1, '2024-01-01T10:00Z', 1, 1, 1, 1, 1, 0), (1, '2024-01-01T11:00Z', 2, 1, 1, 1, 1, 0),
        (1, '2024-01-02T10:00Z', 3, 1, 1, 1, 1, 2), (2, '2024-01-01T10:00Z', 1, 1, 1, 1, 1, 0)`);
    await query(`insert into consumable_batches (device_id, lot_code, lot_progressive, batch_quantity, sterilization_count)
      values (1, 'L1', 1, 100, 3)`);

    await applyFrom('0005_');

    const owners = await query(
      'select device_id, customer_id, count(*)::int as n from sterilizations group by 1, 2 order by 1',
    );
    expect(owners.rows).toEqual([
      { device_id: 1, customer_id: 10, n: 3 },
      { device_id: 2, customer_id: 11, n: 1 },
    ]);
    const counts = async () =>
      (
        await query(
          // A day's figures are the sum of its rows (migration 0015).
          `select customer_id, day::text as day, sum(ok_count)::int as ok_count, sum(record_count)::int as record_count
             from sterilization_daily_ok_counts group by 1, 2 order by 1, 2`,
        )
      ).rows;
    expect(await counts()).toEqual([
      { customer_id: 10, day: '2024-01-01', ok_count: 2, record_count: 2 },
      { customer_id: 10, day: '2024-01-02', ok_count: 0, record_count: 1 },
      { customer_id: 11, day: '2024-01-01', ok_count: 1, record_count: 1 },
    ]);
    expect((await query('select customer_id from consumable_batches')).rows).toEqual([{ customer_id: 10 }]);

    // After the migration a reassignment is recorded in device_owners and moves no record nor count.
    await query('update devices set customer_id = 11 where id = 1');
    expect((await query('select device_id, customer_id from device_owners order by 1, 2')).rows).toEqual([
      { device_id: 1, customer_id: 10 },
      { device_id: 1, customer_id: 11 },
      { device_id: 2, customer_id: 11 },
    ]);
    expect(
      (await query('select count(*)::int as n from sterilizations where customer_id = 10')).rows,
    ).toEqual([{ n: 3 }]);
    expect(await counts()).toEqual([
      { customer_id: 10, day: '2024-01-01', ok_count: 2, record_count: 2 },
      { customer_id: 10, day: '2024-01-02', ok_count: 0, record_count: 1 },
      { customer_id: 11, day: '2024-01-01', ok_count: 1, record_count: 1 },
    ]);
  });
});
