// Two server processes on one database (PostgreSQL with TEST_DATABASE_URL, else PGlite) and one chain
// reached over JSON-RPC, through everything a real chain does (docs/integrity.md §8): nodes that stop
// answering, transactions left unmined and replaced, a reorganisation that drops a MINED transaction,
// finality; then both stop and start again on the same data. Each block is anchored once throughout,
// every record ends in one FINAL block, and the receipts made before the restart still verify.
import { sql } from 'drizzle-orm';
import { custom, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import {
  eventually,
  expectEachBlockAnchoredOnce,
  ingestThrough,
  setUpChainSuite,
  waitingRecords,
} from '#server/test/node-chain.ts';
import { createPeerApp } from '#server/test/test-app.ts';
import { verifyReceipt } from '#shared/integrity/receipt.ts';
import { recordReceipt } from '#shared/integrity/record-receipt.ts';
import { integrityRecord, RECORD_FIELDS_SQL } from './anchor-worker.ts';
import { GWEI } from './anchoring/fees.ts';
import { connectChain } from './chain.ts';

const suite = setUpChainSuite({ nodes: 2 });
const FINALITY_DEPTH = 2;

type Peer = Awaited<ReturnType<typeof createPeerApp>>;
/** A server process: its own configuration and its own connection to the chain's suite.nodes. */
async function serverProcess(): Promise<Peer> {
  return createPeerApp(
    suite.t,
    {
      ANCHOR_ENABLED: 'true',
      ANCHOR_INTERVAL_SECONDS: '0',
      ANCHOR_BATCH_SIZE: '4',
      ANCHOR_REPLACE_AFTER_BLOCKS: '2',
      CHAIN_FINALITY_DEPTH: String(FINALITY_DEPTH),
    },
    { chain: await connectChain(loadConfig(suite.nodes.env).chain), leadershipRetryMs: 50 },
  );
}

async function blockOf(recordId: number) {
  const { rows } = await suite.t.database.pool.query<{ id: number; status: string; merkle_root: Hex }>(
    `select b.id, b.status, b.merkle_root from sterilizations s
      join blockchain_data_blocks b on b.id = s.blockchain_data_block_id where s.id = $1`,
    [recordId],
  );
  return rows[0];
}

/** The proof receipts of these records, built from the database as the cycle report builds them. */
async function receiptsOf(ids: number[]) {
  const { rows } = await suite.t.database.db.execute<
    Parameters<typeof integrityRecord>[0] & {
      block_id: number;
      network: string;
      transaction_hash: string;
      block_version: number;
      merkle_proof: string[];
      hashing_version: number | null;
    }
  >(sql`
    select ${RECORD_FIELDS_SQL}, b.id as block_id, b.network, b.transaction_hash,
      b.hashing_version as block_version, s.merkle_proof, s.hashing_version
    from sterilizations s join devices d on d.id = s.device_id
    join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
    where s.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) order by s.id`);
  return rows.map((row) =>
    recordReceipt(
      integrityRecord(row),
      {
        hashing_version: row.hashing_version ?? row.block_version,
        block_id: Number(row.block_id),
        proof: row.merkle_proof,
        network: row.network,
        transaction_hash: row.transaction_hash,
      },
      { chain_id: suite.nodes.devnet.chainId, contract_address: suite.nodes.devnet.contractAddress },
    ),
  );
}

const verifyAll = async (receipts: Awaited<ReturnType<typeof receiptsOf>>) => {
  for (const receipt of receipts) {
    const result = await verifyReceipt(receipt, {
      transport: custom({ request: suite.nodes.devnet.request }),
    });
    expect(result.checks.filter((check) => !check.ok)).toEqual([]);
  }
};

describe('two server processes on one database and one chain', () => {
  it('anchor each block once through node outages, stuck transactions, a reorganisation, finality and a restart', async () => {
    let first = await serverProcess();
    let second = await serverProcess();
    try {
      expect([first.app.leadsBackgroundWork(), second.app.leadsBackgroundWork()]).toEqual([true, false]);
      const early = [
        ...(await ingestThrough(suite.t, first.app, 5)),
        ...(await ingestThrough(suite.t, second.app, 4)),
      ];
      await eventually(
        'the first records anchored',
        async () => (await waitingRecords(suite.t)) === 0,
        60_000,
      );

      // No node answers (one hangs, one refuses): both processes ingest and say so; anchoring waits.
      suite.nodes.nodes[0]!.set('silent');
      suite.nodes.nodes[1]!.set('down');
      await ingestThrough(suite.t, first.app, 3);
      await ingestThrough(suite.t, second.app, 3);
      for (const peer of [first, second]) {
        await eventually('health says the chain is unreachable', async () => {
          const health = await peer.app.inject({ method: 'GET', url: '/api/v1/health' });
          return health.statusCode === 200 && health.json().data.chain === 'unreachable';
        });
      }
      suite.nodes.nodes[0]!.set('up');
      suite.nodes.nodes[1]!.set('up');
      await eventually(
        'anchoring caught up after the outage',
        async () => (await waitingRecords(suite.t)) === 0,
        60_000,
      );

      // Transactions left unmined: the base fee above what they offer for a while, then back down.
      await suite.nodes.control('evm_setAutomine', [false]);
      const stuck = await ingestThrough(suite.t, second.app, 4);
      await eventually('the stuck block sent', async () => (await blockOf(stuck[0]!))?.status === 'SENT');
      const stuckBlock = (await blockOf(stuck[0]!))!.id;
      await eventually(
        'the stuck transaction replaced',
        async () => {
          await suite.nodes.mineAt(20n * GWEI);
          const { rows } = await suite.t.database.pool.query(
            'select 1 from anchor_transactions where block_id = $1',
            [stuckBlock],
          );
          return rows.length >= 2;
        },
        60_000,
      );
      await suite.nodes.control('evm_setAutomine', [true]);
      await suite.nodes.mineAt(GWEI);
      await eventually('the stuck block mined', async () => (await waitingRecords(suite.t)) === 0, 60_000);

      // A reorganisation drops a MINED transaction: the block is anchored again, same id and root.
      const before = (await suite.nodes.control('evm_snapshot')) as string;
      const dropped = await ingestThrough(suite.t, first.app, 2);
      await eventually('the new block mined', async () => (await blockOf(dropped[0]!))?.status === 'MINED');
      const reorged = (await blockOf(dropped[0]!))!;
      await suite.nodes.control('evm_revert', [before]);
      await suite.nodes.control('evm_mine');
      expect(await suite.nodes.devnet.anchoredRoot(reorged.id)).toBeNull();
      await eventually(
        'the dropped block anchored again',
        async () => (await suite.nodes.devnet.anchoredRoot(reorged.id)) === reorged.merkle_root,
        60_000,
      );
      expect((await blockOf(dropped[0]!))!.merkle_root).toBe(reorged.merkle_root);

      // Past finality: every block FINAL.
      await eventually(
        'every block FINAL',
        async () => {
          await suite.nodes.control('evm_mine');
          return (await waitingRecords(suite.t, ['FINAL'])) === 0;
        },
        60_000,
      );
      await expectEachBlockAnchoredOnce(suite.t, suite.nodes.devnet);
      const receipts = await receiptsOf(early);
      await verifyAll(receipts);

      // Both stop and start again on the same data.
      await first.close();
      await second.close();
      first = await serverProcess();
      second = await serverProcess();
      await ingestThrough(suite.t, second.app, 3);
      await eventually(
        'anchoring after the restart',
        async () => {
          await suite.nodes.control('evm_mine');
          return (await waitingRecords(suite.t, ['FINAL'])) === 0;
        },
        60_000,
      );
      await verifyAll(receipts);
      expect(await receiptsOf(early)).toEqual(receipts);
      await expectEachBlockAnchoredOnce(suite.t, suite.nodes.devnet);
    } finally {
      suite.nodes.nodes[0]!.set('up');
      suite.nodes.nodes[1]!.set('up');
      await suite.nodes.control('evm_setAutomine', [true]);
      await first.close();
      await second.close();
    }
  }, 240_000);
});
