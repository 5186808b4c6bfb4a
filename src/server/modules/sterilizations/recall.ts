/**
 * Recall by lot: when a consumables lot is found defective, every record that used it, per
 * customer and device. The records themselves are the sterilization list's, narrowed to the lot (same
 * filter, scope and paging: list.ts); this file holds what only the recall needs, the counts and the CSV.
 */
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { isoTimestamp as iso } from '#server/db/timestamps.ts';
import { csvLine, numberCell, textCell } from '#server/http/csv.ts';
import { type GiveWay, inSlices, nextTurnOnly } from '#server/http/give-way.ts';
import type { RecallCount, RecallSummary } from '#shared/api/index.ts';
import { EXPORT_BATCH_ROWS, FORMAT_SLICE_ROWS, STATUS_TEXT } from './exports.ts';
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

type RecallRow = {
  id: string;
  customer_id: number;
  customer_name: string;
  device_id: number;
  device_serial: string;
  received_utc: string;
  progressive_id: number;
  status_code: number;
  consumables_lot: string;
  lot_progressive_id: number | null;
  lot_status: string;
  sort_name: string;
  cursor_ts: string;
};

/**
 * The lot's records customer by customer (by name), device by device (by serial), oldest first: the
 * file a quality manager sends each clinic. Keyset batches over (owner name, owner, serial, device,
 * time, id); a lot's records are few enough for that order to be sorted, not read from an index.
 */
async function* recallCsv(
  db: Db,
  filter: SterilizationFilter,
  batchRows: number,
  giveWay: GiveWay,
): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(RECALL_HEADER)}`;
  if (isEmptyFilter(filter)) return;
  let after: RecallRow | null = null;
  for (;;) {
    const cursor = after
      ? [
          sql`(lower(c.name), s.customer_id, d.device_serial, s.device_id, s.received_ts, s.id) >
            (${after.sort_name}, ${after.customer_id}, ${after.device_serial}, ${after.device_id},
             ${after.cursor_ts}::timestamptz, ${after.id}::bigint)`,
        ]
      : [];
    const result: { rows: RecallRow[] } = await db.execute<RecallRow>(sql`
      select s.id, s.customer_id, c.name as customer_name, lower(c.name) as sort_name, s.device_id,
        d.device_serial, to_char(s.received_ts at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') as received_utc,
        s.received_ts::text as cursor_ts, s.progressive_id, s.status_code, s.consumables_lot,
        s.lot_progressive_id, s.lot_status
      from sterilizations s join devices d on d.id = s.device_id join customers c on c.id = s.customer_id
      where ${filterCondition(filter, cursor)}
      order by lower(c.name), s.customer_id, d.device_serial, s.device_id, s.received_ts, s.id
      limit ${bound(batchRows)}`);
    const { rows } = result;
    yield* inSlices(
      rows,
      FORMAT_SLICE_ROWS,
      (slice) =>
        slice
          .map((row) =>
            csvLine([
              numberCell(row.customer_id),
              textCell(row.customer_name),
              textCell(row.device_serial),
              row.received_utc,
              numberCell(row.id),
              numberCell(row.progressive_id),
              numberCell(row.status_code),
              STATUS_TEXT[row.status_code] ?? '',
              textCell(row.consumables_lot),
              numberCell(row.lot_progressive_id),
              row.lot_status,
            ]),
          )
          .join(''),
      giveWay,
    );
    if (rows.length < batchRows) return;
    after = rows[rows.length - 1] as RecallRow;
  }
}

export function recallExport(
  db: Db,
  filter: SterilizationFilter,
  batchRows = EXPORT_BATCH_ROWS,
  giveWay: GiveWay = nextTurnOnly,
): Readable {
  return Readable.from(recallCsv(db, filter, batchRows, giveWay), { objectMode: false });
}
