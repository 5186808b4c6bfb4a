import { readFile, writeFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { DEMO, loginAs, logout, mainMenu, switchToItalian, waitForMinedRecord } from './fixtures.ts';

/*
 * The public verification page /verify: a visitor without an account checks a proof receipt
 * (the modal's downloaded file, or a link carrying it in the URL fragment) against the chain, with our
 * API unreachable. The receipt comes from the modal of an anchored record, as a customer would get it.
 */

const CHECKS = [
  'format',
  'leaf',
  'root',
  'chain_id',
  'transaction',
  'contract',
  'status',
  'confirmations',
  'anchor_call',
];

/**
 * Our API is down for the whole visit: every /api call fails. Returns the /api URLs the page asked
 * for (none expected: the page needs only the static app and the chain node at /chain-rpc).
 */
async function apiDown(page: Page): Promise<{ api: string[]; rpc: string[] }> {
  const calls = { api: [] as string[], rpc: [] as string[] };
  await page.route('**/api/**', (route) => {
    calls.api.push(route.request().url());
    return route.abort();
  });
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/chain-rpc') calls.rpc.push(request.url());
  });
  return calls;
}

/** Drops a file on the page's drop zone, as a drag from the desktop does. */
async function dropFile(page: Page, name: string, content: string) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, content }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], name, { type: 'application/json' }));
      return transfer;
    },
    { name, content },
  );
  await page.getByTestId('verify-dropzone').dispatchEvent('drop', { dataTransfer });
}

const check = (page: Page, name: string) => page.locator(`[data-check="${name}"]`);

async function expectAllPass(page: Page) {
  await expect(page.getByTestId('verify-verdict')).toHaveAttribute('data-verdict', 'success', {
    timeout: 20_000,
  });
  for (const name of CHECKS) await expect(check(page, name)).toHaveAttribute('data-status', 'pass');
}

let receiptFile = '';
let receiptText = '';
let publicLink = '';
let recordId = 0;

test.describe
  .serial('public verification page', () => {
    test('logged out and with the API down, a downloaded receipt passes every check', async ({
      page,
    }, testInfo) => {
      test.slow();
      const name = await loginAs(page, DEMO.super);
      recordId = await waitForMinedRecord(page);
      await page.goto('/sterilizations?customerId=2');
      await page
        .getByRole('table')
        .locator('tbody tr')
        .first()
        .getByRole('button', { name: 'Verify data' })
        .click();
      const modal = page.getByRole('dialog', { name: 'Data integrity verification' });
      await expect(modal.getByLabel('Record ID', { exact: true })).toHaveValue(String(recordId));
      await expect(modal.getByRole('button', { name: 'Verification successful' })).toBeVisible({
        timeout: 20_000,
      });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        modal.getByRole('button', { name: 'Download proof' }).click(),
      ]);
      receiptFile = testInfo.outputPath(download.suggestedFilename());
      await download.saveAs(receiptFile);
      receiptText = await readFile(receiptFile, 'utf8');
      const link = modal.getByRole('link', { name: 'Verify without an account' });
      await expect(link).toHaveAttribute('target', '_blank');
      publicLink = (await link.getAttribute('href')) ?? '';
      expect(publicLink).toMatch(/^\/verify#r=[A-Za-z0-9_-]+$/);
      await modal.getByRole('button', { name: 'OK' }).click();
      await logout(page, name);
      await expect(page).toHaveURL(/\/login/);

      const calls = await apiDown(page);
      await page.goto('/verify');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Verify a sterilization record' }),
      ).toBeVisible();
      await expect(mainMenu(page)).toHaveCount(0);
      await dropFile(page, download.suggestedFilename(), receiptText);
      await expect(page.getByTestId('verify-source')).toHaveText(
        `Receipt from the file ${download.suggestedFilename()}`,
      );
      await expectAllPass(page);
      await expect(check(page, 'leaf')).toContainText('as the receipt records');
      await expect(check(page, 'contract')).toContainText('Sent to the anchoring contract 0x');
      await expect(check(page, 'chain_id')).toContainText('chain 31337 (devnet)');
      // The node's finalized block is at or past the anchor's: it can no longer be undone.
      await expect(check(page, 'confirmations')).toContainText('final: at or below the finalized block');
      await expect(page.locator('[data-field="id"]')).toHaveText(String(recordId));
      // The devnet has no public explorer: said, not linked.
      await expect(page.getByTestId('verify-explorer')).toContainText('no public block explorer');
      await expect(page.getByTestId('verify-explorer').getByRole('link')).toHaveCount(0);
      expect(calls.api).toEqual([]);
      expect(calls.rpc.length).toBeGreaterThan(0);
    });

    test('a receipt with one field edited fails the leaf check only', async ({ page }, testInfo) => {
      const receipt = JSON.parse(receiptText) as { record: Record<string, string | null> };
      const energy = Number(receipt.record.supplied_energy ?? '0');
      // Still a canonical number: the page cannot tell which field, only that the leaf differs.
      const edited = JSON.stringify({
        ...receipt,
        record: { ...receipt.record, supplied_energy: `${energy + 1}` },
      });
      const file = testInfo.outputPath('edited.json');
      await writeFile(file, edited);
      const calls = await apiDown(page);
      await page.goto('/verify');
      await page.getByTestId('verify-file').setInputFiles(file);
      await expect(page.getByTestId('verify-verdict')).toHaveAttribute('data-verdict', 'failed', {
        timeout: 20_000,
      });
      await expect(check(page, 'leaf')).toHaveAttribute('data-status', 'fail');
      await expect(check(page, 'leaf')).toContainText('the fields differ from the anchored record');
      for (const name of CHECKS.filter((name) => name !== 'leaf')) {
        await expect(check(page, name)).toHaveAttribute('data-status', 'pass');
      }

      // A value the modal would never write (not canonical) is named.
      const named = JSON.stringify({
        ...receipt,
        record: { ...receipt.record, supplied_energy: `0${energy + 1}` },
      });
      await dropFile(page, 'named.json', named);
      await expect(page.getByTestId('verify-leaf-fields')).toHaveText(
        'Fields not as they were recorded: UV dose (supplied energy)',
      );
      await expect(check(page, 'leaf')).toHaveAttribute('data-status', 'fail');
      expect(calls.api).toEqual([]);
    });

    test('the modal link verifies from its fragment, in Italian, with the API down', async ({ page }) => {
      const calls = await apiDown(page);
      await page.goto(publicLink);
      await expect(page.getByTestId('verify-source')).toHaveText('Receipt from the link');
      await expectAllPass(page);
      await switchToItalian(page);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Verifica un record di sterilizzazione' }),
      ).toBeVisible();
      await expect(page.getByTestId('verify-verdict')).toHaveText(
        'Verificato: questo record è quello ancorato sulla blockchain.',
      );
      await expect(check(page, 'status')).toContainText('Transazione minata: Superato');
      await expect(check(page, 'leaf')).toContainText('come registrato nella ricevuta');
      expect(calls.api).toEqual([]);
    });

    test('a cut link says so; a node typed by the visitor is the one asked', async ({ page, baseURL }) => {
      await apiDown(page);
      await page.goto(publicLink.slice(0, 60));
      await expect(page.getByTestId('verify-load-error')).toContainText(
        'does not carry a readable proof receipt',
      );

      await page.goto(publicLink);
      await expectAllPass(page);
      const node = page.getByLabel('Blockchain node (JSON-RPC URL)');
      await expect(node).toHaveValue(`${baseURL}/chain-rpc`);
      // A URL where no node answers: the chain checks fail, the receipt's own checks still pass.
      await node.fill(`${baseURL}/no-node-here`);
      await page.getByRole('button', { name: 'Verify', exact: true }).click();
      await expect(page.getByTestId('verify-verdict')).toHaveAttribute('data-verdict', 'failed', {
        timeout: 20_000,
      });
      await expect(check(page, 'leaf')).toHaveAttribute('data-status', 'pass');
      await expect(check(page, 'transaction')).toHaveAttribute('data-status', 'fail');
      await expect(page.getByText(`Node asked: ${baseURL}/no-node-here`)).toBeVisible();
    });

    test('the blockchain teaser links to the page', async ({ page }) => {
      await page.goto('/blockchain');
      await page.getByRole('link', { name: 'Verify a record' }).click();
      await expect(page).toHaveURL('/verify');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Verify a sterilization record' }),
      ).toBeVisible();
    });
  });
