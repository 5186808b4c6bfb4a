import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page, test } from '@playwright/test';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';
import { initialState, nextRecord, signRecords } from '../scripts/simulate-devices.ts';
import { apiCreateCustomer, apiData, apiIngest, apiToken, sessionHeaders } from './api.ts';
import { devnetControl } from './devnet-control.ts';
import { DEMO, loginAs } from './fixtures.ts';

/*
 * The "data integrity verification" modal (docs/product.md §2) against the real server, its embedded
 * devnet and anchor worker: the demo records of blockchain-enabled clinics are anchored a few seconds
 * after start. The browser computes the hashes and reads the transaction from the chain itself.
 */

type Row = {
  id: number;
  supplied_energy: number;
  blockchain_data: { blockchain_data_block: { status: string; network: string | null } } | null;
};
type Paged = { data: Row[] };

/** Waits until the newest record of a customer is in a block of this status (MINED: or FINAL, both anchored). */
async function newestRecord(page: Page, customerId: number, status: 'SENT' | 'MINED'): Promise<Row> {
  const headers = await sessionHeaders(page);
  let first: Row | undefined;
  await expect
    .poll(
      async () => {
        const url = `/api/v1/sterilizations?customerId=${customerId}`;
        first = (await apiData<Paged>(page.request, url, headers)).data[0];
        return first?.blockchain_data?.blockchain_data_block.status ?? 'none';
      },
      { timeout: 60_000, intervals: [500, 1000, 2000] },
    )
    .toMatch(status === 'MINED' ? /^(MINED|FINAL)$/ : /^SENT$/);
  return first as Row;
}

/** Waits until the newest record of Clinica San Marco (blockchain enabled) is anchored (MINED or FINAL). */
const minedRecord = (page: Page) => newestRecord(page, 2, 'MINED');

const verifyReceiptScript = path.join(import.meta.dirname, '../scripts/verify-receipt.ts');

/** Runs `node scripts/verify-receipt.ts <file> --rpc <url>` as a user would: its exit code and output. */
async function runVerifyReceipt(file: string, rpc: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [
      verifyReceiptScript,
      file,
      '--rpc',
      rpc,
    ]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/**
 * A blockchain-enabled clinic and device of the test's own (so the demo data stays as seeded), and a way
 * to ingest one signed record of that device with some fields set.
 */
async function ownClinic(page: Page) {
  const token = await apiToken(page.request);
  const tag = Math.random().toString(36).slice(2, 7).toUpperCase().padEnd(5, 'X');
  const customer = await apiCreateCustomer(page.request, token, `E2E Anchoring ${tag}`, {
    enable_blockchain: '1',
  });
  const headers = { Authorization: `Bearer ${token}` };
  const products = await apiData<{ data: Array<{ id: number; type: number }> }>(
    page.request,
    '/api/v1/products?sortBy=type',
    headers,
  );
  const serial = `E2A${tag}`;
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const device = await page.request.post(`/api/v1/customers/${customer.id}/devices`, {
    headers,
    multipart: {
      device_serial: serial,
      label: `Anchoring ${tag}`,
      product_id: String(products.data.find((product) => product.type === 1)?.id),
      public_key: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    },
  });
  expect(device.status(), await device.text()).toBe(201);
  let state = initialState(Math.random, Math.floor(Date.now() / 1000));
  const ingest = async (fields: Partial<SterilizationClaim>) => {
    const next = nextRecord(serial, state, Math.random, new Date());
    state = next.state;
    const signed = await signRecords(serial, [{ ...next.record, ...fields }], keys.privateKey);
    await apiIngest(page.request, signed);
  };
  return { customer, ingest };
}

const dialog = (page: Page, name = 'Data integrity verification') => page.getByRole('dialog', { name });
const firstRow = (page: Page) => page.getByRole('table').locator('tbody tr').first();

test.describe('data integrity verification', () => {
  test('a mined record verifies in the browser; an edited field does not', async ({ page }) => {
    test.slow();
    await loginAs(page, DEMO.super);
    const record = await minedRecord(page);
    await page.goto('/sterilizations?customerId=2');
    // The list and its details say where the anchoring stands, in words (FINAL at once on the devnet).
    await expect(firstRow(page).getByTestId('anchor-status')).toHaveText('Final');
    await firstRow(page).getByRole('button', { name: 'Show details' }).click();
    await expect(page.getByTestId('sterilization-details').getByTestId('anchor-status')).toHaveText('Final');
    await firstRow(page).getByRole('button', { name: 'Verify data' }).click();
    const modal = dialog(page);
    await expect(modal).toBeVisible();
    await expect(modal.getByLabel('Record ID', { exact: true })).toHaveValue(String(record.id));
    // The hashed instant stays in its UTC form; the reader gets it in local time (Europe/Rome) beside it.
    const hashedInstant = await modal.locator('#integrity-received_ts').inputValue();
    const utc = `${hashedInstant.slice(0, 10)} ${hashedInstant.slice(11, 23)} UTC`;
    await expect(modal.locator('#integrity-received_ts-helper-text')).toHaveText(
      new RegExp(`^Local time: \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC\\+0[12]:00 \\(${utc}\\)$`),
    );

    await expect(modal.getByRole('button', { name: 'Verification successful' })).toBeVisible({
      timeout: 20_000,
    });
    const leaf = (await modal.getByTestId('integrity-leaf').locator('div').last().textContent()) ?? '';
    expect(leaf).toMatch(/^0x[0-9a-f]{64}$/);
    const root = (await modal.getByTestId('integrity-root').locator('div').last().textContent()) ?? '';
    expect(root).toMatch(/^0x[0-9a-f]{64}$/);
    await expect(modal.getByRole('heading', { name: 'Data on the blockchain' })).toBeVisible();
    // The devnet's finalized block is its latest: an anchored block is FINAL at once.
    await expect(modal.getByTestId('integrity-block-status')).toContainText('Final (FINAL)');
    await expect(modal.getByTestId('integrity-network')).toContainText('devnet');
    // The devnet has no explorer: the hash is shown, not linked.
    await expect(modal.getByTestId('integrity-transaction')).toContainText(/0x[0-9a-f]{64}/);
    await expect(modal.getByTestId('integrity-transaction').getByRole('link')).toHaveCount(0);
    await expect(modal.getByTestId('integrity-content')).toContainText('Function: anchor');
    await expect(modal.getByTestId('integrity-content')).toContainText(/0xa0ca2d08/);
    await expect(modal.getByTestId('integrity-saved-hash')).toHaveText(`Hash saved on the blockchain${root}`);
    for (const check of ['computed', 'transaction', 'root_match']) {
      await expect(modal.locator(`[data-check="${check}"]`)).toHaveAttribute('data-status', 'pass');
    }
    await expect(modal.getByTestId('integrity-server')).toContainText('same control strings');

    // The proof receipt holds what the modal computed.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      modal.getByRole('button', { name: 'Download proof' }).click(),
    ]);
    const receipt = JSON.parse(await readFile(await download.path(), 'utf8')) as Record<string, unknown>;
    expect(receipt).toMatchObject({ leaf, root, hashing_version: 3, chain_id: 31337 });

    // Any edit changes the control string and fails the check; the stored value, typed differently, verifies.
    const energy = modal.getByLabel('UV dose (supplied energy)', { exact: true });
    await energy.fill(String(record.supplied_energy + 1));
    await expect(modal.getByRole('button', { name: 'Verification failed' })).toBeVisible();
    await expect(modal.getByTestId('integrity-leaf')).not.toContainText(leaf);
    await expect(modal.locator('[data-check="root_match"]')).toHaveAttribute('data-status', 'fail');
    await expect(modal.getByTestId('integrity-server')).toContainText('same control strings');
    // The changed field is marked with the stored value; the proof is not offered for edits.
    await expect(modal.getByTestId('integrity-changed')).toHaveText('1 field differs from the stored record');
    await expect(modal.locator('[data-changed="true"]')).toHaveCount(1);
    await expect(energy).toHaveAccessibleDescription(`Stored value: ${record.supplied_energy}`);
    await expect(modal.getByRole('button', { name: 'Download proof' })).toHaveCount(0);
    await expect(modal.getByTestId('integrity-receipt-unavailable')).toBeVisible();
    const typed = String(record.supplied_energy).includes('.')
      ? `${record.supplied_energy}0`
      : `${record.supplied_energy}.00`;
    await energy.fill(typed);
    await expect(modal.getByRole('button', { name: 'Verification successful' })).toBeVisible();
    await expect(modal.getByTestId('integrity-leaf')).toContainText(leaf);
    // The same value typed differently is no change: nothing marked, the proof offered again.
    await expect(modal.getByTestId('integrity-changed')).toHaveCount(0);
    await expect(modal.locator('[data-changed="true"]')).toHaveCount(0);
    await expect(modal.getByRole('button', { name: 'Download proof' })).toBeVisible();

    // Restore brings back the stored values after several edits.
    const restore = modal.getByRole('button', { name: 'Restore the stored values' });
    await energy.fill('1');
    await modal.getByLabel('Cycle number', { exact: true }).fill('0');
    await expect(modal.getByTestId('integrity-changed')).toHaveText('2 fields differ from the stored record');
    await restore.click();
    await expect(energy).toHaveValue(String(record.supplied_energy));
    await expect(modal.getByRole('button', { name: 'Verification successful' })).toBeVisible();
    await expect(modal.getByTestId('integrity-changed')).toHaveCount(0);
    await expect(restore).toBeDisabled();
    await expect(modal.getByRole('button', { name: 'Download proof' })).toBeVisible();

    await modal.getByRole('button', { name: 'OK' }).click();
    await expect(modal).toBeHidden();
  });

  test('a record of a customer without blockchain says blockchain is not enabled (en, it)', async ({
    page,
  }) => {
    await loginAs(page, DEMO.admin);
    const headers = await sessionHeaders(page);
    const customers = await apiData<Array<{ id: number; name: string }>>(
      page.request,
      '/api/v1/sterilizations/customer-filter',
      headers,
    );
    let customerId: number | undefined;
    for (const option of customers) {
      const customer = await apiData<{ enable_blockchain: boolean }>(
        page.request,
        `/api/v1/customers/${option.id}`,
        headers,
      );
      if (customer.enable_blockchain) continue;
      const rows = await apiData<Paged>(
        page.request,
        `/api/v1/sterilizations?customerId=${option.id}`,
        headers,
      );
      if (rows.data[0] && rows.data[0].blockchain_data === null) {
        customerId = option.id;
        break;
      }
    }
    expect(customerId, 'a seeded customer without blockchain, with records').toBeDefined();
    await page.goto(`/sterilizations?customerId=${customerId}`);
    await firstRow(page).getByRole('button', { name: 'Verify data' }).click();
    const modal = dialog(page);
    // Such records are never anchored; "it requires some time" would be untrue.
    await expect(modal.getByText('Blockchain is not enabled for this customer')).toBeVisible();
    await expect(modal.getByText('Data not yet sent')).toHaveCount(0);
    await expect(modal.getByText('It requires some time')).toHaveCount(0);
    await expect(modal.getByTestId('integrity-root')).toContainText('not anchored on a blockchain');
    await expect(modal.getByTestId('integrity-root')).not.toContainText('not in a block yet');
    await expect(modal.getByTestId('integrity-leaf')).toContainText(/0x[0-9a-f]{64}/);
    await expect(modal.getByRole('button', { name: /^Verification/ })).toHaveCount(0);
    await modal.getByRole('button', { name: 'OK' }).click();
    await expect(modal).toBeHidden();

    // In Italian, with translated field labels.
    await page.evaluate(() => localStorage.setItem('uvtrace.locale', 'it'));
    await page.reload();
    await firstRow(page).getByRole('button', { name: 'Verifica dati' }).click();
    const italian = dialog(page, 'Verifica integrità dati');
    await expect(italian.getByText('La blockchain non è abilitata per questo cliente')).toBeVisible();
    await expect(italian.getByTestId('integrity-leaf')).toContainText(/0x[0-9a-f]{64}/);
    await expect(italian.getByLabel('Vita residua lampada (ore)', { exact: true })).toBeVisible();
    await expect(italian.getByText('residual_lamp_life')).toHaveCount(0);
  });

  test('an empty notes field is no value: cleared notes fail, a record without notes verifies', async ({
    page,
  }) => {
    test.slow(); // the worker makes a block after ANCHOR_INTERVAL_SECONDS (10 s)
    await loginAs(page, DEMO.super);
    const { customer, ingest } = await ownClinic(page);
    await ingest({ status_code: 0, notes: null });
    await ingest({ status_code: 0, notes: 'lamp checked' });
    const headers = await sessionHeaders(page);
    await expect
      .poll(
        async () => {
          const rows = await apiData<Paged>(
            page.request,
            `/api/v1/sterilizations?customerId=${customer.id}`,
            headers,
          );
          return rows.data
            .map((row) => row.blockchain_data?.blockchain_data_block.status ?? 'none')
            .join(',');
        },
        { timeout: 60_000, intervals: [500, 1000, 2000] },
      )
      .toMatch(/^(MINED|FINAL),(MINED|FINAL)$/);
    await page.goto(`/sterilizations?customerId=${customer.id}`);
    const rows = page
      .getByRole('table')
      .locator('tbody tr')
      .filter({ has: page.getByRole('button', { name: 'Verify data' }) });
    await expect(rows).toHaveCount(2);
    const seen: string[] = [];
    for (const index of [0, 1]) {
      await rows.nth(index).getByRole('button', { name: 'Verify data' }).click();
      const modal = dialog(page);
      const notes = modal.getByLabel('Notes', { exact: true });
      await expect(modal.getByRole('button', { name: 'Verification successful' })).toBeVisible({
        timeout: 20_000,
      });
      const value = await notes.inputValue();
      seen.push(value);
      if (value === 'lamp checked') {
        await notes.fill('');
        await expect(modal.getByRole('button', { name: 'Verification failed' })).toBeVisible();
        await expect(notes).toHaveAccessibleDescription('Stored value: lamp checked');
        await modal.getByRole('button', { name: 'Restore the stored values' }).click();
        await expect(modal.getByRole('button', { name: 'Verification successful' })).toBeVisible();
      } else {
        // The empty input is the stored null; the server's calculation agrees.
        expect(value).toBe('');
        await expect(modal.locator('[data-changed="true"]')).toHaveCount(0);
        await expect(modal.getByTestId('integrity-server')).toContainText('same control strings');
      }
      await modal.getByRole('button', { name: 'OK' }).click();
      await expect(modal).toBeHidden();
    }
    expect(seen.sort()).toEqual(['', 'lamp checked']);
  });

  test('the downloaded proof receipt verifies with verify-receipt; a tampered one does not', async ({
    page,
    baseURL,
  }, testInfo) => {
    test.slow();
    await loginAs(page, DEMO.super);
    const record = await minedRecord(page);
    await page.goto('/sterilizations?customerId=2');
    await firstRow(page).getByRole('button', { name: 'Verify data' }).click();
    const modal = dialog(page);
    await expect(modal.getByLabel('Record ID', { exact: true })).toHaveValue(String(record.id));
    await expect(modal.getByRole('button', { name: 'Verification successful' })).toBeVisible({
      timeout: 20_000,
    });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      modal.getByRole('button', { name: 'Download proof' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`uvtrace-proof-${record.id}.json`);
    const file = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(file);
    const rpc = `${baseURL}/chain-rpc`;

    const genuine = await runVerifyReceipt(file, rpc);
    expect(genuine.code, genuine.output).toBe(0);
    for (const check of ['format', 'leaf', 'root', 'chain_id', 'transaction', 'contract', 'status']) {
      expect(genuine.output).toMatch(new RegExp(`^passed  ${check} `, 'm'));
    }
    expect(genuine.output).toMatch(/^passed {2}anchor_call +anchor\(\d+, 0x[0-9a-f]{64}\)$/m);
    expect(genuine.output).toContain('receipt verified');

    // One field of the record changed: the leaf no longer matches; the chain checks still pass.
    const receipt = JSON.parse(await readFile(file, 'utf8')) as { record: Record<string, string | null> };
    const tamperedFile = testInfo.outputPath('tampered.json');
    const energy = receipt.record.supplied_energy ?? '0';
    await writeFile(
      tamperedFile,
      JSON.stringify({ ...receipt, record: { ...receipt.record, supplied_energy: `${Number(energy) + 1}` } }),
    );
    const tampered = await runVerifyReceipt(tamperedFile, rpc);
    expect(tampered.code, tampered.output).toBe(1);
    expect(tampered.output).toMatch(/^FAILED {2}leaf /m);
    expect(tampered.output).toMatch(/^passed {2}anchor_call /m);
    expect(tampered.output).toContain('receipt NOT verified');
  });

  test('a record whose anchor transaction is not mined yet waits for it, then verifies', async ({ page }) => {
    test.slow(); // the worker makes a block of one record after ANCHOR_INTERVAL_SECONDS (10 s)
    await loginAs(page, DEMO.super);
    const { customer, ingest } = await ownClinic(page);

    // The devnet keeps transactions in its mempool: the block is formed and SENT, and stays unmined.
    await devnetControl('evm_setAutomine', [false]);
    try {
      await ingest({});
      const sent = await newestRecord(page, customer.id, 'SENT');

      await page.goto(`/sterilizations?customerId=${customer.id}`);
      await firstRow(page).getByRole('button', { name: 'Verify data' }).click();
      const modal = dialog(page);
      await expect(modal.getByLabel('Record ID', { exact: true })).toHaveValue(String(sent.id));
      await expect(modal.getByTestId('integrity-block-status')).toContainText('SENT');
      await expect(modal.getByTestId('integrity-transaction')).toContainText(/0x[0-9a-f]{64}/);
      await expect(modal.getByText('Data verifiable when transaction is mined')).toBeVisible();
      await expect(modal.getByRole('button', { name: /^Verification/ })).toHaveCount(0);
      await expect(modal.locator('[data-check]')).toHaveCount(0);
      // The record is in a block already: its control strings are computed all the same.
      await expect(modal.getByTestId('integrity-leaf')).toContainText(/0x[0-9a-f]{64}/);
      await expect(modal.getByTestId('integrity-root')).toContainText(/0x[0-9a-f]{64}/);
    } finally {
      await devnetControl('evm_setAutomine', [true]);
      await devnetControl('evm_mine');
    }

    // Mined: the same record now verifies.
    await newestRecord(page, customer.id, 'MINED');
    await page.reload();
    await firstRow(page).getByRole('button', { name: 'Verify data' }).click();
    const modal = dialog(page);
    await expect(modal.getByTestId('integrity-block-status')).toContainText(/MINED|FINAL/);
    await expect(modal.getByRole('button', { name: 'Verification successful' })).toBeVisible({
      timeout: 20_000,
    });
    await expect(modal.getByText('Data verifiable when transaction is mined')).toHaveCount(0);
  });

  test('in Italian', async ({ page }) => {
    await loginAs(page, DEMO.customer);
    await minedRecord(page);
    await page.evaluate(() => localStorage.setItem('uvtrace.locale', 'it'));
    await page.goto('/sterilizations');
    await expect(page.getByRole('heading', { level: 1, name: 'Sterilizzazioni' })).toBeVisible();
    await firstRow(page).getByRole('button', { name: 'Verifica dati' }).click();
    const modal = dialog(page, 'Verifica integrità dati');
    await expect(modal.getByRole('heading', { name: 'Dati sulla blockchain' })).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Verifica riuscita' })).toBeVisible({ timeout: 20_000 });
    await expect(modal.locator('#integrity-received_ts-helper-text')).toContainText(/^Ora locale: .* UTC\)$/);
  });
});
