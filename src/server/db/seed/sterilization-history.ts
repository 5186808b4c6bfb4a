// The sterilization history of the demo devices: realistic records over the last HISTORY_DAYS days
// (working hours, status codes, lamp wear, consumable lots, GPS near the clinic), every value from the
// caller's seeded PRNG, written in batches of one statement each. The demo seed uses it for its
// default records; the benches use it, through the same seed, for millions.
import type { PoolClient } from 'pg';
import { lotStatusOf } from '#server/modules/sterilizations/lot-flag-counts.ts';
import { type SeedToken, type TokenSigner, tokenRecords } from './device-tokens.ts';

export const DAY_MS = 86_400_000;
/** Records span this many days before today. */
export const HISTORY_DAYS = 120;
const INSERT_BATCH_ROWS = 5_000;

const NOTES = [
  'Ciclo ripetuto su richiesta del medico',
  'Manutenzione programmata eseguita',
  'Manicotto sostituito prima del ciclo',
  'Sleeve replaced before cycle',
  'Operatore: verifica visiva OK',
  'Cycle started after lamp warm-up',
];
const NOTE_BY_STATUS: Record<number, string> = {
  1: 'Ciclo annullato dall’operatore',
  2: 'Lamp malfunction detected',
  3: 'Probe malfunction detected',
};

/** Consumable lot n → code and progressive: 20 sleeve batches per lot code. */
export function lotOf(n: number): { code: string; progressive: number } {
  return { code: `L2026-${String(Math.floor(n / 20) % 1000).padStart(3, '0')}`, progressive: (n % 20) + 1 };
}

/** One device's history to generate, and its current consumable batch. */
export interface DevicePlan {
  device: { id: number; customerId: number; productType: 1 | 2 };
  /**
   * Where the device works (records carry GPS near it); a disabled clinic stopped sending records when
   * it was disabled, 60 days ago.
   */
  clinic: { lat: number; lon: number; disabled: boolean };
  /** The current batch's size and the cycles on it. */
  quantity: number;
  count: number;
  /** The current batch's lot number (lotOf); older batches have the numbers below it. */
  base: number;
}

/**
 * The demo shows what the gap and order checks find (docs/adr/0023-gaps-and-arrival-order.md): the first
 * active clinic's device skips DEMO_GAP_SIZE progressive ids halfway through its history, and the
 * second one's next-to-last record arrives after its last (their progressive ids swapped). Streams
 * shorter than DEMO_ANOMALY_MIN_RECORDS keep a clean sequence.
 */
export const DEMO_GAP_SIZE = 3;
const DEMO_ANOMALY_MIN_RECORDS = 10;

function demoProgressive(stream: Stream, anomaly: 'gap' | 'late' | null): number {
  const { firstProgressive: first, i, n } = stream;
  if (anomaly === 'gap') return first + i + (i >= Math.floor(n / 2) ? DEMO_GAP_SIZE : 0);
  if (anomaly === 'late' && i === n - 3) return first + i + 1;
  if (anomaly === 'late' && i === n - 2) return first + i - 1;
  return first + i;
}

/** Per-device stream of records in time order; streams are merged so ids grow with time. */
interface Stream {
  plan: DevicePlan;
  n: number;
  i: number;
  firstProgressive: number;
  startMs: number;
  spanMs: number;
  nextTs: number;
  lampLife: number;
  lat: number;
  lon: number;
  /** The highest progressive id generated so far. */
  highest: number;
}

const WORK_START_MS = 7 * 3_600_000; // 07:00 UTC
const WORK_SPAN_MS = 11 * 3_600_000; // until 18:00 UTC

/** One generated record, its values as the database reads them back (numbers at their column scale). */
export interface HistoryRow {
  deviceId: number;
  /** The record's owner: the device's customer, as ingestion stores it. */
  customerId: number;
  receivedTs: string;
  progressiveId: number;
  suppliedEnergy: string;
  nominalTime: string;
  effectiveTime: string;
  residualLampLife: string;
  statusCode: number;
  latitude: string | null;
  longitude: string | null;
  consumablesLot: string;
  lotProgressiveId: number;
  notes: string | null;
  /**
   * Stored after a record of its device and owner with a higher progressive id (what the progress
   * trigger, or sterilizations_flag_late_arrivals, would flag), given that ids grow in generation order.
   */
  arrivedOutOfOrder: boolean;
}

/**
 * total records spread over the plans' devices, in time order per device and ids growing with time,
 * generated one at a time (the caller stores them in generation order).
 * anchor: today 00:00 UTC; records stop at the end of yesterday.
 */
export function* sterilizationHistoryRows(
  rand: () => number,
  plans: DevicePlan[],
  total: number,
  anchor: number,
): Generator<HistoryRow> {
  if (total === 0 || plans.length === 0) return;
  // The disabled clinic stopped sending records when it was disabled, 60 days ago.
  const weights = plans.map((p) => (p.clinic.disabled ? 0.2 : 0.6 + rand() * 0.9));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((total * w) / weightSum));
  let remainder = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; remainder > 0; i = (i + 1) % counts.length, remainder--) counts[i]!++;

  // Working time only (Mon–Sat, 07–18 UTC): a position on that axis maps monotonically to a date.
  const workDays: number[] = [];
  for (let d = HISTORY_DAYS; d >= 1; d--) {
    const day = anchor - d * DAY_MS;
    if (new Date(day).getUTCDay() !== 0) workDays.push(day);
  }
  const toTimestamp = (workMs: number) => {
    const index = Math.min(workDays.length - 1, Math.floor(workMs / WORK_SPAN_MS));
    return workDays[index]! + WORK_START_MS + (workMs - index * WORK_SPAN_MS);
  };
  // Records stop at the end of yesterday, so the rows depend on the day only, not the hour.
  const endWorkMs = workDays.length * WORK_SPAN_MS;
  const disabledEnd = (workDays.length - 60) * WORK_SPAN_MS;

  const streams: Stream[] = plans.map((plan, k) => {
    const { clinic } = plan;
    const end = clinic.disabled ? disabledEnd : endWorkMs;
    const stream: Stream = {
      plan,
      n: counts[k]!,
      i: 0,
      firstProgressive: 1 + Math.floor(rand() * 800),
      startMs: 0,
      spanMs: Math.max(1, end - 1),
      nextTs: 0,
      lampLife: 6000 + rand() * 3000,
      lat: clinic.lat,
      lon: clinic.lon,
      highest: Number.NEGATIVE_INFINITY,
    };
    stream.nextTs = streamTs(stream, rand);
    return stream;
  });

  const demoStreams = streams.filter((s) => !s.plan.clinic.disabled && s.n >= DEMO_ANOMALY_MIN_RECORDS);
  const anomalyOf = (stream: Stream) =>
    stream === demoStreams[0] ? 'gap' : stream === demoStreams[1] ? 'late' : null;

  const live = streams.filter((s) => s.n > 0);
  while (live.length > 0) {
    let k = 0;
    for (let j = 1; j < live.length; j++) if (live[j]!.nextTs < live[k]!.nextTs) k = j;
    const s = live[k]!;
    const { plan } = s;
    const isPlug = plan.device.productType === 1;
    const r = rand();
    const status = r < 0.92 ? 0 : r < 0.96 ? 1 : r < 0.98 ? 2 : 3;
    const nominal = isPlug ? (rand() < 0.85 ? 5 : 10) : 10;
    const effective =
      status === 0
        ? nominal * (0.97 + rand() * 0.03)
        : status === 1
          ? nominal * (0.1 + rand() * 0.6)
          : nominal * rand();
    const energy = (isPlug ? 250 : 300) + rand() * 100;
    s.lampLife -= effective / 60;
    if (s.lampLife < 50) s.lampLife = 9000 + rand() * 1000; // lamp replaced
    // The last `count` records use the device's current batch; earlier ones older batches.
    const fromEnd = s.n - 1 - s.i;
    const lot = lotOf(
      fromEnd < plan.count ? plan.base : plan.base - 1 - Math.floor((fromEnd - plan.count) / plan.quantity),
    );
    const noteRoll = rand();
    const gps = rand() > 0.03;
    const progressiveId = demoProgressive(s, anomalyOf(s));
    const arrivedOutOfOrder = progressiveId < s.highest;
    if (progressiveId > s.highest) s.highest = progressiveId;

    yield {
      deviceId: plan.device.id,
      customerId: plan.device.customerId,
      receivedTs: new Date(s.nextTs).toISOString(),
      progressiveId,
      suppliedEnergy: (status === 2 ? energy * 0.4 : energy).toFixed(2),
      nominalTime: nominal.toFixed(2),
      effectiveTime: Math.min(nominal, effective).toFixed(2),
      residualLampLife: s.lampLife.toFixed(2),
      statusCode: status,
      latitude: gps ? (s.lat + (rand() - 0.5) * 0.01).toFixed(6) : null,
      longitude: gps ? (s.lon + (rand() - 0.5) * 0.01).toFixed(6) : null,
      consumablesLot: lot.code,
      lotProgressiveId: lot.progressive,
      notes:
        status !== 0 && noteRoll < 0.6
          ? NOTE_BY_STATUS[status]!
          : noteRoll < 0.03
            ? NOTES[Math.floor(rand() * NOTES.length)]!
            : null,
      arrivedOutOfOrder,
    };

    s.i++;
    if (s.i >= s.n) live.splice(k, 1);
    else s.nextTs = streamTs(s, rand);
  }

  function streamTs(stream: Stream, random: () => number): number {
    // Evenly spaced slots with jitter inside each slot: strictly increasing per device.
    const slot = stream.spanMs / stream.n;
    return Math.floor(toTimestamp(stream.startMs + (stream.i + random()) * slot));
  }
}

/**
 * Stores the history (sterilizationHistoryRows) with the table's triggers at work, in batches of one
 * INSERT … SELECT FROM unnest each: what the demo seed and PGlite use. The caller defers the per-record
 * bookkeeping (deferDailyOkCounts, deferDeviceProgress, supplyLotStatus) and rebuilds it afterwards.
 */
export async function insertSterilizationHistory(
  client: PoolClient,
  /** The records in their devices' tokens (deviceTokenGroups), each signed here with its device's key. */
  groups: Iterable<HistoryRow[]>,
  signer: TokenSigner,
): Promise<void> {
  const tokens: SeedToken[] = [];
  const tokenColumns = {
    token: [] as SeedToken[],
    position: [] as number[],
    cycleTs: [] as string[],
    tokenId: [] as string[],
  };
  const columns = {
    deviceId: [] as number[],
    customerId: [] as number[],
    receivedTs: [] as string[],
    progressiveId: [] as number[],
    suppliedEnergy: [] as string[],
    nominalTime: [] as string[],
    effectiveTime: [] as string[],
    residualLampLife: [] as string[],
    statusCode: [] as number[],
    latitude: [] as (string | null)[],
    longitude: [] as (string | null)[],
    consumablesLot: [] as string[],
    lotProgressiveId: [] as number[],
    notes: [] as (string | null)[],
  };
  const flush = async () => {
    if (columns.deviceId.length === 0) return;
    // The batch's tokens first, with ids taken from their sequence in order, so that the records can
    // name theirs (and a COPY load of the same history gives the same ids).
    const { rows: ids } = await client.query<{ id: string }>(
      `SELECT nextval(pg_get_serial_sequence('device_tokens', 'id'))::text AS id FROM generate_series(1, $1)`,
      [tokens.length],
    );
    const tokenIds = ids.map((row) => BigInt(row.id)).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    await client.query(
      `INSERT INTO device_tokens (id, device_id, key_event_id, jws, sha256, issued_at, received_at)
       SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[])`,
      [
        tokenIds.map(String),
        tokens.map((token) => token.deviceId),
        tokens.map((token) => token.keyEventId),
        tokens.map((token) => token.jws),
        tokens.map((token) => token.sha256),
        tokens.map((token) => token.issuedAt),
        tokens.map((token) => token.issuedAt),
      ],
    );
    const idOf = new Map(tokens.map((token, i) => [token, String(tokenIds[i])]));
    tokenColumns.tokenId.push(...tokenColumns.token.map((token) => idOf.get(token) as string));
    tokens.length = 0;
    // One statement per batch with one array parameter per column: parsing stays cheap and the
    // parameter count does not grow with the batch.
    await client.query(
      `INSERT INTO sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot,
         lot_progressive_id, notes, created_at, lot_status, token_id, token_position, cycle_ts)
       SELECT u.device_id, u.customer_id, u.received_ts, u.progressive_id, u.supplied_energy, u.nominal_time, u.effective_time,
         u.residual_lamp_life, u.status_code, u.latitude, u.longitude, u.consumables_lot, u.lot_progressive_id,
         u.notes, u.received_ts, ${lotStatusOf('u.consumables_lot', 'u.received_ts', 'c.best')},
         u.token_id, u.token_position, u.cycle_ts
       FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::int[], $5::numeric[], $6::numeric[], $7::numeric[],
         $8::numeric[], $9::int[], $10::numeric[], $11::numeric[], $12::text[], $13::int[], $14::text[],
         $15::smallint[], $16::timestamptz[], $17::bigint[])
         AS u(device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time, effective_time,
           residual_lamp_life, status_code, latitude, longitude, consumables_lot, lot_progressive_id, notes,
           token_position, cycle_ts, token_id)
       -- The writer supplies the lot status (supplyLotStatus): the certificates' latest expiration per lot.
       LEFT JOIN (SELECT lot_number, max(expiration_date) AS best FROM certificates GROUP BY lot_number) c
         ON c.lot_number = u.consumables_lot`,
      [...Object.values(columns), tokenColumns.position, tokenColumns.cycleTs, tokenColumns.tokenId],
    );
    for (const column of [...Object.values(columns), ...Object.values(tokenColumns)]) column.length = 0;
  };

  for (const group of groups) {
    const token = signer.sign(group);
    tokens.push(token);
    for (const row of tokenRecords(group, token)) {
      tokenColumns.token.push(token);
      tokenColumns.position.push(row.position);
      tokenColumns.cycleTs.push(row.cycleTs);
      columns.deviceId.push(row.deviceId);
      columns.customerId.push(row.customerId);
      columns.receivedTs.push(row.receivedTs);
      columns.progressiveId.push(row.progressiveId);
      columns.suppliedEnergy.push(row.suppliedEnergy);
      columns.nominalTime.push(row.nominalTime);
      columns.effectiveTime.push(row.effectiveTime);
      columns.residualLampLife.push(row.residualLampLife);
      columns.statusCode.push(row.statusCode);
      columns.latitude.push(row.latitude);
      columns.longitude.push(row.longitude);
      columns.consumablesLot.push(row.consumablesLot);
      columns.lotProgressiveId.push(row.lotProgressiveId);
      columns.notes.push(row.notes);
    }
    // A token's records go in one batch, with their token.
    if (columns.deviceId.length >= INSERT_BATCH_ROWS) await flush();
  }
  await flush();
}
