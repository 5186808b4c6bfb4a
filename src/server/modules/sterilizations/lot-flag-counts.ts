/**
 * sterilizations.lot_status and lot_flag_counts are kept by row triggers (migration 0007). A writer of
 * many records in one transaction (the seed) computes the status in its own INSERT … SELECT instead
 * (LOT_STATUS_OF) and recounts the flags once, which costs one grouped scan instead of a certificate
 * look-up and an upsert per record. The flags follow the daily OK counts' deferral
 * (daily-ok-counts.ts), which the same writer sets.
 */
import type { PoolClient } from 'pg';

/** From here to the end of the client's current transaction, inserted records carry their own lot_status. */
export async function supplyLotStatus(client: PoolClient): Promise<void> {
  await client.query(`select set_config('uvtrace.lot_status_supplied', 'on', true)`);
}

/**
 * The status of a record with lot `lot` received at `received` (SQL expressions), as the trigger would
 * set it; `best` is the lot's latest certificate expiration (null: no certificate).
 */
export const lotStatusOf = (lot: string, received: string, best: string) =>
  `case when ${lot} is null or ${lot} = '' then 'no_lot' else lot_status_on(${best}, ${received}) end`;

/** Recounts every owner's flagged records per lot (inside the writer's transaction, before it commits). */
export async function recountLotFlagCounts(client: PoolClient): Promise<void> {
  await client.query('lock table lot_flag_counts in exclusive mode');
  await client.query('delete from lot_flag_counts');
  await client.query(
    `insert into lot_flag_counts (customer_id, consumables_lot, flagged)
       select customer_id, consumables_lot, count(*)::integer from sterilizations
       where lot_status in ('uncertified', 'expired') group by 1, 2`,
  );
}
