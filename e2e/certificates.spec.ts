import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { apiToken } from './api.ts';
import { DEMO, loginAs, mainMenu, switchToItalian } from './fixtures.ts';

/*
 * Certificates: upload by drag and drop, the list, both downloads, delete with confirmation, the
 * validation messages in English and Italian, and what a user without the upload ability sees.
 * Every certificate made here has a unique lot and is deleted again (afterAll repairs a failed run).
 */
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
const createdIds = new Set<number>();

async function makePdf(text: string): Promise<Buffer> {
  const document = await PDFDocument.create();
  const page = document.addPage();
  page.drawText(text, { x: 50, y: 700, size: 14, font: await document.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await document.save());
}

async function apiUpload(
  request: APIRequestContext,
  token: string,
  lot: string,
  treatment: string,
): Promise<number> {
  const response = await request.post('/api/v1/certificates', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      lot_number: lot,
      validated_treatment_number: treatment,
      expiration_date: '2030-06-30',
      italian_file: { name: `cert-${lot}.pdf`, mimeType: 'application/pdf', buffer: await makePdf(lot) },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const id = (await response.json()).data.id as number;
  createdIds.add(id);
  return id;
}

async function apiDelete(request: APIRequestContext, token: string, id: number): Promise<void> {
  await request.delete(`/api/v1/certificates/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  createdIds.delete(id);
}

const toast = (page: Page, text: string): Locator => page.getByRole('alert').filter({ hasText: text });
const table = (page: Page): Locator => page.getByRole('table', { name: /^(Certificates|Certificati)$/ });
const rowOf = (page: Page, lot: string): Locator => table(page).getByRole('row').filter({ hasText: lot });
const uploadForm = (page: Page): Locator =>
  page.getByRole('form', { name: /^(Certificate upload|Caricamento del certificato)$/ });
const lotField = (page: Page) =>
  uploadForm(page).getByRole('textbox', { name: /^(Lot number|Numero di lotto)/ });
const treatmentField = (page: Page) =>
  uploadForm(page).getByRole('textbox', {
    name: /^(Validated treatment number|Numero di trattamento convalidato)/,
  });
const dateGroup = (page: Page) =>
  uploadForm(page).getByRole('group', { name: /^(Expiration date|Data di scadenza)/ });
const uploadButton = (page: Page) => page.getByRole('button', { name: /^(Upload|Carica)$/ });

/** Drops a file on the drop zone the way a browser does: a drop event carrying a DataTransfer. */
async function dropFile(page: Page, name: string, type: string, bytes: Buffer): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ data, fileName, mimeType }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], fileName, { type: mimeType }));
      return transfer;
    },
    { data: [...bytes], fileName: name, mimeType: type },
  );
  const zone = page.getByTestId('certificate-dropzone');
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

/** Today in the browser's time zone (playwright.config: Europe/Rome) as YYYY-MM-DD. */
const todayInRome = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Rome',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

test.describe('certificates', () => {
  test.afterAll(async ({ playwright, baseURL }) => {
    if (createdIds.size === 0) return;
    const request = await playwright.request.newContext({ baseURL });
    try {
      const token = await apiToken(request, DEMO.admin);
      for (const id of [...createdIds]) await apiDelete(request, token, id);
    } finally {
      await request.dispose();
    }
  });

  test('upload by drag and drop, see it in the list, download both files, delete with confirmation', async ({
    page,
  }) => {
    const lot = `E2E${run}`;
    const treatment = '31333';
    await loginAs(page, DEMO.admin);
    await mainMenu(page).getByRole('link', { name: 'Certificates' }).click();
    await expect(page).toHaveURL(/\/certificates/);
    await expect(page.getByRole('heading', { level: 1, name: 'Certificates' })).toBeVisible();
    // A fresh database has none (every test here deletes what it made).
    await expect(table(page)).toContainText('No certificates found');

    await page.getByRole('link', { name: 'Upload a new certificate' }).click();
    await expect(page).toHaveURL('/certificates/upload');
    await expect(uploadForm(page)).toContainText('The quality control checklist is created automatically.');
    await expect(uploadForm(page)).toContainText('Example: 092695');
    await expect(uploadForm(page)).toContainText('Example: 31333');
    // The expiration date starts at today.
    await expect(uploadForm(page).locator('input[name="expiration_date"]')).toHaveValue(todayInRome());
    await expect(uploadButton(page)).toBeDisabled();

    await lotField(page).fill(lot);
    await treatmentField(page).fill(treatment);
    await expect(uploadButton(page)).toBeDisabled(); // the file is still missing
    await dropFile(page, 'Certificato lotto.pdf', 'application/pdf', await makePdf(`Certificato ${lot}`));
    await expect(page.getByTestId('certificate-selected-file')).toContainText('Certificato lotto.pdf');
    await expect(uploadButton(page)).toBeEnabled();

    const uploadCall = page.waitForResponse(
      (response) => response.url().endsWith('/api/v1/certificates') && response.request().method() === 'POST',
    );
    await uploadButton(page).click();
    const uploaded = await uploadCall;
    expect(uploaded.status()).toBe(201);
    createdIds.add((await uploaded.json()).data.id);

    await expect(toast(page, 'Certificates uploaded successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/certificates(\?.*)?$/);
    const row = rowOf(page, lot);
    await expect(row).toBeVisible();
    await expect(row).toContainText(treatment);
    await expect(row).toContainText(todayInRome());

    // Downloads: fetched with the session, saved under the server's file names.
    const checklistName = `quality_control_checklist_${lot}_${treatment}.pdf`;
    const [italian] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Certificato lotto.pdf' }).click(),
    ]);
    expect(italian.suggestedFilename()).toBe('Certificato lotto.pdf');
    const italianBytes = await readFile(await italian.path());
    expect(italianBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const [checklist] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: checklistName }).click(),
    ]);
    expect(checklist.suggestedFilename()).toBe(checklistName);
    const checklistBytes = await readFile(await checklist.path());
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(checklistBytes)), {
      mergePages: true,
    });
    expect(text).toContain('Quality Control Checklist');
    expect(text).toContain(lot);
    expect(text).toContain(treatment);

    // Delete: the confirmation can be cancelled, then confirmed.
    const deleteButton = row.getByRole('button', {
      name: `Delete the certificate of lot ${lot}, treatment ${treatment}`,
    });
    await deleteButton.click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure?' });
    await expect(dialog).toContainText('The PDF files will be deleted.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toBeVisible();

    await deleteButton.click();
    await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Certificate deleted successfully')).toBeVisible();
    await expect(rowOf(page, lot)).toHaveCount(0);
    createdIds.clear();
  });

  test('validation messages in English and Italian; a non-PDF is refused', async ({ page }) => {
    await loginAs(page, DEMO.admin);
    await page.goto('/certificates/upload');
    await expect(uploadForm(page)).toBeVisible();

    await lotField(page).fill('x');
    await lotField(page).fill('');
    await treatmentField(page).fill('y');
    await treatmentField(page).fill('');
    // Clear the expiration date (all sections) and leave the field.
    await dateGroup(page).getByRole('spinbutton', { name: 'Year' }).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Tab');
    await dropFile(page, 'notes.txt', 'text/plain', Buffer.from('not a certificate'));

    await expect(uploadForm(page)).toContainText('lot number is mandatory');
    await expect(uploadForm(page)).toContainText('validated treatment number is mandatory');
    await expect(uploadForm(page)).toContainText('the expiration date is mandatory');
    await expect(uploadForm(page)).toContainText('The certificate file must be a PDF');
    await expect(uploadButton(page)).toBeDisabled();

    await page.getByRole('button', { name: 'Remove the file' }).click();
    await expect(uploadForm(page)).toContainText('the Italian certificate file is mandatory');

    await switchToItalian(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Carica un nuovo certificato' })).toBeVisible();
    await expect(uploadForm(page)).toContainText('il numero di lotto è obbligatorio');
    await expect(uploadForm(page)).toContainText('il numero di trattamento convalidato è obbligatorio');
    await expect(uploadForm(page)).toContainText('la data di scadenza è obbligatoria');
    await expect(uploadForm(page)).toContainText('il file del certificato in italiano è obbligatorio');
    await expect(uploadForm(page)).toContainText(
      'La checklist di controllo qualità viene creata automaticamente.',
    );
    await dropFile(page, 'note.txt', 'text/plain', Buffer.from('non è un certificato'));
    await expect(uploadForm(page)).toContainText('Il file del certificato deve essere un PDF');
    await expect(uploadButton(page)).toBeDisabled();
  });

  test('a duplicate lot and treatment is refused by the server with a clear message', async ({
    page,
    request,
  }) => {
    const token = await apiToken(request, DEMO.admin);
    const lot = `DUP${run}`;
    await apiUpload(request, token, lot, '777');
    await loginAs(page, DEMO.admin);
    await page.goto('/certificates/upload');
    await lotField(page).fill(lot);
    await treatmentField(page).fill('777');
    await dropFile(page, 'copia.pdf', 'application/pdf', await makePdf('copia'));
    await uploadButton(page).click();
    const message = 'A certificate with this lot number and validated treatment number already exists';
    // One alert, the form's own (docs/adr/0015-dates-forms-and-abilities-in-the-client.md), naming the
    // field's problem.
    await expect(toast(page, 'Verify inserted data')).toContainText(message);
    await expect(page.getByRole('alert').filter({ hasText: 'Check data you entered' })).toHaveCount(0);
    // The form is back with the values and the message on the field.
    await expect(lotField(page)).toHaveValue(lot);
    await expect(uploadForm(page)).toContainText(message);
    await expect(page).toHaveURL('/certificates/upload');
  });

  test('sort and page stay in the URL and are remembered when the list is opened again', async ({
    page,
    request,
  }) => {
    const token = await apiToken(request, DEMO.admin);
    await apiUpload(request, token, `SORTA${run}`, '1');
    await apiUpload(request, token, `SORTB${run}`, '2');
    await loginAs(page, DEMO.admin);
    await mainMenu(page).getByRole('link', { name: 'Certificates' }).click();
    await expect(table(page)).toBeVisible();
    const header = table(page).getByRole('columnheader', { name: 'Expiration date' });
    await header.getByRole('button').click();
    await expect(page).toHaveURL(/sortBy=expiration_date/);
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await header.getByRole('button').click();
    await expect(page).toHaveURL(/sortDir=desc/);

    await mainMenu(page).getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL('/');
    await mainMenu(page).getByRole('link', { name: 'Certificates' }).click();
    await expect(page).toHaveURL(/sortBy=expiration_date/);
    await expect(page).toHaveURL(/sortDir=desc/);
    await expect(table(page).getByRole('columnheader', { name: 'Expiration date' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  test('the delete dialog says how many records of the lot lose their certification', async ({
    page,
    request,
  }) => {
    const token = await apiToken(request, DEMO.admin);
    const headers = { Authorization: `Bearer ${token}` };
    const records = await request.get('/api/v1/sterilizations?lotStatus=uncertified&perPage=100', {
      headers,
    });
    const rows = (await records.json()).data.data as { consumables_lot: string | null }[];
    // A lot of the demo data (other specs post records with lots of their own, one record each).
    const lot = rows.find((row) => /^L2026-\d{3}$/.test(row.consumables_lot ?? ''))?.consumables_lot ?? '';
    expect(lot, 'a seeded lot without a certificate').not.toBe('');
    const summary = await request.get(`/api/v1/recall/summary?lot=${encodeURIComponent(lot)}`, { headers });
    const count = (await summary.json()).data.records as number;
    expect(count).toBeGreaterThan(1);

    await apiUpload(request, token, lot, `IMPACT1${run}`);
    await loginAs(page, DEMO.admin);
    await switchToItalian(page);
    await page.goto(
      `/certificates?q=${encodeURIComponent(`IMPACT1${run}`)}&sortBy=lot_number&sortDir=asc&page=1`,
    );
    const dialog = page.getByRole('dialog', { name: 'Sei sicuro?' });
    const ask = async (treatment: string) => {
      await rowOf(page, treatment)
        .getByRole('button', { name: `Elimina il certificato del lotto ${lot}, trattamento ${treatment}` })
        .click();
      return dialog;
    };
    await ask(`IMPACT1${run}`);
    await expect(dialog).toContainText(`${count} sterilizzazioni del lotto perdono la certificazione.`);
    await expect(dialog).toHaveAccessibleDescription(
      `I file PDF saranno eliminati. ${count} sterilizzazioni del lotto perdono la certificazione.`,
    );
    await dialog.getByRole('button', { name: 'Annulla' }).click();

    // A second certificate of the lot covers the same records: deleting the first takes none away.
    await apiUpload(request, token, lot, `IMPACT2${run}`);
    await page.reload();
    await ask(`IMPACT1${run}`);
    await expect(dialog).toContainText('Nessuna sterilizzazione del lotto perde la certificazione.');
    await dialog.getByRole('button', { name: 'Annulla' }).click();
  });

  test('a failed delete shows the server message, translated', async ({ page, request }) => {
    const token = await apiToken(request, DEMO.admin);
    const lot = `GONE${run}`;
    const id = await apiUpload(request, token, lot, '9');
    await loginAs(page, DEMO.admin);
    await page.goto('/certificates?sortBy=lot_number&sortDir=asc&page=1');
    const row = rowOf(page, lot);
    await expect(row).toBeVisible();
    await switchToItalian(page);
    await row.getByRole('button', { name: `Elimina il certificato del lotto ${lot}, trattamento 9` }).click();
    // Someone else deletes it meanwhile.
    await apiDelete(request, token, id);
    await page.getByRole('dialog', { name: 'Sei sicuro?' }).getByRole('button', { name: 'Elimina' }).click();
    await expect(toast(page, 'Certificato non trovato')).toBeVisible();
  });

  test('a customer user lists and downloads certificates but cannot upload or delete', async ({
    page,
    request,
  }) => {
    const token = await apiToken(request, DEMO.admin);
    const lot = `CUST${run}`;
    await apiUpload(request, token, lot, '42');
    await loginAs(page, DEMO.customer);
    await mainMenu(page).getByRole('link', { name: 'Certificates' }).click();
    const row = rowOf(page, lot);
    await expect(row).toBeVisible();
    await expect(page.getByRole('link', { name: 'Upload a new certificate' })).toHaveCount(0);
    await expect(row.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    await expect(table(page).getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: `quality_control_checklist_${lot}_42.pdf` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`quality_control_checklist_${lot}_42.pdf`);

    // The upload screen opened directly has no upload button.
    await page.goto('/certificates/upload');
    await expect(uploadForm(page)).toBeVisible();
    await expect(uploadButton(page)).toHaveCount(0);
    await expect(page.getByText('You are not allowed to upload certificates.')).toBeVisible();
  });
});
