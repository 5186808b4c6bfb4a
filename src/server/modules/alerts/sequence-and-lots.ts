/**
 * Alerts of the record-gap and lot-compliance bookkeeping: both are kept by database
 * triggers as records arrive (device_progress, sterilizations.lot_status / lot_flag_counts), so these
 * only read what the triggers wrote. Gaps and uncertified lots clear when the condition goes away; a
 * record that arrived out of order is a fact, resolved by a person.
 */
import { sql } from 'drizzle-orm';
import { idArray } from '#server/db/array-parameter.ts';
import type { Db } from '#server/db/client.ts';
import { conditionKeys } from './conditions.ts';
import { type AlertToRaise, raiseAlerts, resolveAlertsFor } from './raise.ts';

type Row = {
  id: string;
  device_id: number;
  customer_id: number;
  progressive_id: number;
  device_serial: string;
  arrived_out_of_order: boolean;
  lot_status: string;
  consumables_lot: string | null;
  missing_count: string | null;
  out_of_order_count: number | null;
};

/** Raises (or clears) the gap, late-record and uncertified-lot alerts of these stored records. */
export async function evaluateSequenceAndLots(db: Db, recordIds: readonly number[]): Promise<number[]> {
  if (recordIds.length === 0) return [];
  const result = await db.execute<Row>(sql`
    select s.id, s.device_id, s.customer_id, s.progressive_id, d.device_serial, s.arrived_out_of_order,
      s.lot_status, s.consumables_lot, p.missing_count, p.out_of_order_count
    from sterilizations s
    join devices d on d.id = s.device_id
    left join device_progress p on p.device_id = s.device_id and p.customer_id = s.customer_id
    where s.id = any(${idArray(recordIds)}::bigint[])`);
  const raises: AlertToRaise[] = [];
  const cleared: string[] = [];
  const pairs = new Set<string>();
  for (const row of result.rows) {
    const deviceId = Number(row.device_id);
    const customerId = Number(row.customer_id);
    const common = { customerId, deviceId };
    const pair = `${deviceId}:${customerId}`;
    if (!pairs.has(pair)) {
      pairs.add(pair);
      const missing = Number(row.missing_count ?? 0);
      if (missing > 0)
        raises.push({
          ...common,
          kind: 'record_gap',
          subjectId: deviceId,
          conditionKey: conditionKeys.recordGap(deviceId, customerId),
          details: { device_serial: row.device_serial, missing_count: missing },
        });
      else cleared.push(conditionKeys.recordGap(deviceId, customerId));
    }
    if (row.arrived_out_of_order)
      raises.push({
        ...common,
        kind: 'record_gap',
        subjectId: Number(row.id),
        conditionKey: conditionKeys.outOfOrder(Number(row.id)),
        details: { device_serial: row.device_serial, progressive_id: row.progressive_id, out_of_order: true },
      });
    if (row.consumables_lot && (row.lot_status === 'uncertified' || row.lot_status === 'expired'))
      raises.push({
        ...common,
        kind: 'lot_uncertified',
        subjectId: Number(row.id),
        conditionKey: conditionKeys.lotUncertified(customerId, row.consumables_lot),
        details: {
          lot_number: row.consumables_lot,
          lot_status: row.lot_status,
          device_serial: row.device_serial,
        },
      });
  }
  if (cleared.length > 0) await resolveAlertsFor(db, cleared);
  return raiseAlerts(db, raises);
}

/**
 * Uncertified-lot alerts whose clinic no longer has a flagged record of that lot (a certificate was
 * uploaded that covers them): resolved. Run by the sweep.
 */
export async function clearCoveredLots(db: Db): Promise<number[]> {
  const open = await db.execute<{ condition_key: string }>(sql`
    select a.condition_key from alerts a
    where a.kind = 'lot_uncertified' and a.condition_cleared_at is null and a.customer_id is not null
      and coalesce((
        -- The sum of the lot's rows (migration 0016).
        select sum(f.flagged) from lot_flag_counts f
        where f.customer_id = a.customer_id and f.consumables_lot = a.details->>'lot_number'), 0) <= 0`);
  return resolveAlertsFor(
    db,
    open.rows.map((row) => row.condition_key),
  );
}
