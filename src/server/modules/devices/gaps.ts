/**
 * A device's gaps and late records (GET /devices/{deviceId}/gaps), read from what ingestion keeps
 * (device_progress, device_progress_gaps and the out-of-order partial index), never from the records'
 * whole sequence: every query here is one short index range per (device, owner) pair.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import type { DeviceGaps } from '#shared/api/index.ts';

/**
 * Whose sequences of the device the caller sees: a clinic only its own (and only of a device it has or
 * had: otherwise null, answered 404), staff every owner's (null when the device does not exist).
 */
export async function visibleOwners(
  db: Db,
  deviceId: number,
  scope: number | null,
): Promise<number[] | null> {
  if (scope !== null) {
    const had = await db.execute(
      sql`select 1 from device_owners where device_id = ${deviceId} and customer_id = ${scope}`,
    );
    return had.rows.length > 0 ? [scope] : null;
  }
  const exists = await db.execute(sql`select 1 from devices where id = ${deviceId}`);
  if (exists.rows.length === 0) return null;
  const owners = await db.execute<{ customer_id: number }>(
    sql`select customer_id from device_owners where device_id = ${deviceId} order by customer_id`,
  );
  return owners.rows.map((row) => Number(row.customer_id));
}

export async function deviceGaps(
  db: Db,
  deviceId: number,
  owners: number[],
  limit: number,
): Promise<DeviceGaps> {
  const empty = { device_id: deviceId, missing_count: 0, ranges: [], ranges_total: 0 };
  if (owners.length === 0) return { ...empty, out_of_order: [], out_of_order_total: 0 };
  const ownerList = sql.join(
    owners.map((owner) => sql`${owner}`),
    sql`, `,
  );
  const [totals, ranges, late] = await Promise.all([
    db.execute<{ missing: string | null; late: string | null; ranges: string }>(sql`
      select sum(p.missing_count) as missing, sum(p.out_of_order_count) as late,
        (select count(*) from device_progress_gaps g
          where g.device_id = ${deviceId} and g.customer_id in (${ownerList})) as ranges
      from device_progress p where p.device_id = ${deviceId} and p.customer_id in (${ownerList})`),
    db.execute<{
      customer_id: number;
      customer_name: string;
      first_missing: number;
      last_missing: number;
    }>(sql`
      select g.customer_id, c.name as customer_name, g.first_missing, g.last_missing
      from (
        select * from device_progress_gaps
        where device_id = ${deviceId} and customer_id in (${ownerList})
        order by first_missing desc limit ${limit}
      ) g join customers c on c.id = g.customer_id
      order by g.first_missing desc`),
    db.execute<{
      id: string;
      progressive_id: number;
      received_ts: string | Date;
      customer_id: number;
      customer_name: string;
    }>(sql`
      select s.id, s.progressive_id, s.received_ts, s.customer_id, c.name as customer_name
      from (
        select id, progressive_id, received_ts, customer_id from sterilizations
        where device_id = ${deviceId} and customer_id in (${ownerList}) and arrived_out_of_order
        order by received_ts desc, id desc limit ${limit}
      ) s join customers c on c.id = s.customer_id
      order by s.received_ts desc, s.id desc`),
  ]);
  const sums = totals.rows[0];
  return {
    device_id: deviceId,
    missing_count: Number(sums?.missing ?? 0),
    ranges: ranges.rows.map((row) => ({
      customer_id: Number(row.customer_id),
      customer_name: row.customer_name,
      first_missing: Number(row.first_missing),
      last_missing: Number(row.last_missing),
      count: Number(row.last_missing) - Number(row.first_missing) + 1,
    })),
    ranges_total: Number(sums?.ranges ?? 0),
    out_of_order: late.rows.map((row) => ({
      id: Number(row.id),
      progressive_id: Number(row.progressive_id),
      received_ts: new Date(row.received_ts).toISOString(),
      customer_id: Number(row.customer_id),
      customer_name: row.customer_name,
    })),
    out_of_order_total: Number(sums?.late ?? 0),
  };
}
