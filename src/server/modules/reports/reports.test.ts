/**
 * Compliance reports through HTTP: the PDF's text holds the figures getComplianceSummary answers (en
 * and it), electronic signatures (re-authentication, meaning, manifestation on every page, versions,
 * audit), immutability and the tenant and ability rules.
 */
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatCount, REPORT_TEXTS, type ReportLanguage } from '#server/pdf/report/texts.ts';
import { hashPassword } from '#server/security/passwords.ts';
import { databaseDigest } from '#server/test/contract-support.ts';
import { makeCustomer, unique } from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import {
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  formBody,
  type TestApp,
  uniqueClientAddress,
} from '#server/test/test-app.ts';
import type { ComplianceSummary } from './summary.ts';

let t: TestApp;
let clinic: number;
let otherClinic: number;
let admin: string;
let care: string;
let clinicUser: string;
let otherClinicUser: string;
const CLINIC_PASSWORD = 'clinic-password-1';
const TX_HASH = `0x${'ab'.repeat(32)}`;
const PERIOD = { from: '2025-03-01', to: '2025-03-31' };

async function pdfText(bytes: Buffer | Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

async function pageTexts(bytes: Buffer | Uint8Array): Promise<string[]> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false });
  return (text as string[]).map((page) => page.replace(/\s+/g, ' '));
}

async function userOf(customerId: number, name: string): Promise<string> {
  const email = `report-${unique().toLowerCase()}@example.com`;
  await t.database.pool.query(
    `insert into users (customer_id, name, email, password_hash, role) values ($1, $2, $3, $4, 'CUSTOMER')`,
    [customerId, name, email, await hashPassword(CLINIC_PASSWORD)],
  );
  return t.login(email, CLINIC_PASSWORD);
}

async function device(customerId: number, serial: string, label: string): Promise<number> {
  const product = await t.database.pool.query(`select id from products where type = 2 order by id limit 1`);
  const made = await t.database.pool.query(
    `insert into devices (customer_id, product_id, device_serial, label) values ($1, $2, $3, $4) returning id`,
    [customerId, product.rows[0].id, serial, label],
  );
  return Number(made.rows[0].id);
}

let progressive = 1;
async function cycles(
  deviceId: number,
  owner: number,
  receivedTs: string,
  status: number,
  count: number,
  lot: [string, number] | null = null,
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) {
    progressive += 1;
    const made = await t.database.pool.query(
      `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code, consumables_lot, lot_progressive_id)
       values ($1, $2, $3, $4, 300, 10, 10, 4000, $5, $6, $7) returning id`,
      [deviceId, owner, receivedTs, progressive, status, lot?.[0] ?? null, lot?.[1] ?? null],
    );
    ids.push(Number(made.rows[0].id));
  }
  return ids;
}

const serialA = `RA${unique()}`.slice(0, 8);
const serialB = `RB${unique()}`.slice(0, 8);
const lotIn = `LIN-${unique()}`;
const lotExpired = `LEX-${unique()}`;
const lotMissing = `LMI-${unique()}`;
const failedIds: number[] = [];
const lateIds: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  clinic = await makeCustomer(t, { name: `Clinica Report ${unique()}` });
  otherClinic = await makeCustomer(t, { name: `Other Report ${unique()}` });
  await t.database.pool.query(`update customers set enable_blockchain = true, city = 'Forlì' where id = $1`, [
    clinic,
  ]);
  admin = await t.login(DEMO.admin);
  care = await t.login(DEMO.care);
  clinicUser = await userOf(clinic, 'Dott.ssa Lucía Ferrè 😀');
  otherClinicUser = await userOf(otherClinic, 'Other clinic user');

  const a = await device(clinic, serialA, 'Bath A');
  const b = await device(clinic, serialB, 'Bath B');
  await cycles(a, clinic, '2025-03-02T10:00:00Z', 0, 5, [lotIn, 1]);
  failedIds.push(...(await cycles(a, clinic, '2025-03-03T10:00:00Z', 1, 2, [lotIn, 1])));
  failedIds.push(...(await cycles(a, clinic, '2025-03-04T10:00:00Z', 2, 1, [lotExpired, 1])));
  failedIds.push(...(await cycles(a, clinic, '2025-03-05T10:00:00Z', 3, 1, [lotExpired, 1])));
  await cycles(b, clinic, '2025-03-31T23:59:59Z', 0, 3, [lotMissing, 2]);
  failedIds.push(...(await cycles(b, clinic, '2025-03-20T08:00:00Z', 7, 1)));
  // Outside the period, and a record of the same device owned by another customer: not counted.
  await cycles(a, clinic, '2025-04-01T00:00:00Z', 0, 2, [lotIn, 1]);
  await cycles(b, otherClinic, '2025-03-10T00:00:00Z', 2, 4);
  // Device A's clinic sequence (2..10, 15, 16 so far) jumps to 31 on 25 March, then the skipped 25
  // arrives late: gaps 17..24 and 26..30 end in the period (11..14 ends with 15, in April), 25 is out
  // of order.
  progressive = 30;
  await cycles(a, clinic, '2025-03-25T10:00:00Z', 0, 1);
  progressive = 24;
  lateIds.push(...(await cycles(a, clinic, '2025-03-26T10:00:00Z', 0, 1)));
  progressive = 31;
  await t.database.pool.query(
    `insert into consumable_batches (device_id, customer_id, lot_code, lot_progressive, batch_quantity, sterilization_count)
     values ($1, $2, $3, 1, 100, 9), ($4, $2, $5, 2, 50, 3)`,
    [a, clinic, lotIn, b, lotMissing],
  );
  await t.database.pool.query(
    `insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name)
     values ($1, 'VT-1', '2026-12-31', 'a.pdf'), ($2, 'VT-2', '2025-03-01', 'b.pdf')`,
    [lotIn, lotExpired],
  );
  // Two of the period's records are in a mined block.
  const block = await t.database.pool.query(
    `insert into blockchain_data_blocks (status, network, transaction_hash, merkle_root, hashing_version)
     values ('MINED', 'devnet', $1, $1, 2) returning id`,
    [TX_HASH],
  );
  await t.database.pool.query(
    `update sterilizations set blockchain_data_block_id = $1, merkle_proof = '{}', hashing_version = 2
     where id in (select id from sterilizations where customer_id = $2 and received_ts < '2025-03-03' order by id limit 2)`,
    [block.rows[0].id, clinic],
  );
});
afterAll(() => t?.close());

const summaryOf = async (token: string, customerId = clinic, query = `from=${PERIOD.from}&to=${PERIOD.to}`) =>
  t.as(token, { method: 'GET', url: `/api/v1/customers/${customerId}/compliance-summary?${query}` });

const generate = (token: string, customerId: number, fields: Record<string, string>) =>
  t.as(token, { method: 'POST', url: `/api/v1/customers/${customerId}/reports`, ...formBody(fields) });

const sign = (token: string, customerId: number, reportId: number, fields: Record<string, string>) =>
  t.as(token, {
    method: 'POST',
    url: `/api/v1/customers/${customerId}/reports/${reportId}/signatures`,
    headers: { 'x-forwarded-for': uniqueClientAddress() },
    ...formBody(fields),
  });

const download = (token: string, customerId: number, reportId: number, version: number | 'draft') =>
  t.as(token, {
    method: 'GET',
    url: `/api/v1/customers/${customerId}/reports/${reportId}/${version === 'draft' ? 'draft' : `versions/${version}`}`,
  });

describe('the compliance summary', () => {
  it('counts the period by the records owner at cycle time, per device and status, with lots, batches and anchoring', async () => {
    const response = await summaryOf(clinicUser);
    expect(response.statusCode, response.body).toBe(200);
    const summary = response.json().data as ComplianceSummary;
    expect(summary.period).toEqual(PERIOD);
    expect(summary.totals).toEqual({
      total: 15,
      ok: 10,
      nulled: 2,
      lamp_malfunction: 1,
      probe_malfunction: 1,
      other: 1,
    });
    expect(summary.devices.map((d) => [d.device_serial, d.cycles.total, d.cycles.ok])).toEqual([
      [serialA, 11, 7],
      [serialB, 4, 3],
    ]);
    expect(summary.failed_cycles.map((cycle) => cycle.id).sort((x, y) => x - y)).toEqual(failedIds);
    expect(summary.sequence).toEqual({
      missing_records: 13,
      gaps: [
        {
          device_serial: serialA,
          first_missing: 17,
          last_missing: 24,
          count: 8,
          ended_by_received_ts: '2025-03-26T10:00:00.000Z',
        },
        {
          device_serial: serialA,
          first_missing: 26,
          last_missing: 30,
          count: 5,
          ended_by_received_ts: '2025-03-25T10:00:00.000Z',
        },
      ],
      gaps_total: 2,
      gaps_listed: 2,
      out_of_order_total: 1,
      out_of_order: [
        {
          id: lateIds[0],
          device_serial: serialA,
          progressive_id: 25,
          received_ts: '2025-03-26T10:00:00.000Z',
        },
      ],
      out_of_order_listed: 1,
    });
    expect(summary.lot_compliance).toEqual({ certified: 7, expired: 2, uncertified: 3, no_lot: 3 });
    expect(summary.lots.find((lot) => lot.lot === lotExpired)?.lot_status).toEqual({
      certified: 0,
      expired: 2,
      uncertified: 0,
      no_lot: 0,
    });
    expect(summary.lots.map((lot) => [lot.lot, lot.cycles, lot.certificate_status]).sort()).toEqual(
      [
        [lotExpired, 2, 'expired'],
        [lotIn, 7, 'in_force'],
        [lotMissing, 3, 'missing'],
      ].sort(),
    );
    expect(summary.batches).toContainEqual({
      device_serial: serialA,
      lot_code: lotIn,
      lot_progressive: 1,
      batch_quantity: 100,
      sterilization_count: 9,
      cycles_in_period: 7,
    });
    expect(summary.anchoring).toMatchObject({ anchored: 2, waiting: 13, not_enabled: 0 });
    expect(summary.anchoring.blocks).toEqual([
      expect.objectContaining({ status: 'MINED', network: 'devnet', transaction_hash: TX_HASH, records: 2 }),
    ]);
    expect(summary.verification_url).toMatch(/^https?:\/\/[^/]+\/verify$/);
  });

  it('defaults to the previous calendar month and refuses a bad period', async () => {
    const month = await summaryOf(admin, clinic, '');
    expect(month.statusCode).toBe(200);
    const { from, to } = month.json().data.period;
    expect(from).toMatch(/^\d{4}-\d{2}-01$/);
    expect(new Date(`${to}T00:00:00Z`).getUTCMonth()).toBe(new Date(`${from}T00:00:00Z`).getUTCMonth());
    const reversed = await summaryOf(admin, clinic, 'from=2025-03-10&to=2025-03-01');
    expect(reversed.statusCode).toBe(422);
    expect(reversed.json().data).toEqual({ to: ['validation.report.to.before_from'] });
    const notADay = await summaryOf(admin, clinic, 'from=2025-02-30&to=2025-03-01');
    expect(notADay.statusCode).toBe(422);
    expect(Object.keys(notADay.json().data)).toEqual(['from']);
  });

  it("answers 404 for another clinic's summary to a clinic user", async () => {
    expect((await summaryOf(otherClinicUser)).statusCode).toBe(404);
    expect((await summaryOf(care)).statusCode).toBe(200);
  });
});

describe('the report PDF', () => {
  for (const language of ['en', 'it'] as const satisfies ReportLanguage[]) {
    it(`prints the figures the API answers, in ${language}`, async () => {
      const summary = (await summaryOf(admin)).json().data as ComplianceSummary;
      const created = await generate(admin, clinic, { ...PERIOD, language });
      expect(created.statusCode, created.body).toBe(201);
      const report = created.json().data;
      expect(report).toMatchObject({
        customer_id: clinic,
        language,
        status: 'draft',
        versions: [],
        ...{ period_from: PERIOD.from, period_to: PERIOD.to },
      });
      const pdf = await download(admin, clinic, report.id, 'draft');
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      const text = await pdfText(pdf.rawPayload);
      const words = REPORT_TEXTS[language];
      const n = (value: number) => formatCount(language, value);
      const counts = (c: ComplianceSummary['totals']) =>
        [c.total, c.ok, c.nulled, c.lamp_malfunction, c.probe_malfunction, c.other].map(n).join(' ');

      expect(text).toContain(words.title);
      expect(text).toContain(summary.customer.name);
      expect(text).toContain('Forlì');
      expect(text).toContain(words.periodValue(summary.period.from, summary.period.to));
      expect(text).toContain(
        `${words.ok} ${words.nulled} ${words.lampMalfunction} ${words.probeMalfunction}`,
      );
      expect(text).toContain(counts(summary.totals));
      for (const d of summary.devices) {
        expect(text).toContain(`${d.device_serial} ${d.label} ${d.product_name} ${counts(d.cycles)}`);
      }
      for (const cycle of summary.failed_cycles) {
        expect(text).toContain(`${cycle.id} ${cycle.device_serial}`);
      }
      expect(text).toContain(words.statusName(2));
      expect(summary.sequence.gaps.length).toBeGreaterThan(0);
      expect(text).toContain(words.sequence);
      expect(text).toContain(`${words.missingRecords} ${n(summary.sequence.missing_records)}`);
      expect(text).toContain(`${words.gapRanges} ${n(summary.sequence.gaps_total)}`);
      expect(text).toContain(`${words.outOfOrderRecords} ${n(summary.sequence.out_of_order_total)}`);
      for (const gap of summary.sequence.gaps) {
        expect(text).toContain(
          `${gap.device_serial} ${gap.first_missing} ${gap.last_missing} ${n(gap.count)} ${gap.ended_by_received_ts.slice(0, 10)} ${gap.ended_by_received_ts.slice(11, 19)} UTC`,
        );
      }
      for (const late of summary.sequence.out_of_order) {
        expect(text).toContain(`${late.id} ${late.device_serial} ${late.progressive_id}`);
      }
      for (const status of ['certified', 'expired', 'uncertified', 'no_lot'] as const) {
        expect(text).toContain(`${words.lotStatus(status)} ${n(summary.lot_compliance[status])}`);
      }
      for (const lot of summary.lots) {
        expect(text).toContain(`${lot.lot} ${n(lot.cycles)} ${n(lot.lot_status.certified)}`);
      }
      for (const state of ['in_force', 'expired', 'missing'] as const)
        expect(text).toContain(words.certificateState(state));
      for (const batch of summary.batches) {
        expect(text).toContain(
          `${batch.device_serial} ${batch.lot_code} ${batch.lot_progressive} ${n(batch.cycles_in_period)}`,
        );
      }
      expect(text).toContain(`${words.anchored} ${n(summary.anchoring.anchored)}`);
      expect(text).toContain(`${words.waiting} ${n(summary.anchoring.waiting)}`);
      expect(text).toContain(`${words.notEnabled} ${n(summary.anchoring.not_enabled)}`);
      expect(text).toContain(TX_HASH);
      expect(text).toContain(summary.verification_url);
      expect(text).toContain(words.signatures);
    });
  }
});

describe('signing', () => {
  let reportId: number;
  beforeAll(async () => {
    reportId = (await generate(clinicUser, clinic, { ...PERIOD, language: 'it' })).json().data.id;
  });

  it('refuses a wrong password with a clear error, changes nothing but records the attempt in the audit trail', async () => {
    const withoutFailures = { 'public.audit_log': `action <> 'sign_failed'` };
    const before = await databaseDigest(t, withoutFailures);
    const draft = (await download(clinicUser, clinic, reportId, 'draft')).rawPayload;
    const response = await sign(clinicUser, clinic, reportId, {
      password: 'not-my-password',
      meaning: 'reviewed',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      message: 'validation_error',
      data: { password: ['validation.report.password.wrong'] },
    });
    // §11.200 attempts stay traceable: one sign_failed entry by this user on this report, nothing else.
    expect(await databaseDigest(t, withoutFailures)).toEqual(before);
    const failed = await t.database.pool.query(
      `select actor_user_id, actor_email, actor_role, changes from audit_log
       where action = 'sign_failed' and entity_type = 'report' and entity_id = $1`,
      [reportId],
    );
    expect(failed.rows).toHaveLength(1);
    expect(failed.rows[0]).toMatchObject({ actor_role: 'CUSTOMER', changes: {} });
    expect(failed.rows[0].actor_email).toMatch(/^report-.*@example\.com$/);
    const report = await t.as(clinicUser, {
      method: 'GET',
      url: `/api/v1/customers/${clinic}/reports/${reportId}`,
    });
    expect(report.json().data).toMatchObject({ status: 'draft', versions: [] });
    expect((await download(clinicUser, clinic, reportId, 'draft')).rawPayload.equals(draft)).toBe(true);
  });

  it('refuses bad input: no meaning, an unknown meaning, no password', async () => {
    const before = await databaseDigest(t);
    const bad = await sign(clinicUser, clinic, reportId, { password: CLINIC_PASSWORD, meaning: 'authored' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().data.meaning).toEqual(['validation.report.meaning.required']);
    const none = await sign(clinicUser, clinic, reportId, { meaning: 'reviewed' });
    expect(none.statusCode).toBe(422);
    expect(none.json().data.password).toEqual(['validation.report.password.required']);
    expect(await databaseDigest(t)).toEqual(before);
  });

  it('gives 403 to a user without canSignReports', async () => {
    const response = await sign(care, clinic, reportId, { password: DEMO_PASSWORD, meaning: 'reviewed' });
    expect(response.statusCode).toBe(403);
  });

  it("lets a clinic user neither sign nor read another clinic's report", async () => {
    const before = await databaseDigest(t);
    const signed = await sign(otherClinicUser, clinic, reportId, {
      password: CLINIC_PASSWORD,
      meaning: 'reviewed',
    });
    expect(signed.statusCode).toBe(404);
    const wrongPath = await sign(otherClinicUser, otherClinic, reportId, {
      password: CLINIC_PASSWORD,
      meaning: 'reviewed',
    });
    expect(wrongPath.statusCode).toBe(404);
    expect((await download(otherClinicUser, clinic, reportId, 'draft')).statusCode).toBe(404);
    expect((await download(otherClinicUser, otherClinic, reportId, 'draft')).statusCode).toBe(404);
    const list = await t.as(otherClinicUser, { method: 'GET', url: `/api/v1/customers/${clinic}/reports` });
    expect(list.statusCode).toBe(404);
    expect(await databaseDigest(t)).toEqual(before);
  });

  it('refuses a repeated signature: the same signer, report and meaning within a minute', async () => {
    const report = (await generate(clinicUser, clinic, { ...PERIOD, language: 'en' })).json().data.id;
    const reviewed = { password: CLINIC_PASSWORD, meaning: 'reviewed' };
    // Two copies of one request at once (a double click): one signature.
    const [first, second] = await Promise.all([
      sign(clinicUser, clinic, report, reviewed),
      sign(clinicUser, clinic, report, reviewed),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([201, 409]);
    const refused = first.statusCode === 409 ? first : second;
    expectContract('signReport', refused, 409);
    expect(refused.json()).toEqual({ status: 'error', message: 'reports.already_signed', data: null });
    // A replay a little later: still refused, and nothing changed.
    const before = await databaseDigest(t);
    const replayed = await sign(clinicUser, clinic, report, reviewed);
    expect(replayed.statusCode).toBe(409);
    expect(replayed.json().message).toBe('reports.already_signed');
    expect(await databaseDigest(t)).toEqual(before);
    const versions = async () =>
      (await t.as(clinicUser, { method: 'GET', url: `/api/v1/customers/${clinic}/reports/${report}` })).json()
        .data.versions as { meaning: string }[];
    expect(await versions()).toHaveLength(1);

    // Another signer, or another meaning, is a new decision.
    expect(
      (await sign(admin, clinic, report, { password: DEMO_PASSWORD, meaning: 'reviewed' })).statusCode,
    ).toBe(201);
    // And the same one again after a minute.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect((await sign(clinicUser, clinic, report, reviewed)).statusCode).toBe(201);
    } finally {
      vi.useRealTimers();
    }
    expect((await versions()).map((version) => version.meaning)).toEqual([
      'reviewed',
      'reviewed',
      'reviewed',
    ]);
  });

  it('signs as reviewed, then approved: two immutable versions, the manifestations on every page, in the audit trail', async () => {
    const reviewed = await sign(clinicUser, clinic, reportId, {
      password: CLINIC_PASSWORD,
      meaning: 'reviewed',
      comment: 'Controllato ✓ 🚀',
    });
    expect(reviewed.statusCode, reviewed.body).toBe(201);
    expect(reviewed.json().data).toMatchObject({
      status: 'reviewed',
      versions: [{ version: 1, meaning: 'reviewed' }],
    });

    const approved = await sign(admin, clinic, reportId, { password: DEMO_PASSWORD, meaning: 'approved' });
    expect(approved.statusCode, approved.body).toBe(201);
    const report = approved.json().data;
    expect(report.status).toBe('approved');
    expect(report.versions.map((v: { version: number; meaning: string }) => [v.version, v.meaning])).toEqual([
      [1, 'reviewed'],
      [2, 'approved'],
    ]);
    expect(report.versions[0].anchoring).toEqual({
      status: 'WAITING',
      block_id: null,
      network: null,
      transaction_hash: null,
    });

    // No anchor worker runs in this app: the receipt is not there yet.
    const receipt = await t.as(clinicUser, {
      method: 'GET',
      url: `/api/v1/customers/${clinic}/reports/${reportId}/versions/1/receipt`,
    });
    expect(receipt.statusCode).toBe(409);
    expect(receipt.json().message).toBe('reports.not_anchored');

    const words = REPORT_TEXTS.it;
    const v1 = await download(clinicUser, clinic, reportId, 1);
    const v2 = await download(clinicUser, clinic, reportId, 2);
    expect(v1.statusCode).toBe(200);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(v1.rawPayload).digest('hex')).toBe(report.versions[0].sha256);
    expect(createHash('sha256').update(v2.rawPayload).digest('hex')).toBe(report.versions[1].sha256);

    const v1Pages = await pageTexts(v1.rawPayload);
    const v2Pages = await pageTexts(v2.rawPayload);
    const signedAt = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
    // WinAnsi has the accents but no emoji: it prints "?" for what it cannot encode.
    const first = `1. ${words.meaning('reviewed')} da Dott.ssa Lucía Ferrè ? <`;
    const firstAt = `il ${signedAt(report.versions[0].signed_at)}`;
    expect(v1Pages.length).toBeGreaterThan(1);
    for (const page of v1Pages) {
      expect(page).toContain(first);
      expect(page).toContain(firstAt);
      expect(page).toContain(`${words.comment}: Controllato ? ?`);
      expect(page).not.toContain(`2. ${words.meaning('approved')}`);
    }
    expect(v2Pages.length).toBe(v1Pages.length);
    for (const page of v2Pages) {
      expect(page).toContain(first);
      expect(page).toContain(`2. ${words.meaning('approved')} da`);
      expect(page).toContain(signedAt(report.versions[1].signed_at));
    }

    const audit = await t.database.pool.query(
      `select action, actor_email, changes from audit_log where entity_type = 'report' and entity_id = $1 order by id`,
      [reportId],
    );
    expect(audit.rows.map((row) => row.action)).toEqual(['generate', 'sign_failed', 'sign', 'sign']);
    expect(audit.rows[3].changes).toMatchObject({
      meaning: { old: 'reviewed', new: 'approved' },
      sha256: { new: report.versions[1].sha256 },
    });

    // Approved is final; and no statement can change or delete a version or the draft.
    const third = await sign(admin, clinic, reportId, { password: DEMO_PASSWORD, meaning: 'reviewed' });
    expect(third.statusCode).toBe(409);
    expect(third.json().message).toBe('reports.already_approved');
    await expect(
      t.database.pool.query(`update report_versions set sha256 = repeat('0', 64) where report_id = $1`, [
        reportId,
      ]),
    ).rejects.toThrow(/immutable/);
    await expect(
      t.database.pool.query(`delete from report_versions where report_id = $1`, [reportId]),
    ).rejects.toThrow(/immutable/);
    await expect(
      t.database.pool.query(`update reports set draft_sha256 = repeat('0', 64) where id = $1`, [reportId]),
    ).rejects.toThrow(/immutable/);
  });

  it('lists the reports of a customer with paging, sorting and filters', async () => {
    const all = await t.as(admin, { method: 'GET', url: `/api/v1/customers/${clinic}/reports` });
    expect(all.statusCode).toBe(200);
    const page = all.json().data;
    expect(page.total).toBeGreaterThanOrEqual(3);
    const approved = await t.as(clinicUser, {
      method: 'GET',
      url: `/api/v1/customers/${clinic}/reports?filterStatus=approved&filterLanguage=it&sortBy=period_from&sortDir=asc`,
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data.data.map((r: { id: number }) => r.id)).toEqual([reportId]);
    const bad = await t.as(admin, {
      method: 'GET',
      url: `/api/v1/customers/${clinic}/reports?filterStatus=signed`,
    });
    expect(bad.statusCode).toBe(422);
  });

  it('refuses a report without a valid language or period', async () => {
    const before = await databaseDigest(t);
    const response = await generate(admin, clinic, { from: '2025-03-01', to: '2025-02-01', language: 'fr' });
    expect(response.statusCode).toBe(422);
    expect(response.json().data).toEqual({
      to: ['validation.report.to.before_from'],
      language: ['validation.report.language.invalid'],
    });
    expect(await databaseDigest(t)).toEqual(before);
  });
});

describe('a draft never looks final', () => {
  it('marks every page of the downloaded draft, and no page of a signed version', async () => {
    const reportId = (await generate(clinicUser, clinic, { ...PERIOD, language: 'en' })).json().data.id;
    const draft = await download(clinicUser, clinic, reportId, 'draft');
    const draftPages = await pageTexts(draft.rawPayload);
    expect(draftPages.length).toBeGreaterThan(0);
    for (const page of draftPages) expect(page).toContain('DRAFT - NOT SIGNED');
    const signed = await sign(clinicUser, clinic, reportId, {
      password: CLINIC_PASSWORD,
      meaning: 'reviewed',
    });
    expect(signed.statusCode, signed.body).toBe(201);
    const version = await download(clinicUser, clinic, reportId, 1);
    for (const page of await pageTexts(version.rawPayload)) expect(page).not.toContain('DRAFT');
  });
});
