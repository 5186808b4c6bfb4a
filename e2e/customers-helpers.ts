/**
 * What the customer, customer-users and users-list specs share on screen: unique names, field errors,
 * toasts, list rows and search params. Their data is made through the API (api.ts).
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** A short unique suffix for this run. */
export const unique = (): string => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The helper text under a field (MUI links it with aria-describedby). */
export const expectFieldError = (input: Locator, message: string) =>
  expect(input).toHaveAccessibleDescription(message);

/** A toast (alert) with this text. */
export const toastWith = (page: Page, text: string | RegExp): Locator =>
  page.getByRole('alert').filter({ hasText: text });

/** The data rows of the (first) list table, header excluded. */
export const bodyRows = (table: Locator): Locator => table.locator('tbody tr');

/** Texts of column `index` (0-based) of the list's rows. */
export async function columnTexts(table: Locator, index: number): Promise<string[]> {
  return bodyRows(table).evaluateAll(
    (rows, column) => rows.map((row) => row.children[column]?.textContent?.trim() ?? ''),
    index,
  );
}

/** The page's search params have these values, in any order (null: absent). */
export async function expectSearch(page: Page, expected: Record<string, string | null>): Promise<void> {
  await expect
    .poll(() => {
      const params = new URL(page.url()).searchParams;
      return Object.fromEntries(Object.keys(expected).map((key) => [key, params.get(key)]));
    })
    .toEqual(expected);
}
