/** Dashboard figures (SPEC §2 Dashboard), all computed from the live tables and scoped to one customer when asked. */
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { PRODUCT_TYPES } from '#server/db/schema.ts';

/** The dashboard shows the current batch of each device, fullest first; a fleet of hundreds keeps the page readable. */
export const DASHBOARD_BATCH_LIMIT = 48;

export interface BatchCard {
  id: number;
  lot_code: string;
  lot_progressive: number;
  sterilization_count: number;
  batch_quantity: number;
  device: { device_serial: string };
}

const scopeClause = (customerId: number | null, column: string) =>
  customerId === null ? sql`true` : sql`${sql.raw(column)} = ${customerId}`;

export async function countActiveCustomers(db: Db): Promise<number> {
  const result = await db.execute<{ n: string }>(
    sql`select count(*) as n from customers where deleted_at is null`,
  );
  return Number(result.rows[0]?.n ?? 0);
}

export async function countActiveUsers(db: Db, customerId: number | null): Promise<number> {
  const result = await db.execute<{ n: string }>(
    sql`select count(*) as n from users u where u.deleted_at is null and ${scopeClause(customerId, 'u.customer_id')}`,
  );
  return Number(result.rows[0]?.n ?? 0);
}

export async function countActiveDevicesByType(
  db: Db,
  customerId: number | null,
): Promise<{ plugs: number; baths: number }> {
  const result = await db.execute<{ type: number; n: string }>(sql`
    select p.type, count(*) as n
    from devices d join products p on p.id = d.product_id
    where d.deleted_at is null and ${scopeClause(customerId, 'd.customer_id')}
    group by p.type`);
  const count = (type: number) => Number(result.rows.find((row) => Number(row.type) === type)?.n ?? 0);
  return { plugs: count(PRODUCT_TYPES.plug), baths: count(PRODUCT_TYPES.bath) };
}

/**
 * Records whose consumables lot was uncertified or expired when received, and the distinct lots they
 * name, from lot_flag_counts (kept by triggers, migration 0007): counting the flagged records
 * themselves took seconds at a million records with a fifth of them flagged.
 */
export async function countLotFlagged(
  db: Db,
  customerId: number | null,
): Promise<{ flagged_records: number; flagged_lots: number }> {
  const result = await db.execute<{ records: string | null; lots: string }>(sql`
    select sum(f.flagged) as records, count(distinct f.consumables_lot) as lots
    from lot_flag_counts f
    where f.flagged > 0 and ${scopeClause(customerId, 'f.customer_id')}`);
  const row = result.rows[0];
  return { flagged_records: Number(row?.records ?? 0), flagged_lots: Number(row?.lots ?? 0) };
}

/**
 * The current batch of each active device is its latest batch under its current owner: batches belong
 * to the customer that owned the device when their records were received, so a reassigned device shows
 * its new owner's use only, and its former owner no longer sees it (it is not their device any more).
 */
export async function currentBatches(db: Db, customerId: number | null): Promise<BatchCard[]> {
  const result = await db.execute<{
    id: number;
    lot_code: string;
    lot_progressive: number;
    sterilization_count: number;
    batch_quantity: number;
    device_serial: string;
  }>(sql`
    select * from (
      select distinct on (b.device_id)
        b.id, b.lot_code, b.lot_progressive, b.sterilization_count, b.batch_quantity, d.device_serial
      from consumable_batches b join devices d on d.id = b.device_id and b.customer_id = d.customer_id
      where d.deleted_at is null and ${scopeClause(customerId, 'd.customer_id')}
      order by b.device_id, b.created_at desc, b.id desc
    ) current
    order by current.sterilization_count::float / current.batch_quantity desc, current.device_serial
    limit ${DASHBOARD_BATCH_LIMIT}`);
  return result.rows.map(({ device_serial, ...batch }) => ({
    ...batch,
    id: Number(batch.id),
    lot_progressive: Number(batch.lot_progressive),
    sterilization_count: Number(batch.sterilization_count),
    batch_quantity: Number(batch.batch_quantity),
    device: { device_serial },
  }));
}

/**
 * Devices with missing progressive ids among the caller's records: per owner (a clinic counts a device
 * only for gaps in its own records of it), from device_progress's partial index of pairs with gaps.
 */
export async function countDevicesWithGaps(db: Db, customerId: number | null): Promise<number> {
  const result = await db.execute<{ n: string }>(
    sql`select count(distinct device_id) as n from device_progress
      where missing_count > 0 and ${scopeClause(customerId, 'customer_id')}`,
  );
  return Number(result.rows[0]?.n ?? 0);
}
