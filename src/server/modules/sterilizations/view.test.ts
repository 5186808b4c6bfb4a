import { getTableConfig } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { sterilizations } from '#server/db/schema.ts';
import { canonicalValue, NUMERIC_FIELDS } from '#shared/integrity/index.ts';
import { type SterilizationRow, sterilizationView } from './view.ts';

/**
 * The API gives the record's numeric columns as JSON numbers, which browsers read as binary floats; the
 * modal builds its proof receipt from them (docs/integrity.md "Rules a verifier must not guess", rule 4).
 * That is exact only while every such column has at most 15 significant digits (float64 keeps 15 for
 * any decimal). A wider column must reach the API as a string instead: this test fails first.
 */
describe('the API numbers of a record', () => {
  it('leaf numbers survive the binary float of the API JSON: every numeric column has ≤ 15 digits', () => {
    const columns = getTableConfig(sterilizations).columns.filter((column) =>
      NUMERIC_FIELDS.has(column.name as never),
    );
    expect(columns.map((column) => column.name).sort()).toEqual([...NUMERIC_FIELDS].sort());
    const widest: Record<string, string> = {};
    for (const column of columns) {
      if (column.name === 'id') {
        // bigserial read as a JS number: exact up to 2^53 − 1, nine thousand million million records.
        expect(column.columnType, column.name).toBe('PgBigSerial53');
        widest.id = String(Number.MAX_SAFE_INTEGER);
        continue;
      }
      const { precision, scale } = column as unknown as { precision?: number; scale?: number };
      // integer columns: 10 digits (int4), 5 (int2); numeric(p, s): p digits, s of them after the point.
      const integerDigits: Record<string, number> = { PgInteger: 10, PgSmallInt: 5 };
      const digits = integerDigits[column.columnType] ?? precision ?? Infinity;
      expect(digits, column.name).toBeLessThanOrEqual(15);
      const fraction = column.columnType in integerDigits ? 0 : (scale ?? 0);
      const integer = '9'.repeat(digits - fraction);
      widest[column.name] = fraction > 0 ? `-${integer}.${'9'.repeat(fraction - 1)}1` : `-${integer}`;
    }
    const row = {
      received_ts: '2025-03-14T09:26:53.589Z',
      created_at: '2025-03-14T09:26:53.589Z',
      device_serial: 'UVB00017',
      consumables_lot: null,
      notes: null,
      merkle_proof: null,
      block_id: null,
      cycle_ts: null,
      clock_suspect: false,
      token_id: null,
      ...widest,
    } as unknown as SterilizationRow;
    const parsed = JSON.parse(JSON.stringify(sterilizationView(row))) as Record<string, unknown>;
    for (const field of NUMERIC_FIELDS) {
      expect(canonicalValue(field, parsed[field] as number), field).toBe(
        canonicalValue(field, widest[field]),
      );
    }
  });
});
