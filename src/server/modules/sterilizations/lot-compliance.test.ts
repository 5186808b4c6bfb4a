/**
 * Lot compliance: a record's lot_status follows the certificates of its lot, whether the
 * record or the certificate comes first, through the real ingestion and certificate APIs.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedDevice } from '#server/db/seed.ts';
import { customerIdOf, cycleClaim, makeCustomer, makeDevice, unique } from '#server/test/fixtures.ts';
import { postRecords } from '#server/test/ingest.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import { FILTERED_HEADER, OK_HEADER } from './exports.ts';
import { parseCsv } from './test-fixtures.ts';

let t: TestApp;
let admin: string;
let customerUser: string;
let ownCustomer: number;
let device: SeedDevice;
let pdf: Uint8Array;
let nextProgressive = 700_000;

beforeAll(async () => {
  t = await createTestApp();
  [admin, customerUser] = await Promise.all([t.login(DEMO.admin), t.login(DEMO.customer)]);
  ownCustomer = await customerIdOf(t, DEMO.customer);
  device = t.seed.devices.find((candidate) => candidate.customerId === ownCustomer) as SeedDevice;
  const document = await PDFDocument.create();
  document
    .addPage()
    .drawText('Certificato', { x: 50, y: 700, font: await document.embedFont(StandardFonts.Helvetica) });
  pdf = await document.save();
});
afterAll(() => t?.close());

const lotName = () => `LC-${unique()}`;

async function ingest(lot: string | null): Promise<number> {
  nextProgressive += 1;
  const record = cycleClaim(nextProgressive, {
    consumables_lot: lot,
    lot_progressive_id: lot === null ? null : 1,
  });
  const response = await postRecords(t.app, device, [record]);
  expectContract('ingestSterilizations', response, 200);
  return response.json().data[0].id;
}

async function uploadCertificate(lot: string, expiration: string): Promise<number> {
  const form = new FormData();
  form.append('lot_number', lot);
  form.append('validated_treatment_number', `VT-${unique()}`);
  form.append('expiration_date', expiration);
  form.append('italian_file', new Blob([pdf as BlobPart], { type: 'application/pdf' }), 'certificato.pdf');
  const response = await t.as(admin, { method: 'POST', url: '/api/v1/certificates', payload: form });
  expectContract('uploadCertificate', response, 201);
  return response.json().data.id;
}

async function deleteCertificate(id: number): Promise<void> {
  const response = await t.as(admin, { method: 'DELETE', url: `/api/v1/certificates/${id}` });
  expect(response.statusCode).toBe(200);
}

/** What deleting a certificate would change, as the delete dialog asks it. */
async function recordsLosingCertification(id: number, token = admin): Promise<number> {
  const response = await t.as(token, { method: 'GET', url: `/api/v1/certificates/${id}/deletion-impact` });
  expectContract('getCertificateDeletionImpact', response, 200);
  return response.json().data.records_losing_certification;
}

/** A record's lot_status as the list answers it (the customer user sees its own records). */
async function statusOf(id: number): Promise<string> {
  const response = await t.as(customerUser, {
    method: 'GET',
    url: `/api/v1/recall/records?lot=${encodeURIComponent(await lotOf(id))}`,
  });
  expectContract('listRecallRecords', response, 200);
  const row = (response.json().data.data as { id: number; lot_status: string }[]).find((r) => r.id === id);
  if (!row) throw new Error(`record ${id} not listed`);
  return row.lot_status;
}

async function lotOf(id: number): Promise<string> {
  const result = await t.database.pool.query('select consumables_lot from sterilizations where id = $1', [
    id,
  ]);
  return result.rows[0].consumables_lot;
}

const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('lot compliance', () => {
  it('flags a record whose lot has no certificate, clears it by a later upload, flags it after expiry', async () => {
    const lot = lotName();
    const record = await ingest(lot);
    expect(await statusOf(record)).toBe('uncertified');

    const certificate = await uploadCertificate(lot, dayOffset(30));
    expect(await statusOf(record)).toBe('certified');

    // The certificate is withdrawn: the record is uncertified again; a certificate that had already
    // expired when the record arrived does not cover it.
    await deleteCertificate(certificate);
    expect(await statusOf(record)).toBe('uncertified');
    await uploadCertificate(lot, dayOffset(-1));
    expect(await statusOf(record)).toBe('expired');
    // A record of that lot stored after its only certificate expired is flagged as it arrives.
    expect(await statusOf(await ingest(lot))).toBe('expired');
  });

  it('is certified when any certificate of the lot covers the day, expired only past all of them', async () => {
    const lot = lotName();
    const customer = await makeCustomer(t);
    const fixtureDevice = await makeDevice(t, customer);
    const ids: number[] = [];
    for (const [i, day] of ['2024-03-01', '2024-03-02', '2024-03-03', '2024-03-05'].entries()) {
      const inserted = await t.database.pool.query(
        `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
           effective_time, residual_lamp_life, status_code, consumables_lot)
         values ($1, $2, $3, $4, 300, 10, 10, 4000, 0, $5) returning id`,
        [fixtureDevice, customer, `${day}T23:59:59.000Z`, i + 1, lot],
      );
      ids.push(Number(inserted.rows[0].id));
    }
    const statuses = async () =>
      (
        await t.database.pool.query('select lot_status from sterilizations where id = any($1) order by id', [
          ids,
        ])
      ).rows.map((row) => row.lot_status);
    expect(await statuses()).toEqual(['uncertified', 'uncertified', 'uncertified', 'uncertified']);
    const earlier = await uploadCertificate(lot, '2024-03-02');
    // Covered through the expiration day itself (UTC), expired from the next day on.
    expect(await statuses()).toEqual(['certified', 'certified', 'expired', 'expired']);
    const later = await uploadCertificate(lot, '2024-03-03');
    expect(await statuses()).toEqual(['certified', 'certified', 'certified', 'expired']);
    // Asked before deleting: the later one alone covers the third record; the earlier one, nothing
    // the later does not cover too.
    expect(await recordsLosingCertification(later)).toBe(1);
    expect(await recordsLosingCertification(earlier)).toBe(0);
    await deleteCertificate(later);
    expect(await statuses()).toEqual(['certified', 'certified', 'expired', 'expired']);
    expect(await recordsLosingCertification(earlier)).toBe(2);
    const gone = await t.as(admin, { method: 'GET', url: `/api/v1/certificates/${later}/deletion-impact` });
    expectContract('getCertificateDeletionImpact', gone, 404);
    const refused = await t.as(customerUser, {
      method: 'GET',
      url: `/api/v1/certificates/${earlier}/deletion-impact`,
    });
    expectContract('getCertificateDeletionImpact', refused, 403);
  });

  it('gives a record without a lot its own state, never flagged', async () => {
    const record = await ingest(null);
    const result = await t.database.pool.query('select lot_status from sterilizations where id = $1', [
      record,
    ]);
    expect(result.rows[0].lot_status).toBe('no_lot');
    const flagged = await t.as(customerUser, {
      method: 'GET',
      url: `/api/v1/sterilizations?lotStatus=flagged&customerId=${ownCustomer}`,
    });
    expect((flagged.json().data.data as { id: number }[]).map((row) => row.id)).not.toContain(record);
  });
});

describe('lot status filter, dashboard and exports', () => {
  let customer: number;
  let lots: { certified: string; uncertified: string; expired: string };
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    customer = await makeCustomer(t, { name: `Lot filter clinic ${unique()}` });
    const fixtureDevice = await makeDevice(t, customer);
    lots = { certified: lotName(), uncertified: lotName(), expired: lotName() };
    await uploadCertificate(lots.certified, '2030-01-01');
    await uploadCertificate(lots.expired, '2020-01-01');
    const rows: [string, string | null][] = [
      ['certified', lots.certified],
      ['uncertified', lots.uncertified],
      ['expired', lots.expired],
      ['no_lot', null],
    ];
    for (const [i, [name, lot]] of rows.entries()) {
      const inserted = await t.database.pool.query(
        `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
           effective_time, residual_lamp_life, status_code, consumables_lot)
         values ($1, $2, $3, $4, 300, 10, 10, 4000, 0, $5) returning id`,
        [fixtureDevice, customer, `2024-06-0${i + 1}T10:00:00.000Z`, i + 1, lot],
      );
      ids[name] = Number(inserted.rows[0].id);
    }
  });

  const listed = async (token: string, query: string) => {
    const response = await t.as(token, { method: 'GET', url: `/api/v1/sterilizations?${query}` });
    expectContract('listSterilizations', response, 200);
    return response.json().data as { data: { id: number; lot_status: string }[]; total: number };
  };

  it('narrows the list to each state and to the flagged ones', async () => {
    const expected: Record<string, string[]> = {
      flagged: ['expired', 'uncertified'],
      uncertified: ['uncertified'],
      expired: ['expired'],
      certified: ['certified'],
      no_lot: ['no_lot'],
    };
    for (const [filter, names] of Object.entries(expected)) {
      const page = await listed(admin, `customerId=${customer}&lotStatus=${filter}`);
      expect(page.data.map((row) => row.lot_status).sort(), filter).toEqual(names);
      expect(page.total, filter).toBe(names.length);
    }
    // Under other sorts and a device-less global scope, the filter still holds.
    for (const sortBy of ['device_serial', 'consumables_lot']) {
      const page = await listed(admin, `customerId=${customer}&lotStatus=flagged&sortBy=${sortBy}`);
      expect(page.data.map((row) => row.id).sort()).toEqual([ids.uncertified, ids.expired].sort());
    }
    const everywhere = await listed(admin, 'lotStatus=expired');
    expect(everywhere.data.every((row) => row.lot_status === 'expired')).toBe(true);
    expect(everywhere.data.map((row) => row.id)).toContain(ids.expired);
  });

  it("keeps a customer user's filter to its own records and refuses unknown states", async () => {
    const own = await listed(customerUser, `customerId=${customer}&lotStatus=flagged`);
    expect(own).toMatchObject({ data: [], total: 0 });
    const bad = await t.as(admin, { method: 'GET', url: '/api/v1/sterilizations?lotStatus=bogus' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ message: 'validation_error', data: { lotStatus: expect.any(Array) } });
  });

  it('counts flagged records and lots on the dashboard, per tenant', async () => {
    const expectedFor = async (scope: number | null) => {
      const result = await t.database.pool.query(
        `select count(*)::int as records, count(distinct consumables_lot)::int as lots from sterilizations
         where lot_status in ('uncertified', 'expired') and ($1::int is null or customer_id = $1)`,
        [scope],
      );
      return { flagged_records: result.rows[0].records, flagged_lots: result.rows[0].lots };
    };
    for (const [token, scope] of [
      [admin, null],
      [customerUser, ownCustomer],
    ] as const) {
      const response = await t.as(token, { method: 'GET', url: '/api/v1/dashboard' });
      expectContract('getDashboard', response, 200);
      expect(response.json().data.lot_compliance).toEqual(await expectedFor(scope));
    }
    // The counts the triggers kept through every upload, delete and insert above equal a recount.
    const kept = await t.database.pool.query(
      // A lot's figure is the sum of its rows (migration 0016).
      `select customer_id, consumables_lot, sum(flagged)::int as flagged from lot_flag_counts
        group by 1, 2 having sum(flagged) <> 0 order by 1, 2`,
    );
    const recount = await t.database.pool.query(
      `select customer_id, consumables_lot, count(*)::int as flagged from sterilizations
       where lot_status in ('uncertified', 'expired') group by 1, 2 order by 1, 2`,
    );
    expect(kept.rows).toEqual(recount.rows);
    const staff = await t.as(admin, { method: 'GET', url: '/api/v1/dashboard' });
    expect(staff.json().data.lot_compliance.flagged_records).toBeGreaterThanOrEqual(2);
  });

  it('appends lot_status to both CSV exports and honours the filter in the filtered one', async () => {
    const ticket = async (exportName: string) =>
      (
        await t.as(admin, { method: 'POST', url: '/api/v1/export-tickets', payload: { export: exportName } })
      ).json().data.ticket as string;
    const filtered = await t.app.inject({
      method: 'GET',
      url: `/export/sterilizations-filtered?ticket=${await ticket('sterilizations-filtered')}&customerId=${customer}`,
    });
    const [header, ...rows] = parseCsv(filtered.body);
    expect(header).toEqual(FILTERED_HEADER);
    const lotStatus = FILTERED_HEADER.indexOf('lot_status');
    expect(FILTERED_HEADER.slice(lotStatus)).toEqual([
      'lot_status',
      'out_of_order',
      'cycle_ts_utc',
      'device_clock_ahead',
    ]);
    expect(Object.fromEntries(rows.map((row) => [Number(row[0]), row[lotStatus]]))).toEqual({
      [ids.certified as number]: 'certified',
      [ids.uncertified as number]: 'uncertified',
      [ids.expired as number]: 'expired',
      [ids.no_lot as number]: 'no_lot',
    });
    const flaggedOnly = await t.app.inject({
      method: 'GET',
      url: `/export/sterilizations-filtered?ticket=${await ticket('sterilizations-filtered')}&customerId=${customer}&lotStatus=flagged`,
    });
    expect(
      parseCsv(flaggedOnly.body)
        .slice(1)
        .map((row) => Number(row[0]))
        .sort(),
    ).toEqual([ids.uncertified, ids.expired].sort());

    const ok = await t.app.inject({
      method: 'GET',
      url: `/export/sterilizations-ok?ticket=${await ticket('sterilizations-ok')}&from=2024-06-01&to=2024-06-04`,
    });
    const [okHeader, ...okRows] = parseCsv(ok.body);
    expect(okHeader).toEqual(OK_HEADER);
    const okLotStatus = OK_HEADER.indexOf('lot_status');
    expect(okLotStatus).toBe(OK_HEADER.length - 4);
    const mine = okRows.filter((row) => Number(row[0]) === customer);
    expect(mine.map((row) => [Number(row[4]), row[okLotStatus]])).toEqual([
      [ids.certified, 'certified'],
      [ids.uncertified, 'uncertified'],
      [ids.expired, 'expired'],
      [ids.no_lot, 'no_lot'],
    ]);
  });
});
