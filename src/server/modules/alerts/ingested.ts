/**
 * Alerts raised by records as they arrive: a failed cycle, a lamp under its clinic's threshold, a
 * consumable batch at 80 % or full, a device whose clock runs ahead. One statement reads the records with their device, clinic and batch,
 * a second clears what they end (the device spoke, so it is not silent; a lamp above the threshold was
 * replaced), and a third raises, only when there is something to raise.
 */
import { sql } from 'drizzle-orm';
import { idArray } from '#server/db/array-parameter.ts';
import type { Db } from '#server/db/client.ts';
import { batchLevel, conditionKeys, percentOf, statusText } from './conditions.ts';
import { type AlertToRaise, raiseAlerts, resolveAlertsFor } from './raise.ts';
import type { AlertThresholds } from './thresholds.ts';

type StoredRecord = {
  id: string;
  device_id: number;
  customer_id: number;
  progressive_id: number;
  status_code: number;
  residual: number;
  device_serial: string;
  lamp_threshold: number;
  /** The newest of this evaluation's records of its device (the lamp is judged on it). */
  newest: boolean;
  batch_id: number | null;
  lot_code: string | null;
  lot_progressive: number | null;
  sterilization_count: number | null;
  batch_quantity: number | null;
  clock_suspect: boolean;
  cycle_ts: string | null;
  received_ts: string;
};

export async function evaluateStoredRecords(
  db: Db,
  recordIds: readonly number[],
  thresholds: Pick<AlertThresholds, 'lampLifeThreshold'>,
): Promise<number[]> {
  if (recordIds.length === 0) return [];
  const result = await db.execute<StoredRecord>(sql`
    select s.id, s.device_id, s.customer_id, s.progressive_id, s.status_code,
      s.residual_lamp_life::float8 as residual, d.device_serial,
      coalesce(c.alert_lamp_life_threshold, ${thresholds.lampLifeThreshold}) as lamp_threshold,
      s.progressive_id = max(s.progressive_id) over (partition by s.device_id) as newest,
      b.id as batch_id, b.lot_code, b.lot_progressive, b.sterilization_count, b.batch_quantity,
      s.clock_suspect, to_char(s.cycle_ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as cycle_ts,
      to_char(s.received_ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as received_ts
    from sterilizations s
    join devices d on d.id = s.device_id
    join customers c on c.id = s.customer_id
    left join consumable_batches b on b.device_id = s.device_id and b.customer_id = s.customer_id
      and b.lot_code = s.consumables_lot and b.lot_progressive = s.lot_progressive_id
    where s.id = any(${idArray(recordIds)}::bigint[])`);
  // What the records end: the device spoke, so it is not silent; a lamp at or above the threshold was
  // replaced. Cleared by key, through the key's index, whatever the number of alerts kept.
  const ended = new Set<string>();
  for (const record of result.rows) {
    ended.add(conditionKeys.deviceSilent(record.device_id, record.customer_id));
    if (record.newest && record.residual >= record.lamp_threshold)
      ended.add(conditionKeys.lampLifeLow(record.device_id, record.customer_id));
    // A device's clock is judged on its newest cycle: set right, its alert clears.
    if (record.newest && !record.clock_suspect)
      ended.add(conditionKeys.deviceClockAhead(record.device_id, record.customer_id));
  }
  await resolveAlertsFor(db, [...ended]);
  const raises: AlertToRaise[] = [];
  for (const record of result.rows) {
    const recordId = Number(record.id);
    const common = { customerId: record.customer_id, deviceId: record.device_id };
    if (record.status_code !== 0) {
      raises.push({
        ...common,
        kind: 'failed_cycle',
        subjectId: recordId,
        conditionKey: conditionKeys.failedCycle(recordId),
        details: {
          device_serial: record.device_serial,
          progressive_id: record.progressive_id,
          status_code: record.status_code,
          status_text: statusText(record.status_code),
        },
      });
    }
    if (record.newest && record.residual < record.lamp_threshold) {
      raises.push({
        ...common,
        kind: 'lamp_life_low',
        subjectId: record.device_id,
        conditionKey: conditionKeys.lampLifeLow(record.device_id, record.customer_id),
        details: {
          device_serial: record.device_serial,
          residual_lamp_life: record.residual,
          threshold: record.lamp_threshold,
          progressive_id: record.progressive_id,
        },
      });
    }
    if (record.newest && record.clock_suspect) {
      raises.push({
        ...common,
        kind: 'device_clock_ahead',
        subjectId: record.device_id,
        conditionKey: conditionKeys.deviceClockAhead(record.device_id, record.customer_id),
        details: {
          device_serial: record.device_serial,
          progressive_id: record.progressive_id,
          cycle_ts: record.cycle_ts,
          received_ts: record.received_ts,
        },
      });
    }
    const batch = batchAlert(record);
    if (batch) raises.push(batch);
  }
  return raiseAlerts(db, raises);
}

function batchAlert(record: StoredRecord): AlertToRaise | null {
  const { batch_id: batchId, sterilization_count: count, batch_quantity: quantity } = record;
  if (batchId === null || count === null || quantity === null) return null;
  const level = batchLevel(count, quantity);
  if (level === null) return null;
  return {
    kind: level,
    customerId: record.customer_id,
    deviceId: record.device_id,
    subjectId: batchId,
    conditionKey: level === 'batch_100' ? conditionKeys.batch100(batchId) : conditionKeys.batch80(batchId),
    details: batchDetails(record.device_serial, {
      lot_code: record.lot_code,
      lot_progressive: record.lot_progressive,
      sterilization_count: count,
      batch_quantity: quantity,
    }),
  };
}

export function batchDetails(
  deviceSerial: string,
  batch: {
    lot_code: string | null;
    lot_progressive: number | null;
    sterilization_count: number;
    batch_quantity: number;
  },
) {
  return {
    device_serial: deviceSerial,
    ...batch,
    percent: percentOf(batch.sterilization_count, batch.batch_quantity),
  };
}
