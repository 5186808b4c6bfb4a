/**
 * Recall by lot: when a consumables lot is found defective, every record that used it, per
 * customer and device. The records themselves are the sterilization list's, narrowed to the lot (same
 * filter, scope and paging: list.ts); this file holds what only the recall needs, the counts and the CSV.
 */
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { isoTimestamp as iso } from '#server/db/timestamps.ts';
import { csvLine, csvLineSql, numberCellSql, textCellSql } from '#server/http/csv.ts';
import { type GiveWay, nextTurnOnly } from '#server/http/give-way.ts';
import type { RecallCount, RecallSummary } from '#shared/api/index.ts';
import { batchTexts, EXPORT_BATCH_ROWS, linesBatch, RECEIVED_UTC, STATUS_TEXT_SQL } from './exports.ts';
import { bound, filterCondition, isEmptyFilter, type SterilizationFilter } from './list.ts';

type GroupRow = {
  customer_id: number;
  customer_name: string;
  device_id: number;
  device_serial: string;
  records: string;
  flagged: string;
  first_ts: Date | string;
  last_ts: Date | string;
};

/** A record's lot counts as flagged when it was uncertified or expired on the day it was received. */
const FLAGGED = sql`s.lot_status in ('uncertified', 'expired')`;

/**
 * The lot's records counted per (device, owner) in one grouped read of the (…, consumables_lot, id)
 * indexes, then added up per owner here: a lot is used by tens of devices, not thousands.
 */
export async function recallSummary(
  db: Db,
  filter: SterilizationFilter,
  lot: string,
): Promise<RecallSummary> {
  const certificates = await db.execute<{
    id: number;
    validated_treatment_number: string;
    expiration_date: string;
  }>(sql`select id, validated_treatment_number, expiration_date::text as expiration_date
    from certificates where lot_number = ${lot} order by expiration_date desc, id`);
  const groups = isEmptyFilter(filter)
    ? []
    : (
        await db.execute<GroupRow>(sql`
          select s.customer_id, c.name as customer_name, s.device_id, d.device_serial,
            count(*) as records, count(*) filter (where ${FLAGGED}) as flagged,
            min(s.received_ts) as first_ts, max(s.received_ts) as last_ts
          from sterilizations s join devices d on d.id = s.device_id join customers c on c.id = s.customer_id
          where ${filterCondition(filter)}
          group by s.customer_id, c.name, s.device_id, d.device_serial
          order by lower(c.name), s.customer_id, d.device_serial, s.device_id`)
      ).rows;

  const customers = new Map<number, RecallCount>();
  const devices = groups.map((group) => {
    const count: RecallCount = {
      customer_id: Number(group.customer_id),
      customer_name: group.customer_name,
      records: Number(group.records),
      flagged: Number(group.flagged),
      first_received_ts: iso(group.first_ts),
      last_received_ts: iso(group.last_ts),
    };
    const total = customers.get(count.customer_id);
    if (!total) customers.set(count.customer_id, { ...count });
    else {
      total.records += count.records;
      total.flagged += count.flagged;
      if (count.first_received_ts < total.first_received_ts)
        total.first_received_ts = count.first_received_ts;
      if (count.last_received_ts > total.last_received_ts) total.last_received_ts = count.last_received_ts;
    }
    return { ...count, device_id: Number(group.device_id), device_serial: group.device_serial };
  });
  return {
    lot,
    records: devices.reduce((sum, device) => sum + device.records, 0),
    certificates: certificates.rows.map((row) => ({ ...row, id: Number(row.id) })),
    customers: [...customers.values()],
    devices,
  };
}

export const RECALL_HEADER = [
  'customer_id',
  'customer',
  'device_serial',
  'received_ts_utc',
  'id',
  'progressive_id',
  'status_code',
  'status',
  'consumables_lot',
  'lot_progressive_id',
  'lot_status',
];

/** Where a recall batch ended: the whole sort key of its last row. */
type RecallCursor = {
  sort_name: string;
  customer_id: number;
  device_serial: string;
  device_id: number;
  cursor_ts: string;
  id: string;
};

const RECALL_LINE = csvLineSql([
  numberCellSql(sql`s.customer_id`),
  textCellSql(sql`c.name`),
  textCellSql(sql`d.device_serial`),
  RECEIVED_UTC,
  numberCellSql(sql`s.id`),
  numberCellSql(sql`s.progressive_id`),
  numberCellSql(sql`s.status_code`),
  STATUS_TEXT_SQL,
  textCellSql(sql`s.consumables_lot`),
  numberCellSql(sql`s.lot_progressive_id`),
  sql`coalesce(s.lot_status::text, '')`,
]);

/**
 * One batch of the recall CSV after `after`: keyset over (owner name, owner, serial, device, time, id);
 * a lot's records are few enough for that order to be sorted, not read from an index.
 */
function recallBatch(filter: SterilizationFilter, batchRows: number, after: RecallCursor | null) {
  const cursor = after
    ? [
        sql`(lower(c.name), s.customer_id, d.device_serial, s.device_id, s.received_ts, s.id) >
          (${after.sort_name}, ${after.customer_id}, ${after.device_serial}, ${after.device_id},
           ${after.cursor_ts}::timestamptz, ${after.id}::bigint)`,
      ]
    : [];
  const rows = sql`
    select lower(c.name) as sort_name, s.customer_id, d.device_serial, s.device_id, s.received_ts, s.id,
      ${RECALL_LINE} as line
    from sterilizations s join devices d on d.id = s.device_id join customers c on c.id = s.customer_id
    where ${filterCondition(filter, cursor)}
    order by lower(c.name), s.customer_id, d.device_serial, s.device_id, s.received_ts, s.id
    limit ${bound(batchRows)}`;
  return linesBatch(
    rows,
    sql`sort_name, customer_id, device_serial, device_id, received_ts, id`,
    sql`sort_name desc, customer_id desc, device_serial desc, device_id desc, received_ts desc, id desc`,
    sql`json_build_object('sort_name', sort_name, 'customer_id', customer_id, 'device_serial', device_serial,
      'device_id', device_id, 'cursor_ts', received_ts::text, 'id', id::text)`,
  );
}

/**
 * The lot's records customer by customer (by name), device by device (by serial), oldest first: the
 * file a quality manager sends each clinic.
 */
async function* recallCsv(
  db: Db,
  filter: SterilizationFilter,
  batchRows: number,
  giveWay: GiveWay,
): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(RECALL_HEADER)}`;
  if (isEmptyFilter(filter)) return;
  yield* batchTexts<RecallCursor>(db, (after) => recallBatch(filter, batchRows, after), batchRows, giveWay);
}

export function recallExport(
  db: Db,
  filter: SterilizationFilter,
  batchRows = EXPORT_BATCH_ROWS,
  giveWay: GiveWay = nextTurnOnly,
): Readable {
  return Readable.from(recallCsv(db, filter, batchRows, giveWay), { objectMode: false });
}
