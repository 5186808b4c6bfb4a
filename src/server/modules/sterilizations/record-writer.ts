/**
 * Ingestion's writes, gathered (docs/adr/0008-ingestion-writes.md).
 * A request whose token is verified hands its records to the writer; while as many writes as allowed
 * are under way (one on the embedded database), the requests that arrive wait and are then stored
 * together: one statement for all their records, one read of their answers, one publication of their
 * live events. An idle server writes at once, as a request of its own did; a busy one pays a statement,
 * a commit and a round trip per write instead of per request (the embedded database's single
 * connection queues every round trip).
 *
 * Each request keeps its own guarantees: its records are stored all or none (the statement is atomic),
 * a record sent before is neither stored nor counted again and answers its stored id, and a device's
 * requests are stored in the order they arrived (one request per device in a write; the next waits for
 * the following write). A write that fails is retried request by request, so one request's failure
 * (or a deadlock with another write) fails that request only.
 */
import { sql } from 'drizzle-orm';
import { idArray } from '#server/db/array-parameter.ts';
import type { Db } from '#server/db/client.ts';
import { publishEvents } from '#server/event-bus/publish.ts';
import type { PublishedEvent } from '#server/event-bus/published-event.ts';
import type { Sterilization } from '#shared/api/index.ts';
import { DEFAULT_BATCH_QUANTITY, type SterilizationClaim } from '#shared/ingestion/claims.ts';
import {
  STERILIZATION_FROM,
  STERILIZATION_SELECT,
  type SterilizationRow,
  sterilizationView,
} from './view.ts';

/** A stored record: its id, and its owner when this write stored it (null: it was sent before). */
export type StoredRecord = { id: number; newOwner: number | null };

/** The token a request's records came in, kept verbatim with them (device_tokens). */
export interface SignedToken {
  /** The compact JWS exactly as posted. */
  jws: string;
  /** SHA-256 of the JWS's ASCII bytes, lowercase hex. */
  sha256: string;
  /** Its `iat`, seconds. */
  issuedAt: number;
  /** The key event whose key verified it. */
  keyEventId: number;
}

/** One request's part of a write: a device's verified records, in the token's order, and the token. */
export interface WriteRequest {
  deviceId: number;
  records: SterilizationClaim[];
  token: SignedToken;
}

export interface WriteResult {
  stored: StoredRecord[];
  /** The records as the API answers them, in progressive id order. */
  answer: Sterilization[];
}

export interface RecordWriter {
  write(request: WriteRequest): Promise<WriteResult>;
}

/** Records in one write at most: one statement stays short, and a NOTIFY payload small. */
const MAX_RECORDS_PER_WRITE = 2_000;

/**
 * Stores the records of several requests (one per device) in one statement, and counts them in their
 * consumable batches. The record's owner (and its batch's) is the device's customer as this statement
 * reads it: the owner at reception (docs/adr/0010-record-owner.md).
 *
 * The devices' rows are locked first, in id order, and held to the end of the statement: a device's
 * records are stored one write after the other, and the gap trigger (migration 0009) finds its
 * progress row free; two writes lock their common devices in the same order. Records go in by owner,
 * then device, then the token's order, so two writes take the owners' daily-count rows (moved by the
 * insert trigger) in the same order too.
 */
async function storeAll(
  db: Db,
  requests: WriteRequest[],
  clockSkewSeconds: number,
): Promise<StoredRecord[][]> {
  // One token per request, and one request per device in a write: the device names its token.
  const tokens = requests.map(({ deviceId, token }) => ({
    device_id: deviceId,
    key_event_id: token.keyEventId,
    jws: token.jws,
    sha256: token.sha256,
    issued_at: new Date(token.issuedAt * 1000).toISOString(),
  }));
  const rows = requests.flatMap(({ deviceId, records }) =>
    records.map((record, ord) => ({
      device_id: deviceId,
      ord,
      progressive_id: record.progressive_id,
      supplied_energy: record.supplied_energy,
      nominal_time: record.nominal_time,
      effective_time: record.effective_time,
      residual_lamp_life: record.residual_lamp_life,
      status_code: record.status_code,
      latitude: record.latitude ?? null,
      longitude: record.longitude ?? null,
      consumables_lot: record.consumables_lot ?? null,
      lot_progressive_id: record.lot_progressive_id ?? null,
      notes: record.notes ?? null,
      cycle_ts: record.cycle_ts ?? null,
      batch_quantity: record.batch_quantity ?? DEFAULT_BATCH_QUANTITY,
      // A record counts in a batch when it names a lot and its progressive.
      counts:
        Boolean(record.consumables_lot) &&
        record.lot_progressive_id !== null &&
        record.lot_progressive_id !== undefined,
    })),
  );
  // Numbers travel as JSON numbers (the same decimal text a parameter would carry) and are cast to the
  // columns' types by the insert, as parameters are.
  const inserted = await db.execute<{
    id: string;
    device_id: number;
    customer_id: number;
    progressive_id: number;
  }>(sql`
    with incoming as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        device_id integer, ord integer, progressive_id integer, supplied_energy numeric, nominal_time numeric,
        effective_time numeric, residual_lamp_life numeric, status_code integer, latitude numeric,
        longitude numeric, consumables_lot text, lot_progressive_id integer, notes text,
        cycle_ts timestamptz, batch_quantity integer, counts boolean)),
    signed as (
      select * from jsonb_to_recordset(${JSON.stringify(tokens)}::jsonb) as t(
        device_id integer, key_event_id integer, jws text, sha256 text, issued_at timestamptz)),
    locked as materialized (
      select id, customer_id from devices where id in (select device_id from incoming)
      order by id
      for no key update),
    kept as (
      -- Refused by the table's trigger when the verifying key left its slot meanwhile (key-history.ts).
      insert into device_tokens (device_id, key_event_id, jws, sha256, issued_at)
      select t.device_id, t.key_event_id, t.jws, t.sha256, t.issued_at
      from signed t join locked d on d.id = t.device_id
      order by t.device_id
      returning id, device_id, issued_at),
    stored as (
      insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
        effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot, lot_progressive_id, notes,
        cycle_ts, clock_suspect, token_id, token_position)
      select d.id, d.customer_id, now(), i.progressive_id, i.supplied_energy, i.nominal_time, i.effective_time,
        i.residual_lamp_life, i.status_code, i.latitude, i.longitude, i.consumables_lot, i.lot_progressive_id, i.notes,
        i.cycle_ts,
        coalesce(i.cycle_ts > least(now(), k.issued_at) + make_interval(secs => ${clockSkewSeconds}), false),
        k.id, i.ord
      from incoming i join locked d on d.id = i.device_id join kept k on k.device_id = i.device_id
      order by d.customer_id, d.id, i.ord
      on conflict (device_id, progressive_id) do nothing
      returning id, device_id, customer_id, progressive_id),
    counted as (
      insert into consumable_batches (device_id, customer_id, lot_code, lot_progressive, batch_quantity,
        sterilization_count)
      -- A new batch takes the batch_quantity of its first record in the token, as one record at a time did.
      select s.device_id, s.customer_id, i.consumables_lot, i.lot_progressive_id,
        (array_agg(i.batch_quantity order by i.ord))[1], count(*)
      from stored s join incoming i on i.device_id = s.device_id and i.progressive_id = s.progressive_id
      where i.counts
      group by s.device_id, s.customer_id, i.consumables_lot, i.lot_progressive_id
      order by s.device_id, i.consumables_lot, i.lot_progressive_id
      on conflict (device_id, customer_id, lot_code, lot_progressive)
      do update set sterilization_count = consumable_batches.sterilization_count + excluded.sterilization_count,
        updated_at = now())
    select id, device_id, customer_id, progressive_id from stored`);
  const key = (deviceId: number, progressiveId: number) => `${deviceId}:${progressiveId}`;
  const ids = new Map<string, StoredRecord>(
    inserted.rows.map((row) => [
      key(row.device_id, row.progressive_id),
      { id: Number(row.id), newOwner: Number(row.customer_id) },
    ]),
  );
  if (ids.size < rows.length) {
    // Sent before: read by a statement of its own, whose snapshot also sees a copy that a concurrent
    // request committed while this one waited on it.
    const missing = rows.filter((row) => !ids.has(key(row.device_id, row.progressive_id)));
    const existing = await db.execute<{ id: string; device_id: number; progressive_id: number }>(sql`
      select s.id, s.device_id, s.progressive_id
      from unnest(${idArray(missing.map((row) => row.device_id))}::integer[],
        ${idArray(missing.map((row) => row.progressive_id))}::integer[]) as m(device_id, progressive_id)
      join sterilizations s on s.device_id = m.device_id and s.progressive_id = m.progressive_id`);
    for (const row of existing.rows)
      ids.set(key(row.device_id, row.progressive_id), { id: Number(row.id), newOwner: null });
  }
  return requests.map(({ deviceId, records }) =>
    records.map((record) => ids.get(key(deviceId, record.progressive_id)) as StoredRecord),
  );
}

/** The answers of a write's requests: one read for all, split by request. */
async function answersOf(db: Db, stored: StoredRecord[][]): Promise<Sterilization[][]> {
  const ids = stored.flat().map((record) => record.id);
  const rows = await db.execute<SterilizationRow>(
    // The ids as one array parameter: the same text for every answer, so a prepared statement's plan serves them all.
    sql`select ${STERILIZATION_SELECT} from ${STERILIZATION_FROM} where s.id = any(${idArray(ids)}::bigint[]) order by s.progressive_id`,
  );
  const byId = new Map(rows.rows.map((row) => [Number(row.id), sterilizationView(row)]));
  return stored.map((records) =>
    records
      .map((record) => byId.get(record.id) as Sterilization)
      .sort((a, b) => a.progressive_id - b.progressive_id),
  );
}

/** One live event per request and owner, for the records it stored (a resent record is not news). */
function newRecordEvents(requests: WriteRequest[], stored: StoredRecord[][]): PublishedEvent[] {
  return requests.flatMap(({ deviceId }, i) => {
    // One owner in practice; two only if the device was reassigned between two writes of its records.
    const byOwner = new Map<number, number[]>();
    for (const { id, newOwner } of stored[i] ?? []) {
      if (newOwner !== null) byOwner.set(newOwner, [...(byOwner.get(newOwner) ?? []), id]);
    }
    return [...byOwner].map(([customerId, recordIds]) => ({
      type: 'record.created' as const,
      customerId,
      deviceId,
      recordIds,
    }));
  });
}

/** Stores, reads the answers and publishes the events of these requests together. */
async function writeTogether(
  db: Db,
  requests: WriteRequest[],
  clockSkewSeconds: number,
): Promise<WriteResult[]> {
  const stored = await storeAll(db, requests, clockSkewSeconds);
  // Not awaited: an answer never waits for its live event, and publishing never fails.
  void publishEvents(db, newRecordEvents(requests, stored));
  const answers = await answersOf(db, stored);
  return requests.map((_, i) => ({ stored: stored[i] ?? [], answer: answers[i] ?? [] }));
}

type Waiting = {
  request: WriteRequest;
  resolve: (result: WriteResult) => void;
  reject: (error: unknown) => void;
};

/**
 * `concurrentWrites`: writes under way at once. One on the embedded database (its single connection
 * would only queue a second write, which then gathers nothing); a few on a PostgreSQL server, whose
 * connections work in parallel, so that a write slowed by a busy machine does not hold every device.
 */
export function createRecordWriter(
  db: Db,
  options: {
    concurrentWrites: number;
    /** A cycle time later than its arrival or its token's iat by more than this marks a suspect clock. */
    deviceClockSkewSeconds: number;
  },
): RecordWriter {
  const queue: Waiting[] = [];
  /** Devices with a request in a write under way: their next request waits for it (arrival order). */
  const writingDevices = new Set<number>();
  let writes = 0;

  /** The next write's requests: in arrival order, one per device, up to the record limit. */
  function nextWrite(): Waiting[] {
    const taken: Waiting[] = [];
    const devices = new Set<number>();
    let records = 0;
    for (let i = 0; i < queue.length; ) {
      const waiting = queue[i] as Waiting;
      const { deviceId } = waiting.request;
      const size = waiting.request.records.length;
      if (
        devices.has(deviceId) ||
        writingDevices.has(deviceId) ||
        (taken.length > 0 && records + size > MAX_RECORDS_PER_WRITE)
      ) {
        i++;
        continue;
      }
      devices.add(deviceId);
      records += size;
      taken.push(waiting);
      queue.splice(i, 1);
    }
    return taken;
  }

  async function write(batch: Waiting[]): Promise<void> {
    try {
      const results = await writeTogether(
        db,
        batch.map((waiting) => waiting.request),
        options.deviceClockSkewSeconds,
      );
      for (const [i, waiting] of batch.entries()) waiting.resolve(results[i] as WriteResult);
    } catch (error) {
      if (batch.length === 1) (batch[0] as Waiting).reject(error);
      // One request's failure (or a deadlock with another write) must not fail the others.
      else
        for (const waiting of batch)
          await writeTogether(db, [waiting.request], options.deviceClockSkewSeconds).then(
            ([result]) => waiting.resolve(result as WriteResult),
            waiting.reject,
          );
    }
  }

  function startWrites(): void {
    while (writes < options.concurrentWrites) {
      const batch = nextWrite();
      if (batch.length === 0) return;
      writes += 1;
      for (const waiting of batch) writingDevices.add(waiting.request.deviceId);
      void write(batch).finally(() => {
        writes -= 1;
        for (const waiting of batch) writingDevices.delete(waiting.request.deviceId);
        startWrites();
      });
    }
  }

  return {
    write(request) {
      return new Promise<WriteResult>((resolve, reject) => {
        queue.push({ request, resolve, reject });
        startWrites();
      });
    },
  };
}
