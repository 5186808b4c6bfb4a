/** Alerts as the list, the bell and the acknowledge/resolve calls read and change them. */
import { and, asc, desc, eq, inArray, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '#server/db/client.ts';
import { alerts, customers, devices, users } from '#server/db/schema.ts';
import { isoInstant, isoInstantOrNull } from '#server/http/instants.ts';
import type { AlertStateFilter } from '#shared/alerts/index.ts';
import type { Alert, AlertKind, AlertState } from '#shared/api/index.ts';

export interface AlertFilter {
  /** The only customer whose alerts the caller sees; null = staff, every alert. */
  scope: number | null;
  state?: AlertStateFilter;
  kind?: AlertKind;
  customerId?: number;
  deviceId?: number;
}

function conditions(filter: AlertFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  // A clinic's alerts always have its customer id: staff-only alerts (customer null) never match.
  if (filter.scope !== null) parts.push(eq(alerts.customerId, filter.scope));
  if (filter.customerId !== undefined) parts.push(eq(alerts.customerId, filter.customerId));
  if (filter.deviceId !== undefined) parts.push(eq(alerts.deviceId, filter.deviceId));
  if (filter.kind !== undefined) parts.push(eq(alerts.kind, filter.kind));
  if (filter.state === 'active') parts.push(ne(alerts.state, 'resolved'));
  else if (filter.state !== undefined) parts.push(eq(alerts.state, filter.state));
  return and(...parts);
}

const acknowledger = alias(users, 'acknowledger');
const resolver = alias(users, 'resolver');

const columns = {
  id: alerts.id,
  kind: alerts.kind,
  state: alerts.state,
  customerId: alerts.customerId,
  customerName: customers.name,
  deviceId: alerts.deviceId,
  deviceSerial: devices.deviceSerial,
  deviceCustomerId: devices.customerId,
  subjectId: alerts.subjectId,
  details: alerts.details,
  raisedAt: alerts.raisedAt,
  acknowledgedAt: alerts.acknowledgedAt,
  acknowledgedById: alerts.acknowledgedBy,
  acknowledgedByName: acknowledger.name,
  acknowledgeComment: alerts.acknowledgeComment,
  resolvedAt: alerts.resolvedAt,
  resolvedById: alerts.resolvedBy,
  resolvedByName: resolver.name,
  resolution: alerts.resolution,
  resolveComment: alerts.resolveComment,
};

function selectAlerts(db: Db | Tx) {
  return db
    .select(columns)
    .from(alerts)
    .leftJoin(customers, eq(customers.id, alerts.customerId))
    .leftJoin(devices, eq(devices.id, alerts.deviceId))
    .leftJoin(acknowledger, eq(acknowledger.id, alerts.acknowledgedBy))
    .leftJoin(resolver, eq(resolver.id, alerts.resolvedBy));
}

type AlertRow = Awaited<ReturnType<ReturnType<typeof selectAlerts>['execute']>>[number];

const person = (id: number | null, name: string | null) =>
  id === null || name === null ? null : { id, name };

/** The one place a stored alert becomes the contract's Alert (kind, state, resolution are written from its enums). */
function toAlert(row: AlertRow, scope: number | null): Alert {
  return {
    id: row.id,
    kind: row.kind as AlertKind,
    state: row.state as AlertState,
    customer:
      row.customerId === null || row.customerName === null
        ? null
        : { id: row.customerId, name: row.customerName },
    device:
      row.deviceId === null || row.deviceSerial === null || row.deviceCustomerId === null
        ? null
        : {
            id: row.deviceId,
            device_serial: row.deviceSerial,
            customer_id: scope === null ? row.deviceCustomerId : null,
          },
    subject_id: row.subjectId,
    details: (row.details ?? {}) as Record<string, unknown>,
    raised_at: isoInstant(row.raisedAt),
    acknowledged_at: isoInstantOrNull(row.acknowledgedAt),
    acknowledged_by: person(row.acknowledgedById, row.acknowledgedByName),
    acknowledge_comment: row.acknowledgeComment,
    resolved_at: isoInstantOrNull(row.resolvedAt),
    resolved_by: person(row.resolvedById, row.resolvedByName),
    resolution: row.resolution as Alert['resolution'],
    resolve_comment: row.resolveComment,
  };
}

const SORT_COLUMNS = { raised_at: alerts.raisedAt, kind: alerts.kind, state: alerts.state } as const;
export type AlertSort = keyof typeof SORT_COLUMNS;

export async function listAlertPage(
  db: Db,
  filter: AlertFilter,
  order: { sort: AlertSort; dir: 'asc' | 'desc'; limit: number; offset: number },
): Promise<{ rows: Alert[]; total: number }> {
  const where = conditions(filter);
  const by = order.dir === 'asc' ? asc : desc;
  // Ties (same kind, same state) newest first, then by id, so pages never overlap.
  const tieBreak = order.sort === 'raised_at' ? [by(alerts.id)] : [desc(alerts.raisedAt), desc(alerts.id)];
  const [rows, totals] = await Promise.all([
    selectAlerts(db)
      .where(where)
      .orderBy(by(SORT_COLUMNS[order.sort]), ...tieBreak)
      .limit(order.limit)
      .offset(order.offset),
    db.select({ total: sql<string>`count(*)` }).from(alerts).where(where),
  ]);
  return { rows: rows.map((row) => toAlert(row, filter.scope)), total: Number(totals[0]?.total ?? 0) };
}

/** The ids of the alerts matching `filter`, newest first, at most `limit`. */
export async function matchingAlertIds(db: Db, filter: AlertFilter, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: alerts.id })
    .from(alerts)
    .where(conditions(filter))
    .orderBy(desc(alerts.raisedAt), desc(alerts.id))
    .limit(limit);
  return rows.map((row) => row.id);
}

export async function countUnread(db: Db, scope: number | null): Promise<number> {
  const result = await db
    .select({ total: sql<string>`count(*)` })
    .from(alerts)
    .where(and(eq(alerts.state, 'open'), scope === null ? undefined : eq(alerts.customerId, scope)));
  return Number(result[0]?.total ?? 0);
}

/** An alert the caller may see, or undefined (another tenant's is as good as missing). */
export async function findAlert(db: Db | Tx, id: number, scope: number | null): Promise<Alert | undefined> {
  const [row] = await selectAlerts(db).where(
    and(
      eq(alerts.id, id),
      scope === null ? undefined : and(isNotNull(alerts.customerId), eq(alerts.customerId, scope)),
    ),
  );
  return row ? toAlert(row, scope) : undefined;
}

/** Compare-and-set from the states it may leave, so two people acting at once cannot both succeed. */
export async function acknowledge(tx: Tx, id: number, userId: number, comment: string | null) {
  const changed = await tx
    .update(alerts)
    .set({
      state: 'acknowledged',
      acknowledgedAt: sql`now()`,
      acknowledgedBy: userId,
      acknowledgeComment: comment,
    })
    .where(and(eq(alerts.id, id), eq(alerts.state, 'open')))
    .returning({ id: alerts.id });
  return changed.length === 1;
}

export async function resolveByHand(tx: Tx, id: number, userId: number, comment: string | null) {
  const changed = await tx
    .update(alerts)
    .set({
      state: 'resolved',
      resolvedAt: sql`now()`,
      resolvedBy: userId,
      resolution: 'manual',
      resolveComment: comment,
    })
    .where(and(eq(alerts.id, id), inArray(alerts.state, ['open', 'acknowledged'])))
    .returning({ id: alerts.id });
  return changed.length === 1;
}
