import { readFile, writeFile } from 'node:fs/promises';
import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { DEMO, DEMO_PASSWORD, loginAs, logout, mainMenu } from './fixtures.ts';

/*
 * Signed compliance reports: a clinic user generates its month's report from the Reports
 * menu entry and signs it as reviewed; an admin signs it as approved from the customer page; both
 * signed versions download, each with its signatures printed on the pages. Reports are immutable by
 * design, so the ones made here stay (the list is sorted newest first, and this run's is the top row).
 * A signed version, once anchored, verifies with its receipt on the public /verify page, logged out.
 */

const table = (page: Page): Locator => page.getByRole('table', { name: 'Compliance reports' });
const newestRow = (page: Page): Locator => table(page).getByRole('row').nth(1);

async function pdfText(path: string): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await readFile(path))), {
    mergePages: true,
  });
  return text.replace(/\s+/g, ' ');
}

async function signNewest(page: Page, meaning: 'Reviewed' | 'Approved', comment: string): Promise<void> {
  await newestRow(page)
    .getByRole('button', { name: /^Sign #\d+$/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Sign the report electronically' });
  await dialog.getByRole('radio', { name: meaning }).check();
  await dialog.getByLabel('Comment (optional)').fill(comment);
  // A wrong password first: refused, nothing signed.
  await dialog.getByLabel(/^Your password/).fill('not-the-password');
  await dialog.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(dialog.getByText('The password is not correct: the report was not signed')).toBeVisible();
  await dialog.getByLabel(/^Your password/).fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('alert').filter({ hasText: 'Report signed' })).toBeVisible();
}

/** From the menu to the Reports page, then a report of the default period generated. */
async function generateFromReports(page: Page): Promise<void> {
  await mainMenu(page).getByRole('link', { name: 'Reports' }).click();
  await page.getByRole('button', { name: 'Generate report' }).click();
  const generate = page.getByRole('dialog', { name: 'Generate a compliance report' });
  await generate.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(generate).toBeHidden();
}

/** Downloads a button's file of the newest report into the test's output folder; returns its path. */
async function saveDownload(page: Page, button: string, testInfo: TestInfo): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    newestRow(page).getByRole('button', { name: button, exact: true }).click(),
  ]);
  const path = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(path);
  return path;
}

async function downloadVersion(page: Page, version: number): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    newestRow(page)
      .getByRole('button', { name: `PDF v${version}` })
      .click(),
  ]);
  return { name: download.suggestedFilename(), text: await pdfText(await download.path()) };
}

test('generate a report, sign it as reviewed and as approved, download both versions', async ({ page }) => {
  test.setTimeout(90_000);
  const clinicUser = await loginAs(page, DEMO.customer);
  const customerId = await page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('uvtrace.session') ?? '{}') as { user: { customer_id: number } }).user
        .customer_id,
  );

  await mainMenu(page).getByRole('link', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/reports(\?|$)/);
  await page.getByRole('button', { name: 'Generate report' }).click();
  const generate = page.getByRole('dialog', { name: 'Generate a compliance report' });
  await expect(generate.locator('input[name="from"]')).toHaveValue(/^\d{4}-\d{2}-01$/);
  await generate.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(generate).toBeHidden();
  await expect(newestRow(page)).toContainText('Draft');
  await expect(newestRow(page)).toContainText('Not signed yet');

  await signNewest(page, 'Reviewed', 'Checked every cycle');
  await expect(newestRow(page)).toContainText('Reviewed');
  await expect(newestRow(page)).toContainText(`v1: Reviewed by ${clinicUser}`);
  const reportId = Number((await newestRow(page).getByRole('cell').first().textContent())?.replace('#', ''));

  // The status filter lives in the URL.
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Reviewed' }).click();
  await expect(page).toHaveURL(/status=reviewed/);
  await expect(newestRow(page)).toContainText(`#${reportId}`);

  await logout(page, clinicUser);
  const admin = await loginAs(page, DEMO.admin);
  await page.goto(`/customers/${customerId}`);
  await page.getByRole('tab', { name: 'Reports' }).click();
  await expect(page).toHaveURL(new RegExp(`/customers/${customerId}/reports(\\?|$)`));
  await expect(newestRow(page)).toContainText(`#${reportId}`);
  await signNewest(page, 'Approved', 'Released for inspection');
  await expect(newestRow(page)).toContainText('Approved');
  await expect(newestRow(page)).toContainText(`v2: Approved by ${admin}`);
  await expect(newestRow(page).getByRole('button', { name: /^Sign #/ })).toHaveCount(0);

  const v1 = await downloadVersion(page, 1);
  expect(v1.name).toBe(`compliance-report-${reportId}-v1.pdf`);
  expect(v1.text).toContain(`1. Reviewed by ${clinicUser}`);
  expect(v1.text).not.toContain('2. Approved by');
  const v2 = await downloadVersion(page, 2);
  expect(v2.name).toBe(`compliance-report-${reportId}-v2.pdf`);
  expect(v2.text).toContain(`1. Reviewed by ${clinicUser}`);
  expect(v2.text).toContain(`2. Approved by ${admin}`);
  expect(v2.text).toContain('Comment: Released for inspection');
});

test('the list follows the anchoring of a signature live: Anchored and the receipt without a reload', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await loginAs(page, DEMO.customer);
  await generateFromReports(page);
  await signNewest(page, 'Reviewed', 'Live anchoring');
  // The server event of the block that anchors it refreshes the list: no reload, no polling.
  await page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
  await expect(newestRow(page).getByText(/^Anchored( for good)?$/)).toBeVisible({ timeout: 90_000 });
  await expect(newestRow(page).getByRole('button', { name: 'Receipt v1', exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
    true,
  );
});

/** Every check the public page makes of a signed report's PDF and receipt, in its order. */
const REPORT_CHECKS = [
  'format',
  'document',
  'leaf',
  'root',
  'chain_id',
  'transaction',
  'contract',
  'status',
  'confirmations',
  'anchor_call',
];

test('a signed report and its receipt pass every check on the public /verify page; one byte changed fails', async ({
  page,
}, testInfo) => {
  test.setTimeout(150_000);
  const clinicUser = await loginAs(page, DEMO.customer);
  await generateFromReports(page);
  await signNewest(page, 'Reviewed', 'For the inspector');

  // The anchor worker puts the signed version's hash in a block of its own within its interval.
  await expect(async () => {
    await page.reload();
    // MINED reads "Anchored", FINAL (at once on the devnet) "Anchored for good".
    await expect(newestRow(page).getByText(/^Anchored( for good)?$/)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 90_000, intervals: [1_000, 2_000, 3_000] });
  const pdfPath = await saveDownload(page, 'PDF v1', testInfo);
  const receiptPath = await saveDownload(page, 'Receipt v1', testInfo);
  expect(JSON.parse(await readFile(receiptPath, 'utf8'))).toMatchObject({
    format: 'uvtrace-report-receipt/1',
    version: '1',
  });

  await logout(page, clinicUser);
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/verify');
  await expect(mainMenu(page)).toHaveCount(0);
  const section = page.locator('section[aria-labelledby="verify-report-title"]');
  await expect(section.getByRole('heading', { name: 'Verify a signed compliance report' })).toBeVisible();
  await page.getByTestId('verify-report-files').setInputFiles([pdfPath, receiptPath]);
  const verdict = page.getByTestId('verify-report-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'success', { timeout: 20_000 });
  await expect(verdict).toHaveText(
    'This PDF is the signed report whose hash is anchored on chain: it was not altered after signing',
  );
  await expect(section.locator('[data-check]')).toHaveCount(REPORT_CHECKS.length);
  for (const name of REPORT_CHECKS) {
    await expect(section.locator(`[data-check="${name}"]`)).toHaveAttribute('data-status', 'pass');
  }

  // The same PDF with one byte changed (in the middle: still a PDF): the document check fails, and
  // with it the verdict; the receipt and the chain still agree with each other.
  const bytes = await readFile(pdfPath);
  const middle = Math.floor(bytes.length / 2);
  bytes[middle] = bytes[middle]! ^ 0x01;
  const tamperedPath = testInfo.outputPath('tampered.pdf');
  await writeFile(tamperedPath, bytes);
  await page.getByTestId('verify-report-files').setInputFiles([tamperedPath]);
  await expect(page.getByTestId('verify-report-pdf')).toHaveText('PDF: tampered.pdf');
  await expect(verdict).toHaveAttribute('data-verdict', 'failed', { timeout: 20_000 });
  await expect(verdict).toHaveText('Not verified: this PDF, its receipt or the anchor does not match');
  await expect(section.locator('[data-check="document"]')).toHaveAttribute('data-status', 'fail');
  await expect(section.locator('[data-check="document"]')).toContainText('the PDF was altered');
  for (const name of REPORT_CHECKS.filter((name) => name !== 'document')) {
    await expect(section.locator(`[data-check="${name}"]`)).toHaveAttribute('data-status', 'pass');
  }
});
