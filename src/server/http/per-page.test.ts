/**
 * Every paged list takes a page size (`perPage`, at most 100) and says which it used: the demo data's
 * 60 records, and the audit trail's logins, page by 20, 50 and 100 alike; a size out of range is refused
 * and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContract } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';

let t: TestApp;
let superToken: string;

beforeAll(async () => {
  t = await createTestApp();
  superToken = await t.login(DEMO.super);
  // Enough audit entries for two pages of 50.
  for (let i = 0; i < 60; i++) await t.login(DEMO.care);
});
afterAll(() => t?.close());

/** Every operation answering a page, with the URL the SUPER_ADMIN lists it at. */
const PAGED = [
  ['listSterilizations', '/api/v1/sterilizations'],
  ['listCustomers', '/api/v1/customers'],
  ['listUsers', '/api/v1/users'],
  ['listDevices', '/api/v1/devices'],
  ['listProducts', '/api/v1/products'],
  ['listCertificates', '/api/v1/certificates'],
  ['listAlerts', '/api/v1/alerts'],
  ['listAudit', '/api/v1/audit'],
  ['listMailOutbox', '/api/v1/mail-outbox'],
  ['listCustomerReports', '/api/v1/customers/2/reports'],
  ['listRecallRecords', '/api/v1/recall/records?lot=L2026-030'],
] as const;

const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

describe('perPage', () => {
  it.each(PAGED)('%s answers the size asked for, 20 by default', async (operation, url) => {
    const page = async (query: string) => {
      const response = await t.as(superToken, { method: 'GET', url: withQuery(url, query) });
      expectContract(operation, response, 200);
      return response.json().data as { data: unknown[]; total: number; per_page: number; page: number };
    };
    const byDefault = await page('page=1');
    expect(byDefault.per_page).toBe(20);
    expect(byDefault.data.length).toBe(Math.min(20, byDefault.total));
    for (const size of [50, 100]) {
      const sized = await page(`page=1&perPage=${size}`);
      expect(sized).toMatchObject({ per_page: size, total: byDefault.total, page: 1 });
      expect(sized.data.length).toBe(Math.min(size, sized.total));
    }
    for (const bad of ['0', '101', '-5', '2.5', 'many']) {
      const response = await t.as(superToken, { method: 'GET', url: withQuery(url, `perPage=${bad}`) });
      expectContract(operation, response, 422);
    }
  });

  it('pages on with the size: page 2 of 50 starts where page 1 of 50 ended', async () => {
    const list = async (query: string) =>
      (await t.as(superToken, { method: 'GET', url: `/api/v1/sterilizations?${query}` })).json().data as {
        data: { id: number }[];
      };
    const all = await list('perPage=100');
    const first = await list('perPage=50&page=1');
    const second = await list('perPage=50&page=2');
    expect([...first.data, ...second.data].map((row) => row.id)).toEqual(
      all.data.slice(0, 100).map((r) => r.id),
    );
  });
});
