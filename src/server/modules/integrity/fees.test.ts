// Fees and stuck transactions (docs/integrity.md §8), on a chain reached over JSON-RPC as a real one is,
// whose mining the test holds (automine off, the next base fee set, blocks mined by hand): a transaction
// left unmined is replaced with higher fees (same nonce) and the block ends MINED with whichever of them
// was mined, its gas and fee kept; at the ceiling (ANCHOR_MAX_FEE_GWEI) the block waits with a staff-only
// alert that no clinic sees. On PGlite or (TEST_DATABASE_URL) PostgreSQL.
import type { Hex } from 'viem';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  expectEachBlockAnchoredOnce,
  ingestThrough,
  setUpChainSuite,
  waitingRecords,
} from '#server/test/node-chain.ts';
import { DEMO } from '#server/test/test-app.ts';
import type { Alert } from '#shared/api/index.ts';
import { GWEI, replacementMinimum } from './anchoring/fees.ts';

const suite = setUpChainSuite();
beforeEach(async () => {
  await suite.nodes.control('evm_setAutomine', [false]);
});
afterEach(async () => {
  await suite.nodes.control('evm_setAutomine', [true]);
});

const raised: number[] = [];
const worker = (overrides: Parameters<typeof suite.worker>[0] = {}) =>
  suite.worker({
    replaceAfterBlocks: 2,
    onAlertsRaised: async (ids) => {
      raised.push(...ids);
    },
    ...overrides,
  });

type Sent = { hash: Hex; nonce: number; max_fee_per_gas: string; max_priority_fee_per_gas: string; raw: Hex };
async function history(blockId: number): Promise<Sent[]> {
  const { rows } = await suite.t.database.pool.query<Sent>(
    `select hash, nonce, max_fee_per_gas, max_priority_fee_per_gas, raw from anchor_transactions
      where block_id = $1 order by id`,
    [blockId],
  );
  return rows;
}

async function block(id: number) {
  const { rows } = await suite.t.database.pool.query<{
    status: string;
    transaction_hash: Hex;
    gas_used: string | null;
    fee_paid_wei: string | null;
  }>('select status, transaction_hash, gas_used, fee_paid_wei from blockchain_data_blocks where id = $1', [
    id,
  ]);
  return rows[0]!;
}

/** A new block of the waiting records, sent: its id. */
async function sentBlock(w: ReturnType<typeof worker>): Promise<number> {
  await ingestThrough(suite.t, suite.t.app, 3);
  const id = await w.formBlock();
  expect(id).not.toBeNull();
  await w.sendPending();
  expect((await block(id!)).status).toBe('SENT');
  return id!;
}

describe('a transaction left unmined', () => {
  it('is replaced with higher fees (same nonce) after ANCHOR_REPLACE_AFTER_BLOCKS, and the block ends MINED with the replacement', async () => {
    const blockId = await sentBlock(worker());
    const [first] = await history(blockId);
    expect(first).toBeDefined();

    // The chain asks more than the transaction offers, for two blocks.
    await suite.nodes.mineAt(BigInt(first!.max_fee_per_gas) + GWEI, 2);
    // A worker of a restarted server follows it from what the database holds.
    await worker().followSent();
    const [, second, more] = await history(blockId);
    expect(more).toBeUndefined();
    expect(second!.nonce).toBe(first!.nonce);
    expect(BigInt(second!.max_fee_per_gas)).toBeGreaterThanOrEqual(
      replacementMinimum(BigInt(first!.max_fee_per_gas)),
    );
    expect(BigInt(second!.max_priority_fee_per_gas)).toBeGreaterThanOrEqual(
      replacementMinimum(BigInt(first!.max_priority_fee_per_gas)),
    );
    expect((await block(blockId)).transaction_hash).toBe(second!.hash);

    // Waiting less than two blocks: no second replacement.
    await suite.nodes.mineAt(BigInt(second!.max_fee_per_gas) + GWEI, 1);
    await worker().followSent();
    expect(await history(blockId)).toHaveLength(2);

    await suite.nodes.mineAt(GWEI);
    await worker().followSent();
    const mined = await block(blockId);
    expect(mined.status).toBe('MINED');
    expect(mined.transaction_hash).toBe(second!.hash);
    const receipt = (await suite.nodes.devnet.receipt(second!.hash))!;
    expect(await suite.nodes.devnet.receipt(first!.hash)).toBeNull();
    expect(Number(mined.gas_used)).toBe(Number(receipt.gasUsed));
    expect(BigInt(mined.fee_paid_wei!)).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await waitingRecords(suite.t)).toBe(0);
    await expectEachBlockAnchoredOnce(suite.t, suite.nodes.devnet);
  });

  it('whichever of its transactions is mined is adopted: the replaced one too', async () => {
    const blockId = await sentBlock(worker());
    const [first] = await history(blockId);
    await suite.nodes.mineAt(BigInt(first!.max_fee_per_gas) + GWEI, 2);
    await worker().followSent();
    const [, second] = await history(blockId);
    expect(second).toBeDefined();
    // The replacement is lost and the first transaction comes back (another node had kept it).
    await suite.nodes.control('hardhat_dropTransaction', [second!.hash]);
    await suite.nodes.control('eth_sendRawTransaction', [first!.raw]);
    await suite.nodes.mineAt(GWEI);

    await worker().followSent();
    const mined = await block(blockId);
    expect(mined.status).toBe('MINED');
    expect(mined.transaction_hash).toBe(first!.hash);
    expect(await history(blockId)).toHaveLength(2);
    await expectEachBlockAnchoredOnce(suite.t, suite.nodes.devnet);
  });

  it('a transaction the node lost is broadcast again as it was signed (same hash)', async () => {
    const blockId = await sentBlock(worker());
    const [first] = await history(blockId);
    await suite.nodes.control('hardhat_dropTransaction', [first!.hash]);
    expect(await suite.nodes.devnet.knowsTransaction(first!.hash)).toBe(false);
    await worker().followSent();
    expect(await suite.nodes.devnet.knowsTransaction(first!.hash)).toBe(true);
    await suite.nodes.mineAt(GWEI);
    await worker().followSent();
    expect(await block(blockId)).toMatchObject({ status: 'MINED', transaction_hash: first!.hash });
    expect(await history(blockId)).toHaveLength(1);
  });
});

describe('the fee ceiling (ANCHOR_MAX_FEE_GWEI)', () => {
  const alertsAs = async (email: string) => {
    const token = await suite.t.login(email);
    const listed = await suite.t.as(token, {
      method: 'GET',
      url: '/api/v1/alerts?kind=anchor_fee_ceiling&state=active',
    });
    expect(listed.statusCode).toBe(200);
    return { token, alerts: listed.json().data.data as Alert[] };
  };

  it('replaces up to the ceiling, then the block waits and a staff-only alert says so; a CUSTOMER never sees it', async () => {
    const ceiling = 5n * GWEI;
    const capped = () => worker({ maxFeePerGas: ceiling });
    const blockId = await sentBlock(capped());
    const [first] = await history(blockId);
    expect(BigInt(first!.max_fee_per_gas)).toBeLessThanOrEqual(ceiling);

    // A base-fee spike far above the ceiling.
    const spike = 40n * GWEI;
    await suite.nodes.mineAt(spike, 2);
    await capped().followSent();
    const [, atCeiling] = await history(blockId);
    expect(BigInt(atCeiling!.max_fee_per_gas)).toBe(ceiling);

    await suite.nodes.mineAt(spike, 2);
    raised.length = 0;
    await capped().followSent();
    expect(await history(blockId)).toHaveLength(2); // no replacement above the ceiling
    expect(raised).toHaveLength(1);

    // A block formed during the spike is not even sent: it waits, with its own alert.
    await ingestThrough(suite.t, suite.t.app, 2);
    const waitingId = (await capped().formBlock())!;
    await capped().sendPending();
    expect((await block(waitingId)).status).toBe('PENDING');
    expect(await history(waitingId)).toHaveLength(0);
    expect(raised).toHaveLength(2);
    // Passes go on while it lasts: one alert per block, not one per pass.
    await capped().tick();
    expect(raised).toHaveLength(2);

    const staff = await alertsAs(DEMO.admin);
    const subjects = staff.alerts.map((alert) => alert.subject_id);
    expect(subjects).toEqual(expect.arrayContaining([blockId, waitingId]));
    const alert = staff.alerts.find((one) => one.subject_id === blockId)!;
    expect(alert).toMatchObject({ kind: 'anchor_fee_ceiling', customer: null, state: 'open' });
    expect(alert.details).toMatchObject({ block_id: blockId, max_fee_gwei: '5' });
    const clinic = await alertsAs(DEMO.customer);
    expect(clinic.alerts).toEqual([]);
    const clinicAll = await suite.t.as(clinic.token, { method: 'GET', url: '/api/v1/alerts?state=active' });
    expect((clinicAll.json().data.data as Alert[]).map((one) => one.kind)).not.toContain(
      'anchor_fee_ceiling',
    );
    const touch = await suite.t.as(clinic.token, {
      method: 'POST',
      url: `/api/v1/alerts/${alert.id}/acknowledge`,
      payload: {},
    });
    expect(touch.statusCode).toBe(404);

    // Fees fall: the transaction at the ceiling is mined, the waiting block sent and mined, alerts cleared.
    await suite.nodes.mineAt(GWEI);
    await capped().tick();
    await suite.nodes.mineAt(GWEI);
    await capped().tick();
    // Mined, and FINAL as well: without CHAIN_FINALITY_DEPTH the devnet's finalized block (its latest) decides.
    expect(['MINED', 'FINAL']).toContain((await block(blockId)).status);
    expect(['MINED', 'FINAL']).toContain((await block(waitingId)).status);
    expect(
      (await alertsAs(DEMO.admin)).alerts.filter((one) => [blockId, waitingId].includes(one.subject_id!)),
    ).toEqual([]);
    await expectEachBlockAnchoredOnce(suite.t, suite.nodes.devnet);
  });
});
