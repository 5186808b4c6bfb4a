import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { apiData, apiToken } from './api.ts';
import { DEMO, inItalian, loginAs, mainMenu } from './fixtures.ts';

/*
 * Lot compliance and recall by lot: the lot filter of the sterilization list (in the URL,
 * kept by a reload), the flag in the details card and the verification modal, the recall screen in
 * English and Italian with its counts per customer, and a certificate row's link to its lot's recall.
 * The demo seed has no certificates, so every seeded record with a lot is uncertified; the one
 * certificate made here is deleted again.
 */
const createdIds = new Set<number>();

/** A lot of the seeded records, the newest record's. */
async function seededLot(request: APIRequestContext, token: string): Promise<string> {
  const page = await apiData<{ data: { consumables_lot: string | null }[] }>(
    request,
    '/api/v1/sterilizations?lotStatus=uncertified',
    token,
  );
  const lot = page.data.find((row) => row.consumables_lot)?.consumables_lot;
  expect(lot, 'a seeded record with a lot').toBeTruthy();
  return lot as string;
}

async function makePdf(text: string): Promise<Buffer> {
  const document = await PDFDocument.create();
  document
    .addPage()
    .drawText(text, { x: 50, y: 700, size: 14, font: await document.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await document.save());
}

test.afterAll(async ({ playwright, baseURL }) => {
  if (createdIds.size === 0) return;
  const request = await playwright.request.newContext({ baseURL });
  try {
    const token = await apiToken(request, DEMO.admin);
    for (const id of [...createdIds]) {
      await request.delete(`/api/v1/certificates/${id}`, { headers: { Authorization: `Bearer ${token}` } });
      createdIds.delete(id);
    }
  } finally {
    await request.dispose();
  }
});

const searchOf = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

test.describe('lot compliance in the sterilization list', () => {
  test('the lot filter goes into the URL, survives a reload, and the details card shows the flag', async ({
    page,
  }) => {
    // A reload and the verification modal's own chunk: more than the default time on a busy machine.
    test.slow();
    await loginAs(page, DEMO.admin);
    await page.goto('/sterilizations');
    const filter = page.getByRole('combobox', { name: 'Lot certificate' });
    await filter.click();
    await page.getByRole('option', { name: 'Flagged (none or expired)' }).click();
    await expect.poll(() => searchOf(page).lotStatus).toBe('flagged');

    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Lot certificate' })).toHaveText(
      'Flagged (none or expired)',
    );
    expect(searchOf(page).lotStatus).toBe('flagged');
    const table = page.getByRole('table', { name: 'Sterilizations' });
    const firstRow = table.locator('tbody tr').first();
    await firstRow.getByRole('button', { name: 'Show details' }).click();
    const details = page.getByTestId('sterilization-details').first();
    await expect(details).toContainText('Lot certificate');
    await expect(details.getByTestId('lot-status')).toHaveText('No certificate');

    await firstRow.getByRole('button', { name: 'Verify data' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('integrity-lot-status')).toContainText('No certificate');
  });
});

test.describe('recall by lot', () => {
  test('names a lot and lists its records with the counts per customer, kept by a reload', async ({
    page,
    request,
  }) => {
    const token = await apiToken(request, DEMO.admin);
    const lot = await seededLot(request, token);
    const summary = await apiData<{
      records: number;
      customers: { customer_name: string; records: number }[];
    }>(request, `/api/v1/recall/summary?lot=${encodeURIComponent(lot)}`, token);

    await loginAs(page, DEMO.admin);
    await mainMenu(page).getByRole('link', { name: 'Recall by lot' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Recall by lot' })).toBeVisible();
    await expect(page.getByText('Enter a consumables lot')).toBeVisible();
    await page.getByRole('textbox', { name: 'Consumables lot' }).fill(lot);
    await page.keyboard.press('Enter');
    await expect.poll(() => searchOf(page).lot).toBe(lot);

    const check = async () => {
      await expect(page.getByTestId('recall-summary')).toContainText(`used lot ${lot}`);
      const customers = page.getByTestId('recall-customers').locator('tbody tr');
      await expect(customers).toHaveCount(summary.customers.length);
      for (const customer of summary.customers)
        await expect(customers.filter({ hasText: customer.customer_name })).toContainText(
          String(customer.records),
        );
      const rows = page.getByRole('table', { name: 'Records of the lot' }).locator('tbody tr');
      await expect(rows.first()).toBeVisible();
      await expect(rows.first().getByTestId('lot-status')).toHaveText('No certificate');
    };
    await check();
    await page.reload();
    await check();
    await expect(page.getByRole('textbox', { name: 'Consumables lot' })).toHaveValue(lot);
  });

  test('shows a clinic only its own records, in Italian', async ({ page, request }) => {
    const staff = await apiToken(request, DEMO.admin);
    const customerToken = await apiToken(request, DEMO.customer);
    const ownLot = await seededLot(request, customerToken);
    const own = await apiData<{ customers: { customer_name: string }[] }>(
      request,
      `/api/v1/recall/summary?lot=${encodeURIComponent(ownLot)}`,
      customerToken,
    );
    const all = await apiData<{ customers: unknown[] }>(
      request,
      `/api/v1/recall/summary?lot=${encodeURIComponent(ownLot)}`,
      staff,
    );
    expect(own.customers).toHaveLength(1);

    await loginAs(page, DEMO.customer);
    await inItalian(page);
    await page.goto(`/recall?lot=${encodeURIComponent(ownLot)}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Richiamo per lotto' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Per cliente' })).toBeVisible();
    const customers = page.getByTestId('recall-customers').locator('tbody tr');
    await expect(customers).toHaveCount(1);
    await expect(customers).toContainText(own.customers[0]?.customer_name as string);
    await expect(page.getByText('Non esiste alcun certificato per questo lotto.')).toBeVisible();
    await expect(
      page
        .getByRole('table', { name: 'Sterilizzazioni del lotto' })
        .locator('tbody tr')
        .first()
        .getByTestId('lot-status'),
    ).toHaveText('Senza certificato');
    // Staff may see more clinics of the same lot; the clinic never does.
    expect(all.customers.length).toBeGreaterThanOrEqual(1);
  });

  test("a certificate's row opens the recall of its lot, where the records are certified", async ({
    page,
    request,
  }) => {
    const token = await apiToken(request, DEMO.admin);
    const lot = await seededLot(request, token);
    const treatment = `RC${Date.now().toString(36).toUpperCase()}`;
    const response = await request.post('/api/v1/certificates', {
      headers: { Authorization: `Bearer ${token}` },
      multipart: {
        lot_number: lot,
        validated_treatment_number: treatment,
        expiration_date: '2099-12-31',
        italian_file: { name: `cert-${lot}.pdf`, mimeType: 'application/pdf', buffer: await makePdf(lot) },
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    const id = (await response.json()).data.id as number;
    createdIds.add(id);

    await loginAs(page, DEMO.admin);
    await page.goto('/certificates?sortBy=lot_number&sortDir=desc');
    const row = page
      .getByRole('table', { name: 'Certificates' })
      .getByRole('row')
      .filter({ hasText: treatment });
    // Sorted by lot descending, the demo lots (L2026-…) come before other specs' E2E… lots.
    await expect(row).toBeVisible();
    await row.getByRole('link', { name: `Records using this lot: ${lot}` }).click();
    await expect(page).toHaveURL(/\/recall\?/);
    expect(searchOf(page).lot).toBe(lot);
    await expect(page.getByTestId('recall-summary')).toContainText(treatment);
    await expect(
      page
        .getByRole('table', { name: 'Records of the lot' })
        .locator('tbody tr')
        .first()
        .getByTestId('lot-status'),
    ).toHaveText('Certified');
  });
});
