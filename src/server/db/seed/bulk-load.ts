// Millions of seed records on a PostgreSQL server
// (docs/adr/0027-ten-million-records-without-partitioning.md): the history goes in through COPY … FROM STDIN,
// with the table's secondary indexes, foreign keys and row triggers off while it loads, then the indexes are
// rebuilt and the foreign keys checked once each, and the bookkeeping the triggers keep is rebuilt from the
// records. Everything runs inside the seed's own transaction, so a failure leaves the database as it was.
import type { PoolClient } from 'pg';
import { type TokenSigner, tokenRecords } from './device-tokens.ts';
import { signedInParallel } from './parallel-signing.ts';
import type { HistoryRow } from './sterilization-history.ts';

/** The part of pg's connection (lib/connection.js) a COPY FROM STDIN drives; its typings omit it. */
interface CopyConnection {
  query(text: string): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
  stream: NodeJS.WritableStream;
}

/** Characters of COPY text sent per CopyData message. */
const COPY_CHUNK_CHARS = 256 * 1024;

/**
 * A COPY … FROM STDIN statement fed from `source` (text in COPY's text format, any chunking), as a pg
 * "submittable": pg has the protocol messages but no stream API of its own for them. Resolves with
 * the number of rows copied.
 */
export function copyFromStdin(
  client: PoolClient,
  sql: string,
  source: Iterable<string> | AsyncIterable<string>,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let failed: Error | undefined;
    let rows = 0;
    client.query({
      submit(connection: CopyConnection) {
        connection.query(sql);
      },
      async handleCopyInResponse(connection: CopyConnection) {
        const { stream } = connection;
        try {
          for await (const chunk of source) {
            if (failed) return;
            if (!stream.write(copyData(chunk))) await new Promise((drained) => stream.once('drain', drained));
          }
          if (!failed) connection.endCopyFrom();
        } catch (error) {
          // The source threw: the server drops what it got and answers with an error.
          failed = error instanceof Error ? error : new Error(String(error));
          connection.sendCopyFail(failed.message);
        }
      },
      handleCommandComplete(message: { text: string }) {
        rows = Number(/\d+$/.exec(message.text)?.[0] ?? 0);
      },
      handleError(error: Error) {
        failed ??= error;
        reject(failed);
      },
      handleReadyForQuery() {
        if (failed) reject(failed);
        else resolve(rows);
      },
      // Not sent for COPY FROM; pg calls them only for the messages they are named after.
      handleRowDescription() {},
      handleDataRow() {},
      handleEmptyQuery() {},
      handlePortalSuspended() {},
      handleCopyData() {},
    } as unknown as Parameters<PoolClient['query']>[0] & { submit: () => void });
  });
}

/** A CopyData protocol message ('d', length, bytes). */
function copyData(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const message = Buffer.allocUnsafe(5 + length);
  message[0] = 0x64;
  message.writeInt32BE(4 + length, 1);
  message.write(text, 5);
  return message;
}

/** A value in COPY's text format: \N for null, backslash escapes for the characters that need them. */
export function copyText(value: string | number | boolean | null): string {
  if (value === null) return '\\N';
  if (typeof value !== 'string') return String(value);
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) =>
        c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
      )
    : value;
}

/**
 * The status the lot-status trigger would give a record (lot_status_on): `bestExpiration` is the lot's
 * latest certificate expiration as YYYY-MM-DD (undefined: no certificate), `receivedTs` an ISO time in UTC.
 */
export function lotStatusFor(
  lot: string | null,
  receivedTs: string,
  bestExpiration: string | undefined,
): string {
  if (lot === null || lot === '') return 'no_lot';
  if (bestExpiration === undefined) return 'uncertified';
  return receivedTs.slice(0, 10) <= bestExpiration ? 'certified' : 'expired';
}

const COPY_COLUMNS = [
  'device_id',
  'customer_id',
  'received_ts',
  'progressive_id',
  'supplied_energy',
  'nominal_time',
  'effective_time',
  'residual_lamp_life',
  'status_code',
  'latitude',
  'longitude',
  'consumables_lot',
  'lot_progressive_id',
  'notes',
  'arrived_out_of_order',
  'lot_status',
  'created_at',
  'token_id',
  'token_position',
  'cycle_ts',
];

/** A record as loaded: in its token (by id), at its position, with its device's cycle time. */
type LoadRow = HistoryRow & { token: number; position: number; cycleTs: string };

/**
 * What the triggers that are off during the load would have kept, tallied from the rows as they go by:
 * the daily record and OK counts, the flagged records per lot and each (device, owner) pair's progressive ids.
 */
class Tally {
  readonly dayCounts = new Map<string, { customerId: number; day: string; ok: number; all: number }>();
  readonly flagged = new Map<string, { customerId: number; lot: string; count: number }>();
  readonly pairs = new Map<
    string,
    { deviceId: number; customerId: number; ids: number[]; outOfOrder: number }
  >();

  add(r: HistoryRow, lotStatus: string): void {
    const day = r.receivedTs.slice(0, 10);
    const dayKey = `${r.customerId}|${day}`;
    let counts = this.dayCounts.get(dayKey);
    if (!counts) {
      counts = { customerId: r.customerId, day, ok: 0, all: 0 };
      this.dayCounts.set(dayKey, counts);
    }
    counts.all++;
    if (r.statusCode === 0) counts.ok++;
    if (lotStatus === 'uncertified' || lotStatus === 'expired') {
      const key = `${r.customerId}|${r.consumablesLot}`;
      const entry = this.flagged.get(key);
      if (entry) entry.count++;
      else this.flagged.set(key, { customerId: r.customerId, lot: r.consumablesLot, count: 1 });
    }
    const key = `${r.deviceId}|${r.customerId}`;
    let pair = this.pairs.get(key);
    if (!pair) {
      pair = { deviceId: r.deviceId, customerId: r.customerId, ids: [], outOfOrder: 0 };
      this.pairs.set(key, pair);
    }
    pair.ids.push(r.progressiveId);
    if (r.arrivedOutOfOrder) pair.outOfOrder++;
  }

  /**
   * Replaces the kept tables' rows with the tally, as recountDailyOkCounts, device_progress_rebuild
   * and recountLotFlagCounts would from the records (seed.test.ts compares the two).
   */
  async store(client: PoolClient): Promise<void> {
    await client.query(
      `lock table sterilization_daily_ok_counts, lot_flag_counts, device_progress, device_progress_gaps
         in exclusive mode`,
    );
    await client.query(
      'delete from sterilization_daily_ok_counts; delete from lot_flag_counts; delete from device_progress; delete from device_progress_gaps',
    );
    const days = [...this.dayCounts.values()];
    await client.query(
      `insert into sterilization_daily_ok_counts (customer_id, day, ok_count, record_count)
         select * from unnest($1::int[], $2::date[], $3::int[], $4::int[])`,
      [days.map((e) => e.customerId), days.map((e) => e.day), days.map((e) => e.ok), days.map((e) => e.all)],
    );
    const flagged = [...this.flagged.values()];
    await client.query(
      `insert into lot_flag_counts (customer_id, consumables_lot, flagged)
         select * from unnest($1::int[], $2::text[], $3::int[])`,
      [flagged.map((e) => e.customerId), flagged.map((e) => e.lot), flagged.map((e) => e.count)],
    );
    const progress: number[][] = [[], [], [], [], [], []];
    const gaps: number[][] = [[], [], [], []];
    for (const pair of this.pairs.values()) {
      const ids = Int32Array.from(pair.ids).sort();
      const lowest = ids[0]!;
      const highest = ids[ids.length - 1]!;
      for (let i = 1; i < ids.length; i++) {
        if (ids[i]! > ids[i - 1]! + 1) {
          gaps[0]!.push(pair.deviceId);
          gaps[1]!.push(pair.customerId);
          gaps[2]!.push(ids[i - 1]! + 1);
          gaps[3]!.push(ids[i]! - 1);
        }
      }
      const row = [
        pair.deviceId,
        pair.customerId,
        lowest,
        highest,
        highest - lowest + 1 - ids.length,
        pair.outOfOrder,
      ];
      for (const [k, value] of row.entries()) progress[k]!.push(value);
    }
    await client.query(
      `insert into device_progress (device_id, customer_id, min_progressive_id, max_progressive_id,
           missing_count, out_of_order_count)
         select * from unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::bigint[], $6::int[])`,
      progress,
    );
    await client.query(
      `insert into device_progress_gaps (device_id, customer_id, first_missing, last_missing)
         select * from unnest($1::int[], $2::int[], $3::int[], $4::int[])`,
      gaps,
    );
  }
}

function* copyLines(rows: Iterable<LoadRow>, best: Map<string, string>, tally: Tally): Generator<string> {
  let chunk = '';
  for (const r of rows) {
    const lotStatus = lotStatusFor(r.consumablesLot, r.receivedTs, best.get(r.consumablesLot));
    tally.add(r, lotStatus);
    chunk += `${r.deviceId}\t${r.customerId}\t${r.receivedTs}\t${r.progressiveId}\t${r.suppliedEnergy}\t${r.nominalTime}\t${r.effectiveTime}\t${r.residualLampLife}\t${r.statusCode}\t${copyText(r.latitude)}\t${copyText(r.longitude)}\t${copyText(r.consumablesLot)}\t${r.lotProgressiveId}\t${copyText(r.notes)}\t${r.arrivedOutOfOrder ? 't' : 'f'}\t${lotStatus}\t${r.receivedTs}\t${r.token}\t${r.position}\t${r.cycleTs}\n`;
    if (chunk.length >= COPY_CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** The tokens in COPY text, signed as they go by (on two threads), numbered from `firstId` in the order they come. */
async function* tokenLines(
  groups: Iterable<HistoryRow[]>,
  signer: TokenSigner,
  firstId: bigint,
): AsyncGenerator<string> {
  let chunk = '';
  let id = firstId;
  for await (const { token } of signedInParallel(groups, signer)) {
    // A compact JWS and a hex digest hold nothing COPY text escapes.
    chunk += `${id++}\t${token.deviceId}\t${token.keyEventId}\t${token.jws}\t${token.sha256}\t${token.issuedAt}\t${token.issuedAt}\n`;
    if (chunk.length >= COPY_CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** The records of the token groups, each token named by the id tokenLines gave it. */
function* loadRows(groups: Iterable<HistoryRow[]>, firstId: bigint): Generator<LoadRow> {
  let id = firstId;
  for (const group of groups) {
    const token = Number(id++);
    yield* tokenRecords(group, token);
  }
}

/** What detachLoadExtras took off the table, to put back. */
interface Detached {
  indexes: { name: string; definition: string }[];
  foreignKeys: { name: string; definition: string }[];
  triggers: string[];
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Takes the secondary indexes (not the primary key nor an index behind a constraint), the foreign keys
 * and the enabled user triggers off sterilizations, inside the caller's transaction, and returns what
 * it took, read from the catalog so that they come back exactly as the migrations made them.
 */
async function detachLoadExtras(client: PoolClient): Promise<Detached> {
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = 'sterilizations'::regclass and not i.indisprimary
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
      order by c.relname`,
  );
  const { rows: foreignKeys } = await client.query<{ name: string; definition: string }>(
    `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = 'sterilizations'::regclass and contype = 'f' order by conname`,
  );
  const { rows: triggers } = await client.query<{ name: string }>(
    `select tgname as name from pg_trigger
      where tgrelid = 'sterilizations'::regclass and not tgisinternal and tgenabled <> 'D' order by tgname`,
  );
  for (const index of indexes) await client.query(`drop index ${quoteIdent(index.name)}`);
  for (const key of foreignKeys) {
    await client.query(`alter table sterilizations drop constraint ${quoteIdent(key.name)}`);
  }
  for (const trigger of triggers) {
    await client.query(`alter table sterilizations disable trigger ${quoteIdent(trigger.name)}`);
  }
  return { indexes, foreignKeys, triggers: triggers.map((t) => t.name) };
}

/** Puts back what detachLoadExtras took: each index built once, each foreign key checked once. */
async function reattachLoadExtras(client: PoolClient, detached: Detached, phases: LoadPhases): Promise<void> {
  // Sorts in memory; the server's parallel maintenance workers share it.
  await client.query(`set local maintenance_work_mem = '512MB'`);
  let started = performance.now();
  for (const index of detached.indexes) await client.query(index.definition);
  phases.indexesMs = Math.round(performance.now() - started);
  started = performance.now();
  for (const key of detached.foreignKeys) {
    await client.query(`alter table sterilizations add constraint ${quoteIdent(key.name)} ${key.definition}`);
  }
  for (const trigger of detached.triggers) {
    await client.query(`alter table sterilizations enable trigger ${quoteIdent(trigger)}`);
  }
  phases.foreignKeysMs = Math.round(performance.now() - started);
  await client.query('reset maintenance_work_mem');
}

/** Where a bulk load's time went, in ms. */
export interface LoadPhases {
  /** The devices' tokens: signing them and their COPY. */
  tokensMs: number;
  copyMs: number;
  indexesMs: number;
  foreignKeysMs: number;
  /** The daily OK counts, lot flag counts and device progress stored from the load's tally. */
  bookkeepingMs: number;
}

/**
 * The history through COPY into an empty sterilizations table: first the devices' signed tokens into
 * device_tokens (ids taken from its sequence in one step), then, replaying the same token groups, the
 * records naming their tokens, with the lot status and the late-arrival flag computed here as the
 * triggers would, and the table's indexes, foreign keys and triggers back on afterwards. The daily
 * OK counts, lot flag counts and device progress (whose triggers were off) are stored from a tally
 * of the rows, which spares three scans and a sort of the whole table.
 * `groups` must give the same token groups each time it is called (insertSterilizationHistory
 * stores the same rows, tokens and ids). PostgreSQL only: it needs COPY FROM STDIN over the wire protocol.
 */
export async function copySterilizationHistory(
  client: PoolClient,
  groups: () => Iterable<HistoryRow[]>,
  signer: TokenSigner,
  total: number,
): Promise<LoadPhases> {
  const phases: LoadPhases = { tokensMs: 0, copyMs: 0, indexesMs: 0, foreignKeysMs: 0, bookkeepingMs: 0 };
  const { rows: existing } = await client.query('select 1 from sterilizations limit 1');
  if (existing.length > 0) throw new Error('the bulk load writes into an empty sterilizations table only');
  let started = performance.now();
  const { rows: sequence } = await client.query<{ name: string; next: string }>(
    `select pg_get_serial_sequence('device_tokens', 'id') as name,
            nextval(pg_get_serial_sequence('device_tokens', 'id'))::text as next`,
  );
  const firstId = BigInt(sequence[0]!.next);
  const tokens = await copyFromStdin(
    client,
    'copy device_tokens (id, device_id, key_event_id, jws, sha256, issued_at, received_at) from stdin',
    tokenLines(groups(), signer, firstId),
  );
  if (tokens > 0) {
    await client.query('select setval($1::regclass, $2::bigint)', [
      sequence[0]!.name,
      String(firstId + BigInt(tokens) - 1n),
    ]);
  }
  phases.tokensMs = Math.round(performance.now() - started);
  // Emptied in this transaction, so COPY may write the rows frozen and all-visible: no hint-bit
  // rewrite of the whole table on its first reads, and index-only scans from the start.
  await client.query('truncate sterilizations');
  const detached = await detachLoadExtras(client);
  const { rows: certificates } = await client.query<{ lot: string; best: string }>(
    `select lot_number as lot, to_char(max(expiration_date), 'YYYY-MM-DD') as best
       from certificates group by lot_number`,
  );
  const best = new Map(certificates.map((c) => [c.lot, c.best]));
  const tally = new Tally();
  started = performance.now();
  const copied = await copyFromStdin(
    client,
    `copy sterilizations (${COPY_COLUMNS.join(', ')}) from stdin with (freeze)`,
    copyLines(loadRows(groups(), firstId), best, tally),
  );
  if (copied !== total) throw new Error(`COPY stored ${copied} records of ${total}`);
  phases.copyMs = Math.round(performance.now() - started);
  await reattachLoadExtras(client, detached, phases);
  const bookkeepingStarted = performance.now();
  await tally.store(client);
  phases.bookkeepingMs = Math.round(performance.now() - bookkeepingStarted);
  return phases;
}
