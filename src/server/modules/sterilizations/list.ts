/**
 * The sterilization list's queries (docs/product.md §2 Sterilization list), built to stay fast at millions of
 * rows:
 *
 * - Every record has an owner (`customer_id`, the customer its device belonged to when it was
 *   received), and a tenant's rows are only ever reached through its own customer id: a reassigned
 *   device's history stays with the customer that owned it.
 * - A filter is every record, one owner's records, or a few (device, owner) pairs (a device filter: a
 *   device's records of one owner, or of each owner it had). Pairs come from device_owners.
 * - The ordered page is picked on narrow index-only scans, then only its rows are joined to the view.
 *   An owner's records are one range of the (customer_id, received_ts desc, id desc) and
 *   (customer_id, consumables_lot, id) indexes, so page 1 of any customer reads about 20 index entries
 *   however large the table; pairs are ranges of the (device_id, customer_id, …) indexes, merged
 *   (UNION ALL of ordered branches → Merge Append); without a filter the global (received_ts desc,
 *   id desc) and (consumables_lot, id) indexes serve the sort directly.
 * - The device_serial sort walks the (device, owner) pairs in serial order and each pair's index range
 *   in order (lateral join, incremental sort), stopping as soon as the page is full.
 * - `total` of one owner's records over whole days is the sum of its daily counts (exact, a row per day);
 *   otherwise it is exact up to totals.exactLimit rows (a count over a LIMITed subquery); above that the
 *   planner's estimate (never less than exactLimit + 1 nor than the rows up to this page), reused
 *   for the same filter for a few seconds, so no request counts millions of rows.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import type { ReceivedWindow } from '#server/http/received-window.ts';
import type { LotStatusFilter } from '#shared/api/index.ts';

export type SterilizationSort = 'received_ts' | 'device_serial' | 'consumables_lot';
export type Direction = 'asc' | 'desc';

/** A device's records of one owner (a device once reassigned has one pair per customer it had). */
export interface Holding {
  deviceId: number;
  customerId: number;
}

/**
 * Whose records a filter reaches: every record, one owner's records (whichever devices produced them),
 * or these (device, owner) pairs (an empty list matches nothing).
 */
export type DeviceSet = { all: true } | { customerId: number } | { pairs: Holding[] };

/** The lot compliance states a list may be narrowed to; `flagged` is uncertified or expired. */
export type { LotStatusFilter };

export interface SterilizationFilter {
  devices: DeviceSet;
  window: ReceivedWindow;
  /** Only records stored after a higher progressive id of their device and owner (partial indexes). */
  outOfOrderOnly?: boolean;
  lotStatus?: LotStatusFilter | undefined;
  /** Only records of this consumables lot (the recall screen). */
  lot?: string | undefined;
}

/** Above this many pairs a set is filtered instead of merged (planning a huge union costs more). */
const MERGE_MAX_PAIRS = 100;

/**
 * How far `total` is counted exactly (tests lower it to reach the estimate path), and how long an
 * estimate is reused for the same filter: above the limit the figure is approximate anyway, and
 * reusing it spares every page request the capped count and the EXPLAIN.
 */
export const totals = { exactLimit: 10_000, estimateTtlMs: 10_000 };

const ESTIMATE_CACHE_SIZE = 500;
const estimates = new Map<string, { total: number; expires: number }>();

function filterKey(filter: SterilizationFilter, cap: number): string {
  const { from, toExclusive } = filter.window;
  return JSON.stringify([
    cap,
    filter.devices,
    from?.getTime() ?? null,
    toExclusive?.getTime() ?? null,
    filter.outOfOrderOnly === true,
    filter.lotStatus ?? null,
    filter.lot ?? null,
  ]);
}

const EMPTY = sql`false`;

/**
 * A page bound written into the statement, not sent as a parameter: with `limit $1` the planner
 * cannot know the page is small and plans for a tenth of the table, so PostgreSQL would never reuse
 * the statement's plan (db/statement-names.ts); with the figure in the text it does. Only the
 * integers the paging computed get here.
 */
export function bound(value: number): SQL {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a row count: ${value}`);
  return sql.raw(String(value));
}

export function isEmptyFilter(filter: SterilizationFilter): boolean {
  return 'pairs' in filter.devices && filter.devices.pairs.length === 0;
}

function windowConditions(window: ReceivedWindow): SQL[] {
  const conditions: SQL[] = [];
  if (window.from) conditions.push(sql`s.received_ts >= ${window.from.toISOString()}::timestamptz`);
  if (window.toExclusive)
    conditions.push(sql`s.received_ts < ${window.toExclusive.toISOString()}::timestamptz`);
  return conditions;
}

/**
 * Any state but certified repeats the partial indexes' own predicate (lot_status <> 'certified'), so
 * the planner can prove they apply and reads only the records not certified.
 */
function lotStatusCondition(status: LotStatusFilter): SQL {
  if (status === 'certified') return sql`s.lot_status = 'certified'`;
  const open = sql`s.lot_status <> 'certified'`;
  if (status === 'flagged') return sql`${open} and s.lot_status in ('uncertified', 'expired')`;
  return sql`${open} and s.lot_status = ${status}`;
}

/** The conditions on a record's own columns: received window, anomaly, lot compliance state, lot. */
function recordConditions(filter: SterilizationFilter): SQL[] {
  const conditions = windowConditions(filter.window);
  if (filter.outOfOrderOnly) conditions.push(sql`s.arrived_out_of_order`);
  if (filter.lotStatus) conditions.push(lotStatusCondition(filter.lotStatus));
  if (filter.lot !== undefined) conditions.push(sql`s.consumables_lot = ${filter.lot}`);
  return conditions;
}

const and = (conditions: SQL[]): SQL =>
  conditions.length === 0 ? sql`true` : sql.join(conditions, sql` and `);

const isPair = (alias: string, pair: Holding): SQL =>
  sql`(${sql.raw(alias)}.device_id = ${pair.deviceId} and ${sql.raw(alias)}.customer_id = ${pair.customerId})`;

/** The condition on `alias` (s = sterilizations, o = device_owners) that selects the set's records or pairs. */
function setCondition(devices: DeviceSet, alias: string): SQL {
  if ('pairs' in devices)
    return devices.pairs.length === 0
      ? EMPTY
      : sql`(${sql.join(
          devices.pairs.map((pair) => isPair(alias, pair)),
          sql` or `,
        )})`;
  if ('customerId' in devices) return sql`${sql.raw(alias)}.customer_id = ${devices.customerId}`;
  return sql`true`;
}

/** Every record the filter matches (no order), plus `extra` conditions. */
export function filterCondition(filter: SterilizationFilter, extra: SQL[] = []): SQL {
  if (isEmptyFilter(filter)) return EMPTY;
  return and([setCondition(filter.devices, 's'), ...recordConditions(filter), ...extra]);
}

interface OrderedKeys {
  /** Column list the key query returns and the ORDER BY over them, for each sort. */
  columns: SQL;
  order: (alias: string, dir: Direction) => SQL;
}

const KEYS: Record<'received_ts' | 'consumables_lot', OrderedKeys> = {
  received_ts: {
    columns: sql`s.id, s.received_ts`,
    order: (a, d) => sql.raw(`${a}.received_ts ${d}, ${a}.id ${d}`),
  },
  consumables_lot: {
    columns: sql`s.id, s.consumables_lot`,
    order: (a, d) => sql.raw(`${a}.consumables_lot ${d}, ${a}.id ${d}`),
  },
};

/**
 * The ids of the records the filter matches, in the sort's order, as a query (with `extra` conditions
 * on `s`, e.g. a keyset cursor, and LIMIT/OFFSET). Only index columns are read.
 */
export function orderedIds(
  filter: SterilizationFilter,
  sort: SterilizationSort,
  dir: Direction,
  limit: number,
  offset: number,
  extra: SQL[] = [],
): SQL {
  if (isEmptyFilter(filter)) return sql`select null::bigint as id where false`;
  const conditions = [...recordConditions(filter), ...extra];
  const page = sql`limit ${bound(limit)} offset ${bound(offset)}`;
  const devices = filter.devices;

  if (sort === 'device_serial') {
    const d = sql.raw(dir);
    // Each (device, owner) pair contributes at most the rows up to this page, in index order; the
    // incremental sort above the lateral join then only has to finish the current device's group.
    return sql`
      select x.id from (
        select o.device_id, o.customer_id, d.device_serial
        from device_owners o join devices d on d.id = o.device_id
        where ${setCondition(devices, 'o')} order by d.device_serial ${d}
      ) o
      cross join lateral (
        select s.id, s.received_ts from sterilizations s
        where s.device_id = o.device_id and s.customer_id = o.customer_id and ${and(conditions)}
        order by s.received_ts ${d}, s.id ${d}
        limit ${bound(limit + offset)}
      ) x
      order by o.device_serial ${d}, x.received_ts ${d}, x.id ${d}
      ${page}`;
  }

  const keys = KEYS[sort];
  if ('pairs' in devices && devices.pairs.length <= MERGE_MAX_PAIRS) {
    // Each branch is ordered and limited itself: a branch with a WHERE clause is planned as its own
    // subquery, and only an ordered one lets the planner merge the branches (Merge Append) instead of
    // sorting all of them.
    const branches = devices.pairs.map(
      (
        pair,
      ) => sql`(select ${keys.columns} from sterilizations s where ${isPair('s', pair)} and ${and(conditions)}
        order by ${keys.order('s', dir)} limit ${bound(limit + offset)})`,
    );
    return sql`select u.id from (${sql.join(branches, sql` union all `)}) u order by ${keys.order('u', dir)} ${page}`;
  }
  // One owner's range of its (customer_id, …) index, or the global index (filtered by many pairs).
  conditions.unshift(setCondition(devices, 's'));
  return sql`select s.id from sterilizations s where ${and(conditions)} order by ${keys.order('s', dir)} ${page}`;
}

/** The ORDER BY of the full rows (s = sterilizations, d = devices), the same order as orderedIds. */
export function rowOrder(sort: SterilizationSort, dir: Direction): SQL {
  const d = sql.raw(dir);
  if (sort === 'device_serial') return sql`d.device_serial ${d}, s.received_ts ${d}, s.id ${d}`;
  if (sort === 'consumables_lot') return sql`s.consumables_lot ${d}, s.id ${d}`;
  return sql`s.received_ts ${d}, s.id ${d}`;
}

const DAY_MS = 86_400_000;
const isDayStart = (date: Date | null) => date === null || date.getTime() % DAY_MS === 0;

/**
 * One owner's records over whole UTC days, nothing else narrowing them: their number is a sum of the
 * owner's daily counts (kept by triggers, migration 0013), a row per day however many records.
 */
function dailyCountable(filter: SterilizationFilter): filter is SterilizationFilter & {
  devices: { customerId: number };
} {
  return (
    'customerId' in filter.devices &&
    !filter.outOfOrderOnly &&
    filter.lotStatus === undefined &&
    filter.lot === undefined &&
    isDayStart(filter.window.from) &&
    isDayStart(filter.window.toExclusive)
  );
}

/**
 * The statement giving the filter's total, to run as a column of the page query (a page and its total
 * in one round trip): the exact sum of daily counts when the filter allows it; otherwise a count up to
 * totals.exactLimit + 1 (one more says "above"), or null when a recent estimate makes counting
 * unnecessary.
 */
export interface TotalStatement {
  sql: SQL;
  /** The sum of daily counts: exact at any size, never replaced by an estimate. */
  exact: boolean;
}

export function totalStatement(filter: SterilizationFilter): TotalStatement | null {
  if (dailyCountable(filter)) {
    const { from, toExclusive } = filter.window;
    const days = [sql`customer_id = ${filter.devices.customerId}`];
    if (from) days.push(sql`day >= ${from.toISOString().slice(0, 10)}::date`);
    if (toExclusive) days.push(sql`day < ${toExclusive.toISOString().slice(0, 10)}::date`);
    return {
      sql: sql`(select coalesce(sum(record_count), 0) from sterilization_daily_ok_counts where ${and(days)})`,
      exact: true,
    };
  }
  const cap = totals.exactLimit;
  const cached = estimates.get(filterKey(filter, cap));
  if (cached && cached.expires > Date.now()) return null;
  return {
    sql: sql`(select count(*) from (select 1 from sterilizations s where ${filterCondition(filter)} limit ${bound(cap + 1)}) x)`,
    exact: false,
  };
}

/**
 * How many records the filter matches: exact up to totals.exactLimit (and always for one owner's
 * whole days), otherwise the planner's estimate (at least exactLimit + 1, and at least `seen`, the rows
 * up to and including the current page). `ran`: the totalStatement the caller ran as a column of its
 * page and what it gave (else the statement is made and run here).
 */
export async function countMatching(
  db: Db,
  filter: SterilizationFilter,
  seen: number,
  ran?: { statement: TotalStatement | null; total: number | undefined },
): Promise<number> {
  if (isEmptyFilter(filter)) return 0;
  const cap = totals.exactLimit;
  const key = filterKey(filter, cap);
  const statement = ran ? ran.statement : totalStatement(filter);
  if (!statement) return Math.max(cap + 1, seen, estimates.get(key)?.total ?? 0);
  let total = ran?.total;
  if (total === undefined) {
    const result = await db.execute<{ n: string }>(sql`select ${statement.sql} as n`);
    total = Number(result.rows[0]?.n ?? 0);
  }
  if (statement.exact || total <= cap) return total;
  const plan = await db.execute<{ 'QUERY PLAN': unknown }>(
    sql`explain (format json) select 1 from sterilizations s where ${filterCondition(filter)}`,
  );
  const estimate = planRows(plan.rows[0]?.['QUERY PLAN']);
  if (estimates.size >= ESTIMATE_CACHE_SIZE) estimates.delete(estimates.keys().next().value as string);
  estimates.set(key, { total: estimate, expires: Date.now() + totals.estimateTtlMs });
  return Math.max(cap + 1, seen, estimate);
}

function planRows(explained: unknown): number {
  const document = typeof explained === 'string' ? JSON.parse(explained) : explained;
  const rows = (document as { Plan?: { 'Plan Rows'?: number } }[] | undefined)?.[0]?.Plan?.['Plan Rows'];
  return typeof rows === 'number' && Number.isFinite(rows) ? Math.round(rows) : 0;
}
