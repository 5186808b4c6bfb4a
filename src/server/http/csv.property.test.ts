import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textArray } from '#server/db/array-parameter.ts';
import { createTestApp, type TestApp } from '#server/test/test-app.ts';
import { csvLine, csvLineSql, numberCell, numberCellSql, textCell, textCellSql } from './csv.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** The characters the rule treats specially, every space JavaScript's `\s` knows, and a few plain ones. */
const TRICKY = [
  ',',
  ';',
  '"',
  "'",
  '=',
  '+',
  '-',
  '@',
  '\t',
  '\r',
  '\n',
  '\v',
  '\f',
  ' ',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2005',
  '\u200a',
  '\u200b',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\u180e',
  '\\',
  '1',
  'a',
  'è',
  'Z',
];
const trickyText = fc.array(fc.constantFrom(...TRICKY), { maxLength: 12 }).map((chars) => chars.join(''));
/** Any text PostgreSQL can hold (every character but NUL). */
const anyText = fc.string({ unit: 'grapheme' }).filter((text) => !text.includes('\u0000'));

async function cellsInSql(texts: string[]): Promise<string[]> {
  const result = await t.database.db.execute<{ cell: string }>(sql`
    select ${textCellSql(sql`u.text`)} as cell
    from unnest(${textArray(texts)}::text[]) with ordinality as u(text, n) order by u.n`);
  return result.rows.map((row) => row.cell);
}

describe('the CSV cell rule in SQL', () => {
  it('writes every text cell exactly as textCell does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(trickyText, anyText), { minLength: 1, maxLength: 60 }),
        async (texts) => {
          expect(await cellsInSql(texts)).toEqual(texts.map((text) => textCell(text)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('agrees on the cases the rule is about', async () => {
    const cases = [
      'plain',
      'a,b',
      'say "hi"',
      'two\r\nlines',
      '-2+3',
      '=1+1, ok',
      '\tindent',
      'SEMI;=1+1;X',
      'a,+1;@SUM(A1)',
      'a; -1',
      'LOT-7;B-2',
      '\u00a0=1',
      '\u200b=1',
      '',
      "it's",
    ];
    expect(await cellsInSql(cases)).toEqual(cases.map((text) => textCell(text)));
  });

  it('writes an absent text, a number and a whole line as the server would', async () => {
    const result = await t.database.db.execute<{ line: string }>(sql`
      select ${csvLineSql([
        textCellSql(sql`null::text`),
        numberCellSql(sql`(-7.25)::numeric(10, 2)`),
        numberCellSql(sql`null::integer`),
        textCellSql(sql`'x;y'::text`),
      ])} as line`);
    expect(result.rows[0]?.line).toBe(
      csvLine([textCell(null), numberCell('-7.25'), numberCell(null), textCell('x;y')]),
    );
  });
});
