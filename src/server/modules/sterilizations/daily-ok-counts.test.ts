import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#server/db/client.ts';
import { openTestDatabase, seedMinimal } from '#server/test/test-database.ts';
import { deferDailyOkCounts, recountDailyOkCounts } from './daily-ok-counts.ts';

/**
 * sterilization_daily_ok_counts (migrations 0004, 0005, 0013) must equal, at every moment, the records and
 * the status-0 records per owner and UTC day, however the records were written.
 */
describe('daily OK counts', () => {
  let database: Database;
  let devices: number[];
  beforeAll(async () => {
    database = await openTestDatabase();
    await seedMinimal(database);
    // The counts follow every change a database owner could still make to records, past the trigger
    // that refuses the application any change of a record's values (migration 0017).
    await database.pool.query('alter table sterilizations disable trigger sterilizations_immutable');
    devices = (
      await database.pool.query<{ id: number }>(
        'select min(id) as id from devices group by customer_id order by 1 limit 2',
      )
    ).rows.map((row) => row.id);
  });
  afterAll(async () => {
    await database?.close();
  });

  const query = (text: string, values: unknown[] = []) => database.pool.query(text, values);

  async function expectInStep(step: string): Promise<void> {
    const kept = await query(
      // A day's figures are the sum of its rows (migration 0015: one per writing connection's slot).
      `select customer_id, day::text as day, sum(ok_count)::int as ok_count, sum(record_count)::int as record_count
        from sterilization_daily_ok_counts group by 1, 2
        having sum(record_count) <> 0 or sum(ok_count) <> 0 order by 1, 2`,
    );
    const counted = await query(
      `select customer_id, (received_ts at time zone 'UTC')::date::text as day,
          (count(*) filter (where status_code = 0))::int as ok_count, count(*)::int as record_count
        from sterilizations group by 1, 2 order by 1, 2`,
    );
    expect(kept.rows, step).toEqual(counted.rows);
  }

  let progressive = 1_000_000;
  const values = (device: number, at: string, status: number) =>
    `(${device}, (select customer_id from devices where id = ${device}), '${at}', ${progressive++}, 100, 5, 5, 9000, ${status})`;
  const insert = (rows: string[], suffix = '') =>
    query(
      `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code) values ${rows.join(', ')} ${suffix}`,
    );

  it('follow inserts, updates of owner, status and time, deletes and truncation, not reassignments', async () => {
    const [a, b] = devices as [number, number];
    await expectInStep('after the seed (backfilled or inserted)');
    const seeded = await query('select count(*)::int as n from sterilization_daily_ok_counts');
    expect(seeded.rows[0].n).toBeGreaterThan(0);

    // One statement, several devices and days, both sides of UTC midnight, OK and not.
    await insert([
      values(a, '2024-03-01T23:59:59.999Z', 0),
      values(a, '2024-03-02T00:00:00.000Z', 0),
      values(a, '2024-03-02T10:00:00.000Z', 0),
      values(a, '2024-03-02T11:00:00.000Z', 2),
      values(b, '2024-03-02T12:00:00.000+05:00', 0),
    ]);
    await expectInStep('bulk insert');
    const march2 = await query(
      `select sum(ok_count)::int as ok_count from sterilization_daily_ok_counts
        where customer_id = (select customer_id from devices where id = $1) and day = '2024-03-02'`,
      [a],
    );
    expect(march2.rows[0].ok_count).toBe(2);

    // A repeated record that is not stored changes nothing.
    progressive -= 1;
    await insert([values(b, '2024-03-05T00:00:00Z', 0)], 'on conflict do nothing');
    await insert([values(b, '2024-03-05T00:00:00Z', 0)], 'on conflict do nothing');
    await expectInStep('insert, then the same record again');

    await query(
      `update sterilizations set status_code = 3 where device_id = $1 and received_ts = '2024-03-02T10:00:00Z'`,
      [a],
    );
    await query(
      `update sterilizations set status_code = 0 where device_id = $1 and received_ts = '2024-03-02T11:00:00Z'`,
      [a],
    );
    await expectInStep('status changed both ways');
    await query(
      `update sterilizations set received_ts = received_ts + interval '1 day' where device_id = $1`,
      [a],
    );
    await expectInStep('moved to the next day');
    const before = await query(
      'select customer_id, day, sum(ok_count)::int from sterilization_daily_ok_counts group by 1, 2 order by 1, 2',
    );
    const [owner] = (await query('select customer_id from devices where id = $1', [a])).rows;
    await query(
      'update devices set customer_id = (select customer_id from devices where id = $2) where id = $1',
      [a, b],
    );
    const after = await query(
      'select customer_id, day, sum(ok_count)::int from sterilization_daily_ok_counts group by 1, 2 order by 1, 2',
    );
    expect(after.rows, 'a reassigned device leaves its counts with their owner').toEqual(before.rows);
    await query(
      `update sterilizations set customer_id = (select customer_id from devices where id = $2)
        where device_id = $1 and received_ts > '2024-01-01'`,
      [a, b],
    );
    await expectInStep('moved to another owner');
    await query('update devices set customer_id = $2 where id = $1', [a, owner.customer_id]);
    await query('update sterilizations set notes = $1 where device_id = $2', ['checked', b]);
    await expectInStep('an update of other columns');
    await query(`delete from sterilizations where received_ts between '2024-03-01' and '2024-03-04'`);
    await expectInStep('deleted');
    await query('truncate sterilizations cascade');
    await expectInStep('truncated');
  });

  it('can be deferred by a bulk writer, which recounts before it commits', async () => {
    const [a] = devices as [number];
    const client = await database.pool.connect();
    try {
      await client.query('begin');
      await deferDailyOkCounts(client);
      await client.query(
        `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy,
           nominal_time, effective_time, residual_lamp_life, status_code)
         select d.id, d.customer_id, timestamptz '2024-05-01' + g * interval '1 hour', 2000000 + g, 100, 5, 5, 9000,
           g % 2
         from generate_series(1, 100) g, devices d where d.id = $1`,
        [a],
      );
      const deferred = await client.query(
        `select count(*)::int as n from sterilization_daily_ok_counts where day >= '2024-05-01'`,
      );
      expect(deferred.rows[0].n).toBe(0);
      await recountDailyOkCounts(client);
      await client.query('commit');
    } finally {
      client.release();
    }
    await expectInStep('recounted');
    // Deferral ended with that transaction: the next record counts at once.
    await insert([values(a, '2024-05-20T08:00:00Z', 0)]);
    await expectInStep('after the deferring transaction');
  });
});
