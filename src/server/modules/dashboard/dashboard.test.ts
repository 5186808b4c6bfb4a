import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function dashboard(email: string) {
  const response = await t.as(await t.login(email), { method: 'GET', url: '/api/v1/dashboard' });
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

describe('GET /dashboard', () => {
  it('gives staff every count and the batches of every customer', async () => {
    const data = await dashboard(DEMO.super);
    expect(data.customers).toBeGreaterThan(1);
    expect(data.users).toBeGreaterThan(3);
    expect(data.plugs + data.baths).toBeGreaterThan(0);
    expect(data.disposables.length).toBeGreaterThan(0);
  });

  it('gives a customer user only their own devices and batches, no customer or user counts', async () => {
    const staff = await dashboard(DEMO.care);
    const own = await dashboard(DEMO.customer);
    expect(own.customers).toBeNull();
    expect(own.users).toBeNull();
    expect(own.plugs + own.baths).toBeGreaterThan(0);
    expect(own.plugs + own.baths).toBeLessThan(staff.plugs + staff.baths);
    const ownSerials = new Set(
      own.disposables.map((batch: { device: { device_serial: string } }) => batch.device.device_serial),
    );
    const result = await t.database.pool.query(
      `select d.device_serial from devices d join users u on u.customer_id = d.customer_id where u.email = $1`,
      [DEMO.customer],
    );
    const tenantSerials = new Set(result.rows.map((row) => row.device_serial));
    for (const serial of ownSerials) expect(tenantSerials.has(serial)).toBe(true);
  });

  it('reports batches at every colour level from real data', async () => {
    const data = await dashboard(DEMO.super);
    const ratios = data.disposables.map(
      (batch: { sterilization_count: number; batch_quantity: number }) =>
        batch.sterilization_count / batch.batch_quantity,
    );
    expect(ratios.some((ratio: number) => ratio < 0.8)).toBe(true);
    expect(ratios.some((ratio: number) => ratio >= 0.8 && ratio < 1)).toBe(true);
    expect(ratios.some((ratio: number) => ratio >= 1)).toBe(true);
  });
});
