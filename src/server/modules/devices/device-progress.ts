/**
 * device_progress and device_progress_gaps (migration 0007): where each device's progressive ids stand
 * per owner, and the ranges it skipped. Kept by a row trigger on sterilizations; a writer of many records
 * in one transaction (the seed) defers it and rebuilds once. Also the question other parts of the server
 * ask of them (does this device have missing records?), answered from the kept tables, never the records.
 */
import { sql } from 'drizzle-orm';
import type { PoolClient } from 'pg';
import type { Db, Tx } from '#server/db/client.ts';

/** From here to the end of the client's current transaction, inserted records move no sequence. */
export async function deferDeviceProgress(client: PoolClient): Promise<void> {
  await client.query(`select set_config('uvtrace.deferred_progress', 'on', true)`);
}

/**
 * Flags the late records (by id order, the order they were stored in) and rebuilds every pair's progress
 * and gaps, inside the writer's transaction before it commits.
 */
export async function rebuildDeviceProgress(client: PoolClient): Promise<void> {
  // Writers that count as they go wait here, then move the rebuilt sequences on.
  await client.query('lock table device_progress, device_progress_gaps in exclusive mode');
  await client.query('select sterilizations_flag_late_arrivals()');
  await client.query('select device_progress_rebuild(null, null)');
}

/**
 * Whether the device has missing progressive ids now: among its records of one owner (`customerId`, a
 * clinic's view), or of any owner it had (null, staff's view).
 */
export async function deviceHasGaps(
  db: Db | Tx,
  deviceId: number,
  customerId: number | null,
): Promise<boolean> {
  const owner = customerId === null ? sql`true` : sql`customer_id = ${customerId}`;
  const result = await db.execute(
    sql`select 1 from device_progress where device_id = ${deviceId} and ${owner} and missing_count > 0 limit 1`,
  );
  return result.rows.length > 0;
}
