/**
 * The periodic pass over conditions that time alone changes, or that a record alone would not reveal:
 * silent devices, certificates expiring or expired, blockchain data blocks not mined, and the state of
 * each device's lamp and current consumable batch. It raises what holds and clears what no longer does
 * (the device spoke again, the certificate was renewed, the block was mined, a new batch began).
 *
 * One sweep at a time across every process on the database: the pass runs in one transaction that
 * first takes a transaction-level advisory lock without waiting; a process that does not get it skips
 * (another one is sweeping). Raising is ON CONFLICT DO NOTHING anyway, so even overlapping sweeps could
 * not duplicate an alert. `now` is the sweep's clock (tests pass one instead of waiting).
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import type { AlertKind } from '#shared/alerts/index.ts';
import { batchLevel, conditionKeys } from './conditions.ts';
import { batchDetails } from './ingested.ts';
import { type AlertToRaise, clearAlertsById, raiseAlerts } from './raise.ts';
import type { AlertThresholds } from './thresholds.ts';

/** Arbitrary, fixed: the advisory lock key of the alert sweep (the seed uses 4242017002). */
const SWEEP_LOCK_KEY = 4_242_017_013;

/** The kinds whose every condition the sweep re-evaluates, so it may also clear them. */
const SWEPT_KINDS: readonly AlertKind[] = [
  'device_silent',
  'lamp_life_low',
  'batch_80',
  'batch_100',
  'certificate_expiring',
  'certificate_expired',
  'block_not_mined',
];

export interface SweepResult {
  /** False when another process held the sweep lock (nothing was done). */
  ran: boolean;
  raised: number[];
  cleared: number[];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export async function sweepAlerts(db: Db, thresholds: AlertThresholds, now: Date): Promise<SweepResult> {
  return db.transaction(async (tx) => {
    const lock = await tx.execute<{ locked: boolean }>(
      sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}) as locked`,
    );
    if (lock.rows[0]?.locked !== true) return { ran: false, raised: [], cleared: [] };
    // Candidates are read first: an alert raised by ingestion while the conditions are read below is
    // not among them, so it cannot be cleared by a reading older than itself.
    const candidates = await tx.execute<{ id: number; condition_key: string }>(sql`
      select id, condition_key from alerts
      where condition_cleared_at is null
        and kind in (select jsonb_array_elements_text(${JSON.stringify(SWEPT_KINDS)}::jsonb))`);
    const holding: AlertToRaise[] = [
      ...(await deviceConditions(tx, thresholds, now)),
      ...(await batchConditions(tx, now)),
      ...(await certificateConditions(tx, thresholds, now)),
      ...(await blockConditions(tx, thresholds, now)),
    ];
    const holds = new Set(holding.map((alert) => alert.conditionKey));
    const cleared = await clearAlertsById(
      tx,
      candidates.rows.filter((row) => !holds.has(row.condition_key)).map((row) => Number(row.id)),
      now,
    );
    const raised = await raiseAlerts(tx, holding);
    return { ran: true, raised, cleared };
  });
}

type DeviceState = {
  device_id: number;
  customer_id: number;
  device_serial: string;
  silent_hours: number;
  lamp_threshold: number;
  /** The device's last record under any owner; null when it never sent one. */
  last_received_ms: number | null;
  created_ms: number;
  /** Residual lamp life of its last record under its current owner. */
  residual: number | null;
};

/** Silent devices and low lamps, per active device of an active clinic, with the clinic's own thresholds. */
async function deviceConditions(tx: Tx, thresholds: AlertThresholds, now: Date): Promise<AlertToRaise[]> {
  const result = await tx.execute<DeviceState>(sql`
    select d.id as device_id, d.customer_id, d.device_serial, (extract(epoch from d.created_at) * 1000)::float8 as created_ms,
      coalesce(c.alert_device_silent_hours, ${thresholds.deviceSilentHours}) as silent_hours,
      coalesce(c.alert_lamp_life_threshold, ${thresholds.lampLifeThreshold}) as lamp_threshold,
      (select (extract(epoch from max(latest.received_ts)) * 1000)::float8 from device_owners o
         cross join lateral (select s.received_ts from sterilizations s
           where s.device_id = o.device_id and s.customer_id = o.customer_id
           order by s.received_ts desc limit 1) latest
         where o.device_id = d.id) as last_received_ms,
      (select s.residual_lamp_life::float8 from sterilizations s
         where s.device_id = d.id and s.customer_id = d.customer_id
         order by s.received_ts desc limit 1) as residual
    from devices d join customers c on c.id = d.customer_id
    where d.deleted_at is null and c.deleted_at is null`);
  const alerts: AlertToRaise[] = [];
  for (const device of result.rows) {
    const common = {
      customerId: device.customer_id,
      deviceId: device.device_id,
      subjectId: device.device_id,
      raisedAt: now,
    };
    const since = new Date(device.last_received_ms ?? device.created_ms);
    const silentMs = now.getTime() - since.getTime();
    if (silentMs > device.silent_hours * HOUR_MS) {
      alerts.push({
        ...common,
        kind: 'device_silent',
        conditionKey: conditionKeys.deviceSilent(device.device_id, device.customer_id),
        details: {
          device_serial: device.device_serial,
          last_received_ts: device.last_received_ms === null ? null : since.toISOString(),
          threshold_hours: device.silent_hours,
        },
      });
    }
    if (device.residual !== null && device.residual < device.lamp_threshold) {
      alerts.push({
        ...common,
        kind: 'lamp_life_low',
        conditionKey: conditionKeys.lampLifeLow(device.device_id, device.customer_id),
        details: {
          device_serial: device.device_serial,
          residual_lamp_life: device.residual,
          threshold: device.lamp_threshold,
        },
      });
    }
  }
  return alerts;
}

/** Each active device's current batch (as the dashboard shows it) at 80 % or full. */
async function batchConditions(tx: Tx, now: Date): Promise<AlertToRaise[]> {
  const result = await tx.execute<{
    id: number;
    device_id: number;
    customer_id: number;
    device_serial: string;
    lot_code: string;
    lot_progressive: number;
    sterilization_count: number;
    batch_quantity: number;
  }>(sql`
    select distinct on (b.device_id) b.id, b.device_id, b.customer_id, d.device_serial, b.lot_code,
      b.lot_progressive, b.sterilization_count, b.batch_quantity
    from consumable_batches b
    join devices d on d.id = b.device_id and b.customer_id = d.customer_id
    join customers c on c.id = d.customer_id
    where d.deleted_at is null and c.deleted_at is null
    order by b.device_id, b.created_at desc, b.id desc`);
  const alerts: AlertToRaise[] = [];
  for (const batch of result.rows) {
    const level = batchLevel(batch.sterilization_count, batch.batch_quantity);
    if (level === null) continue;
    alerts.push({
      kind: level,
      customerId: batch.customer_id,
      deviceId: batch.device_id,
      subjectId: batch.id,
      conditionKey:
        level === 'batch_100' ? conditionKeys.batch100(batch.id) : conditionKeys.batch80(batch.id),
      details: batchDetails(batch.device_serial, batch),
      raisedAt: now,
    });
  }
  return alerts;
}

/**
 * Certificates expiring within N days or expired, unless another certificate of the same lot is valid
 * beyond that window (a renewal). Raised for the staff and for every active clinic that has used the
 * lot (a consumable batch of it): they hold those consumables.
 */
async function certificateConditions(
  tx: Tx,
  thresholds: AlertThresholds,
  now: Date,
): Promise<AlertToRaise[]> {
  const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
  const result = await tx.execute<{
    id: number;
    lot_number: string;
    validated_treatment_number: string;
    expiration_date: string;
    days_left: number;
    customer_ids: number[] | null;
  }>(sql`
    select c.id, c.lot_number, c.validated_treatment_number, c.expiration_date::text as expiration_date,
      (c.expiration_date - ${today}::date) as days_left,
      (select array_agg(distinct b.customer_id) from consumable_batches b
         join customers k on k.id = b.customer_id
         where b.lot_code = c.lot_number and k.deleted_at is null) as customer_ids
    from certificates c
    where c.expiration_date <= ${today}::date + ${thresholds.certificateExpiryDays}::int
      and not exists (
        select 1 from certificates r
        where r.lot_number = c.lot_number and r.id <> c.id
          and r.expiration_date > ${today}::date + ${thresholds.certificateExpiryDays}::int)`);
  const alerts: AlertToRaise[] = [];
  for (const certificate of result.rows) {
    const kind = certificate.days_left < 0 ? 'certificate_expired' : 'certificate_expiring';
    const details = {
      lot_number: certificate.lot_number,
      validated_treatment_number: certificate.validated_treatment_number,
      expiration_date: certificate.expiration_date,
      days_left: certificate.days_left,
    };
    for (const customerId of [null, ...(certificate.customer_ids ?? [])]) {
      alerts.push({
        kind,
        customerId,
        subjectId: certificate.id,
        conditionKey: conditionKeys.certificate(kind, certificate.id, customerId),
        details,
        raisedAt: now,
      });
    }
  }
  return alerts;
}

/** Blockchain data blocks not MINED (or FINAL) N minutes after they were formed (staff only: customer null). */
async function blockConditions(tx: Tx, thresholds: AlertThresholds, now: Date): Promise<AlertToRaise[]> {
  const cutoff = new Date(now.getTime() - thresholds.blockStuckMinutes * 60_000).toISOString();
  const result = await tx.execute<{ id: number; status: string; network: string; created_ms: number }>(sql`
    select id, status, network, (extract(epoch from created_at) * 1000)::float8 as created_ms
    from blockchain_data_blocks
    where status not in ('MINED', 'FINAL') and created_at < ${cutoff}::timestamptz`);
  return result.rows.map((block) => ({
    kind: 'block_not_mined',
    customerId: null,
    subjectId: block.id,
    conditionKey: conditionKeys.blockNotMined(block.id),
    details: {
      block_id: block.id,
      status: block.status,
      network: block.network,
      created_at: new Date(block.created_ms).toISOString(),
      threshold_minutes: thresholds.blockStuckMinutes,
    },
    raisedAt: now,
  }));
}
