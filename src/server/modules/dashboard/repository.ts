/**
 * Dashboard figures (docs/product.md §2 Dashboard), all computed from the live tables and scoped to one
 * customer when asked, in one statement: each figure is a subquery of it, so the dashboard costs the database
 * one round trip instead of six (on the embedded PGlite every round trip waits for the one connection).
 */
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

export interface DashboardFigures {
  /** null: not asked for (the caller has no customers module). */
  customers: number | null;
  /** null: not asked for (the caller has no users module). */
  users: number | null;
  plugs: number;
  baths: number;
  batches: BatchCard[];
  devicesWithGaps: number;
  lotCompliance: { flagged_records: number; flagged_lots: number };
}

const scopeClause = (customerId: number | null, column: string) =>
  customerId === null ? sql`true` : sql`${sql.raw(column)} = ${customerId}`;

const activeDevicesOfType = (customerId: number | null, type: number) => sql`(
  select count(*) from devices d join products p on p.id = d.product_id
  where d.deleted_at is null and p.type = ${type} and ${scopeClause(customerId, 'd.customer_id')})`;

/**
 * - Lot compliance: records whose consumables lot was uncertified or expired when received, and the
 *   distinct lots they name, from lot_flag_counts (kept by triggers, migration 0007; summed per owner
 *   and lot since 0016): counting the flagged records themselves took seconds at a million records with
 *   a fifth of them flagged.
 * - Batches: the current batch of each active device is its latest batch under its current owner:
 *   batches belong to the customer that owned the device when their records were received, so a
 *   reassigned device shows its new owner's use only, and its former owner no longer sees it.
 * - Devices with gaps: devices with missing progressive ids among the caller's records, per owner (a
 *   clinic counts a device only for gaps in its own records of it), from device_progress's partial
 *   index of pairs with gaps.
 */
export async function dashboardFigures(
  db: Db,
  options: { customerId: number | null; withCustomers: boolean; withUsers: boolean },
): Promise<DashboardFigures> {
  const { customerId } = options;
  const result = await db.execute<{
    customers: string | null;
    users: string | null;
    plugs: string;
    baths: string;
    devices_with_gaps: string;
    flagged_records: string | null;
    flagged_lots: string;
    batches: BatchCard[] | string;
  }>(sql`
    select
      ${options.withCustomers ? sql`(select count(*) from customers where deleted_at is null)` : sql`null`} as customers,
      ${
        options.withUsers
          ? sql`(select count(*) from users u where u.deleted_at is null and ${scopeClause(customerId, 'u.customer_id')})`
          : sql`null`
      } as users,
      ${activeDevicesOfType(customerId, PRODUCT_TYPES.plug)} as plugs,
      ${activeDevicesOfType(customerId, PRODUCT_TYPES.bath)} as baths,
      (select count(distinct device_id) from device_progress
        where missing_count > 0 and ${scopeClause(customerId, 'customer_id')}) as devices_with_gaps,
      f.flagged_records, f.flagged_lots,
      (select coalesce(json_agg(json_build_object(
          'id', c.id, 'lot_code', c.lot_code, 'lot_progressive', c.lot_progressive,
          'sterilization_count', c.sterilization_count, 'batch_quantity', c.batch_quantity,
          'device', json_build_object('device_serial', c.device_serial)) order by c.fullness desc, c.device_serial), '[]')
        from (
          select current.*, current.sterilization_count::float / current.batch_quantity as fullness
          from (
            select distinct on (b.device_id)
              b.id, b.lot_code, b.lot_progressive, b.sterilization_count, b.batch_quantity, d.device_serial
            from consumable_batches b join devices d on d.id = b.device_id and b.customer_id = d.customer_id
            where d.deleted_at is null and ${scopeClause(customerId, 'd.customer_id')}
            order by b.device_id, b.created_at desc, b.id desc
          ) current
          order by fullness desc, current.device_serial
          limit ${DASHBOARD_BATCH_LIMIT}
        ) c) as batches
    from (
      select sum(lot.flagged) as flagged_records, count(distinct lot.consumables_lot) as flagged_lots
      from (
        -- A lot's figure is the sum of its rows (migration 0016).
        select consumables_lot, sum(flagged) as flagged from lot_flag_counts
        where ${scopeClause(customerId, 'customer_id')}
        group by customer_id, consumables_lot having sum(flagged) > 0
      ) lot
    ) f`);
  const row = result.rows[0];
  if (!row) throw new Error('the dashboard statement returned no row');
  const count = (value: string | null) => (value === null ? null : Number(value));
  const batches = typeof row.batches === 'string' ? (JSON.parse(row.batches) as BatchCard[]) : row.batches;
  return {
    customers: count(row.customers),
    users: count(row.users),
    plugs: Number(row.plugs),
    baths: Number(row.baths),
    batches: batches.map((batch) => ({
      id: Number(batch.id),
      lot_code: batch.lot_code,
      lot_progressive: Number(batch.lot_progressive),
      sterilization_count: Number(batch.sterilization_count),
      batch_quantity: Number(batch.batch_quantity),
      device: { device_serial: batch.device.device_serial },
    })),
    devicesWithGaps: Number(row.devices_with_gaps),
    lotCompliance: {
      flagged_records: Number(row.flagged_records ?? 0),
      flagged_lots: Number(row.flagged_lots),
    },
  };
}
