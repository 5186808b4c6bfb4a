/**
 * Reads for the sterilization list and its filter options (docs/product.md §2 Sterilization list, §7 calls).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import type { ReceivedWindow } from '#server/http/received-window.ts';
import {
  countMatching,
  type DeviceSet,
  type Direction,
  isEmptyFilter,
  type LotStatusFilter,
  orderedIds,
  rowOrder,
  type SterilizationFilter,
  type SterilizationSort,
  totalStatement,
} from './list.ts';
import {
  STERILIZATION_FROM,
  STERILIZATION_SELECT,
  type SterilizationRow,
  sterilizationView,
} from './view.ts';

export interface FilterRequest {
  /** The only customer the caller may see (tenant-scoped callers), or null for every customer. */
  scope: number | null;
  customerId?: number | undefined;
  deviceId?: number | undefined;
  window: ReceivedWindow;
  /** out_of_order: late records only; gaps: only the (device, owner) pairs with missing progressive ids. */
  anomaly?: SterilizationAnomaly | undefined;
  lotStatus?: LotStatusFilter | undefined;
  lot?: string | undefined;
}

export type SterilizationAnomaly = 'out_of_order' | 'gaps';

/**
 * The records a request's filters mean, always inside the caller's scope. A customer or device the
 * caller may not see (another tenant's, one that does not exist, one the customer never had) matches
 * nothing: the answer is an empty page, exactly as for a filter that simply has no records, so ids
 * cannot be probed. A device filter is the device's records of the filtered customer (of every customer
 * it had, for staff without a customer filter): a customer sees its own records of a device it had
 * before, never those its former device produced for the next owner.
 */
export async function resolveFilter(db: Db, request: FilterRequest): Promise<SterilizationFilter> {
  const filter = await resolveDevices(db, request);
  if (request.anomaly === 'out_of_order') return { ...filter, outOfOrderOnly: true };
  if (request.anomaly === 'gaps') return { ...filter, devices: await pairsWithGaps(db, filter.devices) };
  return filter;
}

/**
 * The (device, owner) pairs of a set that miss progressive ids now (device_progress, one small index
 * range): the records of devices with gaps, each under the owner whose sequence has them.
 */
async function pairsWithGaps(db: Db, devices: DeviceSet): Promise<DeviceSet> {
  if ('pairs' in devices && devices.pairs.length === 0) return devices;
  const within =
    'pairs' in devices
      ? sql`(${sql.join(
          devices.pairs.map(
            (pair) => sql`(device_id = ${pair.deviceId} and customer_id = ${pair.customerId})`,
          ),
          sql` or `,
        )})`
      : 'customerId' in devices
        ? sql`customer_id = ${devices.customerId}`
        : sql`true`;
  const found = await db.execute<{ device_id: number; customer_id: number }>(
    sql`select device_id, customer_id from device_progress where missing_count > 0 and ${within}
      order by device_id, customer_id`,
  );
  return {
    pairs: found.rows.map((row) => ({
      deviceId: Number(row.device_id),
      customerId: Number(row.customer_id),
    })),
  };
}

async function resolveDevices(db: Db, request: FilterRequest): Promise<SterilizationFilter> {
  const { scope, customerId, deviceId, window, lotStatus, lot } = request;
  const narrowing = { window, lotStatus, lot };
  const nothing: SterilizationFilter = { devices: { pairs: [] }, ...narrowing };
  if (scope !== null && customerId !== undefined && customerId !== scope) return nothing;
  const customer = scope ?? customerId ?? null;
  if (deviceId !== undefined) {
    const found = await db.execute<{ customer_id: number }>(
      sql`select customer_id from device_owners where device_id = ${deviceId}
        and ${customer === null ? sql`true` : sql`customer_id = ${customer}`} order by customer_id`,
    );
    const pairs = found.rows.map((row) => ({ deviceId, customerId: Number(row.customer_id) }));
    return { devices: { pairs }, ...narrowing };
  }
  if (customer === null) return { devices: { all: true }, ...narrowing };
  return { devices: { customerId: customer }, ...narrowing };
}

/** Full view rows for a key query's ids, in `order`. */
export function rowsOf(
  ids: ReturnType<typeof orderedIds>,
  order: ReturnType<typeof rowOrder>,
  count: SQL | null = null,
) {
  return sql`
    with page as materialized (${ids})
    select ${STERILIZATION_SELECT}${count ? sql`, ${count} as total` : sql``}
    from page p, ${STERILIZATION_FROM}
    where s.id = p.id
    order by ${order}`;
}

export async function listSterilizationPage(
  db: Db,
  filter: SterilizationFilter,
  options: { sort: SterilizationSort; dir: Direction; limit: number; offset: number },
) {
  if (isEmptyFilter(filter)) return { rows: [], total: 0 };
  const { sort, dir, limit, offset } = options;
  // The total rides along with the page (one round trip); a short page does not need it.
  const statement = totalStatement(filter);
  const result = await db.execute<SterilizationRow & { total?: string }>(
    rowsOf(orderedIds(filter, sort, dir, limit, offset), rowOrder(sort, dir), statement?.sql ?? null),
  );
  const rows = result.rows.map(sterilizationView);
  const counted = result.rows[0]?.total;
  // A short page is the last one: its end is the exact total, no count needed.
  const total =
    rows.length > 0 && rows.length < limit
      ? offset + rows.length
      : await countMatching(db, filter, offset + rows.length, {
          statement,
          total: counted === undefined ? undefined : Number(counted),
        });
  return { rows, total };
}

/** Customers the caller may filter by: every customer for staff, only their own for a customer user. */
export async function customerOptions(db: Db, scope: number | null): Promise<{ id: number; name: string }[]> {
  const where = scope === null ? sql`true` : sql`id = ${scope}`;
  const result = await db.execute<{ id: number; name: string }>(
    sql`select id, name from customers where ${where} order by lower(name), id`,
  );
  return result.rows.map((row) => ({ id: Number(row.id), name: row.name }));
}

export async function customerExists(db: Db, id: number): Promise<boolean> {
  const result = await db.execute(sql`select 1 from customers where id = ${id}`);
  return result.rows.length > 0;
}

/**
 * Every device the customer has or had (device_owners), disabled ones included, by serial: its records
 * of a device it had before are still its own and still listed, so that device is still a choice.
 */
export async function deviceOptions(
  db: Db,
  customerId: number,
): Promise<{ id: number; device_serial: string }[]> {
  const result = await db.execute<{ id: number; device_serial: string }>(
    sql`select d.id, d.device_serial from device_owners o join devices d on d.id = o.device_id
      where o.customer_id = ${customerId} order by d.device_serial, d.id`,
  );
  return result.rows.map((row) => ({ id: Number(row.id), device_serial: row.device_serial }));
}
