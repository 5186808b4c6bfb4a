import { readFile, writeFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { DEMO, loginAs, logout, switchToItalian } from './fixtures.ts';

/*
 * Proof bundles: the sterilization list's "Download proofs" for its filters, then, logged
 * out and with our API unreachable, the public /verify page checks the first 200 records of the bundle
 * in its Web Worker; with one record edited, exactly that record fails.
 */

type Entry = { anchored: boolean; record: Record<string, string | null> };
type Bundle = { format: string; records: Entry[] };

/** Waits until the newest record of Clinica San Marco (blockchain enabled) is anchored (MINED or FINAL). */
async function waitForMinedNewest(page: Page) {
  const raw = await page.evaluate(() => localStorage.getItem('uvtrace.session'));
  const { token } = JSON.parse(raw ?? '{}') as { token?: string };
  await expect
    .poll(
      async () => {
        const response = await page.request.get('/api/v1/sterilizations?customerId=2', {
          headers: { Authorization: `Bearer ${token}` },
        });
        const rows = (
          (await response.json()) as {
            data: { data: { blockchain_data: { blockchain_data_block: { status: string } } | null }[] };
          }
        ).data.data;
        return rows[0]?.blockchain_data?.blockchain_data_block.status ?? 'none';
      },
      { timeout: 90_000, intervals: [500, 1000, 2000] },
    )
    .toMatch(/^(MINED|FINAL)$/);
}

async function apiDown(page: Page): Promise<string[]> {
  const calls: string[] = [];
  await page.route('**/api/**', (route) => {
    calls.push(route.request().url());
    return route.abort();
  });
  return calls;
}

let first200 = '';

test.describe
  .serial('proof bundles on the public verification page', () => {
    test('a bundle of the first 200 filtered records passes, logged out with the API down', async ({
      page,
    }, testInfo) => {
      test.slow();
      const name = await loginAs(page, DEMO.super);
      await waitForMinedNewest(page);
      await page.goto('/sterilizations?customerId=2');
      await expect(page.getByRole('table').locator('tbody tr').first()).toBeVisible();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download proofs' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^proof-bundle-\d{4}-\d{2}-\d{2}\.json$/);
      const file = testInfo.outputPath(download.suggestedFilename());
      await download.saveAs(file);
      const bundle = JSON.parse(await readFile(file, 'utf8')) as Bundle;
      expect(bundle.format).toBe('uvtrace-proof-bundle/1');
      expect(bundle.records.length).toBeGreaterThanOrEqual(200);
      const records = bundle.records.slice(0, 200);
      expect(records.every((entry) => entry.anchored)).toBe(true);
      first200 = JSON.stringify({ ...bundle, records });
      await logout(page, name);
      await expect(page).toHaveURL(/\/login/);

      const calls = await apiDown(page);
      await page.goto('/verify');
      const path = testInfo.outputPath('first-200.json');
      await writeFile(path, first200);
      await page.getByTestId('verify-file').setInputFiles(path);
      await expect(page.getByTestId('verify-source')).toHaveText('Proof bundle from the file first-200.json');
      const verdict = page.getByTestId('verify-bundle-verdict');
      await expect(verdict).toHaveAttribute('data-verdict', 'success', { timeout: 60_000 });
      await expect(verdict).toContainText('all 200 anchored records are the ones anchored on the blockchain');
      await expect(page.getByTestId('verify-bundle-failure')).toHaveCount(0);
      await expect(page.getByTestId('verify-bundle-unanchored')).toHaveCount(0);
      expect(calls).toEqual([]);
    });

    test('with one record edited, exactly that record fails, in English and Italian', async ({
      page,
    }, testInfo) => {
      const bundle = JSON.parse(first200) as Bundle;
      const target = bundle.records[57] as Entry;
      const energy = Number(target.record.supplied_energy ?? '0');
      bundle.records[57] = { ...target, record: { ...target.record, supplied_energy: `${energy + 1}` } };
      const path = testInfo.outputPath('edited-200.json');
      await writeFile(path, JSON.stringify(bundle));
      const calls = await apiDown(page);
      await page.goto('/verify');
      await page.getByTestId('verify-file').setInputFiles(path);
      const verdict = page.getByTestId('verify-bundle-verdict');
      await expect(verdict).toHaveAttribute('data-verdict', 'failed', { timeout: 60_000 });
      await expect(verdict).toContainText('1 of 200 records failed; 199 verified');
      const failures = page.getByTestId('verify-bundle-failure');
      await expect(failures).toHaveCount(1);
      await expect(failures).toHaveAttribute('data-record-id', String(target.record.id));
      await expect(failures).toContainText(`Record ${target.record.id} (number 58 in the bundle)`);
      await expect(failures.locator('[data-check]')).toHaveCount(1);
      await expect(failures.locator('[data-check="leaf"]')).toContainText(
        'the fields differ from the anchored record',
      );
      await switchToItalian(page);
      await expect(failures).toContainText(`Record ${target.record.id} (numero 58 nel pacchetto)`);
      await expect(verdict).toContainText('1 record su 200 non ha superato i controlli; 199 verificati');
      expect(calls).toEqual([]);
    });
  });
