/**
 * Pure display rules of a sterilization record wherever it is listed (the sterilization list, the recall
 * page, the details card; docs/product.md §2, §4), unit-tested in record-format.test.ts.
 */

/** docs/product.md §2: customer names longer than 27 characters are cut there and get "...". */
export const CUSTOMER_NAME_MAX = 27;

export function truncateName(name: string, max = CUSTOMER_NAME_MAX): string {
  // Array.from counts code points, so an accented or emoji character is never split in half.
  const chars = Array.from(name);
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : name;
}

const STATUS_IDS: Record<number, string> = {
  0: 'sterilizations.status.ok',
  1: 'sterilizations.status.nulled',
  2: 'sterilizations.status.lamp_malfunction',
  3: 'sterilizations.status.probe_malfunction',
};

/** docs/product.md §4: the message id of a known status code, or null when the raw value is to be shown. */
export function statusMessageId(code: unknown): string | null {
  return typeof code === 'number' ? (STATUS_IDS[code] ?? null) : null;
}

/** docs/product.md §3: notes are text; anything else (an object from an old device) shows as empty text. */
export function notesText(notes: unknown): string {
  return typeof notes === 'string' ? notes : '';
}
