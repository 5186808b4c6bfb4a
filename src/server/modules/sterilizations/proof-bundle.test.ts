// The proof bundle of the filtered list: its content for a filter, tenant scoping, the
// one-time ticket, and that what it carries verifies against the chain (read through /chain-rpc).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainRpcTransport } from '#server/test/chain-rpc.ts';
import { customerIdOf } from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import { BUNDLE_FORMAT, type ProofBundle, verifyBundle } from '#shared/integrity/bundle.ts';
import {
  HASHING_VERSION,
  INTEGRITY_FIELDS,
  isHashingVersion,
  leafHash,
  processProof,
  recordFromForm,
} from '#shared/integrity/index.ts';

let t: TestApp;
let admin: string;
let customer: string;
let customerId: number;

async function waitForAnchoring(timeoutMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const left = await t.database.db.execute<{ n: string }>(sql`
      select count(*) as n from sterilizations s join customers c on c.id = s.customer_id
      left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
      where c.enable_blockchain and (b.id is null or b.status not in ('MINED', 'FINAL'))`);
    if (Number(left.rows[0]!.n) === 0) return;
    if (Date.now() - started > timeoutMs) throw new Error('records were not anchored in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  t = await createTestApp({ ANCHOR_ENABLED: 'true', ANCHOR_INTERVAL_SECONDS: '0', ANCHOR_BATCH_SIZE: '16' });
  admin = await t.login(DEMO.super);
  customer = await t.login(DEMO.customer);
  customerId = await customerIdOf(t, DEMO.customer);
  await waitForAnchoring();
}, 90_000);
afterAll(() => t?.close());

async function ticketFor(token: string, exportName = 'sterilizations-proof-bundle'): Promise<string> {
  const response = await t.as(token, {
    method: 'POST',
    url: '/api/v1/export-tickets',
    payload: { export: exportName },
  });
  expectContract('createExportTicket', response, 201);
  return response.json().data.ticket;
}

const download = (query: string) =>
  t.app.inject({ method: 'GET', url: `/export/sterilizations-proof-bundle?${query}` });

async function bundleOf(token: string, filters: string): Promise<ProofBundle> {
  const response = await download(`ticket=${await ticketFor(token)}${filters ? `&${filters}` : ''}`);
  expectContract('exportSterilizationsProofBundle', response, 200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(String(response.headers['content-disposition'])).toMatch(
    /^attachment; filename="proof-bundle-\d{4}-\d{2}-\d{2}\.json"$/,
  );
  return response.json();
}

/** The list's record ids for a query, every page, in the list's order. */
async function listedIds(token: string, filters: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page += 1) {
    const response = await t.as(token, {
      method: 'GET',
      url: `/api/v1/sterilizations?page=${page}&${filters}`,
    });
    const body = response.json().data;
    ids.push(...body.data.map((row: { id: number }) => row.id));
    if (page * body.per_page >= body.total) return ids;
  }
}

/** /chain-rpc as a viem transport: what a browser on the app would use. */
const chainRpc = chainRpcTransport({
  get app() {
    return t.app;
  },
});

describe('GET /export/sterilizations-proof-bundle', () => {
  it("holds the list's records for the filter, fields as the hashed strings, each with its proof", async () => {
    const filters = `customerId=${customerId}`;
    const bundle = await bundleOf(admin, filters);
    expect(bundle).toMatchObject({ format: BUNDLE_FORMAT, network: 'devnet', chain_id: 31337 });
    expect(bundle.contract_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const ids = bundle.records.map((entry) => Number(entry.record.id));
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(await listedIds(admin, filters));

    const stored = await t.database.pool.query(
      `select s.id::text, s.supplied_energy::text, s.latitude::text, b.merkle_root, b.transaction_hash
       from sterilizations s left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
       where s.customer_id = $1`,
      [customerId],
    );
    const byId = new Map(stored.rows.map((row) => [row.id, row]));
    for (const entry of bundle.records) {
      // Strings, never numbers: nothing went through a float on the way.
      for (const field of INTEGRITY_FIELDS)
        expect(['string', 'object']).toContain(typeof entry.record[field]);
      const row = byId.get(entry.record.id as string);
      expect(Number(entry.record.supplied_energy)).toBe(Number(row.supplied_energy));
      expect(entry.anchored).toBe(true);
      if (!entry.anchored) continue;
      expect(isHashingVersion(entry.hashing_version)).toBe(true);
      const leaf = leafHash(recordFromForm(entry.record), entry.hashing_version as 1 | 2);
      expect(entry.leaf).toBe(leaf);
      expect(processProof(leaf, entry.proof as `0x${string}`[])).toBe(entry.root);
      expect(entry.root).toBe(row.merkle_root);
      expect(entry.transaction_hash).toBe(row.transaction_hash);
    }
    const result = await verifyBundle(bundle, { transport: chainRpc });
    expect(result.failed).toEqual([]);
    expect(result).toMatchObject({ ok: true, passed: bundle.records.length, notAnchored: [] });
    expect(result.transactions).toBe(
      new Set(bundle.records.map((entry) => (entry as { transaction_hash: string }).transaction_hash)).size,
    );
  });

  it('marks records that are not anchored, with the reason', async () => {
    const made = await t.database.pool.query(
      `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code, notes)
       select d.id, d.customer_id, '2019-06-01T10:00:00Z', 987654, 0.1, 10, 10, 100, 0, null
       from devices d join customers c on c.id = d.customer_id where not c.enable_blockchain limit 1
       returning id::text, customer_id`,
    );
    expect(made.rows).toHaveLength(1);
    const bundle = await bundleOf(
      admin,
      `customerId=${made.rows[0].customer_id}&from=2019-06-01&to=2019-06-01`,
    );
    expect(bundle.records).toEqual([
      {
        anchored: false,
        anchor_status: 'blockchain_disabled',
        hashing_version: HASHING_VERSION,
        record: expect.objectContaining({ id: made.rows[0].id, supplied_energy: '0.1', notes: null }),
      },
    ]);
    const result = await verifyBundle(bundle, { transport: chainRpc });
    expect(result).toMatchObject({ ok: true, passed: 0, failed: [] });
    expect(result.notAnchored).toEqual([{ index: 0, id: made.rows[0].id, status: 'blockchain_disabled' }]);
  });

  it("gives a customer user only its own customer's records, whatever filter it sends", async () => {
    const own = await bundleOf(customer, '');
    const owners = await t.database.pool.query('select id::text, customer_id from sterilizations');
    const ownerOf = new Map(owners.rows.map((row) => [row.id, row.customer_id]));
    expect(own.records.length).toBeGreaterThan(0);
    for (const entry of own.records) expect(ownerOf.get(entry.record.id)).toBe(customerId);
    expect(own.records.map((entry) => Number(entry.record.id))).toEqual(await listedIds(customer, ''));

    const other = owners.rows.find((row) => row.customer_id !== customerId)!.customer_id;
    const response = await download(`ticket=${await ticketFor(customer)}&customerId=${other}`);
    // The list answers the same filter the same way: the bundle never holds another tenant's record.
    const listed = await t.as(customer, {
      method: 'GET',
      url: `/api/v1/sterilizations?page=1&customerId=${other}`,
    });
    if (listed.statusCode === 200) {
      expect(response.statusCode).toBe(200);
      const ids = response.json().records.map((entry: { record: { id: string } }) => entry.record.id);
      for (const id of ids) expect(ownerOf.get(id)).toBe(customerId);
    } else {
      expect(response.statusCode).toBe(listed.statusCode);
    }
  });

  it('opens once per ticket, and only with a ticket for the bundle', async () => {
    const ticket = await ticketFor(admin);
    expect((await download(`ticket=${ticket}&customerId=${customerId}`)).statusCode).toBe(200);
    const again = await download(`ticket=${ticket}&customerId=${customerId}`);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ status: 'error', message: 'invalid_ticket', data: null });
    const csvTicket = await ticketFor(admin, 'sterilizations-filtered');
    expect((await download(`ticket=${csvTicket}`)).statusCode).toBe(401);
    expect((await download('customerId=1')).statusCode).toBe(401);
  });
});
