import { expect, type Page, test } from '@playwright/test';
import { DEMO, inItalian, loginAs, waitForMinedRecord } from './fixtures.ts';

/**
 * The verification window on a 390 px phone, in Italian (docs/product.md §2 Verification modal): the
 * verdict, the fields that differ and Restore come first, within the first screen, not after the
 * fourteen fields; a differing field's name takes the reader to its input.
 */
test.use({ viewport: { width: 390, height: 844 } });

const modal = (page: Page) => page.getByRole('dialog', { name: 'Verifica integrità dati' });

test('the verdict, the differing fields and Restore come first on a phone', async ({ page }) => {
  test.slow();
  await loginAs(page, DEMO.super);
  const id = await waitForMinedRecord(page);
  await inItalian(page);
  await page.goto('/sterilizations?customerId=2');
  await page.getByRole('button', { name: 'Verifica dati' }).first().click();
  const window = modal(page);
  await expect(window.getByLabel('ID record', { exact: true })).toHaveValue(String(id));

  const summary = window.getByRole('region', { name: 'Esito' });
  const verdict = summary.getByRole('button', { name: 'Verifica riuscita' });
  await expect(verdict).toBeVisible({ timeout: 20_000 });
  await expect(verdict).toBeInViewport();
  // The whole window is the screen: nothing sideways.
  const box = await window.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(390);

  // An edit far down the form: the verdict, what differs and Restore stay on the first screen.
  const energy = window.getByLabel('Dose UV (energia erogata)', { exact: true });
  const stored = await energy.inputValue();
  await energy.fill('1');
  await window.getByLabel('Note', { exact: true }).fill('modificato');
  await expect(summary.getByRole('button', { name: 'Verifica fallita' })).toBeVisible();
  const differing = summary.getByTestId('integrity-changed');
  await expect(differing).toContainText('2 campi sono diversi dal record memorizzato');
  await expect(differing.getByRole('listitem')).toHaveText([
    `Dose UV (energia erogata): memorizzato ${stored}, ora 1`,
    /^Note: memorizzato .*, ora modificato$/,
  ]);
  await window.locator('.MuiDialogContent-root').evaluate((element) => element.scrollTo(0, 0));
  for (const element of [summary.getByRole('button', { name: 'Verifica fallita' }), differing]) {
    await expect(element).toBeInViewport();
  }
  const restore = summary.getByRole('button', { name: 'Ripristina i valori memorizzati' });
  await expect(restore).toBeInViewport();
  // The verdict and Restore are in the summary only, not again beside the fields.
  await expect(window.getByRole('button', { name: 'Ripristina i valori memorizzati' })).toHaveCount(1);
  await expect(window.getByRole('button', { name: 'Verifica fallita' })).toHaveCount(1);

  // A differing field's name takes the reader to its input.
  await differing.getByRole('button', { name: 'Dose UV (energia erogata)' }).click();
  await expect(energy).toBeFocused();

  await restore.click();
  await expect(energy).toHaveValue(stored);
  await expect(summary.getByRole('button', { name: 'Verifica riuscita' })).toBeVisible();
  await expect(summary.getByTestId('integrity-changed')).toHaveCount(0);
});
