import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { pdfQrCodes } from '#server/test/pdf-qr.ts';
import { DEMO, inItalian, loginAs, logout, waitForMinedRecord } from './fixtures.ts';

/*
 * The cycle report PDF of one record: downloaded from the record's details, its QR code
 * decoded as a phone would and opened logged out: the public /verify page passes every check. In
 * Italian, from the verification modal, the PDF speaks Italian.
 */

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

const firstRow = (page: Page) => page.getByRole('table').locator('tbody tr').first();

test.describe
  .serial('cycle report PDF', () => {
    let link = '';
    let recordId = 0;

    test('downloaded from the details; its QR opens /verify logged out and every check passes', async ({
      page,
    }, testInfo) => {
      test.slow();
      const name = await loginAs(page, DEMO.super);
      recordId = await waitForMinedRecord(page);
      await page.goto('/sterilizations?customerId=2');
      await firstRow(page).getByRole('button', { name: 'Show details' }).click();
      await expect(page.getByTestId('sterilization-details')).toBeVisible();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Cycle report (PDF)' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`cycle-report-${recordId}-en.pdf`);
      const file = testInfo.outputPath(download.suggestedFilename());
      await download.saveAs(file);
      const bytes = new Uint8Array(await readFile(file));
      const text = await pdfText(bytes);
      expect(text).toContain('Sterilization cycle report');
      expect(text).toContain(`Record ID ${recordId}`);
      // FINAL at once on the devnet, whose finalized block is its latest.
      expect(text).toContain('Anchored for good');

      const codes = await pdfQrCodes(bytes);
      expect(codes).toHaveLength(1);
      link = codes[0] ?? '';
      expect(link).toMatch(/^https?:\/\/[^/]+\/verify#r=[A-Za-z0-9_-]+$/);
      await logout(page, name);
      await expect(page).toHaveURL(/\/login/);

      await page.goto(link);
      await expect(page.getByTestId('verify-source')).toHaveText('Receipt from the link');
      await expect(page.getByTestId('verify-verdict')).toHaveAttribute('data-verdict', 'success', {
        timeout: 20_000,
      });
      const checks = page.locator('[data-check]');
      expect(await checks.count()).toBeGreaterThanOrEqual(9);
      for (const check of await checks.all()) await expect(check).toHaveAttribute('data-status', 'pass');
      await expect(page.locator('[data-field="id"]')).toHaveText(String(recordId));
    });

    test('in Italian, from the verification modal, the PDF is in Italian', async ({ page }, testInfo) => {
      await loginAs(page, DEMO.super);
      await inItalian(page);
      await page.goto('/sterilizations?customerId=2');
      await firstRow(page).getByRole('button', { name: 'Verifica dati' }).click();
      const modal = page.getByRole('dialog');
      await expect(modal.getByLabel('ID record', { exact: true })).toHaveValue(String(recordId));
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        modal.getByRole('button', { name: 'Rapporto del ciclo (PDF)' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`cycle-report-${recordId}-it.pdf`);
      const file = testInfo.outputPath(download.suggestedFilename());
      await download.saveAs(file);
      const bytes = new Uint8Array(await readFile(file));
      const text = await pdfText(bytes);
      expect(text).toContain('Rapporto del ciclo di sterilizzazione');
      expect(text).toContain(`ID record ${recordId}`);
      expect(text).toContain('Dose UV (energia erogata)');
      expect(text).toContain('Ancorato definitivamente');
      // The same record, the same receipt: the link is the English report's.
      expect(await pdfQrCodes(bytes)).toEqual([link]);
    });
  });
