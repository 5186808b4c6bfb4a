/**
 * Every alert kind, one case each, from its real cause (a signed ingestion through HTTP, or the sweep
 * with a given clock) to its end through the API: the clinic's own user and the staff see it, another
 * clinic neither lists it nor may touch it (404), staff-only kinds reach no clinic; acknowledged and
 * resolved by hand through HTTP; and the cause repeated raises no second alert. On PGlite, and on
 * PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { asDatabaseOwner, makeUser, unique } from '#server/test/fixtures.ts';
import { mintSession, mintSessionOf } from '#server/test/sessions.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import { ALERT_KINDS, type AlertKind, STAFF_ONLY_ALERT_KINDS } from '#shared/alerts/index.ts';
import type { Alert } from '#shared/api/index.ts';
import { type Chain, connectChain, createAnchorWorker } from '../integrity/index.ts';
import { DAY, HOUR, ingest, makeClinic, nextRecord, type Clinic as SigningClinic } from './test-fixtures.ts';

let t: TestApp;
let staff: { care: string; admin: string };
let otherClinic: string;
const today = new Date(Math.floor(Date.now() / DAY) * DAY);

beforeAll(async () => {
  t = await createTestApp();
  staff = {
    care: await mintSessionOf(t, DEMO.care),
    admin: await mintSessionOf(t, DEMO.admin),
  };
  otherClinic = await mintSessionOf(t, DEMO.customer);
});
afterAll(() => t?.close());

interface Clinic extends SigningClinic {
  user: string;
  lot: string;
  /** What a staff-only alert is about (a block id, or the record an integrity mismatch names). */
  subject?: number;
}

async function clinic(): Promise<Clinic> {
  const c = await makeClinic(t);
  const user = await mintSession(t, await makeUser(t, c.customerId, 'CUSTOMER'));
  return { ...c, user, lot: `L-${unique()}` };
}

async function certificate(lot: string, expires: Date) {
  await t.database.pool.query(
    `insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name)
     values ($1, $2, $3, 'c.pdf')`,
    [lot, `VT-${unique()}`, expires.toISOString().slice(0, 10)],
  );
}

const batch = (c: Clinic) => ({ consumables_lot: c.lot, lot_progressive_id: 1, batch_quantity: 5 });

interface Case {
  kind: AlertKind;
  label: string;
  /** Makes the condition happen. */
  cause(c: Clinic): Promise<unknown>;
  /** Makes it happen again (or goes on) after the alert was resolved by hand. */
  again(c: Clinic): Promise<unknown>;
  /** Which of the kind's alerts is this case's (default: the clinic's). */
  where?: string;
}

const cases: Case[] = [
  {
    kind: 'failed_cycle',
    label: 'a failed cycle',
    cause: (c) => ingest(t, c, [nextRecord(c, { status_code: 2 })]),
    // The device sends the same record again.
    again: (c) => ingest(t, c, [nextRecord(c, { status_code: 2, progressive_id: c.progressive })]),
  },
  {
    kind: 'lamp_life_low',
    label: 'a low lamp',
    cause: (c) => ingest(t, c, [nextRecord(c, { residual_lamp_life: 150 })]),
    again: (c) => ingest(t, c, [nextRecord(c, { residual_lamp_life: 120 })]),
  },
  {
    kind: 'batch_80',
    label: 'a batch at 80 %',
    cause: (c) =>
      ingest(
        t,
        c,
        [1, 2, 3, 4].map(() => nextRecord(c, batch(c))),
      ),
    again: (c) => ingest(t, c, [nextRecord(c, batch(c))]),
  },
  {
    kind: 'batch_100',
    label: 'a full batch',
    cause: (c) =>
      ingest(
        t,
        c,
        [1, 2, 3, 4, 5].map(() => nextRecord(c, batch(c))),
      ),
    again: (c) => ingest(t, c, [nextRecord(c, batch(c))]),
  },
  {
    kind: 'device_silent',
    label: 'a silent device',
    cause: async (c) => {
      await ingest(t, c, [nextRecord(c)]);
      await t.app.alerts.sweep(new Date(Date.now() + 73 * HOUR));
    },
    again: async () => {
      await t.app.alerts.sweep(new Date(Date.now() + 90 * HOUR));
    },
  },
  {
    kind: 'certificate_expiring',
    label: 'a certificate expiring',
    cause: async (c) => {
      await ingest(t, c, [
        nextRecord(c, { consumables_lot: c.lot, lot_progressive_id: 1, batch_quantity: 100 }),
      ]);
      await certificate(c.lot, new Date(today.getTime() + 10 * DAY));
      await t.app.alerts.sweep(today);
    },
    again: async () => {
      await t.app.alerts.sweep(new Date(today.getTime() + DAY));
    },
  },
  {
    kind: 'certificate_expired',
    label: 'a certificate expired',
    cause: async (c) => {
      await ingest(t, c, [
        nextRecord(c, { consumables_lot: c.lot, lot_progressive_id: 1, batch_quantity: 100 }),
      ]);
      await certificate(c.lot, new Date(today.getTime() + 10 * DAY));
      await t.app.alerts.sweep(new Date(today.getTime() + 11 * DAY));
    },
    again: async () => {
      await t.app.alerts.sweep(new Date(today.getTime() + 12 * DAY));
    },
  },
  {
    kind: 'block_not_mined',
    label: 'a block not mined',
    cause: async (c) => {
      // The clinic's record, anchored in a block that stays SENT.
      await ingest(t, c, [nextRecord(c)]);
      const block = await t.database.pool.query(
        `insert into blockchain_data_blocks (status, network) values ('SENT', 'devnet') returning id`,
      );
      c.subject = Number(block.rows[0].id);
      await t.database.pool.query(
        'update sterilizations set blockchain_data_block_id = $1 where device_id = $2',
        [c.subject, c.deviceId],
      );
      await t.app.alerts.sweep(new Date(Date.now() + 31 * 60_000));
    },
    again: async () => {
      await t.app.alerts.sweep(new Date(Date.now() + 45 * 60_000));
    },
    where: `subject_id = $1`,
  },
  {
    kind: 'record_gap',
    label: 'missing records',
    cause: (c) => ingest(t, c, [nextRecord(c), nextRecord(c, { progressive_id: 4 })]),
    again: (c) => ingest(t, c, [nextRecord(c, { progressive_id: 7 })]),
    where: `customer_id = $1 and condition_key like 'record_gap:%'`,
  },
  {
    kind: 'record_gap',
    label: 'a record after a higher one',
    cause: async (c) => {
      await ingest(t, c, [
        nextRecord(c),
        nextRecord(c, { progressive_id: 2 }),
        nextRecord(c, { progressive_id: 4 }),
      ]);
      await ingest(t, c, [nextRecord(c, { progressive_id: 3 })]);
    },
    // The same late record sent again.
    again: (c) => ingest(t, c, [nextRecord(c, { progressive_id: 3 })]),
    where: `customer_id = $1 and condition_key like 'record_out_of_order:%'`,
  },
  {
    kind: 'device_clock_ahead',
    label: 'a device dating its cycles later than they arrive',
    cause: (c) => ingest(t, c, [nextRecord(c, { cycle_ts: new Date(Date.now() + 2 * HOUR).toISOString() })]),
    again: (c) => ingest(t, c, [nextRecord(c, { cycle_ts: new Date(Date.now() + 3 * HOUR).toISOString() })]),
  },
  {
    kind: 'lot_uncertified',
    label: 'a lot without a certificate',
    cause: (c) => ingest(t, c, [nextRecord(c, { consumables_lot: c.lot, lot_progressive_id: 1 })]),
    again: (c) => ingest(t, c, [nextRecord(c, { consumables_lot: c.lot, lot_progressive_id: 2 })]),
  },
  {
    kind: 'integrity_mismatch',
    label: 'a record changed in the database after its device signed it',
    cause: async (c) => {
      await ingest(t, c, [nextRecord(c)]);
      const stored = await t.database.pool.query('select id from sterilizations where device_id = $1', [
        c.deviceId,
      ]);
      c.subject = Number(stored.rows[0].id);
      await asDatabaseOwner(t.database, 'update sterilizations set status_code = 7 where id = $1', [
        c.subject,
      ]);
      await t.app.integritySweep.runPass();
    },
    again: async () => {
      await t.app.integritySweep.runPass();
    },
    where: `subject_id = $1`,
  },
  {
    kind: 'anchor_fee_ceiling',
    label: 'a block waiting because the chain asks more per gas than the ceiling',
    cause: async (c) => {
      await ingest(t, c, [nextRecord(c)]);
      // A ceiling of 1 wei per gas: below any base fee the devnet asks, so the next block waits.
      await feeCappedWorker().tick();
      const waiting = await t.database.pool.query(
        `select id from blockchain_data_blocks where status = 'PENDING' and merkle_root is not null
          order by id limit 1`,
      );
      c.subject = Number(waiting.rows[0].id);
    },
    again: async () => {
      await feeCappedWorker().tick();
    },
    where: `subject_id = $1`,
  },
];

let devnet: Chain | undefined;
/** An anchor worker on the devnet whose fee ceiling no block can be anchored under. */
function feeCappedWorker() {
  return {
    async tick() {
      devnet ??= await connectChain(loadConfig({}).chain);
      await createAnchorWorker({
        db: t.database.db,
        chain: devnet,
        batchSize: 1000,
        intervalSeconds: 0,
        confirmations: 1,
        maxFeePerGas: 1n,
      }).tick();
    },
  };
}

const get = (token: string, url: string) => t.as(token, { method: 'GET', url: `/api/v1${url}` });
const post = (token: string, url: string, payload: object = {}) =>
  t.as(token, { method: 'POST', url: `/api/v1${url}`, payload });

async function listed(token: string, query: string): Promise<number[]> {
  const response = await get(token, `/alerts?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data.data as Alert[]).map((alert) => alert.id);
}

async function alertsOf(c: Clinic, item: Case): Promise<number[]> {
  const staffOnly = STAFF_ONLY_ALERT_KINDS.includes(item.kind);
  const where = item.where ?? 'customer_id = $1';
  const found = await t.database.pool.query(
    `select id from alerts where kind = $2 and ${where} order by id`,
    [staffOnly ? c.subject : c.customerId, item.kind],
  );
  return found.rows.map((row) => Number(row.id));
}

describe('every alert kind, from its cause to its resolution', () => {
  it('has a case for each kind', () => {
    expect(new Set(cases.map((item) => item.kind))).toEqual(new Set(ALERT_KINDS));
  });

  for (const item of cases) {
    it(`${item.kind}: ${item.label}`, async () => {
      const c = await clinic();
      await item.cause(c);
      const raised = await alertsOf(c, item);
      expect(raised).toHaveLength(1);
      const id = raised[0] as number;
      const staffOnly = STAFF_ONLY_ALERT_KINDS.includes(item.kind);

      // Who sees it.
      // (Newest first: were it visible, it would be on the first page.)
      expect(await listed(staff.care, `kind=${item.kind}`)).toContain(id);
      expect(await listed(otherClinic, `kind=${item.kind}`)).not.toContain(id);
      expect(await listed(otherClinic, `kind=${item.kind}&customerId=${c.customerId}`)).toEqual([]);
      const ownView = await listed(c.user, `kind=${item.kind}`);
      if (staffOnly) expect(ownView).toEqual([]);
      else expect(ownView).toContain(id);
      for (const step of ['acknowledge', 'resolve']) {
        expect((await post(otherClinic, `/alerts/${id}/${step}`)).statusCode).toBe(404);
        if (staffOnly) expect((await post(c.user, `/alerts/${id}/${step}`)).statusCode).toBe(404);
      }

      // Acknowledged, then resolved by hand, by the clinic (by the staff for a staff-only kind).
      const acknowledged = await post(staffOnly ? staff.care : c.user, `/alerts/${id}/acknowledge`, {
        comment: 'Seen',
      });
      expect(acknowledged.statusCode, acknowledged.body).toBe(200);
      expect(acknowledged.json().data).toMatchObject({ state: 'acknowledged', acknowledge_comment: 'Seen' });
      const resolved = await post(staffOnly ? staff.admin : c.user, `/alerts/${id}/resolve`, {
        comment: 'Dealt with',
      });
      expect(resolved.statusCode, resolved.body).toBe(200);
      expect(resolved.json().data).toMatchObject({ state: 'resolved', resolution: 'manual' });

      // The cause goes on or comes again: no second alert.
      await item.again(c);
      expect(await alertsOf(c, item)).toEqual([id]);
    });
  }
});
