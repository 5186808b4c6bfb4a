import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#server/db/client.ts';
import { openTestDatabase, seedMinimal } from '#server/test/test-database.ts';

/**
 * The kept counts a record moves when it is stored (the owner's daily counts, migration 0015; the
 * owner's flagged records per lot, 0016) have up to 8 rows per key, one per connection slot, so two
 * connections storing records of one owner do not queue for one row. PGlite has one connection, so
 * only a server can show two writers at once.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('counts two writers keep at once', () => {
  let database: Database;
  /** Two devices of one owner: a device's own rows (progress, batch) are shared by its writes only. */
  let devices: [number, number];
  let progressive = 3_000_000;
  beforeAll(async () => {
    database = await openTestDatabase();
    await seedMinimal(database);
    const pair = await database.pool.query<{ ids: number[] }>(
      `select array_agg(id order by id) as ids from devices where deleted_at is null
        group by customer_id having count(*) >= 2 order by customer_id limit 1`,
    );
    devices = pair.rows[0]!.ids.slice(0, 2) as [number, number];
  });
  afterAll(async () => {
    await database?.close();
  });

  const insert = (device: number, at: string, lot: string | null) =>
    `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy,
       nominal_time, effective_time, residual_lamp_life, status_code, consumables_lot)
     values (${device}, (select customer_id from devices where id = ${device}), '${at}', ${progressive++},
       100, 5, 5, 9000, 0, ${lot === null ? 'null' : `'${lot}'`})`;

  /**
   * Stores one record through each of two connections whose slots differ, the second while the first's
   * transaction is still open; the second gives up after 2 s of waiting for a lock.
   */
  async function twoWritersAtOnce(first: string, second: string): Promise<void> {
    const held = [await database.pool.connect()];
    const slot = async (client: (typeof held)[number]) =>
      (await client.query<{ slot: number }>('select pg_backend_pid() % 8 as slot')).rows[0]!.slot;
    try {
      // Pids are the server's choice: look for a connection in another slot.
      const firstSlot = await slot(held[0]!);
      let other = await database.pool.connect();
      held.push(other);
      while ((await slot(other)) === firstSlot) {
        if (held.length > 8) throw new Error('no two connections with different slots');
        other = await database.pool.connect();
        held.push(other);
      }
      const one = held[0]!;
      await one.query('begin');
      await one.query(first);
      await other.query('begin');
      await other.query(`set local lock_timeout = '2s'`);
      await other.query(second);
      await other.query('commit');
      await one.query('commit');
    } finally {
      for (const client of held) client.release();
    }
  }

  it('two connections count records of one owner and day without waiting for each other', async () => {
    const [a, b] = devices;
    await twoWritersAtOnce(insert(a, '2024-06-01T08:00:00Z', null), insert(b, '2024-06-01T09:00:00Z', null));
    const { rows } = await database.pool.query(
      `select count(*)::int as n, sum(ok_count)::int as ok, sum(record_count)::int as records
         from sterilization_daily_ok_counts
        where day = '2024-06-01' and customer_id = (select customer_id from devices where id = $1)`,
      [a],
    );
    expect(rows[0]).toEqual({ n: 2, ok: 2, records: 2 });
  });

  it('two connections count flagged records of one owner and lot without waiting for each other', async () => {
    const [a, b] = devices;
    // No certificate names this lot: both records are flagged uncertified.
    const lot = 'SLOTS-UNCERTIFIED-1';
    await twoWritersAtOnce(insert(a, '2024-06-02T08:00:00Z', lot), insert(b, '2024-06-02T09:00:00Z', lot));
    const { rows } = await database.pool.query(
      `select count(*)::int as n, sum(flagged)::int as flagged from lot_flag_counts
        where consumables_lot = $2 and customer_id = (select customer_id from devices where id = $1)`,
      [a, lot],
    );
    expect(rows[0]).toEqual({ n: 2, flagged: 2 });
  });
});
