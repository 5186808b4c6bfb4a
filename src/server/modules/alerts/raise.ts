/**
 * The one way alerts are raised and cleared, from ingestion, the sweep, and the record-gap and
 * lot-compliance code alike. Safe from any number of processes at once: a condition has at most one
 * unresolved alert (partial unique index on condition_key), so a second raise is a no-op, never an
 * error. A condition resolved by hand is not raised again until it has cleared.
 */
import { sql } from 'drizzle-orm';
import { idArray, textArray } from '#server/db/array-parameter.ts';
import type { Db, Tx } from '#server/db/client.ts';
import type { AlertKind } from '#shared/alerts/index.ts';

export interface AlertToRaise {
  kind: AlertKind;
  /** The clinic it belongs to; null for staff-only kinds (a clinic never sees it). */
  customerId: number | null;
  /** The device concerned, if any (device page, device filter). */
  deviceId?: number | null;
  /** What the kind is about: the record, batch, certificate, block or device id. */
  subjectId?: number | null;
  /**
   * Names the condition, unique among unresolved alerts: `<kind>:<subject>[:<customer>]`, e.g.
   * `record_gap:<deviceId>:<customerId>` or `lot_uncertified:<recordId>`. The same key from two raises
   * means the same condition.
   */
  conditionKey: string;
  /** What a reader needs without another query (status text, residual life, percent, dates…). */
  details?: Record<string, unknown>;
  /** Default: the database server's clock. The sweep passes its own (tests give it one). */
  raisedAt?: Date;
}

type Executor = Db | Tx;

/** Raises one alert; answers its id, or null when that condition already has one (or was resolved by hand). */
export async function raiseAlert(db: Executor, alert: AlertToRaise): Promise<number | null> {
  const [id] = await raiseAlerts(db, [alert]);
  return id ?? null;
}

/** Raises several in one statement; answers the ids of the alerts actually created. */
export async function raiseAlerts(db: Executor, alerts: readonly AlertToRaise[]): Promise<number[]> {
  const byKey = new Map(alerts.map((alert) => [alert.conditionKey, alert]));
  if (byKey.size === 0) return [];
  const rows = JSON.stringify(
    [...byKey.values()].map((alert) => ({
      kind: alert.kind,
      customer_id: alert.customerId,
      device_id: alert.deviceId ?? null,
      subject_id: alert.subjectId ?? null,
      condition_key: alert.conditionKey,
      details: alert.details ?? {},
      raised_at: alert.raisedAt?.toISOString() ?? null,
    })),
  );
  const result = await db.execute<{ id: number }>(sql`
    insert into alerts (kind, customer_id, device_id, subject_id, condition_key, details, raised_at)
    select v.kind, v.customer_id, v.device_id, v.subject_id, v.condition_key, v.details, coalesce(v.raised_at, now())
    from jsonb_to_recordset(${rows}::jsonb) as v(kind text, customer_id integer, device_id integer,
      subject_id bigint, condition_key text, details jsonb, raised_at timestamptz)
    where not exists (
      select 1 from alerts a
      where a.condition_key = v.condition_key and a.resolution = 'manual' and a.condition_cleared_at is null)
    on conflict (condition_key) where state <> 'resolved' do nothing
    returning id`);
  return result.rows.map((row) => Number(row.id));
}

/**
 * The condition behind these keys no longer holds: its unresolved alert is resolved ('cleared'), and
 * an alert resolved by hand is released so that the condition may raise again should it return.
 * Answers the ids of the alerts it resolved.
 */
export async function resolveAlertsFor(
  db: Executor,
  conditionKey: string | readonly string[],
  at?: Date,
): Promise<number[]> {
  const keys = typeof conditionKey === 'string' ? [conditionKey] : [...conditionKey];
  if (keys.length === 0) return [];
  const when = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  const result = await db.execute<{ id: number; was_open: boolean }>(sql`
    with cleared as (
      select id, state <> 'resolved' as was_open from alerts
      where condition_cleared_at is null
        and condition_key = any(${textArray(keys)}::text[])
      for update)
    update alerts a set
      state = 'resolved',
      resolved_at = coalesce(a.resolved_at, ${when}),
      resolution = coalesce(a.resolution, 'cleared'),
      condition_cleared_at = ${when}
    from cleared where a.id = cleared.id
    returning a.id, cleared.was_open`);
  return result.rows.filter((row) => row.was_open).map((row) => Number(row.id));
}

/** The same for alerts known by id (the sweep's candidates whose condition it found cleared). */
export async function clearAlertsById(db: Executor, ids: readonly number[], at: Date): Promise<number[]> {
  if (ids.length === 0) return [];
  const result = await db.execute<{ id: number }>(sql`
    update alerts set
      state = 'resolved',
      resolved_at = coalesce(resolved_at, ${at.toISOString()}::timestamptz),
      resolution = coalesce(resolution, 'cleared'),
      condition_cleared_at = ${at.toISOString()}::timestamptz
    where id = any(${idArray(ids)}::bigint[])
      and condition_cleared_at is null
    returning id`);
  return result.rows.map((row) => Number(row.id));
}
