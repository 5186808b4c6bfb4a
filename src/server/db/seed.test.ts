import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, seedMinimal } from '../test/test-database.ts';
import type { Database } from './client.ts';
import { DEMO_GAP_SIZE } from './seed/sterilization-history.ts';
import { DEMO_PASSWORD, isSeeded, type SeedSummary, seedDemoData } from './seed.ts';

/** Everything the seed wrote except the time-of-creation columns. */
async function fingerprint(database: Database) {
  const one = async (sql: string) => (await database.pool.query(sql)).rows;
  return {
    customers: await one(
      'SELECT id, name, country, enable_blockchain, deleted_at IS NULL AS active FROM customers ORDER BY id',
    ),
    users: await one('SELECT email, role, customer_id, deleted_at IS NULL AS active FROM users ORDER BY id'),
    devices: await one('SELECT device_serial, customer_id, product_id, label FROM devices ORDER BY id'),
    batches: await one(
      'SELECT device_id, lot_code, lot_progressive, batch_quantity, sterilization_count FROM consumable_batches ORDER BY id',
    ),
    sterilizations: await one(
      `SELECT count(*)::int AS n, md5(string_agg(concat_ws('|', device_id, received_ts, progressive_id, supplied_energy,
         nominal_time, effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot,
         lot_progressive_id, notes), ',' ORDER BY id)) AS digest FROM sterilizations`,
    ),
  };
}

describe('seedDemoData', () => {
  let a: Database;
  let b: Database;
  let summary: SeedSummary;
  beforeAll(async () => {
    [a, b] = await Promise.all([openTestDatabase(), openTestDatabase()]);
    expect(await isSeeded(a)).toBe(false);
    summary = await seedMinimal(a);
    await seedMinimal(b);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('is deterministic', async () => {
    const [fa, fb] = await Promise.all([fingerprint(a), fingerprint(b)]);
    expect(fa).toEqual(fb);
    expect(fa.sterilizations[0].n).toBe(50);
    expect(summary.devices.every((d) => /^(NP|SB)\d{6}$/.test(d.serial))).toBe(true);
    expect(fa.devices.map((d) => d.device_serial)).toEqual(summary.devices.map((d) => d.serial));
  });

  it('is guarded against a second run', async () => {
    expect(await isSeeded(a)).toBe(true);
    const again = await seedDemoData(a, { sterilizations: 10 });
    expect(again.alreadySeeded).toBe(true);
    const { rows } = await a.pool.query('SELECT count(*)::int AS n FROM sterilizations');
    expect(rows[0].n).toBe(50);
  });

  it('creates the demo accounts with their roles and a working password', async () => {
    const { rows } = await a.pool.query(
      'SELECT u.email, u.role, u.customer_id, u.password_hash, c.name AS customer FROM users u JOIN customers c ON c.id = u.customer_id WHERE u.deleted_at IS NULL',
    );
    const byEmail = new Map(rows.map((r) => [r.email, r]));
    expect(byEmail.get('super@example.com')).toMatchObject({ role: 'SUPER_ADMIN', customer_id: 1 });
    expect(byEmail.get('admin@example.com')).toMatchObject({ role: 'ADMIN', customer_id: 1 });
    expect(byEmail.get('care@example.com')).toMatchObject({ role: 'CUSTOMER_CARE', customer_id: 1 });
    expect(byEmail.get('customer@example.com')).toMatchObject({
      role: 'CUSTOMER',
      customer_id: 2,
      customer: 'Clinica San Marco',
    });
    expect(byEmail.get('super@example.com').password_hash).toMatch(/^\$argon2id\$/);
    expect(await argon2.verify(byEmail.get('customer@example.com').password_hash, DEMO_PASSWORD)).toBe(true);
    const { rows: disabled } = await a.pool.query(
      'SELECT count(*)::int AS n FROM users WHERE deleted_at IS NOT NULL',
    );
    expect(disabled[0].n).toBeGreaterThanOrEqual(1);
  });

  it('has the manufacturer, blockchain clinics and a disabled clinic', async () => {
    const { rows } = await a.pool.query(
      'SELECT id, name, enable_blockchain, deleted_at FROM customers ORDER BY id',
    );
    expect(rows[0]).toMatchObject({ id: 1, name: 'UV Tech S.r.l.' });
    expect(rows[1]).toMatchObject({ id: 2, name: 'Clinica San Marco', enable_blockchain: true });
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.some((r) => r.deleted_at !== null)).toBe(true);
  });

  it('has consumable batches at every colour level', async () => {
    const { rows } = await a.pool.query<{ level: string }>(
      `SELECT DISTINCT CASE WHEN sterilization_count < 0.8 * batch_quantity THEN 'green'
         WHEN sterilization_count < batch_quantity THEN 'orange' ELSE 'red' END AS level FROM consumable_batches`,
    );
    expect(rows.map((r) => r.level).sort()).toEqual(['green', 'orange', 'red']);
  });

  it('uses all status codes and keeps per-device progressive ids in time order', async () => {
    const b2 = await openTestDatabase();
    try {
      await seedDemoData(b2, { sterilizations: 2000, deviceKeys: 'shared' });
      const { rows: codes } = await b2.pool.query(
        'SELECT status_code, count(*)::int AS n FROM sterilizations GROUP BY 1 ORDER BY 1',
      );
      expect(codes.map((r) => r.status_code)).toEqual([0, 1, 2, 3]);
      expect(codes[0].n).toBeGreaterThan(1600);
      // Cycles in time order (the device's clock) except the one record the demo sends late (below).
      const { rows: disorder } = await b2.pool.query(
        `SELECT count(*)::int AS n FROM (SELECT cycle_ts, lag(cycle_ts) OVER w AS prev_ts
           FROM sterilizations WINDOW w AS (PARTITION BY device_id ORDER BY progressive_id)) t
         WHERE prev_ts >= cycle_ts`,
      );
      expect(disorder[0].n).toBe(1);
      // Each came in a token its device signed, several cycles to a token, received together.
      const { rows: tokens } = await b2.pool.query(
        `SELECT count(*)::int AS records, count(DISTINCT token_id)::int AS tokens,
           count(*) FILTER (WHERE token_id IS NULL OR cycle_ts IS NULL OR cycle_ts > received_ts)::int AS odd
         FROM sterilizations`,
      );
      expect(tokens[0].odd).toBe(0);
      expect(tokens[0].tokens).toBeLessThan(tokens[0].records);
      expect(tokens[0].tokens).toBeGreaterThan(tokens[0].records / 4);
      // The demo shows one device with a gap and one late record, and the gap tables hold them.
      const { rows: gaps } = await b2.pool.query(
        'SELECT device_id, last_missing - first_missing + 1 AS size FROM device_progress_gaps',
      );
      expect(gaps.map((g) => g.size)).toEqual([DEMO_GAP_SIZE]);
      const { rows: late } = await b2.pool.query(
        `SELECT s.device_id, s.progressive_id, p.out_of_order_count FROM sterilizations s
           JOIN device_progress p ON p.device_id = s.device_id AND p.customer_id = s.customer_id
         WHERE s.arrived_out_of_order`,
      );
      expect(late).toHaveLength(1);
      expect(late[0].out_of_order_count).toBe(1);
      expect(late[0].device_id).not.toBe(gaps[0].device_id);
      const { rows: progress } = await b2.pool.query(
        `SELECT sum(missing_count)::int AS missing, count(*)::int AS pairs,
           (SELECT count(DISTINCT (device_id, customer_id))::int FROM sterilizations) AS stored_pairs
         FROM device_progress`,
      );
      expect(progress[0]).toEqual({
        missing: DEMO_GAP_SIZE,
        pairs: progress[0].stored_pairs,
        stored_pairs: progress[0].stored_pairs,
      });
      const { rows: span } = await b2.pool.query(
        "SELECT (max(received_ts) - min(received_ts)) > interval '100 days' AS wide, max(received_ts) < now() AS past FROM sterilizations",
      );
      expect(span[0]).toEqual({ wide: true, past: true });
    } finally {
      await b2.close();
    }
  });

  it('gives every device an RSA public key', async () => {
    const { rows } = await a.pool.query('SELECT public_key FROM devices');
    expect(rows.every((r) => String(r.public_key).startsWith('-----BEGIN PUBLIC KEY-----'))).toBe(true);
  });
});
