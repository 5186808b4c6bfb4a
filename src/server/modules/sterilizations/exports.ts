/**
 * CSV exports of sterilization records (docs/product.md §7 /export/...), streamed. Rows are read in keyset
 * batches of EXPORT_BATCH_ROWS, one short query each: memory stays flat however many rows there are,
 * and between two batches the database connection is free for other requests (embedded PGlite has a
 * single one). The stream pulls the next batch only when the client has taken the previous one.
 *
 * Format: UTF-8 with a byte order mark (so Excel reads accents right), CRLF line ends, a header row,
 * times in UTC as `YYYY-MM-DD HH:MM:SS.mmm`, and cells written by the product's one CSV cell rule
 * (#server/http/csv.ts: quoting, and no cell a spreadsheet would run as a formula).
 */
import { Readable } from 'node:stream';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { csvLine, csvLineSql, numberCell, numberCellSql, textCell, textCellSql } from '#server/http/csv.ts';
import { type GiveWay, nextTurnOnly } from '#server/http/give-way.ts';
import type { ReceivedWindow } from '#server/http/received-window.ts';
import { bound, filterCondition, isEmptyFilter, orderedIds, type SterilizationFilter } from './list.ts';

export const EXPORT_BATCH_ROWS = 5_000;
const BOM = '\uFEFF';
const STATUS_TEXT: Record<number, string> = {
  0: 'ok',
  1: 'nulled',
  2: 'lamp malfunction',
  3: 'probe malfunction',
};

/** An instant as every record CSV shows it: in UTC, to the millisecond. */
const utcCell = (instant: SQL) => sql`to_char(${instant} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')`;

/** received_ts as the CSV shows it. */
export const RECEIVED_UTC = utcCell(sql`s.received_ts`);

/** The status text beside its code, from STATUS_TEXT. */
export const STATUS_TEXT_SQL = sql`case s.status_code ${sql.join(
  Object.entries(STATUS_TEXT).map(([code, text]) => sql.raw(`when ${Number(code)} then '${text}'`)),
  sql` `,
)} else '' end`;

const flagCell = (flag: SQL) => sql`case when ${flag} then 'true' else 'false' end`;

/**
 * The columns every record CSV ends with, after the older ones (readers by position keep working): the
 * device's own cycle time and whether its clock ran ahead (docs/integrity.md §12).
 */
const DEVICE_TIME_HEADER = ['cycle_ts_utc', 'device_clock_ahead'];
const DEVICE_TIME_CELLS = [sql`coalesce(${utcCell(sql`s.cycle_ts`)}, '')`, flagCell(sql`s.clock_suspect`)];

/**
 * The out_of_order cell: the record arrived after one with a higher progressive id
 * (docs/adr/0023-gaps-and-arrival-order.md).
 */
const OUT_OF_ORDER_CELL = flagCell(sql`s.arrived_out_of_order`);
const LOT_STATUS_CELL = sql`coalesce(s.lot_status::text, '')`;

export interface Cursor {
  ts: string;
  id: string;
}

/** A batch's keyset cursor: received_ts as PostgreSQL writes it (exact to the microsecond) and the id. */
const RECEIVED_CURSOR = sql`json_build_object('ts', received_ts::text, 'id', id::text)`;

export const FILTERED_HEADER = [
  'id',
  'received_ts_utc',
  'customer',
  'device_serial',
  'progressive_id',
  'status_code',
  'status',
  'supplied_energy',
  'nominal_time_min',
  'effective_time_min',
  'residual_lamp_life_h',
  'consumables_lot',
  'lot_progressive_id',
  'latitude',
  'longitude',
  'notes',
  // Appended last so readers of the earlier columns by position keep working.
  'lot_status',
  'out_of_order',
  ...DEVICE_TIME_HEADER,
];

/** The cycle's measures and its lot, in both record exports. */
const CYCLE_CELLS = [
  numberCellSql(sql`s.supplied_energy`),
  numberCellSql(sql`s.nominal_time`),
  numberCellSql(sql`s.effective_time`),
  numberCellSql(sql`s.residual_lamp_life`),
  textCellSql(sql`s.consumables_lot`),
  numberCellSql(sql`s.lot_progressive_id`),
];

const FILTERED_LINE = csvLineSql([
  numberCellSql(sql`s.id`),
  RECEIVED_UTC,
  textCellSql(sql`c.name`),
  textCellSql(sql`d.device_serial`),
  numberCellSql(sql`s.progressive_id`),
  numberCellSql(sql`s.status_code`),
  STATUS_TEXT_SQL,
  ...CYCLE_CELLS,
  numberCellSql(sql`s.latitude`),
  numberCellSql(sql`s.longitude`),
  textCellSql(sql`s.notes`),
  LOT_STATUS_CELL,
  OUT_OF_ORDER_CELL,
  ...DEVICE_TIME_CELLS,
]);

/**
 * Lines the database joins into one text: a text is short-lived and small enough for the young
 * generation, where it is collected for free, not the large-object space (a 5,000-line text grew the
 * server's memory by about 90 MB during an export).
 */
const LINES_PER_TEXT = 250;

/**
 * One batch of an export as the database writes it: its lines in the batch's order, LINES_PER_TEXT to a
 * text, each text with the batch's size and the cursor of its last row. A batch's rows are never
 * strings of the server's own: a string a field of 5,000 rows kept the garbage collector pausing the
 * event loop for tens of milliseconds (docs/adr/0033-export-lines-written-by-the-database.md). `rows`
 * selects, ordered and limited, `line` and the columns that `order`, `lastFirst` (the same order
 * reversed) and `cursor` read.
 */
export function linesBatch(rows: SQL, order: SQL, lastFirst: SQL, cursor: SQL): SQL {
  return sql`with batch as materialized (${rows}),
      numbered as (select line, row_number() over (order by ${order}) as n from batch)
    select string_agg(line, '' order by n) as text, (select count(*)::int from batch) as rows,
      (select ${cursor} from batch order by ${lastFirst} limit 1) as last
    from numbered group by (n - 1) / ${sql.raw(String(LINES_PER_TEXT))} order by min(n)`;
}

export type LinesBatch<C> = { text: string; rows: number; last: C };

export const before = (cursor: Cursor | null): SQL[] =>
  cursor ? [sql`(s.received_ts, s.id) < (${cursor.ts}::timestamptz, ${cursor.id}::bigint)`] : [];

/**
 * One batch of the filtered export, after `cursor`. Every record or one owner's records are one ordered
 * range of an index, read with their columns as they come (measured on 200,000 records: 6.9 ms for 5,000
 * rows, against 34 ms when the ids were picked first and the rows joined to them, which sorted both
 * sides). Device pairs are merged branches (list.ts orderedIds), so there the ids come first.
 */
function filteredBatch(filter: SterilizationFilter, batchRows: number, cursor: Cursor | null): SQL {
  const order = sql`order by s.received_ts desc, s.id desc`;
  const columns = sql`s.received_ts, s.id, ${FILTERED_LINE} as line`;
  const joins = sql`join devices d on d.id = s.device_id join customers c on c.id = s.customer_id`;
  const rows =
    'pairs' in filter.devices
      ? sql`with page as materialized (${orderedIds(filter, 'received_ts', 'desc', batchRows, 0, before(cursor))})
          select ${columns} from page p, sterilizations s ${joins} where s.id = p.id ${order}`
      : sql`select ${columns} from sterilizations s ${joins}
          where ${filterCondition(filter, before(cursor))} ${order} limit ${bound(batchRows)}`;
  return linesBatch(rows, sql`received_ts desc, id desc`, sql`received_ts, id`, RECEIVED_CURSOR);
}

/**
 * The batches of an export, one text each, until one comes back short; between two, the export gives
 * way to the requests in flight (#server/http/give-way.ts).
 */
export async function* batchTexts<C>(
  db: Db,
  batchAfter: (cursor: C | null) => SQL,
  batchRows: number,
  giveWay: GiveWay,
): AsyncGenerator<string> {
  let cursor: C | null = null;
  for (;;) {
    const result: { rows: LinesBatch<C>[] } = await db.execute<LinesBatch<C>>(batchAfter(cursor));
    const texts = result.rows;
    for (const { text } of texts) yield text;
    const batch = texts[0];
    if (!batch || batch.rows < batchRows) return;
    cursor = batch.last;
    await giveWay();
  }
}

/** The list's records for these filters, newest first (the list's default order). */
async function* filteredCsv(
  db: Db,
  filter: SterilizationFilter,
  batchRows: number,
  giveWay: GiveWay,
): AsyncGenerator<string> {
  yield BOM + csvLine(FILTERED_HEADER);
  if (isEmptyFilter(filter)) return;
  yield* batchTexts<Cursor>(db, (cursor) => filteredBatch(filter, batchRows, cursor), batchRows, giveWay);
}

export const OK_HEADER = [
  'customer_id',
  'customer',
  'device_serial',
  'received_ts_utc',
  'id',
  'progressive_id',
  'supplied_energy',
  'nominal_time_min',
  'effective_time_min',
  'residual_lamp_life_h',
  'consumables_lot',
  'lot_progressive_id',
  'lot_status',
  'out_of_order',
  ...DEVICE_TIME_HEADER,
];

/** An ok-export line after its device's cells (customer id, customer, serial), which the server writes once. */
const okLine = (deviceCells: string) =>
  csvLineSql([
    sql`${deviceCells}::text`,
    RECEIVED_UTC,
    numberCellSql(sql`s.id`),
    numberCellSql(sql`s.progressive_id`),
    ...CYCLE_CELLS,
    LOT_STATUS_CELL,
    OUT_OF_ORDER_CELL,
    ...DEVICE_TIME_CELLS,
  ]);

/**
 * Ok records (status_code 0) received in the window: customer by customer (by name), device by device
 * (by serial), oldest first, so the file reads as a per-customer report. Records are grouped under
 * their owner, so a reassigned device appears under each customer it had, with that customer's records.
 */
async function* okCsv(
  db: Db,
  scope: number | null,
  window: ReceivedWindow,
  batchRows: number,
  giveWay: GiveWay,
): AsyncGenerator<string> {
  yield BOM + csvLine(OK_HEADER);
  const devices = await db.execute<{
    id: number;
    device_serial: string;
    customer_id: number;
    name: string;
  }>(sql`
    select d.id, d.device_serial, c.id as customer_id, c.name
    from device_owners o join devices d on d.id = o.device_id join customers c on c.id = o.customer_id
    where ${scope === null ? sql`true` : sql`c.id = ${scope}`}
    order by lower(c.name), c.id, d.device_serial, d.id`);
  for (const device of devices.rows) {
    const deviceCells = [
      numberCell(device.customer_id),
      textCell(device.name),
      textCell(device.device_serial),
    ].join(',');
    const pair = { deviceId: Number(device.id), customerId: Number(device.customer_id) };
    const filter: SterilizationFilter = { devices: { pairs: [pair] }, window };
    const line = okLine(deviceCells);
    yield* batchTexts<Cursor>(
      db,
      (cursor) => {
        const after = cursor
          ? [sql`(s.received_ts, s.id) > (${cursor.ts}::timestamptz, ${cursor.id}::bigint)`]
          : [];
        const rows = sql`select s.received_ts, s.id, ${line} as line
          from sterilizations s
          where ${filterCondition(filter, [sql`s.status_code = 0`, ...after])}
          order by s.received_ts, s.id
          limit ${bound(batchRows)}`;
        return linesBatch(rows, sql`received_ts, id`, sql`received_ts desc, id desc`, RECEIVED_CURSOR);
      },
      batchRows,
      giveWay,
    );
  }
}

export function filteredExport(
  db: Db,
  filter: SterilizationFilter,
  batchRows = EXPORT_BATCH_ROWS,
  giveWay: GiveWay = nextTurnOnly,
): Readable {
  return Readable.from(filteredCsv(db, filter, batchRows, giveWay), { objectMode: false });
}

export function okExport(
  db: Db,
  scope: number | null,
  window: ReceivedWindow,
  batchRows = EXPORT_BATCH_ROWS,
  giveWay: GiveWay = nextTurnOnly,
): Readable {
  return Readable.from(okCsv(db, scope, window, batchRows, giveWay), { objectMode: false });
}

/** `attachment; filename="<base>-YYYY-MM-DD.csv"` (or another extension), dated with today's UTC date. */
export function attachmentName(base: string, now = new Date(), extension = 'csv'): string {
  return `attachment; filename="${base}-${now.toISOString().slice(0, 10)}.${extension}"`;
}
