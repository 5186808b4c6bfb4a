/**
 * The cycle report PDF of one record: its text holds the record's 14 fields in the chosen
 * language, its anchoring and status; the QR code printed in it, decoded as a phone would, is the
 * public /verify link on APP_URL whose receipt verifies against the chain. Records that are not
 * anchored get no QR code and say why. Another tenant's record is 404.
 */
import { writeFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCycleReport } from '#server/pdf/report/cycle-report.ts';
import { formatDecimalText } from '#server/pdf/report/cycle-texts.ts';
import { chainRpcTransport } from '#server/test/chain-rpc.ts';
import { makeCustomer, makeDevice } from '#server/test/fixtures.ts';
import { pdfQrCodes } from '#server/test/pdf-qr.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import { INTEGRITY_FIELDS } from '#shared/integrity/canonical.ts';
import { type ProofReceipt, verifyReceipt } from '#shared/integrity/receipt.ts';
import { decodeReceiptFragment } from '#shared/integrity/receipt-link.ts';

const APP_URL = 'https://uvtrace.example.org';
let t: TestApp;
let admin: string;
let clinic: string;
let anchoredId: number;
let offId: number;
let serial: string;

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

/** The devnet as the public /chain-rpc endpoint serves it (what /verify asks by default). */
const chainRpc = () => chainRpcTransport(t);

async function insertRecord(customerId: number, deviceId: number, notes: string | null): Promise<number> {
  const result = await t.database.pool.query(
    `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
       effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot, lot_progressive_id, notes,
       cycle_ts)
     values ($1, $2, '2026-03-04T05:06:07.089Z', 7, 12345.5, 10, 9.25, 4000, 2, 45.464211, 9.19, 'LOT-CR-1', 3, $3,
       '2026-03-01T05:06:07Z')
     returning id`,
    [deviceId, customerId, notes],
  );
  return Number(result.rows[0].id);
}

/** The report prints the block's state as stored: wait until the worker has marked it final, not only mined. */
async function waitForFinal(id: number, timeoutMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const found = await t.database.db.execute<{ status: string | null }>(sql`
      select b.status from sterilizations s left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
      where s.id = ${id}`);
    if (found.rows[0]?.status === 'FINAL') return;
    if (Date.now() - started > timeoutMs) throw new Error('the record was not anchored for good in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const download = (token: string, id: number, lang: string) =>
  t.as(token, { method: 'GET', url: `/api/v1/sterilizations/cycle-report/${id}?lang=${lang}` });

beforeAll(async () => {
  t = await createTestApp({
    ANCHOR_ENABLED: 'true',
    ANCHOR_INTERVAL_SECONDS: '0',
    ANCHOR_BATCH_SIZE: '8',
    APP_URL: `${APP_URL}/`,
  });
  admin = await t.login(DEMO.admin);
  clinic = await t.login(DEMO.customer);
  const on = await makeCustomer(t, { name: 'Clinica Ciclo Rapporto' });
  await t.database.pool.query(`update customers set enable_blockchain = true where id = $1`, [on]);
  const onDevice = await makeDevice(t, on);
  serial = (await t.database.pool.query(`select device_serial from devices where id = $1`, [onDevice]))
    .rows[0].device_serial;
  anchoredId = await insertRecord(on, onDevice, 'Ciclo ripetuto: sonda pulita');
  const off = await makeCustomer(t, { name: 'Clinica Senza Blockchain' });
  offId = await insertRecord(off, await makeDevice(t, off), null);
  await waitForFinal(anchoredId);
}, 90_000);
afterAll(() => t?.close());

/** A cycle report's input of a record not in a block yet (values do not matter to the layout). */
function sampleInput(): Parameters<typeof renderCycleReport>[0] {
  const record = Object.fromEntries(INTEGRITY_FIELDS.map((field) => [field, '1'])) as Parameters<
    typeof renderCycleReport
  >[0]['record'];
  return {
    language: 'it',
    generatedAt: new Date('2026-01-01T00:00:00Z'),
    customer: { id: 1, name: 'Clinica', address: null, postcode: null, city: null, country: 'IT' },
    device: { serial: 'S1', label: 'Etichetta', product: 'Prodotto' },
    record: { ...record, received_ts: '2026-01-01T00:00:00.000Z' },
    cycle: { at: null, clockAhead: false },
    anchoring: {
      state: 'waiting',
      blockId: null,
      network: null,
      transactionHash: null,
      chainBlock: null,
      leaf: `0x${'1'.repeat(64)}`,
      root: null,
    },
    verificationLink: null,
  };
}

describe('cycle report PDF', () => {
  it('in Italian: readable fields, status, anchoring, and a QR whose /verify link verifies on the chain', async () => {
    const answer = await download(admin, anchoredId, 'it');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toBe(
      `attachment; filename="cycle-report-${anchoredId}-it.pdf"`,
    );
    const bytes = answer.rawPayload;
    const text = await pdfText(bytes);
    for (const expected of [
      'Rapporto del ciclo di sterilizzazione',
      'Clinica Ciclo Rapporto',
      `ID record ${anchoredId}`,
      'Ricevuto il (UTC) 2026-03-04 05:06:07.089 UTC',
      // Three days before arrival: the device was offline, its own time is shown as it is.
      'Ora del ciclo secondo il dispositivo (UTC) 2026-03-01 05:06:07',
      `Numero di serie del dispositivo ${serial}`,
      'Numero ciclo 7',
      'Dose UV (energia erogata) 12.345,5',
      'Tempo nominale 10 minuti',
      'Tempo effettivo 9,25 minuti',
      'Vita residua lampada 4.000 ore',
      'Codice di stato 2 - Guasto lampada',
      'Latitudine 45,464211',
      'Longitudine 9,19',
      'Lotto consumabili LOT-CR-1',
      'Progressivo nel lotto 3',
      'Ciclo ripetuto: sonda pulita',
      'Stato Guasto lampada',
      // The devnet's finalized block is its latest: the anchored record's block is FINAL.
      'Ancorato definitivamente',
      'Rete devnet',
      `${APP_URL}/verify`,
    ]) {
      expect(text).toContain(expected);
    }
    const block = await t.database.db.execute<{ id: number; transaction_hash: string }>(sql`
      select b.id, b.transaction_hash from sterilizations s join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
      where s.id = ${anchoredId}`);
    expect(text).toContain(`Hash della transazione ${block.rows[0]!.transaction_hash}`);
    expect(text).toContain(`Blocco uvtrace #${block.rows[0]!.id}`);
    expect(text).toMatch(/Numero del blocco sulla catena \d+/);
    // One page: the report of one cycle prints on one sheet.
    expect((await getDocumentProxy(new Uint8Array(bytes))).numPages).toBe(1);
    // CYCLE_REPORT_SAMPLE=<file> keeps a sample to look at.
    if (process.env.CYCLE_REPORT_SAMPLE) await writeFile(process.env.CYCLE_REPORT_SAMPLE, bytes);

    const codes = await pdfQrCodes(bytes);
    expect(codes).toHaveLength(1);
    const link = codes[0]!;
    expect(link.startsWith(`${APP_URL}/verify#r=`)).toBe(true);
    const receipt = decodeReceiptFragment(new URL(link).hash) as ProofReceipt;
    expect(receipt.record.id).toBe(String(anchoredId));
    expect(receipt.record.supplied_energy).toBe('12345.5');
    expect(receipt.record.notes).toBe('Ciclo ripetuto: sonda pulita');
    expect(receipt.transaction_hash).toBe(block.rows[0]!.transaction_hash);
    const verified = await verifyReceipt(receipt, { transport: chainRpc(), confirmations: true });
    expect(verified.checks.filter((check) => !check.ok)).toEqual([]);
    expect(verified.ok).toBe(true);
    expect(verified.checks.map((check) => check.name)).toEqual(
      expect.arrayContaining([
        'leaf',
        'root',
        'chain_id',
        'transaction',
        'contract',
        'status',
        'anchor_call',
      ]),
    );
  });

  it('in English, with the same QR content', async () => {
    const answer = await download(admin, anchoredId, 'en');
    expect(answer.statusCode).toBe(200);
    const text = await pdfText(answer.rawPayload);
    for (const expected of [
      'Sterilization cycle report',
      `Record ID ${anchoredId}`,
      'Received at (UTC) 2026-03-04 05:06:07.089 UTC',
      'UV dose (supplied energy) 12,345.5',
      'Effective time 9.25 minutes',
      'Residual lamp life 4,000 hours',
      'Status code 2 - Lamp malfunction',
      'Anchored for good',
    ]) {
      expect(text).toContain(expected);
    }
    const [link] = await pdfQrCodes(answer.rawPayload);
    expect(
      (await verifyReceipt(decodeReceiptFragment(new URL(link!).hash)!, { transport: chainRpc() })).ok,
    ).toBe(true);
  });

  it('a record of a customer without blockchain: said so, no QR code', async () => {
    const answer = await download(admin, offId, 'en');
    expect(answer.statusCode).toBe(200);
    const text = await pdfText(answer.rawPayload);
    expect(text).toContain('Not anchored: blockchain is not enabled for this customer');
    expect(text).toContain(
      'Records of this customer are not sent to the blockchain, so this report has no QR code',
    );
    expect(text).toContain('Notes (none)');
    expect(text).not.toContain('/verify');
    expect(await pdfQrCodes(answer.rawPayload)).toEqual([]);
  });

  it('a record waiting for its block: said so, no QR code', async () => {
    const bytes = await renderCycleReport(sampleInput());
    const text = await pdfText(bytes);
    expect(text).toContain('Non ancora ancorato: il record attende il suo blocco');
    expect(text).toContain('non ha codice QR');
    expect(await pdfQrCodes(bytes)).toEqual([]);
  });

  it('a link too long for any QR code: said so with the page address, no QR code', async () => {
    const bytes = await renderCycleReport({
      ...sampleInput(),
      language: 'en',
      verificationLink: `${APP_URL}/verify#r=${'a_'.repeat(1_500)}`,
    });
    const text = await pdfText(bytes);
    expect(text).toContain('too long for a QR code');
    expect(text).toContain(`${APP_URL}/verify`);
    expect(await pdfQrCodes(bytes)).toEqual([]);
  });

  it('tenant rules: a clinic user gets its own records, another clinic’s record is 404; a bad language is 422', async () => {
    const own = await t.database.pool.query(
      `select s.id from sterilizations s join users u on u.customer_id = s.customer_id where u.email = $1 limit 1`,
      [DEMO.customer],
    );
    expect((await download(clinic, Number(own.rows[0].id), 'it')).statusCode).toBe(200);
    const other = await download(clinic, anchoredId, 'en');
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('not_found');
    expect((await download(admin, 999_999_999, 'en')).statusCode).toBe(404);
    expect((await download(admin, anchoredId, 'fr')).statusCode).toBe(422);
  });
});

describe('readable numbers', () => {
  it('groups and points as each language writes them, digit for digit', () => {
    expect(formatDecimalText('en', '1234567.125')).toBe('1,234,567.125');
    expect(formatDecimalText('it', '1234567.125')).toBe('1.234.567,125');
    expect(formatDecimalText('it', '-0.50')).toBe('-0,5');
    expect(formatDecimalText('en', '123456789012345678901.000000000000000001')).toBe(
      '123,456,789,012,345,678,901.000000000000000001',
    );
    expect(formatDecimalText('en', 'n/a')).toBe('n/a');
  });
});
