/**
 * The figures of a compliance report: one customer's cycles in a period, counted by the records'
 * owner at cycle time (sterilizations.customer_id), never by the devices' current owner. The PDF
 * prints exactly this object and getComplianceSummary answers it, so the two cannot disagree.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { STERILIZATION_STATUS } from '#server/db/schema.ts';
import { isoTimestamp as iso } from '#server/db/timestamps.ts';
import type { Schemas } from '#shared/api/index.ts';
import { periodWindow, type ReportPeriod } from './period.ts';

export type ComplianceSummary = Schemas['ComplianceSummary'];
export type CycleCounts = Schemas['CycleCounts'];
type Customer = ComplianceSummary['customer'];

/** Failed cycles listed one by one at most; the totals still count every one. */
export const FAILED_CYCLES_LISTED = 2000;
/** Gaps and out-of-order records listed one by one at most (each); the totals count every one. */
export const SEQUENCE_LISTED = 2000;

const count = (value: unknown) => Number(value ?? 0);

/** Counts per status as SQL aggregates over `s` (the one definition the device rows and totals share). */
const COUNT_COLUMNS = sql`count(*) as total,
  count(*) filter (where s.status_code = ${STERILIZATION_STATUS.ok}) as ok,
  count(*) filter (where s.status_code = ${STERILIZATION_STATUS.nulled}) as nulled,
  count(*) filter (where s.status_code = ${STERILIZATION_STATUS.lampMalfunction}) as lamp_malfunction,
  count(*) filter (where s.status_code = ${STERILIZATION_STATUS.probeMalfunction}) as probe_malfunction`;

type CountRow = {
  total: string;
  ok: string;
  nulled: string;
  lamp_malfunction: string;
  probe_malfunction: string;
};

function cycleCounts(row: CountRow): CycleCounts {
  const counts = {
    total: count(row.total),
    ok: count(row.ok),
    nulled: count(row.nulled),
    lamp_malfunction: count(row.lamp_malfunction),
    probe_malfunction: count(row.probe_malfunction),
  };
  const known = counts.ok + counts.nulled + counts.lamp_malfunction + counts.probe_malfunction;
  return { ...counts, other: counts.total - known };
}

function addCounts(a: CycleCounts, b: CycleCounts): CycleCounts {
  return {
    total: a.total + b.total,
    ok: a.ok + b.ok,
    nulled: a.nulled + b.nulled,
    lamp_malfunction: a.lamp_malfunction + b.lamp_malfunction,
    probe_malfunction: a.probe_malfunction + b.probe_malfunction,
    other: a.other + b.other,
  };
}

const ZERO: CycleCounts = { total: 0, ok: 0, nulled: 0, lamp_malfunction: 0, probe_malfunction: 0, other: 0 };

export async function findReportCustomer(db: Db, customerId: number): Promise<Customer | undefined> {
  const result = await db.execute<{
    id: number;
    name: string;
    address: string | null;
    postcode: string | null;
    city: string | null;
    country: string;
    enable_blockchain: boolean;
  }>(sql`select id, name, address, postcode, city, country, enable_blockchain
    from customers where id = ${customerId}`);
  const row = result.rows[0];
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/**
 * Everything the report states about the customer's period. `verificationUrl` is the public /verify
 * page of the deployment the reader reached (the report prints it).
 */
export async function complianceSummary(
  db: Db,
  customer: Customer,
  period: ReportPeriod,
  verificationUrl: string,
): Promise<ComplianceSummary> {
  const { start, endExclusive } = periodWindow(period);
  const inPeriod = sql`s.customer_id = ${customer.id} and s.received_ts >= ${start.toISOString()}
    and s.received_ts < ${endExclusive.toISOString()}`;

  const deviceRows = await db.execute<
    CountRow & {
      id: number;
      device_serial: string;
      label: string;
      product_name: string;
      product_type: number;
      lowest: number;
      highest: number;
    }
  >(sql`
    select d.id, d.device_serial, d.label, p.name as product_name, p.type as product_type,
      min(s.progressive_id) as lowest, max(s.progressive_id) as highest, ${COUNT_COLUMNS}
    from sterilizations s join devices d on d.id = s.device_id join products p on p.id = d.product_id
    where ${inPeriod}
    group by d.id, d.device_serial, d.label, p.name, p.type
    order by d.device_serial`);
  const devices = deviceRows.rows.map((row) => ({
    device_id: Number(row.id),
    device_serial: row.device_serial,
    label: row.label,
    product_name: row.product_name,
    product_type: Number(row.product_type),
    cycles: cycleCounts(row),
  }));
  const totals = devices.reduce((sum, device) => addCounts(sum, device.cycles), ZERO);

  const failedRows = await db.execute<{
    id: number;
    device_serial: string;
    received_ts: Date;
    cycle_ts: Date | null;
    progressive_id: number;
    status_code: number;
  }>(sql`
    select s.id, d.device_serial, s.received_ts, s.cycle_ts, s.progressive_id, s.status_code
    from sterilizations s join devices d on d.id = s.device_id
    where ${inPeriod} and s.status_code <> ${STERILIZATION_STATUS.ok}
    order by s.received_ts, s.id
    limit ${FAILED_CYCLES_LISTED}`);
  const failed_cycles = failedRows.rows.map((row) => ({
    id: Number(row.id),
    device_serial: row.device_serial,
    received_ts: iso(row.received_ts),
    cycle_ts: row.cycle_ts === null ? null : iso(row.cycle_ts),
    progressive_id: Number(row.progressive_id),
    status_code: Number(row.status_code),
  }));

  return {
    customer,
    period,
    devices,
    totals,
    failed_cycles,
    failed_cycles_listed: failed_cycles.length,
    sequence: await sequence(
      db,
      customer.id,
      deviceRows.rows.map((row) => ({
        deviceId: Number(row.id),
        lowest: Number(row.lowest),
        highest: Number(row.highest),
      })),
      { start, endExclusive },
      inPeriod,
    ),
    lot_compliance: await lotCompliance(db, inPeriod),
    lots: await lotsUsed(db, inPeriod),
    batches: await batchUsage(db, inPeriod),
    anchoring: await anchoringCoverage(db, inPeriod, customer.enable_blockchain),
    verification_url: verificationUrl,
  };
}

type InPeriod = ReturnType<typeof sql>;
type LotStatusCounts = ComplianceSummary['lot_compliance'];

const LOT_STATUS_COLUMNS = sql`count(*) filter (where s.lot_status = 'certified') as certified,
  count(*) filter (where s.lot_status = 'expired') as expired,
  count(*) filter (where s.lot_status = 'uncertified') as uncertified,
  count(*) filter (where s.lot_status = 'no_lot') as no_lot`;

type LotStatusRow = { certified: string; expired: string; uncertified: string; no_lot: string };

const lotStatusCounts = (row: LotStatusRow | undefined): LotStatusCounts => ({
  certified: count(row?.certified),
  expired: count(row?.expired),
  uncertified: count(row?.uncertified),
  no_lot: count(row?.no_lot),
});

/** The period's records by the lot_status the lot-compliance triggers keep (certificate on the record's day). */
async function lotCompliance(db: Db, inPeriod: InPeriod): Promise<LotStatusCounts> {
  const result = await db.execute<LotStatusRow>(sql`select ${LOT_STATUS_COLUMNS} from sterilizations s
    where ${inPeriod}`);
  return lotStatusCounts(result.rows[0]);
}

/**
 * Record gaps and out-of-order records, from what ingestion keeps (device_progress_gaps and the
 * arrived_out_of_order flag: docs/adr/0023-gaps-and-arrival-order.md). A gap of a (device, owner) pair
 * lies between two stored records; it belongs to the period in which the record that ends it
 * (progressive last_missing + 1) was received. That record is one of the period's, so only the gaps
 * of the period's devices whose end lies within the device's lowest..highest progressive id of the
 * period are candidates (a range of the gaps' primary key), and each candidate is one probe of the
 * device's unique (device_id, progressive_id) index. The probe names only those two columns (the owner is
 * checked after): with the owner in it too, the planner took a (device, owner, …) index and filtered
 * the device's records for each gap on fresh, unanalysed rows (20-30 s for 10,000 gaps).
 */
async function sequence(
  db: Db,
  customerId: number,
  devices: Array<{ deviceId: number; lowest: number; highest: number }>,
  window: { start: Date; endExclusive: Date },
  inPeriod: InPeriod,
): Promise<ComplianceSummary['sequence']> {
  if (devices.length === 0) {
    return {
      missing_records: 0,
      gaps: [],
      gaps_total: 0,
      gaps_listed: 0,
      out_of_order_total: 0,
      out_of_order: [],
      out_of_order_listed: 0,
    };
  }
  const ranges = sql.join(
    devices.map((device) => sql`(${device.deviceId}::int, ${device.lowest}::int, ${device.highest}::int)`),
    sql`, `,
  );
  const [gapRows, lateTotals, lateRows] = await Promise.all([
    db.execute<{
      device_serial: string;
      first_missing: number;
      last_missing: number;
      received_ts: Date;
      gaps: string;
      missing: string;
    }>(sql`
      select d.device_serial, g.first_missing, g.last_missing, e.received_ts,
        count(*) over () as gaps, sum(g.last_missing - g.first_missing + 1) over () as missing
      from (values ${ranges}) as p(device_id, lowest, highest)
      join device_progress_gaps g on g.device_id = p.device_id and g.customer_id = ${customerId}
        and g.first_missing < p.highest and g.last_missing >= p.lowest - 1
      cross join lateral (
        select s.received_ts, s.customer_id from sterilizations s
        where s.device_id = g.device_id and s.progressive_id = g.last_missing + 1
        limit 1
      ) e
      join devices d on d.id = g.device_id
      where e.customer_id = g.customer_id
        and e.received_ts >= ${window.start.toISOString()} and e.received_ts < ${window.endExclusive.toISOString()}
      order by d.device_serial, g.first_missing
      limit ${SEQUENCE_LISTED}`),
    db.execute<{ n: string }>(
      sql`select count(*) as n from sterilizations s where ${inPeriod} and s.arrived_out_of_order`,
    ),
    db.execute<{ id: number; device_serial: string; progressive_id: number; received_ts: Date }>(sql`
      select s.id, d.device_serial, s.progressive_id, s.received_ts
      from sterilizations s join devices d on d.id = s.device_id
      where ${inPeriod} and s.arrived_out_of_order
      order by s.received_ts, s.id
      limit ${SEQUENCE_LISTED}`),
  ]);
  const gaps = gapRows.rows.map((row) => ({
    device_serial: row.device_serial,
    first_missing: Number(row.first_missing),
    last_missing: Number(row.last_missing),
    count: Number(row.last_missing) - Number(row.first_missing) + 1,
    ended_by_received_ts: iso(row.received_ts),
  }));
  const outOfOrder = lateRows.rows.map((row) => ({
    id: Number(row.id),
    device_serial: row.device_serial,
    progressive_id: Number(row.progressive_id),
    received_ts: iso(row.received_ts),
  }));
  return {
    missing_records: count(gapRows.rows[0]?.missing),
    gaps,
    gaps_total: count(gapRows.rows[0]?.gaps),
    gaps_listed: gaps.length,
    out_of_order_total: count(lateTotals.rows[0]?.n),
    out_of_order: outOfOrder,
    out_of_order_listed: outOfOrder.length,
  };
}

/**
 * Lots used in the period and their certificates. A lot's certificate is in force when one of its
 * certificates expires on or after the lot's last use in the period, expired when all expired before,
 * missing when the lot has none.
 */
async function lotsUsed(db: Db, inPeriod: InPeriod): Promise<ComplianceSummary['lots']> {
  const lots = await db.execute<
    LotStatusRow & { lot: string; cycles: string; first_used: Date; last_used: Date }
  >(sql`
    select s.consumables_lot as lot, count(*) as cycles, min(s.received_ts) as first_used,
      max(s.received_ts) as last_used, ${LOT_STATUS_COLUMNS}
    from sterilizations s
    where ${inPeriod} and s.consumables_lot is not null
    group by s.consumables_lot
    order by s.consumables_lot`);
  if (lots.rows.length === 0) return [];
  const certificates = await db.execute<{
    lot_number: string;
    validated_treatment_number: string;
    expiration_date: string;
  }>(sql`
    select lot_number, validated_treatment_number, to_char(expiration_date, 'YYYY-MM-DD') as expiration_date
    from certificates
    where lot_number in (select s.consumables_lot from sterilizations s where ${inPeriod})
    order by lot_number, expiration_date desc, validated_treatment_number`);
  return lots.rows.map((row) => {
    const own = certificates.rows
      .filter((certificate) => certificate.lot_number === row.lot)
      .map(({ validated_treatment_number, expiration_date }) => ({
        validated_treatment_number,
        expiration_date,
      }));
    const lastUsedDay = iso(row.last_used).slice(0, 10);
    const status =
      own.length === 0
        ? 'missing'
        : own.some((certificate) => certificate.expiration_date >= lastUsedDay)
          ? 'in_force'
          : 'expired';
    return {
      lot: row.lot,
      cycles: count(row.cycles),
      first_used: iso(row.first_used),
      last_used: iso(row.last_used),
      certificate_status: status,
      lot_status: lotStatusCounts(row),
      certificates: own,
    };
  });
}

/** The consumable batches the period's cycles used, with each batch's size and count so far. */
async function batchUsage(db: Db, inPeriod: InPeriod): Promise<ComplianceSummary['batches']> {
  const rows = await db.execute<{
    device_serial: string;
    lot_code: string;
    lot_progressive: number;
    cycles_in_period: string;
    batch_quantity: number | null;
    sterilization_count: number | null;
  }>(sql`
    select d.device_serial, s.consumables_lot as lot_code, s.lot_progressive_id as lot_progressive,
      count(*) as cycles_in_period, b.batch_quantity, b.sterilization_count
    from sterilizations s
    join devices d on d.id = s.device_id
    left join consumable_batches b on b.device_id = s.device_id and b.customer_id = s.customer_id
      and b.lot_code = s.consumables_lot and b.lot_progressive = s.lot_progressive_id
    where ${inPeriod} and s.consumables_lot is not null and s.lot_progressive_id is not null
    group by d.device_serial, s.consumables_lot, s.lot_progressive_id, b.batch_quantity, b.sterilization_count
    order by d.device_serial, s.consumables_lot, s.lot_progressive_id`);
  return rows.rows.map((row) => ({
    device_serial: row.device_serial,
    lot_code: row.lot_code,
    lot_progressive: Number(row.lot_progressive),
    batch_quantity: row.batch_quantity === null ? null : Number(row.batch_quantity),
    sterilization_count: row.sterilization_count === null ? null : Number(row.sterilization_count),
    cycles_in_period: count(row.cycles_in_period),
  }));
}

/**
 * How many of the period's records are anchored (in a MINED or FINAL block), waiting (a blockchain customer's
 * record not mined yet) or not anchored because the customer has no blockchain; and their blocks.
 */
async function anchoringCoverage(
  db: Db,
  inPeriod: InPeriod,
  enabled: boolean,
): Promise<ComplianceSummary['anchoring']> {
  const rows = await db.execute<{
    block_id: number | null;
    status: Schemas['BlockStatus'] | null;
    network: string | null;
    transaction_hash: string | null;
    records: string;
  }>(sql`
    select s.blockchain_data_block_id as block_id, b.status, b.network, b.transaction_hash, count(*) as records
    from sterilizations s left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
    where ${inPeriod}
    group by s.blockchain_data_block_id, b.status, b.network, b.transaction_hash
    order by s.blockchain_data_block_id nulls last`);
  let anchored = 0;
  let waiting = 0;
  let notEnabled = 0;
  const blocks: ComplianceSummary['anchoring']['blocks'] = [];
  for (const row of rows.rows) {
    const records = count(row.records);
    if (row.block_id === null || row.status === null) {
      if (enabled) waiting += records;
      else notEnabled += records;
      continue;
    }
    if (row.status === 'MINED' || row.status === 'FINAL') anchored += records;
    else waiting += records;
    blocks.push({
      id: Number(row.block_id),
      status: row.status,
      network: row.network,
      transaction_hash: row.transaction_hash,
      records,
    });
  }
  return { anchored, waiting, not_enabled: notEnabled, blocks };
}
