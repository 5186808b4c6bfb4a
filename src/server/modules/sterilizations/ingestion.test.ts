import { generateKeyPairSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { importPKCS8, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedDevice } from '#server/db/seed.ts';
import { createTestApp, type TestApp } from '#server/test/test-app.ts';
import { ingestionClaims, type SterilizationClaim } from '#shared/ingestion/claims.ts';

let t: TestApp;
let device: SeedDevice;
let nextProgressive = 900_000;

const logs: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'warn' }, { logStream: { write: (line) => void logs.push(line) } });
  device = t.seed.devices[0]!;
});
afterAll(() => t?.close());

function record(overrides: Partial<SterilizationClaim> = {}): SterilizationClaim {
  nextProgressive += 1;
  return {
    progressive_id: nextProgressive,
    supplied_energy: 312.5,
    nominal_time: 10,
    effective_time: 9.75,
    residual_lamp_life: 4321,
    status_code: 0,
    latitude: 45.4642,
    longitude: 9.19,
    consumables_lot: 'L-TEST-01',
    lot_progressive_id: 3,
    batch_quantity: 50,
    notes: null,
    ...overrides,
  };
}

async function sign(claims: object, privateKeyPem = device.privateKeyPem, alg = 'RS256') {
  const key = await importPKCS8(privateKeyPem, alg);
  return new SignJWT(claims as Record<string, unknown>).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
}

const post = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/ingest/sterilizations', payload: { token } });

async function countRows(table: 'sterilizations' | 'consumable_batches') {
  const result = await t.database.db.execute<{ n: string }>(sql`select count(*) as n from ${sql.raw(table)}`);
  return Number(result.rows[0]?.n);
}

async function expectRefused(token: string, status: number, message: string) {
  const before = await countRows('sterilizations');
  const response = await post(token);
  expect(response.statusCode).toBe(status);
  expect(response.json()).toMatchObject({ status: 'error', message });
  expect(await countRows('sterilizations')).toBe(before);
}

describe('POST /ingest/sterilizations', () => {
  it('stores a signed record with the server receipt time and counts its batch', async () => {
    const claim = record();
    const started = Date.now();
    const response = await post(await sign(ingestionClaims(device.serial, [claim])));
    expect(response.statusCode).toBe(200);
    const [stored] = response.json().data;
    expect(stored).toMatchObject({
      device_serial: device.serial,
      progressive_id: claim.progressive_id,
      supplied_energy: 312.5,
      effective_time: 9.75,
      latitude: 45.4642,
      consumables_lot: 'L-TEST-01',
      blockchain_data: null,
    });
    expect(Date.parse(stored.received_ts)).toBeGreaterThanOrEqual(started - 1000);
    const batch = await t.database.db.execute<{ sterilization_count: number; batch_quantity: number }>(
      sql`select sterilization_count, batch_quantity from consumable_batches b join devices d on d.id = b.device_id
          where d.device_serial = ${device.serial} and lot_code = 'L-TEST-01' and lot_progressive = 3`,
    );
    expect(batch.rows[0]).toEqual({ sterilization_count: 1, batch_quantity: 50 });
  });

  it('answers a repeated record with the stored one and never stores or counts it twice', async () => {
    const claim = record({ consumables_lot: 'L-TEST-02' });
    const first = await post(await sign(ingestionClaims(device.serial, [claim])));
    const rowsAfterFirst = await countRows('sterilizations');
    const again = await post(await sign(ingestionClaims(device.serial, [{ ...claim, supplied_energy: 1 }])));
    expect(again.statusCode).toBe(200);
    expect(again.json().data[0].id).toBe(first.json().data[0].id);
    expect(again.json().data[0].supplied_energy).toBe(312.5);
    expect(await countRows('sterilizations')).toBe(rowsAfterFirst);
    const batch = await t.database.db.execute<{ sterilization_count: number }>(
      sql`select sterilization_count from consumable_batches where lot_code = 'L-TEST-02'`,
    );
    expect(batch.rows[0]?.sterilization_count).toBe(1);
  });

  it('takes a small batch of records in one token', async () => {
    const records = [record(), record(), record()];
    const response = await post(await sign(ingestionClaims(device.serial, records)));
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((item: { progressive_id: number }) => item.progressive_id)).toEqual(
      records.map((item) => item.progressive_id),
    );
  });

  it('stores a batch as one record at a time would: same values, counts only new records once', async () => {
    const stored = (progressive: number) =>
      t.database.pool
        .query(
          `select supplied_energy::text, nominal_time::text, effective_time::text, residual_lamp_life::text,
             status_code, latitude::text, longitude::text, consumables_lot, lot_progressive_id, notes, customer_id
           from sterilizations where device_id = $1 and progressive_id = $2`,
          [device.id, progressive],
        )
        .then((result) => result.rows[0]);
    const batchCount = (lot: string, lotProgressive: number) =>
      t.database.pool
        .query(
          'select sterilization_count, batch_quantity from consumable_batches where device_id = $1 and lot_code = $2 and lot_progressive = $3',
          [device.id, lot, lotProgressive],
        )
        .then((result) => result.rows[0]);
    const okCount = () =>
      t.database.pool
        .query<{ n: number }>(
          `select coalesce(sum(ok_count), 0)::integer as n from sterilization_daily_ok_counts
            where customer_id = (select customer_id from devices where id = $1)`,
          [device.id],
        )
        .then((result) => result.rows[0]!.n);
    const odd = {
      supplied_energy: 12.345,
      nominal_time: 0.005,
      latitude: -45.1234565,
      notes: 'a "quoted" note',
    };
    const alone = record({ consumables_lot: 'L-BATCH-A', lot_progressive_id: 7, ...odd });
    expect((await post(await sign(ingestionClaims(device.serial, [alone])))).statusCode).toBe(200);
    const okBefore = await okCount();

    const sentBefore = record({ consumables_lot: 'L-BATCH-A', lot_progressive_id: 7 });
    expect((await post(await sign(ingestionClaims(device.serial, [sentBefore])))).statusCode).toBe(200);
    const twin = record({ consumables_lot: 'L-BATCH-A', lot_progressive_id: 7, ...odd });
    const batch = [
      record({ consumables_lot: 'L-BATCH-B', lot_progressive_id: 1, batch_quantity: 30 }),
      twin,
      sentBefore,
      record({ consumables_lot: 'L-BATCH-B', lot_progressive_id: 1, batch_quantity: 99 }),
      record({ consumables_lot: null, lot_progressive_id: null, status_code: 3 }),
    ];
    const response = await post(await sign(ingestionClaims(device.serial, batch)));
    expect(response.statusCode).toBe(200);
    const answered = response.json().data as { id: number; progressive_id: number }[];
    expect(answered.map((item) => item.progressive_id)).toEqual(
      batch.map((item) => item.progressive_id).sort((a, b) => a - b),
    );
    expect(new Set(answered.map((item) => item.id)).size).toBe(batch.length);

    // The same values as the record stored alone, rounded alike.
    const { customer_id: _owner, ...twinValues } = (await stored(twin.progressive_id))!;
    const { customer_id: _same, ...aloneValues } = (await stored(alone.progressive_id))!;
    expect(twinValues).toEqual(aloneValues);
    // Lot A: the record alone, the one sent before and the twin; the re-sent one is not counted again.
    expect(await batchCount('L-BATCH-A', 7)).toMatchObject({ sterilization_count: 3 });
    // Lot B is new: its two records, with the batch size of the first.
    expect(await batchCount('L-BATCH-B', 1)).toEqual({ sterilization_count: 2, batch_quantity: 30 });
    // The owner's daily OK count: one more for sentBefore, three for the batch's new OK records.
    expect(await okCount()).toBe(okBefore + 4);

    // The whole token again: nothing stored or counted twice, the same ids.
    const rows = await countRows('sterilizations');
    const again = await post(await sign(ingestionClaims(device.serial, batch)));
    expect(again.json().data).toEqual(response.json().data);
    expect(await countRows('sterilizations')).toBe(rows);
    expect(await batchCount('L-BATCH-B', 1)).toEqual({ sterilization_count: 2, batch_quantity: 30 });
    expect(await okCount()).toBe(okBefore + 4);
  });

  it('verifies with the second public key too (key rotation)', async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const privatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await t.database.db.execute(sql`update devices set public_key_2 = ${publicPem} where id = ${device.id}`);
    const response = await post(await sign(ingestionClaims(device.serial, [record()]), privatePem));
    expect(response.statusCode).toBe(200);
  });

  it('refuses each kind of bad token, telling a stranger nothing about the fleet, and stores nothing', async () => {
    const now = Math.floor(Date.now() / 1000);
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    // An unknown serial and a known one signed by a stranger's key get the same answer.
    await expectRefused(await sign(ingestionClaims('ZZ999999', [record()])), 401, 'invalid_token');
    await expectRefused(
      await sign(ingestionClaims(device.serial, [record()]), stranger),
      401,
      'invalid_token',
    );
    await expectRefused(
      await sign(ingestionClaims(device.serial, [record()], now - 3600)),
      401,
      'token_expired',
    );
    await expectRefused(
      await sign(ingestionClaims(device.serial, [record()], now + 3600)),
      401,
      'token_not_yet_valid',
    );
    await expectRefused(
      await sign(ingestionClaims(device.serial, [record()]), stranger, 'PS256'),
      401,
      'unsupported_algorithm',
    );
    const [header, payload] = (await sign(ingestionClaims(device.serial, [record()]))).split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    expect((await post(none)).statusCode).toBe(422);
    await expectRefused(`${header}.${payload}.AAAA`, 401, 'invalid_token');
    await expectRefused('abc.def.ghi', 401, 'invalid_token');
  });

  it('refuses a disabled device as any bad token, and logs why', async () => {
    const other = t.seed.devices[1]!;
    await t.database.db.execute(sql`update devices set deleted_at = now() where id = ${other.id}`);
    await expectRefused(
      await sign(ingestionClaims(other.serial, [record()]), other.privateKeyPem),
      401,
      'invalid_token',
    );
    expect(
      logs.some((line) => line.includes('"reason":"device_disabled"') && line.includes(other.serial)),
    ).toBe(true);
    await t.database.db.execute(sql`update devices set deleted_at = null where id = ${other.id}`);
  });

  it('refuses missing and out-of-range fields by name, storing none of the batch', async () => {
    const { supplied_energy: _missing, ...withoutEnergy } = record();
    const cases: [object, string][] = [
      [withoutEnergy, 'ingest.invalid.supplied_energy'],
      [record({ latitude: 91 }), 'ingest.invalid.latitude'],
      [record({ progressive_id: -1 }), 'ingest.invalid.progressive_id'],
      [record({ effective_time: Number.NaN }), 'ingest.invalid.effective_time'],
      [{ ...record(), unexpected: 1 }, 'ingest.invalid.unknown_field'],
    ];
    for (const [bad, messageId] of cases) {
      const before = await countRows('sterilizations');
      const response = await post(
        await sign(ingestionClaims(device.serial, [record(), bad as SterilizationClaim])),
      );
      expect(response.statusCode).toBe(422);
      expect(JSON.stringify(response.json().data)).toContain(messageId);
      expect(await countRows('sterilizations')).toBe(before);
    }
  });

  it('refuses a records claim that is not a list of records with its message id', async () => {
    const claims = ingestionClaims(device.serial, [record()]);
    const { sterilization: _one, ...bare } = claims;
    for (const sterilizations of [null, 'x', 42, {}, []]) {
      const before = await countRows('sterilizations');
      const response = await post(await sign({ ...bare, sterilizations } as unknown as typeof claims));
      expect(response.statusCode, JSON.stringify(sterilizations)).toBe(422);
      expect(response.json().data, JSON.stringify(sterilizations)).toEqual({
        _: ['ingest.invalid.sterilizations'],
      });
      expect(await countRows('sterilizations')).toBe(before);
    }
  });

  it('refuses a body that is not the contract shape', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/sterilizations',
      payload: { token: 'x', extra: true },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('validation_error');
  });
});
