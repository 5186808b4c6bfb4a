// Reorganisations and finality (docs/integrity.md §8), on a chain reached over JSON-RPC as a real one
// is, with CHAIN_FINALITY_DEPTH set (the devnet's own `finalized` block is its latest): a MINED block
// whose transaction a reorganisation drops (evm_snapshot / evm_revert) goes back and is anchored again
// with the same id and root; it becomes FINAL once its chain block is deep enough, and a FINAL block is
// never touched again, whatever the chain does. On PGlite or (TEST_DATABASE_URL) PostgreSQL.
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { expectEachBlockAnchoredOnce, ingestThrough, setUpChainSuite } from '#server/test/node-chain.ts';
import { DEVNET_PRIVATE_KEY } from './devnet.ts';

// A chain of its own for each test: a reorganisation here is a revert of the whole devnet.
const suite = setUpChainSuite({ chainPerTest: true });
const FINALITY_DEPTH = 3;

const worker = () => suite.worker({ finalityDepth: FINALITY_DEPTH });

type BlockState = {
  status: string;
  merkle_root: Hex;
  transaction_hash: Hex;
  mined_block_number: string | null;
  final_at: Date | null;
  fee_paid_wei: string | null;
};
async function block(id: number): Promise<BlockState> {
  const { rows } = await suite.t.database.pool.query<BlockState>(
    `select status, merkle_root, transaction_hash, mined_block_number, final_at, fee_paid_wei
      from blockchain_data_blocks where id = $1`,
    [id],
  );
  return rows[0]!;
}
const history = async (id: number) =>
  (
    await suite.t.database.pool.query<{ hash: Hex }>(
      'select hash from anchor_transactions where block_id = $1 order by id',
      [id],
    )
  ).rows.map((row) => row.hash);

const mine = async (count: number) => {
  for (let i = 0; i < count; i += 1) await suite.nodes.control('evm_mine');
};

/** Anchors every waiting record in one block, MINED (automine): its id. */
async function minedBlock(): Promise<number> {
  await ingestThrough(suite.t, suite.t.app, 3);
  const w = worker();
  const id = (await w.formBlock())!;
  await w.tick();
  expect((await block(id)).status).toBe('MINED');
  return id;
}

describe('a reorganisation', () => {
  it('that drops a MINED transaction sends the block back; the same transaction anchors it again, then FINAL', async () => {
    const before = (await suite.nodes.control('evm_snapshot')) as string;
    const blockId = await minedBlock();
    const mined = await block(blockId);
    expect(mined.final_at).toBeNull();

    // The chain switches to a branch without the anchor (and a little longer).
    await suite.nodes.control('evm_revert', [before]);
    await mine(2);
    expect(await suite.nodes.devnet.anchoredRoot(blockId)).toBeNull();

    const w = worker();
    await w.followMined();
    const back = await block(blockId);
    expect(back).toMatchObject({ status: 'SENT', mined_block_number: null, fee_paid_wei: null });

    await w.tick();
    await w.tick();
    const again = await block(blockId);
    expect(again.status).toBe('MINED');
    expect(again.merkle_root).toBe(mined.merkle_root);
    // The same signed transaction, broadcast again: same hash, nothing new signed.
    expect(again.transaction_hash).toBe(mined.transaction_hash);
    expect(await history(blockId)).toEqual([mined.transaction_hash]);
    expect(await suite.nodes.devnet.anchoredRoot(blockId)).toBe(mined.merkle_root);

    await mine(FINALITY_DEPTH);
    await w.tick();
    const final = await block(blockId);
    expect(final.status).toBe('FINAL');
    expect(final.final_at).not.toBeNull();
    await expectEachBlockAnchoredOnce(suite.t, suite.nodes.devnet, [blockId]);
  });

  it('whose branch gave the nonce to another transaction: the block is anchored again by a new one, same root and id', async () => {
    const before = (await suite.nodes.control('evm_snapshot')) as string;
    const blockId = await minedBlock();
    const mined = await block(blockId);
    const { rows } = await suite.t.database.pool.query<{ nonce: number }>(
      'select nonce from anchor_transactions where hash = $1',
      [mined.transaction_hash],
    );

    await suite.nodes.control('evm_revert', [before]);
    // On the new branch the account's nonce went to something else.
    const account = privateKeyToAccount(DEVNET_PRIVATE_KEY);
    const other = await account.signTransaction({
      chainId: suite.nodes.devnet.chainId,
      type: 'eip1559',
      to: account.address,
      value: 1n,
      nonce: rows[0]!.nonce,
      gas: 21_000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 10n ** 9n,
    });
    await suite.nodes.control('eth_sendRawTransaction', [other]);
    await mine(1);

    const w = worker();
    await w.followMined();
    expect((await block(blockId)).status).toBe('SENT');
    await w.tick();
    await w.tick();
    const again = await block(blockId);
    expect(again.status).toBe('MINED');
    expect(again.merkle_root).toBe(mined.merkle_root);
    expect(again.transaction_hash).not.toBe(mined.transaction_hash);
    expect(await history(blockId)).toEqual([mined.transaction_hash, again.transaction_hash]);
    await expectEachBlockAnchoredOnce(suite.t, suite.nodes.devnet, [blockId]);
  });
});

describe('finality', () => {
  it('a block past finality is never touched again, even if its transaction were to vanish', async () => {
    const before = (await suite.nodes.control('evm_snapshot')) as string;
    const blockId = await minedBlock();
    await mine(FINALITY_DEPTH);
    const w = worker();
    await w.tick();
    const final = await block(blockId);
    expect(final.status).toBe('FINAL');

    // A reorganisation deeper than the finality the operator configured: the block is left as it is.
    await suite.nodes.control('evm_revert', [before]);
    await mine(FINALITY_DEPTH + 2);
    for (let pass = 0; pass < 3; pass += 1) await w.tick();
    expect(await block(blockId)).toEqual(final);
    expect(await history(blockId)).toEqual([final.transaction_hash]);
  });

  it("without CHAIN_FINALITY_DEPTH the node's finalized block decides (the devnet's is its latest)", async () => {
    await ingestThrough(suite.t, suite.t.app, 2);
    const w = suite.worker();
    const id = (await w.formBlock())!;
    await w.tick();
    expect((await block(id)).status).toBe('FINAL');
  });
});
