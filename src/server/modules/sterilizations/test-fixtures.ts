/**
 * Fixture records for the list and export tests: two fixture customers far in the past (2024), so
 * the demo seed's recent records never mix with them, with ties on received_ts, null lots, and notes
 * that need CSV quoting or the formula guard.
 */

import { expect } from 'vitest';
import { makeCustomer, makeDevice } from '#server/test/fixtures.ts';
import type { TestApp } from '#server/test/test-app.ts';

export interface Fixture {
  alpha: number;
  beta: number;
  alphaDevices: [number, number];
  betaDevice: number;
  /** Records of alpha's devices: 27 (25 on 2024-03-01..03, one each side of that window); beta's device: 4. */
  alphaCount: number;
}

export const TRICKY_NOTES = [
  'needs "quotes", and a comma',
  'two\r\nlines',
  '=HYPERLINK("http://x")',
  '@SUM(A1)',
];

export async function makeFixture(t: TestApp): Promise<Fixture> {
  const alpha = await makeCustomer(t, { name: 'Alpha fixture clinic' });
  const beta = await makeCustomer(t, { name: 'Beta fixture clinic' });
  const alphaDevices: [number, number] = [await makeDevice(t, alpha), await makeDevice(t, alpha)];
  const betaDevice = await makeDevice(t, beta);
  const rows: [number, string, number, string | null, string | null][] = [];
  // 25 alpha records over 2024-03-01..03: every third pair shares a timestamp (ties broken by id).
  for (let i = 0; i < 25; i++) {
    const device = alphaDevices[i % 2] as number;
    const day = 1 + Math.floor(i / 9);
    const minute = Math.floor(i / 2) * 3;
    const received = `2024-03-0${day}T${String(8 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00.000Z`;
    const lot = i % 5 === 0 ? null : `LOT-${String.fromCharCode(65 + (i % 4))}`;
    const note = i < TRICKY_NOTES.length ? (TRICKY_NOTES[i] as string) : null;
    rows.push([device, received, i % 6 === 5 ? 1 : 0, lot, note]);
  }
  // Day boundaries for the from/to filter.
  rows.push([alphaDevices[0], '2024-02-29T23:59:59.999Z', 0, 'LOT-A', null]);
  rows.push([alphaDevices[1], '2024-03-04T00:00:00.000Z', 0, 'LOT-B', null]);
  for (let i = 0; i < 4; i++) rows.push([betaDevice, `2024-03-02T1${i}:00:00.000Z`, 0, '+LOT-BETA', null]);
  let progressive = 0;
  for (const [device, received, status, lot, note] of rows) {
    progressive += 1;
    await t.database.pool.query(
      `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code, consumables_lot, lot_progressive_id, notes, latitude, longitude)
       values ($1, (select customer_id from devices where id = $1), $2, $3, 312.5, 10, 9.75, 4321, $4, $5, 3, $6, 45.1,
         -7.25)`,
      [device, received, progressive, status, lot, note],
    );
  }
  return { alpha, beta, alphaDevices, betaDevice, alphaCount: 27 };
}

/** Ids of the records matching `where` (on s = sterilizations, d = devices) in `order`. */
export async function expectedIds(t: TestApp, where: string, order: string, params: unknown[] = []) {
  const result = await t.database.pool.query(
    `select s.id from sterilizations s join devices d on d.id = s.device_id where ${where} order by ${order}`,
    params,
  );
  return result.rows.map((row) => Number(row.id));
}

/** CSV text → rows of cells (RFC 4180, CRLF), after checking the BOM. */
export function parseCsv(body: string): string[][] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const source = body.slice(1);
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && source[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  expect(row, 'the file ends with CRLF').toEqual([]);
  return rows;
}
