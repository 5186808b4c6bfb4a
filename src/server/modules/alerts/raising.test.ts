/**
 * Each alert kind raised by what really causes it: a signed ingestion through HTTP (failed cycle, low
 * lamp, batch at 80 % and full) or the sweep with a given clock (silent device, certificate expiring
 * and expired, block not mined); cleared when its condition ends; never raised twice, by two
 * evaluations, two sweeps or two sweeps at once; and not again after a manual resolution until the
 * condition has cleared. On PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCustomer, unique } from '#server/test/fixtures.ts';
import { postRecords } from '#server/test/ingest.ts';
import { createPeerApp, createTestApp, type TestApp } from '#server/test/test-app.ts';
import { raiseAlert, resolveAlertsFor } from './raise.ts';
import { DAY, HOUR, ingest, makeClinic, nextRecord } from './test-fixtures.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

interface AlertRow {
  id: number;
  kind: string;
  state: string;
  customer_id: number | null;
  device_id: number | null;
  subject_id: string | null;
  details: Record<string, unknown>;
  resolution: string | null;
}

async function alertsWhere(where: string, params: unknown[]): Promise<AlertRow[]> {
  const result = await t.database.pool.query<AlertRow>(
    `select id, kind, state, customer_id, device_id, subject_id, details, resolution from alerts
     where ${where} order by id`,
    params,
  );
  return result.rows;
}
const alertsOfDevice = (deviceId: number, kind: string) =>
  alertsWhere('device_id = $1 and kind = $2', [deviceId, kind]);

describe('alerts raised by ingestion', () => {
  it('raises one failed-cycle alert per failed record, with its status text, however often it is sent', async () => {
    const c = await makeClinic(t);
    const failed = nextRecord(c, { status_code: 2 });
    const stored = await ingest(t, c, [nextRecord(c), failed]);
    await ingest(t, c, [failed]);
    const alerts = await alertsOfDevice(c.deviceId, 'failed_cycle');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      state: 'open',
      customer_id: c.customerId,
      details: { status_code: 2, status_text: 'Lamp malfunction', progressive_id: failed.progressive_id },
    });
    const failedId = (stored as { id: number; progressive_id: number }[]).find(
      (row) => row.progressive_id === failed.progressive_id,
    )?.id;
    expect(Number(alerts[0]?.subject_id)).toBe(failedId);
  });

  it('raises a low lamp once, and clears it when a record shows a new lamp', async () => {
    const c = await makeClinic(t);
    await ingest(t, c, [nextRecord(c, { residual_lamp_life: 150 })]);
    await ingest(t, c, [nextRecord(c, { residual_lamp_life: 140 })]);
    let alerts = await alertsOfDevice(c.deviceId, 'lamp_life_low');
    expect(alerts.map((a) => [a.state, a.details.residual_lamp_life, a.details.threshold])).toEqual([
      ['open', 150, 200],
    ]);
    await ingest(t, c, [nextRecord(c, { residual_lamp_life: 9800 })]);
    alerts = await alertsOfDevice(c.deviceId, 'lamp_life_low');
    expect(alerts.map((a) => [a.state, a.resolution])).toEqual([['resolved', 'cleared']]);
  });

  it("uses the clinic's own lamp threshold when it has one", async () => {
    const c = await makeClinic(t);
    await t.database.pool.query('update customers set alert_lamp_life_threshold = 5000 where id = $1', [
      c.customerId,
    ]);
    await ingest(t, c, [nextRecord(c, { residual_lamp_life: 4500 })]);
    const alerts = await alertsOfDevice(c.deviceId, 'lamp_life_low');
    expect(alerts.map((a) => a.details.threshold)).toEqual([5000]);
  });

  it('raises a batch at 80 % and when full, each once', async () => {
    const c = await makeClinic(t);
    const lot = { consumables_lot: `L-${unique()}`, lot_progressive_id: 1, batch_quantity: 5 };
    await ingest(t, c, [nextRecord(c, lot), nextRecord(c, lot), nextRecord(c, lot)]);
    expect(await alertsWhere('device_id = $1 and kind like $2', [c.deviceId, 'batch%'])).toEqual([]);
    await ingest(t, c, [nextRecord(c, lot)]);
    await ingest(t, c, [nextRecord(c, lot)]);
    await ingest(t, c, [nextRecord(c, lot)]);
    const alerts = await alertsWhere('device_id = $1 and kind like $2', [c.deviceId, 'batch%']);
    expect(alerts.map((a) => [a.kind, a.state, a.details.percent, a.details.sterilization_count])).toEqual([
      ['batch_80', 'open', 80, 4],
      ['batch_100', 'open', 100, 5],
    ]);
  });

  it('never fails or holds the ingestion when evaluation fails', async () => {
    const c = await makeClinic(t);
    // The evaluation fails (its table is away for a moment): the device's answer is unaffected.
    await t.database.pool.query('alter table alerts rename to alerts_away');
    try {
      const response = await postRecords(t.app, c, [nextRecord(c, { status_code: 1 })]);
      expect(response.statusCode).toBe(200);
      await t.app.alerts.idle();
    } finally {
      await t.database.pool.query('alter table alerts_away rename to alerts');
    }
    expect(await alertsOfDevice(c.deviceId, 'failed_cycle')).toEqual([]);
  });
});

describe('the sweep', () => {
  it('raises a silent device once and clears it when the device speaks again', async () => {
    const c = await makeClinic(t);
    await ingest(t, c, [nextRecord(c)]);
    const later = new Date(Date.now() + 73 * HOUR);
    const first = await t.app.alerts.sweep(later);
    expect(first.ran).toBe(true);
    await t.app.alerts.sweep(later);
    let alerts = await alertsOfDevice(c.deviceId, 'device_silent');
    expect(alerts.map((a) => [a.state, a.customer_id, a.details.threshold_hours])).toEqual([
      ['open', c.customerId, 72],
    ]);
    // The device spoke meanwhile (a record whose own evaluation never ran): the sweep sees it.
    await t.database.pool.query(
      `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code)
       values ($1, $2, $3, 999, 300, 10, 10, 4000, 0)`,
      [c.deviceId, c.customerId, new Date(later.getTime() - HOUR)],
    );
    await t.app.alerts.sweep(later);
    alerts = await alertsOfDevice(c.deviceId, 'device_silent');
    expect(alerts.map((a) => [a.state, a.resolution])).toEqual([['resolved', 'cleared']]);
    // Silent again later; an ingested record clears it at once, without a sweep.
    await t.app.alerts.sweep(new Date(later.getTime() + 80 * HOUR));
    expect((await alertsOfDevice(c.deviceId, 'device_silent')).map((a) => a.state)).toEqual([
      'resolved',
      'open',
    ]);
    await ingest(t, c, [nextRecord(c)]);
    alerts = await alertsOfDevice(c.deviceId, 'device_silent');
    expect(alerts.map((a) => [a.state, a.resolution])).toEqual([
      ['resolved', 'cleared'],
      ['resolved', 'cleared'],
    ]);
  });

  it("uses the clinic's own silence threshold", async () => {
    const c = await makeClinic(t);
    await t.database.pool.query('update customers set alert_device_silent_hours = 500 where id = $1', [
      c.customerId,
    ]);
    await ingest(t, c, [nextRecord(c)]);
    await t.app.alerts.sweep(new Date(Date.now() + 100 * HOUR));
    expect(await alertsOfDevice(c.deviceId, 'device_silent')).toEqual([]);
    await t.app.alerts.sweep(new Date(Date.now() + 501 * HOUR));
    expect(await alertsOfDevice(c.deviceId, 'device_silent')).toHaveLength(1);
  });

  it('raises a certificate expiring, then expired, for the staff and each clinic that used its lot; a renewal clears it', async () => {
    const c = await makeClinic(t);
    const lotNumber = `L-${unique()}`;
    await ingest(t, c, [
      nextRecord(c, { consumables_lot: lotNumber, lot_progressive_id: 1, batch_quantity: 100 }),
    ]);
    const today = new Date(Math.floor(Date.now() / DAY) * DAY);
    const expires = new Date(today.getTime() + 10 * DAY).toISOString().slice(0, 10);
    const inserted = await t.database.pool.query(
      `insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name)
       values ($1, 'VT-1', $2, 'c.pdf') returning id`,
      [lotNumber, expires],
    );
    const certificateId = Number(inserted.rows[0].id);
    const ofCertificate = () =>
      t.database.pool
        .query<AlertRow>(
          `select kind, state, customer_id, details from alerts where kind like 'certificate%' and subject_id = $1
           order by kind desc, customer_id nulls first`,
          [certificateId],
        )
        .then((result) => result.rows.map((a) => [a.kind, a.state, a.customer_id, a.details.days_left]));
    await t.app.alerts.sweep(today);
    await t.app.alerts.sweep(today);
    expect(await ofCertificate()).toEqual([
      ['certificate_expiring', 'open', null, 10],
      ['certificate_expiring', 'open', c.customerId, 10],
    ]);
    await t.app.alerts.sweep(new Date(today.getTime() + 11 * DAY));
    expect(await ofCertificate()).toEqual([
      ['certificate_expiring', 'resolved', null, 10],
      ['certificate_expiring', 'resolved', c.customerId, 10],
      ['certificate_expired', 'open', null, -1],
      ['certificate_expired', 'open', c.customerId, -1],
    ]);
    await t.database.pool.query(
      `insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name)
       values ($1, 'VT-2', $2, 'c.pdf')`,
      [lotNumber, new Date(today.getTime() + 400 * DAY).toISOString().slice(0, 10)],
    );
    await t.app.alerts.sweep(new Date(today.getTime() + 11 * DAY));
    expect((await ofCertificate()).map(([kind, state]) => [kind, state])).toEqual([
      ['certificate_expiring', 'resolved'],
      ['certificate_expiring', 'resolved'],
      ['certificate_expired', 'resolved'],
      ['certificate_expired', 'resolved'],
    ]);
  });

  it('raises a blockchain block not mined after N minutes for the staff only, cleared once mined', async () => {
    const block = await t.database.pool.query(
      `insert into blockchain_data_blocks (status, network) values ('SENT', 'devnet') returning id`,
    );
    const blockId = Number(block.rows[0].id);
    const ofBlock = () => alertsWhere(`kind = 'block_not_mined' and subject_id = $1`, [blockId]);
    await t.app.alerts.sweep(new Date(Date.now() + 29 * 60_000));
    expect(await ofBlock()).toEqual([]);
    await t.app.alerts.sweep(new Date(Date.now() + 31 * 60_000));
    expect((await ofBlock()).map((a) => [a.state, a.customer_id, a.details.status])).toEqual([
      ['open', null, 'SENT'],
    ]);
    await t.database.pool.query(`update blockchain_data_blocks set status = 'MINED' where id = $1`, [
      blockId,
    ]);
    await t.app.alerts.sweep(new Date(Date.now() + 31 * 60_000));
    expect((await ofBlock()).map((a) => [a.state, a.resolution])).toEqual([['resolved', 'cleared']]);
  });

  it('raises one alert when two sweeps run at once, in this process and in another', async () => {
    const c = await makeClinic(t);
    await ingest(t, c, [nextRecord(c)]);
    const peer = await createPeerApp(t);
    try {
      const later = new Date(Date.now() + 80 * HOUR);
      const results = await Promise.all([
        t.app.alerts.sweep(later),
        peer.app.alerts.sweep(later),
        t.app.alerts.sweep(later),
      ]);
      expect(results.some((result) => result.ran)).toBe(true);
    } finally {
      await peer.close();
    }
    expect(await alertsOfDevice(c.deviceId, 'device_silent')).toHaveLength(1);
  });
});

describe('raiseAlert and resolveAlertsFor', () => {
  it('raise one alert per condition, even when raised at once', async () => {
    const customerId = await makeCustomer(t);
    const key = `record_gap:test:${unique()}`;
    const alert = { kind: 'record_gap', customerId, conditionKey: key, details: { from: 3, to: 5 } } as const;
    const ids = await Promise.all([raiseAlert(t.database.db, alert), raiseAlert(t.database.db, alert)]);
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    expect(await raiseAlert(t.database.db, alert)).toBeNull();
    expect(await resolveAlertsFor(t.database.db, key)).toEqual(ids.filter((id) => id !== null));
    // Cleared, the condition may come back as a new alert.
    expect(await raiseAlert(t.database.db, alert)).toEqual(expect.any(Number));
  });

  it('do not raise a condition resolved by hand again until it has cleared', async () => {
    const customerId = await makeCustomer(t);
    const key = `lot_uncertified:test:${unique()}`;
    const alert = { kind: 'lot_uncertified', customerId, conditionKey: key } as const;
    const id = await raiseAlert(t.database.db, alert);
    await t.database.pool.query(
      `update alerts set state = 'resolved', resolution = 'manual', resolved_at = now() where id = $1`,
      [id],
    );
    expect(await raiseAlert(t.database.db, alert)).toBeNull();
    expect(await resolveAlertsFor(t.database.db, key)).toEqual([]);
    const [manual] = await alertsWhere('id = $1', [id]);
    expect(manual).toMatchObject({ state: 'resolved', resolution: 'manual' });
    expect(await raiseAlert(t.database.db, alert)).toEqual(expect.any(Number));
  });
});
