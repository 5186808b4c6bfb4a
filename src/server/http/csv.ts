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
 *
 * The same rule is written twice: here for the cells the server formats, and as SQL (`textCellSql`,
 * `csvLineSql`) for the large exports, whose lines the database writes so that the server handles one
 * text a batch instead of a string a field (docs/adr/0033-export-lines-written-by-the-database.md). Both are built
 * from the same patterns below, and a property test holds them to the same output.
 */
import { type SQL, sql } from 'drizzle-orm';

export type Cell = string | number | null | undefined;

const CRLF = '\r\n';
const SEPARATED_PARTS = /([,;])/;
/**
 * JavaScript's `\s` spelled out, so that PostgreSQL's regular expressions (whose `\s` follows the
 * locale) read exactly the same characters.
 */
const SPACE = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
const FORMULA = `[${SPACE}]*[=+@-]|[\\t\\r]`;
const FORMULA_START = new RegExp(`^(?:${FORMULA})`);
const QUOTED = '[",;\\r\\n]';
const NEEDS_QUOTES = new RegExp(QUOTED);

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

/** A constant as an SQL string literal (standard strings: a backslash is itself, a quote doubled). */
const literal = (text: string) => sql.raw(`'${text.replaceAll("'", "''")}'`);

/** A part (the whole text, or what follows a separator) that starts like a formula, for the SQL rule. */
const PART_FORMULA = literal(`(^|[,;])(${FORMULA})`);
/**
 * What a text must hold for the rule to change it: a character that needs quotes (among them every
 * separator), or a formula at its start. Most cells hold neither and are left as they are after this one
 * test (each regular expression costs the database about 0.2 µs a cell).
 */
const CHANGED = literal(`${QUOTED}|^(${FORMULA})`);

/**
 * `textCell` as an SQL expression over a text value: guarding a part adds only an apostrophe, which
 * never makes a cell need quotes, so whether to quote is read from the value itself.
 */
export function textCellSql(value: SQL): SQL {
  const guarded = sql`regexp_replace(${value}, ${PART_FORMULA}, ${literal("\\1'\\2")}, 'g')`;
  return sql`case when ${value} is null then '' when ${value} !~ ${CHANGED} then ${value}
    when ${value} ~ ${literal(QUOTED)} then '"' || replace(${guarded}, '"', '""') || '"'
    else ${guarded} end`;
}

/** `numberCell` as an SQL expression: the number as the database writes it, empty when there is none. */
export const numberCellSql = (value: SQL): SQL => sql`coalesce((${value})::text, '')`;

/** `csvLine` as an SQL expression: cells that are SQL text expressions, never null. */
export function csvLineSql(cells: SQL[]): SQL {
  return sql`concat_ws(',', ${sql.join(cells, sql`, `)}) || ${literal(CRLF)}`;
}
