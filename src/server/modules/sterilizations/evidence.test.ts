/**
 * What a device signed is kept and shown (docs/integrity.md, "What the device signed", "Key history"):
 * the token byte for byte, append-only; a record's values immutable in the database; every key change
 * an event; a token signed with a key no longer in force refused; the device's own cycle time stored
 * beside the arrival time, a clock that runs ahead flagged and alerted to its clinic only.
 */
import { generateKeyPairSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { compactVerify, importSPKI } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cycleClaim, makeCustomer, makeDevice } from '#server/test/fixtures.ts';
import { postToken, signRecords } from '#server/test/ingest.ts';
import { createTestApp, DEMO, formBody, type TestApp } from '#server/test/test-app.ts';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';
import { keyThumbprint } from '#shared/integrity/device-key.ts';

let t: TestApp;
let superAdmin: string;
let nextProgressive = 500_000;

type KeyPair = { publicKeyPem: string; privateKeyPem: string };
function keyPair(): KeyPair {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString().trim(),
    privateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  superAdmin = await t.login(DEMO.super);
});
afterAll(() => t?.close());

function record(overrides: Partial<SterilizationClaim> = {}): SterilizationClaim {
  nextProgressive += 1;
  return cycleClaim(nextProgressive, overrides);
}

const sign = (serial: string, records: SterilizationClaim[], privateKeyPem: string) =>
  signRecords({ serial, privateKeyPem }, records);

const post = (token: string) => postToken(t.app, token);

const updateDevice = (customerId: number, deviceId: number, fields: Record<string, string>) =>
  t.as(superAdmin, {
    method: 'PATCH',
    url: `/api/v1/customers/${customerId}/devices/${deviceId}`,
    ...formBody(fields),
  });

/** A device of a fresh clinic, its slot 1 key set through the API (so its history starts there). */
async function deviceWithKey() {
  const customerId = await makeCustomer(t);
  const deviceId = await makeDevice(t, customerId);
  const key = keyPair();
  const response = await updateDevice(customerId, deviceId, { public_key: key.publicKeyPem });
  expect(response.statusCode, response.body).toBe(200);
  const serial = response.json().data.device_serial as string;
  return { customerId, deviceId, serial, key };
}

const evidenceOf = (token: string, recordId: number) =>
  t.as(token, { method: 'GET', url: `/api/v1/sterilizations/evidence/${recordId}` });

async function count(table: string) {
  const result = await t.database.pool.query(`select count(*)::int as n from ${table}`);
  return Number(result.rows[0].n);
}

describe('what the device signed', () => {
  it('keeps the token byte for byte, and each record points to it and its position', async () => {
    const { serial, key } = await deviceWithKey();
    const records = [record(), record(), record()];
    const jws = await sign(serial, records, key.privateKeyPem);
    const response = await post(jws);
    expect(response.statusCode, response.body).toBe(200);
    const stored = response.json().data as { id: number; progressive_id: number; token_id: number }[];
    for (const [position, claim] of records.entries()) {
      const row = stored.find((s) => s.progressive_id === claim.progressive_id)!;
      const evidence = await evidenceOf(superAdmin, row.id);
      expect(evidence.statusCode).toBe(200);
      const data = evidence.json().data;
      expect(data.token.jws).toBe(jws);
      expect(data.token.id).toBe(row.token_id);
      expect(data.position).toBe(position);
      expect(data.key_event).toMatchObject({
        slot: 1,
        action: 'registered',
        public_key: key.publicKeyPem,
        thumbprint: await keyThumbprint(key.publicKeyPem),
        in_force: true,
      });
      // What was kept verifies with the key that the evidence names, and carries the record's values.
      const verified = await compactVerify(
        data.token.jws,
        await importSPKI(data.key_event.public_key, 'RS256'),
      );
      const payload = JSON.parse(new TextDecoder().decode(verified.payload));
      expect(payload.sterilizations[data.position]).toEqual(claim);
    }
  });

  it('refuses to change or delete a token, a key event or a record value, even by SQL', async () => {
    const { serial, key } = await deviceWithKey();
    const response = await post(await sign(serial, [record()], key.privateKeyPem));
    const [stored] = response.json().data as { id: number; token_id: number }[];
    const refusals = [
      `update device_tokens set jws = jws || 'x' where id = ${stored!.token_id}`,
      `delete from device_tokens where id = ${stored!.token_id}`,
      "update device_key_events set effective_at = effective_at - interval '1 day'",
      'delete from device_key_events',
      'truncate device_tokens cascade',
      `update sterilizations set notes = 'changed' where id = ${stored!.id}`,
      `update sterilizations set supplied_energy = supplied_energy + 1 where id = ${stored!.id}`,
      `update sterilizations set cycle_ts = now() where id = ${stored!.id}`,
      `delete from sterilizations where id = ${stored!.id}`,
    ];
    for (const statement of refusals) {
      await expect(t.database.pool.query(statement), statement).rejects.toThrow(/append-only|immutable/);
    }
    // What the server adds later may still be written: the anchor worker's and the certificates' columns.
    await t.database.pool.query(
      `update sterilizations set merkle_proof = '{}', lot_status = lot_status where id = ${stored!.id}`,
    );
  });

  it('answers a record of another clinic as missing, and a record stored without a token as having none', async () => {
    const { customerId, serial, key } = await deviceWithKey();
    const response = await post(await sign(serial, [record()], key.privateKeyPem));
    const [stored] = response.json().data as { id: number }[];
    const customer = await t.login(DEMO.customer);
    const own = await t.database.pool.query('select customer_id from users where email = $1', [
      DEMO.customer,
    ]);
    expect(own.rows[0].customer_id).not.toBe(customerId);
    expect((await evidenceOf(customer, stored!.id)).statusCode).toBe(404);
    const legacy = await t.database.pool.query(`
      insert into sterilizations (device_id, customer_id, progressive_id, supplied_energy, nominal_time,
        effective_time, residual_lamp_life, status_code)
      select id, customer_id, 1, 1, 1, 1, 1, 0 from devices where device_serial = '${serial}' returning id`);
    const none = await evidenceOf(superAdmin, Number(legacy.rows[0].id));
    expect(none.json().data).toEqual({
      record_id: Number(legacy.rows[0].id),
      token: null,
      position: null,
      key_event: null,
    });
  });
});

describe('key history', () => {
  it('keeps both keys of a rotated slot; refuses the old key afterwards, and a revoked one', async () => {
    const { customerId, deviceId, serial, key } = await deviceWithKey();
    const before = await post(await sign(serial, [record()], key.privateKeyPem));
    expect(before.statusCode).toBe(200);
    const signedEarlier = await sign(serial, [record()], key.privateKeyPem);
    const next = keyPair();
    const rotated = await updateDevice(customerId, deviceId, { public_key: next.publicKeyPem });
    expect(rotated.statusCode).toBe(200);
    // Signed before the rotation, arrived after it: the key was no longer in force on arrival.
    const stale = await post(signedEarlier);
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toBe('key_replaced');
    expect((await post(await sign(serial, [record()], key.privateKeyPem))).json().message).toBe(
      'key_replaced',
    );
    expect((await post(await sign(serial, [record()], next.privateKeyPem))).statusCode).toBe(200);
    // The record stored before still names the old key's event, which is in the history.
    const [earlier] = before.json().data as { id: number }[];
    const evidence = (await evidenceOf(superAdmin, earlier!.id)).json().data;
    expect(evidence.key_event).toMatchObject({ public_key: key.publicKeyPem, in_force: false });

    const history = await t.as(superAdmin, { method: 'GET', url: `/api/v1/devices/${deviceId}/key-events` });
    const events = history.json().data as { action: string; public_key: string; effective_at: string }[];
    expect(events.map((e) => [e.action, e.public_key])).toEqual([
      ['registered', key.publicKeyPem],
      ['replaced', next.publicKeyPem],
    ]);
    expect(Date.parse(events[1]!.effective_at)).toBeGreaterThan(Date.parse(events[0]!.effective_at));

    const tokensBefore = await count('device_tokens');
    const refusedWithoutReason = await t.as(superAdmin, {
      method: 'POST',
      url: `/api/v1/devices/${deviceId}/keys/1/revoke`,
      payload: { reason: '   ' },
    });
    expect(refusedWithoutReason.statusCode).toBe(422);
    const revoked = await t.as(superAdmin, {
      method: 'POST',
      url: `/api/v1/devices/${deviceId}/keys/1/revoke`,
      payload: { reason: 'Device stolen from the clinic' },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().data.at(-1)).toMatchObject({
      action: 'revoked',
      public_key: next.publicKeyPem,
      reason: 'Device stolen from the clinic',
      in_force: false,
    });
    const afterRevocation = await post(await sign(serial, [record()], next.privateKeyPem));
    expect(afterRevocation.statusCode).toBe(401);
    expect(afterRevocation.json().message).toBe('key_revoked');
    expect(await count('device_tokens')).toBe(tokensBefore);
    const auditBefore = await count('audit_log');
    const again = await t.as(superAdmin, {
      method: 'POST',
      url: `/api/v1/devices/${deviceId}/keys/1/revoke`,
      payload: { reason: 'twice' },
    });
    expect(again.statusCode).toBe(409);
    // Nothing was revoked, so nothing is recorded either.
    expect(await count('audit_log')).toBe(auditBefore);
  });

  it('lets only the key manager revoke, and never takes a time for a key change', async () => {
    const { customerId, deviceId } = await deviceWithKey();
    for (const email of [DEMO.admin, DEMO.care, DEMO.customer]) {
      const response = await t.as(await t.login(email), {
        method: 'POST',
        url: `/api/v1/devices/${deviceId}/keys/1/revoke`,
        payload: { reason: 'not mine to revoke' },
      });
      expect([403, 404]).toContain(response.statusCode);
    }
    const eventsBefore = await count('device_key_events');
    const backdated = await updateDevice(customerId, deviceId, {
      public_key: keyPair().publicKeyPem,
      effective_at: '2020-01-01T00:00:00Z',
    });
    expect(backdated.statusCode).toBe(422);
    expect(await count('device_key_events')).toBe(eventsBefore);
  });

  it("shows a clinic its own device's history, and hides another clinic's", async () => {
    const { deviceId } = await deviceWithKey();
    const customer = await t.login(DEMO.customer);
    const other = await t.as(customer, { method: 'GET', url: `/api/v1/devices/${deviceId}/key-events` });
    expect(other.statusCode).toBe(404);
    const own = t.seed.devices.find(
      (device) => device.customerId === t.seed.accounts.find((a) => a.email === DEMO.customer)?.customerId,
    )!;
    const mine = await t.as(customer, { method: 'GET', url: `/api/v1/devices/${own.id}/key-events` });
    expect(mine.statusCode).toBe(200);
  });
});

describe("the device's own cycle time", () => {
  it('stores it beside the arrival time; an offline device is only shown, a clock ahead is flagged', async () => {
    const { customerId, deviceId, serial, key } = await deviceWithKey();
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    const offset = `${threeDaysAgo.toISOString().slice(0, 19)}Z`.replace('Z', '+00:00');
    const offline = record({ cycle_ts: offset });
    const response = await post(await sign(serial, [offline], key.privateKeyPem));
    expect(response.statusCode, response.body).toBe(200);
    const [stored] = response.json().data;
    expect(stored.cycle_ts).toBe(`${threeDaysAgo.toISOString().slice(0, 19)}.000Z`);
    expect(stored.clock_suspect).toBe(false);
    expect(Date.parse(stored.received_ts) - Date.parse(stored.cycle_ts)).toBeGreaterThan(
      3 * 86_400_000 - 5000,
    );

    const ahead = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const flagged = await post(await sign(serial, [record({ cycle_ts: ahead })], key.privateKeyPem));
    expect(flagged.statusCode).toBe(200);
    expect(flagged.json().data[0].clock_suspect).toBe(true);
    await expect
      .poll(async () => {
        const alerts = await t.database.pool.query(
          `select customer_id from alerts where kind = 'device_clock_ahead' and device_id = $1 and state = 'open'`,
          [deviceId],
        );
        return alerts.rows.map((row) => Number(row.customer_id));
      })
      .toEqual([customerId]);
    const customer = await t.login(DEMO.customer);
    const seen = await t.as(customer, { method: 'GET', url: '/api/v1/alerts?kind=device_clock_ahead' });
    expect(seen.json().data.data.some((alert: { device_id: number }) => alert.device_id === deviceId)).toBe(
      false,
    );
  });

  it('refuses a cycle time without an offset, far in the future, or not a text, and stores nothing', async () => {
    const { serial, key } = await deviceWithKey();
    const before = await count('sterilizations');
    const tokensBefore = await count('device_tokens');
    for (const cycle_ts of [
      '2026-11-25T10:00:00',
      '2026-11-25 10:00:00Z',
      '2026-02-30T10:00:00Z',
      new Date(Date.now() + 3 * 86_400_000).toISOString(),
      '1999-12-31T23:59:59Z',
      1_764_000_000,
      true,
    ]) {
      const response = await post(
        await sign(serial, [record({ cycle_ts: cycle_ts as unknown as string })], key.privateKeyPem),
      );
      expect(response.statusCode, String(cycle_ts)).toBe(422);
      expect(JSON.stringify(response.json().data)).toContain('ingest.invalid.cycle_ts');
    }
    expect(await count('sterilizations')).toBe(before);
    expect(await count('device_tokens')).toBe(tokensBefore);
  });
});

describe('key changes and tokens in flight', () => {
  it('refuses to store a token whose key left its slot after the signature was checked', async () => {
    const { deviceId } = await deviceWithKey();
    const current = await t.database.pool.query('select key_event_1 from devices where id = $1', [deviceId]);
    await t.database.pool.query(`update devices set key_event_1 = null where id = $1`, [deviceId]);
    await expect(
      t.database.db.execute(sql`
        insert into device_tokens (device_id, key_event_id, jws, sha256, issued_at)
        values (${deviceId}, ${current.rows[0].key_event_1}, 'a.b.c', ${'0'.repeat(64)}, now())`),
    ).rejects.toThrow();
  });
});
