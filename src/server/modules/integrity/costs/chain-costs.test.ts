// What anchoring costs (GET /api/v1/chain/costs): the gas and fees the anchor worker recorded for each
// MINED or FINAL block, per month and per record, for the maker's SUPER_ADMIN and ADMIN only.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import { createAnchorWorker } from '../anchor-worker.ts';
import { connectChain } from '../chain.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const chain = await connectChain(loadConfig({}).chain);
  await createAnchorWorker({
    db: t.database.db,
    chain,
    batchSize: 8,
    backlogFactor: 1,
    intervalSeconds: 0,
    confirmations: 1,
  }).tick();
});
afterAll(() => t?.close());

const costs = async (email: string, query = '') =>
  t.as(await t.login(email), { method: 'GET', url: `/api/v1/chain/costs${query}` });

describe('what anchoring costs', () => {
  it('per month and per record, from the gas and fees of the mined blocks', async () => {
    const response = await costs(DEMO.super);
    expectContract('getAnchoringCosts', response, 200);
    const data = response.json().data;
    expect(data.network).toBe('devnet');
    expect(data.months).toHaveLength(12);
    const now = new Date();
    const thisMonth = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    expect(data.months.at(-1).month).toBe(thisMonth);

    const stored = await t.database.db.execute<{
      blocks: string;
      records: string;
      gas: string;
      fee: string;
    }>(sql`
      select count(distinct b.id) as blocks, count(s.id) as records, 
        (select sum(gas_used) from blockchain_data_blocks where status in ('MINED', 'FINAL')) as gas,
        (select sum(fee_paid_wei) from blockchain_data_blocks where status in ('MINED', 'FINAL')) as fee
      from blockchain_data_blocks b left join sterilizations s on s.blockchain_data_block_id = b.id
      where b.status in ('MINED', 'FINAL')`);
    const expected = stored.rows[0]!;
    expect(Number(expected.blocks)).toBeGreaterThan(1);
    expect(data.total).toMatchObject({
      blocks: Number(expected.blocks),
      records: Number(expected.records),
      records_with_fee: Number(expected.records),
      gas_used: Number(expected.gas),
      fee_paid_wei: String(expected.fee),
    });
    expect(data.total.transactions).toBe(data.total.blocks);
    expect(BigInt(data.total.fee_paid_wei)).toBeGreaterThan(0n);
    expect(data.total.fee_per_record_wei).toBe(
      (BigInt(data.total.fee_paid_wei) / BigInt(data.total.records)).toString(),
    );
    expect(data.months.at(-1)).toMatchObject({ ...data.total, month: thisMonth });
    // Gas per anchor transaction: the contract's anchor(), whatever the block's size.
    expect(data.total.gas_used / data.total.transactions).toBeGreaterThan(21_000);
    expect(data.total.gas_used / data.total.transactions).toBeLessThan(100_000);

    const three = (await costs(DEMO.admin, '?months=3')).json().data;
    expect(three.months.map((month: { month: string }) => month.month).at(-1)).toBe(thisMonth);
    expect(three.months).toHaveLength(3);
  });

  it('is the maker’s: customer care and clinic users are refused, and a window beyond 60 months is invalid', async () => {
    expect((await costs(DEMO.care)).statusCode).toBe(403);
    expect((await costs(DEMO.customer)).statusCode).toBe(403);
    expect((await costs(DEMO.admin, '?months=61')).statusCode).toBe(422);
  });
});
