import { generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { importPKCS8, SignJWT } from 'jose';
import { apiIngest } from './api.ts';
import { DEMO, loginAs, logout, switchToItalian } from './fixtures.ts';

/*
 * A receipt that proves every link from the device's key to the chain (docs/integrity.md §14), on the
 * public /verify page with our API down: a device signs a record with a key registered through the
 * app, the verification window's receipt carries the device's token and key, and the page shows four
 * checks. A customer without blockchain gets the first two, and is told the others are not available.
 */

type Api = { token: string };

async function api(page: Page): Promise<Api> {
  const raw = await page.evaluate(() => localStorage.getItem('uvtrace.session'));
  return { token: (JSON.parse(raw ?? '{}') as { token: string }).token };
}

const auth = ({ token }: Api) => ({ Authorization: `Bearer ${token}` });

/**
 * A customer of the demo with or without blockchain, and one of its active devices: not Clinica San
 * Marco (2), whose newest record other specs open.
 */
async function customerWith(page: Page, session: Api, blockchain: boolean) {
  const customers = await page.request.get('/api/v1/customers?page=1', { headers: auth(session) });
  const all = (await customers.json()).data.data as {
    id: number;
    enable_blockchain: boolean | number;
    deleted_at: string | null;
  }[];
  const candidates = all.filter(
    (c) => Boolean(c.enable_blockchain) === blockchain && c.id > 2 && c.deleted_at === null,
  );
  for (const customer of candidates) {
    const devices = await page.request.get(`/api/v1/customers/${customer.id}/devices`, {
      headers: auth(session),
    });
    const device = (
      (await devices.json()).data as { id: number; device_serial: string; deleted_at: string | null }[]
    ).find((d) => d.deleted_at === null);
    if (device) return { customerId: customer.id, device };
  }
  throw new Error(`no customer with blockchain ${blockchain}`);
}

/** Registers a new key in the device's slot 2 and posts a record signed with it; returns its id. */
async function signedRecord(page: Page, session: Api, blockchain: boolean) {
  const { customerId, device } = await customerWith(page, session, blockchain);
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const registered = await page.request.patch(`/api/v1/customers/${customerId}/devices/${device.id}`, {
    headers: auth(session),
    multipart: { public_key_2: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  });
  expect(registered.status()).toBe(200);
  const progressive = 1_900_000_000 + Math.floor(Math.random() * 100_000_000);
  const now = Math.floor(Date.now() / 1000);
  const jws = await new SignJWT({
    iss: device.device_serial,
    iat: now,
    exp: now + 300,
    sterilization: {
      progressive_id: progressive,
      supplied_energy: 321.5,
      nominal_time: 10,
      effective_time: 10,
      residual_lamp_life: 4200,
      status_code: 0,
      notes: 'Signed by the device',
      cycle_ts: new Date(Date.now() - 3_600_000).toISOString(),
    },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .sign(await importPKCS8(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'RS256'));
  const id = (await apiIngest(page.request, jws))[0]!.id;
  return { customerId, id };
}

async function apiDown(page: Page) {
  await page.route('**/api/**', (route) => route.abort());
}

const link = (page: Page, name: string) => page.locator(`[data-link="${name}"]`);

/** Downloads the verification window's receipt of the record (the newest of its customer). */
async function downloadReceipt(
  page: Page,
  customerId: number,
  id: number,
  path: string,
  inModal: (modal: Locator) => Promise<void> = async () => {},
) {
  await page.goto(`/sterilizations?customerId=${customerId}`);
  const row = page.getByRole('table').locator('tbody tr').first();
  await row.getByRole('button', { name: 'Verify data' }).click();
  const modal = page.getByRole('dialog', { name: 'Data integrity verification' });
  await expect(modal.getByLabel('Record ID', { exact: true })).toHaveValue(String(id));
  await expect(modal.getByTestId('record-evidence')).toBeVisible();
  await inModal(modal);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    modal.getByRole('button', { name: 'Download proof' }).click(),
  ]);
  await download.saveAs(path);
  await modal.getByRole('button', { name: 'OK' }).click();
  return JSON.parse(await readFile(path, 'utf8')) as {
    format: string;
    record: Record<string, string | null>;
  };
}

test.describe
  .serial('receipts that prove every link', () => {
    test('an anchored record passes all four links; one value edited fails (2) and (4)', async ({
      page,
    }, info) => {
      test.slow();
      const name = await loginAs(page, DEMO.super);
      const session = await api(page);
      const { customerId, id } = await signedRecord(page, session, true);
      await expect
        .poll(
          async () => {
            const evidence = await page.request.get(`/api/v1/sterilizations/evidence/${id}`, {
              headers: auth(session),
            });
            const list = await page.request.get(`/api/v1/sterilizations?customerId=${customerId}`, {
              headers: auth(session),
            });
            const row = (
              (await list.json()).data.data as {
                id: number;
                blockchain_data: { blockchain_data_block: { status: string } } | null;
              }[]
            ).find((r) => r.id === id);
            return [
              row?.blockchain_data?.blockchain_data_block.status,
              (await evidence.json()).data.key_event?.anchor?.status,
            ].join();
          },
          { timeout: 60_000, intervals: [500, 1000, 2000] },
        )
        .toMatch(/^(MINED|FINAL),(MINED|FINAL)$/);
      const file = info.outputPath('receipt-v2.json');
      const receipt = await downloadReceipt(page, customerId, id, file);
      expect(receipt.format).toBe('uvtrace-proof-receipt/2');
      await logout(page, name);

      await apiDown(page);
      await page.goto('/verify');
      await page.getByTestId('verify-file').setInputFiles(file);
      await expect(page.getByTestId('verify-verdict')).toHaveAttribute('data-verdict', 'success', {
        timeout: 20_000,
      });
      for (const name of ['device_signature', 'signed_values', 'key_in_force', 'anchored'])
        await expect(link(page, name)).toHaveAttribute('data-status', 'pass');
      await expect(link(page, 'key_in_force')).toContainText('In force since');

      const edited = info.outputPath('receipt-v2-edited.json');
      await writeFile(
        edited,
        JSON.stringify({ ...receipt, record: { ...receipt.record, notes: 'Edited later' } }),
      );
      await page.getByTestId('verify-file').setInputFiles(edited);
      await expect(page.getByTestId('verify-verdict')).toHaveAttribute('data-verdict', 'failed', {
        timeout: 20_000,
      });
      await expect(link(page, 'device_signature')).toHaveAttribute('data-status', 'pass');
      await expect(link(page, 'signed_values')).toHaveAttribute('data-status', 'fail');
      await expect(link(page, 'signed_values')).toContainText('Notes');
      await expect(link(page, 'anchored')).toHaveAttribute('data-status', 'fail');
      await switchToItalian(page);
      await expect(page.getByRole('heading', { name: 'Dal dispositivo alla catena' })).toBeVisible();
      await expect(link(page, 'signed_values')).toContainText('non superato');
    });

    test('a customer without blockchain: (1) and (2) pass, (3) and (4) are not available', async ({
      page,
    }, info) => {
      const name = await loginAs(page, DEMO.super);
      const session = await api(page);
      const { customerId, id } = await signedRecord(page, session, false);
      const file = info.outputPath('receipt-no-chain.json');
      // Such a record is never anchored: the window says so, never "not in a block yet".
      const receipt = await downloadReceipt(page, customerId, id, file, async (modal) => {
        await expect(modal.getByTestId('integrity-root')).toContainText('not anchored on a blockchain');
        await expect(modal.getByTestId('integrity-not-enabled')).toBeVisible();
        await expect(modal.getByText('not in a block yet')).toHaveCount(0);
      });
      expect(receipt.format).toBe('uvtrace-proof-receipt/2');
      await logout(page, name);

      await apiDown(page);
      await page.goto('/verify');
      await page.getByTestId('verify-file').setInputFiles(file);
      await expect(page.getByTestId('verify-verdict')).toHaveAttribute('data-verdict', 'success', {
        timeout: 20_000,
      });
      await expect(link(page, 'device_signature')).toHaveAttribute('data-status', 'pass');
      await expect(link(page, 'signed_values')).toHaveAttribute('data-status', 'pass');
      await expect(link(page, 'key_in_force')).toHaveAttribute('data-status', 'unavailable');
      await expect(link(page, 'anchored')).toHaveAttribute('data-status', 'unavailable');
      await expect(page.getByTestId('verify-links-unavailable')).toContainText(
        'checks 3 and 4 are not available',
      );
    });
  });
