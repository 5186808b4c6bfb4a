/**
 * sterilization_daily_ok_counts is kept by row triggers on sterilizations (migration 0004). A writer of
 * many records in one transaction (the seed) defers them and recounts once, which costs one grouped
 * scan instead of an upsert per record.
 */
import type { PoolClient } from 'pg';

/** From here to the end of the client's current transaction, inserted records are not counted. */
export async function deferDailyOkCounts(client: PoolClient): Promise<void> {
  await client.query(`select set_config('uvtrace.deferred_ok_counts', 'on', true)`);
}

/** Recounts every owner's daily records and OK records (inside the writer's transaction, before it commits). */
export async function recountDailyOkCounts(client: PoolClient): Promise<void> {
  // Writers that count as they go wait here, then add to the recounted figures.
  await client.query('lock table sterilization_daily_ok_counts in exclusive mode');
  await client.query('delete from sterilization_daily_ok_counts');
  await client.query(
    `insert into sterilization_daily_ok_counts (customer_id, day, ok_count, record_count)
       select customer_id, (received_ts at time zone 'UTC')::date,
         (count(*) filter (where status_code = 0))::integer, count(*)::integer
       from sterilizations group by 1, 2`,
  );
}
