import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '#server/test/test-database.ts';
import type { Database } from '../client.ts';
import { seedDemoData } from '../seed.ts';
import { copyFromStdin, copyText, lotStatusFor } from './bulk-load.ts';
import { newKeyPair } from './device-key-files.ts';

describe('COPY text and lot status', () => {
  it('escapes what COPY text reads specially and writes null as \\N', () => {
    expect(copyText(null)).toBe('\\N');
    expect(copyText(12)).toBe('12');
    expect(copyText(true)).toBe('true');
    expect(copyText('plain ’ text')).toBe('plain ’ text');
    expect(copyText('a\\b\tc\nd\re')).toBe('a\\\\b\\tc\\nd\\re');
  });

  it('gives the status lot_status_on gives, by UTC day', () => {
    expect(lotStatusFor(null, '2026-03-01T10:00:00.000Z', '2026-03-01')).toBe('no_lot');
    expect(lotStatusFor('', '2026-03-01T10:00:00.000Z', '2026-03-01')).toBe('no_lot');
    expect(lotStatusFor('L1', '2026-03-01T10:00:00.000Z', undefined)).toBe('uncertified');
    expect(lotStatusFor('L1', '2026-03-01T23:59:59.999Z', '2026-03-01')).toBe('certified');
    expect(lotStatusFor('L1', '2026-03-02T00:00:00.000Z', '2026-03-01')).toBe('expired');
  });
});

/** Every row of every table the records' load writes or keeps, and the table's indexes, keys and triggers. */
async function loaded(database: Database) {
  const all = async (sql: string) => (await database.pool.query(sql)).rows;
  return {
    records: await all(
      `select count(*)::int as n, md5(string_agg(concat_ws('|', id, device_id, customer_id, received_ts, progressive_id,
         supplied_energy, nominal_time, effective_time, residual_lamp_life, status_code, latitude, longitude,
         consumables_lot, lot_progressive_id, notes, hashing_version, blockchain_data_block_id, merkle_proof,
         arrived_out_of_order, lot_status, created_at, token_id, token_position, cycle_ts), ',' order by id)) as digest,
         count(*) filter (where token_id is null or cycle_ts is null)::int as without_evidence,
         count(*) filter (where arrived_out_of_order)::int as late,
         count(*) filter (where lot_status = 'certified')::int as certified,
         count(*) filter (where lot_status = 'expired')::int as expired,
         count(*) filter (where lot_status = 'uncertified')::int as uncertified
       from sterilizations`,
    ),
    tokens: await all(
      `select count(*)::int as n, max(id)::int as last_id,
         md5(string_agg(concat_ws('|', id, device_id, key_event_id, jws, sha256, issued_at, received_at), ',' order by id)) as digest,
         (select last_value::int from device_tokens_id_seq) as sequence
       from device_tokens`,
    ),
    okCounts: await all(
      `select customer_id, day, sum(ok_count)::int as ok_count, sum(record_count)::int as record_count
         from sterilization_daily_ok_counts group by 1, 2 order by 1, 2`,
    ),
    lotFlags: await all(
      `select customer_id, consumables_lot, sum(flagged)::int as flagged from lot_flag_counts
         group by 1, 2 order by 1, 2`,
    ),
    progress: await all('select * from device_progress order by device_id, customer_id'),
    gaps: await all('select * from device_progress_gaps order by device_id, customer_id, first_missing'),
    indexes: await all(
      `select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as definition, indisvalid
         from pg_index where indrelid = 'sterilizations'::regclass order by 1`,
    ),
    constraints: await all(
      `select conname, pg_get_constraintdef(oid) as definition, convalidated from pg_constraint
         where conrelid = 'sterilizations'::regclass order by conname`,
    ),
    triggers: await all(
      `select tgname, tgenabled from pg_trigger where tgrelid = 'sterilizations'::regclass and not tgisinternal
         order by tgname`,
    ),
  };
}

// Lots L2026-000…099: a third without certificate, a third certified for good, a third whose
// certificate expired 60 days ago (in the middle of the history), so every status shows up.
const CERTIFICATES = `insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name)
  select 'L2026-' || lpad(n::text, 3, '0'), 'VT-' || n,
    case when n % 3 = 1 then date '2099-12-31' else current_date - 60 end, 'test.pdf'
  from generate_series(0, 99) n where n % 3 <> 0`;

describe.skipIf(!process.env.TEST_DATABASE_URL)('the COPY load (PostgreSQL)', () => {
  let inserted: Database;
  let copied: Database;
  beforeAll(async () => {
    [inserted, copied] = await Promise.all([openTestDatabase(), openTestDatabase()]);
    for (const database of [inserted, copied]) await database.pool.query(CERTIFICATES);
    // One key for both, so that both sign the same tokens.
    const options = { sterilizations: 3000, deviceKeys: await newKeyPair(), keysDir: null };
    const [viaInsert, viaCopy] = await Promise.all([
      seedDemoData(inserted, { ...options, load: 'insert' as const }),
      seedDemoData(copied, { ...options, load: 'copy' as const }),
    ]);
    expect(viaInsert.loadPhases).toBeUndefined();
    expect(viaCopy.loadPhases?.copyMs).toBeGreaterThanOrEqual(0);
  });
  afterAll(async () => {
    await Promise.all([inserted?.close(), copied?.close()]);
  });

  it('stores what the triggers store, keeps what they keep, and puts indexes, keys and triggers back', async () => {
    const [viaInsert, viaCopy] = await Promise.all([loaded(inserted), loaded(copied)]);
    expect(viaCopy).toEqual(viaInsert);
    expect(viaCopy.records[0]).toMatchObject({ n: 3000, late: 1, without_evidence: 0 });
    // Tokens of one to four records, numbered from 1, the sequence where the last one left it.
    expect(viaCopy.tokens[0].n).toBeGreaterThan(3000 / 4);
    expect(viaCopy.tokens[0].n).toBeLessThan(3000);
    expect(viaCopy.tokens[0]).toMatchObject({ last_id: viaCopy.tokens[0].n, sequence: viaCopy.tokens[0].n });
    for (const status of ['certified', 'expired', 'uncertified']) {
      expect(viaCopy.records[0][status]).toBeGreaterThan(0);
    }
    expect(viaCopy.lotFlags.length).toBeGreaterThan(0);
    expect(viaCopy.gaps).toHaveLength(1);
    expect(viaCopy.indexes.length).toBeGreaterThan(10);
    expect(viaCopy.triggers.every((t: { tgenabled: string }) => t.tgenabled === 'O')).toBe(true);
  });

  it('leaves the triggers at work for the records that come after', async () => {
    for (const database of [inserted, copied]) {
      await database.pool.query(
        `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy,
           nominal_time, effective_time, residual_lamp_life, status_code, consumables_lot, created_at)
         select device_id, customer_id, t, max_progressive_id + 5, 300, 10, 10, 5000, 0, 'L2026-002', t
         from device_progress, (select max(received_ts) + interval '1 hour' as t from sterilizations) latest
         order by device_id limit 1`,
      );
    }
    const [viaInsert, viaCopy] = await Promise.all([loaded(inserted), loaded(copied)]);
    expect(viaCopy).toEqual(viaInsert);
    expect(viaCopy.gaps).toHaveLength(2);
  });

  it('rolls the COPY back and keeps the connection usable when the source fails', async () => {
    const client = await copied.pool.connect();
    try {
      await client.query('begin');
      await client.query('create temporary table copy_target (n int, t text)');
      function* failing() {
        yield '1\tone\n2\t\\N\n';
        throw new Error('the generator broke');
      }
      await expect(copyFromStdin(client, 'copy copy_target from stdin', failing())).rejects.toThrow();
      await client.query('rollback');
      await client.query('begin');
      await client.query('create temporary table copy_target (n int, t text)');
      expect(await copyFromStdin(client, 'copy copy_target from stdin', ['1\tone\n', '2\t\\N\n'])).toBe(2);
      const { rows } = await client.query('select n, t from copy_target order by n');
      expect(rows).toEqual([
        { n: 1, t: 'one' },
        { n: 2, t: null },
      ]);
      await client.query('rollback');
    } finally {
      client.release();
    }
  });
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the COPY load on PGlite', () => {
  it('is refused: PGlite takes the batched INSERTs', async () => {
    const database = await openTestDatabase();
    try {
      await expect(
        seedDemoData(database, { sterilizations: 10, deviceKeys: 'shared', keysDir: null, load: 'copy' }),
      ).rejects.toThrow(/PostgreSQL server/);
      const { rows } = await database.pool.query('select count(*)::int as n from customers');
      expect(rows[0].n).toBe(0);
    } finally {
      await database.close();
    }
  });
});
