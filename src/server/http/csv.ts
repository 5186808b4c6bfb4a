/**
 * The cells of every CSV file the product writes, so that one rule protects them all: RFC 4180
 * quoting, and no cell a spreadsheet would run as a formula.
 *
 * A text cell is quoted when it holds a quote, a line break, or a list separator: `,` for RFC 4180,
 * and `;`, which Excel uses instead of `,` in locales whose decimal mark is a comma (Italian among
 * them) and would otherwise split the cell there. A text that starts with = + - @, a tab or a carriage
 * return is a formula to a spreadsheet, so it is prefixed with an apostrophe; and since a spreadsheet
 * that splits a cell at `;` or `,` reads each part as a cell of its own, each part is guarded too
 * (`SEMI;=1+1;X` is written `"SEMI;'=1+1;X"`).
 */

export type Cell = string | number | null | undefined;

const CRLF = '\r\n';
const SEPARATED_PARTS = /([,;])/;
const FORMULA_START = /^\s*[=+\-@]|^[\t\r]/;
const NEEDS_QUOTES = /[",;\r\n]/;

const guardFormula = (part: string) => (FORMULA_START.test(part) ? `'${part}` : part);

/** A text cell: each separated part guarded against formulas, then quoted when it needs it. */
export function textCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  const text = String(value)
    .split(SEPARATED_PARTS)
    .map((part, index) => (index % 2 === 0 ? guardFormula(part) : part))
    .join('');
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A number the database produced (never a formula; a negative number keeps its sign). */
export const numberCell = (value: Cell): string =>
  value === null || value === undefined ? '' : String(value);

export function csvLine(cells: string[]): string {
  return cells.join(',') + CRLF;
}
