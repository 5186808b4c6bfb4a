/**
 * What raising an alert sets off, through real signed ingestion: the gap, late-record and uncertified-lot
 * alerts of the database's own bookkeeping; a mail queued once per alert and recipient who chose its kind,
 * in the recipient's language, to the clinic's own users only; and the uncertified-lot alert cleared by
 * the sweep once a certificate covers the lot.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cycleClaim, makeCustomer, makeDevice, makeUser, unique } from '#server/test/fixtures.ts';
import { ingestRecords } from '#server/test/ingest.ts';
import { createTestApp, type TestApp } from '#server/test/test-app.ts';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';

let t: TestApp;
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function clinic() {
  const customerId = await makeCustomer(t);
  const deviceId = await makeDevice(t, customerId, publicPem);
  const found = await t.database.pool.query('select device_serial from devices where id = $1', [deviceId]);
  return { customerId, deviceId, serial: found.rows[0].device_serial as string };
}

const record = cycleClaim;

async function ingest(serial: string, records: SterilizationClaim[]) {
  await ingestRecords(t.app, { serial, privateKeyPem: privatePem }, records);
  await t.app.alerts.idle();
}

const alertsOf = async (customerId: number, kind: string) =>
  (
    await t.database.pool.query(
      'select id, state, condition_key, details from alerts where customer_id = $1 and kind = $2 order by id',
      [customerId, kind],
    )
  ).rows;

describe('gap, late-record and lot alerts', () => {
  it('raises a gap alert when ids are missing and clears it when they arrive; a late record is its own alert', async () => {
    const c = await clinic();
    await ingest(c.serial, [record(1), record(4)]);
    const [gap] = await alertsOf(c.customerId, 'record_gap');
    expect(gap).toMatchObject({ state: 'open', condition_key: `record_gap:${c.deviceId}:${c.customerId}` });
    expect(gap.details).toMatchObject({ missing_count: 2, device_serial: c.serial });

    await ingest(c.serial, [record(2), record(3)]);
    const after = await alertsOf(c.customerId, 'record_gap');
    expect(after.find((a) => a.id === gap.id)?.state).toBe('resolved');
    // Records 2 and 3 came after 4: each is a late record, open until a person resolves it.
    const late = after.filter((a) => a.condition_key.startsWith('record_out_of_order:'));
    expect(late.map((a) => a.state)).toEqual(['open', 'open']);
  });

  it('raises one uncertified-lot alert per clinic and lot, cleared by the sweep once a certificate covers it', async () => {
    const c = await clinic();
    const lot = `LOT-${unique()}`;
    await ingest(c.serial, [
      record(1, { consumables_lot: lot, lot_progressive_id: 1 }),
      record(2, { consumables_lot: lot, lot_progressive_id: 1 }),
    ]);
    const raised = await alertsOf(c.customerId, 'lot_uncertified');
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      state: 'open',
      details: { lot_number: lot, lot_status: 'uncertified' },
    });

    await t.database.pool.query(
      `insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name)
       values ($1, $2, '2099-12-31', 'certificato.pdf')`,
      [lot, `VT-${unique()}`],
    );
    await t.app.alerts.sweep();
    expect((await alertsOf(c.customerId, 'lot_uncertified'))[0]?.state).toBe('resolved');
  });
});

describe('alert e-mails', () => {
  it('queues one mail per alert to the clinic users who get its kind, in their language', async () => {
    const c = await clinic();
    const italian = await makeUser(t, c.customerId);
    await t.database.pool.query(`update users set language = 'it' where id = $1`, [italian]);
    const optedOut = await makeUser(t, c.customerId);
    await t.database.pool.query(`update users set email_alert_kinds = '{}' where id = $1`, [optedOut]);
    const other = await clinic();
    const otherUser = await makeUser(t, other.customerId);

    const failed = record(1, { status_code: 2 });
    await ingest(c.serial, [failed]);
    await ingest(c.serial, [failed]);
    const mails = (
      await t.database.pool.query(
        `select user_id, language, subject, body_text from mail_outbox
         where dedupe_key like 'alert:%' and user_id = any($1::int[]) order by id`,
        [[italian, optedOut, otherUser]],
      )
    ).rows;
    // Once, to the Italian clinic user only: not to the one who opted out, not to another clinic.
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ user_id: italian, language: 'it' });
    expect(mails[0].subject).toBe(`[uvtrace] Ciclo di sterilizzazione fallito sul dispositivo ${c.serial}`);
    expect(mails[0].body_text).toContain('Lamp malfunction');
    expect(mails[0].body_text).toMatch(/\/alerts\?kind=failed_cycle$/m);
  });
});
