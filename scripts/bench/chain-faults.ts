/**
 * The chain's faults for bench:faults (faults.ts), each under ingestion load: the server started as
 * production starts it, anchoring through CHAIN_RPC_URL to a devnet that this process holds behind a
 * switchable node (src/server/test/switchable-node.ts), with a block produced every second as a real
 * chain does (automine off):
 *
 *   chain-stall   no block produced for --stall seconds: anchor transactions wait in the mempool
 *   chain-spike   the base fee far above ANCHOR_MAX_FEE_GWEI for --spike seconds: transactions are
 *                 replaced up to the ceiling, new blocks wait unsent, anchor_fee_ceiling is raised
 *   chain-reorg   the chain goes back to a snapshot taken before blocks were MINED (evm_revert) and
 *                 grows a new branch: the dropped transactions' blocks are anchored again
 *   chain-down    the node hangs (no answer until the time-out) for --outage seconds
 *
 * Each ends with the load stopped and every acknowledged record of a blockchain clinic in exactly one
 * FINAL block (CHAIN_FINALITY_DEPTH 5), its proof folding to the block's root, and that root on chain
 * once, by the transaction the block names; every record stored once (checkIngestion).
 */
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { loadConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { integrityRecord, RECORD_FIELDS_SQL } from '#server/modules/integrity/anchor-worker.ts';
import { ANCHORED_EVENT } from '#server/modules/integrity/artifact.ts';
import { type Chain, connectChain } from '#server/modules/integrity/chain.ts';
import { DEVNET_PRIVATE_KEY } from '#server/modules/integrity/devnet.ts';
import { serveSwitchableNode } from '#server/test/switchable-node.ts';
import { type HashingVersion, leafHash, verifyProof } from '#shared/integrity/index.ts';
import {
  type Acknowledged,
  acknowledge,
  type BenchTarget,
  checkIngestion,
  freePort,
  loadFleet,
  login,
  recordKey,
  seedTarget,
  sleep,
  startServer,
  withDatabase,
} from './harness.ts';

export type ChainFault = 'chain-stall' | 'chain-spike' | 'chain-reorg' | 'chain-down';
export const CHAIN_FAULTS: readonly ChainFault[] = [
  'chain-stall',
  'chain-spike',
  'chain-reorg',
  'chain-down',
];

export interface ChainFaultOptions {
  /** Seconds without blocks (chain-stall), of the fee spike (chain-spike), without a node (chain-down). */
  stallSeconds: number;
  spikeSeconds: number;
  outageSeconds: number;
  /** Seconds of load before and after the fault. */
  loadSeconds: number;
}

const GWEI = 10n ** 9n;
const CEILING_GWEI = 5n;
/** Deeper than the reorganisation the scenario makes (about two blocks), so that it drops MINED blocks only. */
const FINALITY_DEPTH = 5;
const POSTERS = 4;
/** Pause of each poster between two posts: a few dozen records a second in all. */
const POST_PAUSE_MS = 150;
/** How long anchoring may take to make every record FINAL once the fault is over and the load stopped. */
const SETTLE_LIMIT_S = 180;

const hex = (value: bigint) => `0x${value.toString(16)}`;

/** The devnet's block producer: one block a second, at the base fee the scenario sets. */
function blockProducer(devnet: Chain) {
  let producing = true;
  let baseFee: bigint | null = GWEI;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await sleep(1000);
      if (!producing || stopped) continue;
      if (baseFee !== null) {
        await devnet.request({
          method: 'hardhat_setNextBlockBaseFeePerGas',
          params: [hex(baseFee)],
        } as never);
      }
      await devnet.request({ method: 'evm_mine', params: [] } as never);
    }
  })();
  return {
    pause() {
      producing = false;
    },
    resume() {
      producing = true;
    },
    setBaseFee(fee: bigint | null) {
      baseFee = fee;
    },
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

type Row = { scenario: string; database: string; cells: string[] };

/** One chain fault under load on a fresh target; answers its report row and its problems. */
export async function chainFaultScenario(
  fault: ChainFault,
  target: BenchTarget,
  options: ChainFaultOptions,
): Promise<{ row: Row; problems: string[] }> {
  const problems: string[] = [];
  const seeded = await seedTarget(target, 0);
  const blockchainSerials = await withDatabase(target, async (database) => {
    const { rows } = await database.pool.query<{ device_serial: string }>(
      `select d.device_serial from devices d join customers c on c.id = d.customer_id
        where c.enable_blockchain and d.device_serial = any($1::text[]) order by d.device_serial`,
      [seeded.activeSerials],
    );
    return rows.map((row) => row.device_serial);
  });
  const fleet = await loadFleet(target.dataDir, blockchainSerials);

  const devnet = await connectChain(loadConfig({}).chain);
  await devnet.request({ method: 'evm_setAutomine', params: [false] } as never);
  const node = await serveSwitchableNode(devnet.request);
  const producer = blockProducer(devnet);
  const port = await freePort();
  const server = await startServer(target, {
    port,
    env: {
      INGEST_RATE_LIMIT_PER_MINUTE: '0',
      TRUST_PROXY: 'true',
      CHAIN_RPC_URL: node.url,
      CHAIN_NETWORK: 'devnet',
      ANCHOR_PRIVATE_KEY: DEVNET_PRIVATE_KEY,
      ANCHOR_CONTRACT_ADDRESS: devnet.contractAddress,
      CHAIN_RPC_TIMEOUT_SECONDS: '2',
      ANCHOR_INTERVAL_SECONDS: '2',
      ANCHOR_REPLACE_AFTER_BLOCKS: '3',
      ANCHOR_MAX_FEE_GWEI: String(CEILING_GWEI),
      CHAIN_FINALITY_DEPTH: String(FINALITY_DEPTH),
      ALERT_SWEEP_INTERVAL_SECONDS: '5',
    },
  });

  const acknowledged = new Map<string, Acknowledged>();
  const sent = new Set<string>();
  let turn = 0;
  let posting = true;
  let failedPosts = 0;
  const poster = async () => {
    while (posting) {
      const serial = fleet.serials[turn++ % fleet.serials.length]!;
      const records = fleet.next(serial, Math.random() < 0.7 ? 1 : 2 + Math.floor(Math.random() * 3));
      for (const record of records) sent.add(recordKey(serial, record.progressive_id));
      const result = await fleet.post(server.base, serial, records);
      if (!acknowledge(serial, records, result, acknowledged, problems)) {
        failedPosts += 1;
        problems.push(`ingest answered ${result.status} ${result.message ?? ''} during ${fault}`);
      }
      await sleep(POST_PAUSE_MS);
    }
  };
  const token = await login(server.base, 'admin@example.com');
  const health = async () => {
    const response = await fetch(`${server.base}/api/v1/health`).catch(() => null);
    return response?.status === 200
      ? ((await response.json()) as { data: { chain: string } }).data.chain
      : 'down';
  };

  let faultNote = '';
  let faultSeconds = 0;
  let settleSeconds = 0;
  try {
    const posters = Array.from({ length: POSTERS }, poster);
    await sleep(options.loadSeconds * 1000);

    const faultStarted = performance.now();
    if (fault === 'chain-stall') {
      producer.pause();
      await sleep(options.stallSeconds * 1000);
      producer.resume();
      faultNote = `no block for ${options.stallSeconds} s`;
    } else if (fault === 'chain-spike') {
      producer.setBaseFee(8n * CEILING_GWEI * GWEI);
      await sleep(options.spikeSeconds * 1000);
      const alerts = await fetch(`${server.base}/api/v1/alerts?kind=anchor_fee_ceiling&state=active`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((response) => response.json() as Promise<{ data: { total: number } }>);
      producer.setBaseFee(GWEI);
      faultNote = `base fee ${8n * CEILING_GWEI} gwei (ceiling ${CEILING_GWEI}) for ${options.spikeSeconds} s; ${alerts.data.total} anchor_fee_ceiling alerts open at its end`;
      if (alerts.data.total === 0) problems.push('no anchor_fee_ceiling alert during the spike');
    } else if (fault === 'chain-reorg') {
      const snapshot = (await devnet.request({ method: 'evm_snapshot', params: [] } as never)) as string;
      const from = await devnet.blockNumber();
      // Blocks of anchors on the new branch until the server holds one of them MINED (one
      // confirmation, not final) by a transaction of the new branch: then the branch is abandoned, so
      // the reorganisation always drops a MINED block whatever the timing of the anchor interval.
      const minedSince = async () => {
        const response = await fetch(`${server.base}/api/v1/sterilizations?page=1&perPage=100`, {
          headers: { authorization: `Bearer ${token}` },
        });
        if (!response.ok) return false;
        const page = (await response.json()) as {
          data: {
            data: {
              blockchain_data: {
                blockchain_data_block: { status: string; transaction_hash: string | null };
              } | null;
            }[];
          };
        };
        const hashes = new Set(
          page.data.data
            .map((row) => row.blockchain_data?.blockchain_data_block)
            .filter((block) => block?.status === 'MINED' && block.transaction_hash)
            .map((block) => block?.transaction_hash as string),
        );
        for (const hash of hashes) {
          const receipt = (await devnet.request({
            method: 'eth_getTransactionReceipt',
            params: [hash],
          } as never)) as { blockNumber: string } | null;
          if (receipt && BigInt(receipt.blockNumber) > BigInt(from)) return true;
        }
        return false;
      };
      const waitUntil = performance.now() + 20_000;
      while (performance.now() < waitUntil && !(await minedSince())) await sleep(200);
      producer.pause();
      const dropped = (await devnet.blockNumber()) - from;
      await devnet.request({ method: 'evm_revert', params: [snapshot] } as never);
      producer.resume();
      faultNote = `${dropped} chain blocks reverted`;
    } else {
      node.set('silent');
      let saidUnreachable = false;
      const deadline = performance.now() + options.outageSeconds * 1000;
      while (performance.now() < deadline) {
        if ((await health()) === 'unreachable') saidUnreachable = true;
        await sleep(1000);
      }
      node.set('up');
      faultNote = `no node answered for ${options.outageSeconds} s; health said unreachable: ${saidUnreachable ? 'yes' : 'no'}`;
      if (!saidUnreachable) problems.push('health never said the chain was unreachable');
    }
    faultSeconds = (performance.now() - faultStarted) / 1000;
    await sleep(options.loadSeconds * 1000);
    posting = false;
    await Promise.all(posters);

    // Everything FINAL: the chain goes on producing blocks, the worker catches up.
    const settleStarted = performance.now();
    for (;;) {
      const waiting = await notFinal(target, server.base, token, acknowledged.size);
      if (waiting === 0) break;
      if (performance.now() - settleStarted > SETTLE_LIMIT_S * 1000) {
        problems.push(`${waiting} records still not FINAL ${SETTLE_LIMIT_S} s after the load`);
        break;
      }
      await sleep(1000);
    }
    settleSeconds = (performance.now() - settleStarted) / 1000;
  } finally {
    posting = false;
    if (!(await server.stop())) problems.push('the server did not stop on SIGTERM');
    await producer.stop();
    await node.close();
  }

  // The worker says so in its log (warn) for each block a reorganisation sent back.
  const sentBack = server.output().split('is no longer on chain (a reorganisation)').length - 1;
  if (fault === 'chain-reorg') {
    faultNote += `; ${sentBack} MINED blocks sent back and anchored again`;
    if (sentBack === 0) problems.push('no MINED block was dropped by the reorganisation');
  }
  const check = await withDatabase(target, async (database) => {
    const ingestion = await checkIngestion(database, acknowledged, sent);
    const anchoring = await checkAnchoring(
      database.db,
      devnet,
      new Set([...acknowledged.values()].map((a) => a.id)),
    );
    return { ingestion, anchoring };
  });
  problems.push(...check.ingestion.problems, ...check.anchoring.problems);
  return {
    row: {
      scenario: fault,
      database: target.kind,
      cells: [
        `${acknowledged.size.toLocaleString('en')} (${failedPosts} posts refused)`,
        faultNote,
        `${faultSeconds.toFixed(0)} s`,
        `${settleSeconds.toFixed(1)} s`,
        `${check.anchoring.blocks} blocks, ${check.anchoring.transactions} transactions (${check.anchoring.replaced} blocks with more than one)`,
        problems.length === 0 ? 'yes' : `**no** (${problems.length} problems)`,
      ],
    },
    problems,
  };
}

/**
 * Acknowledged records not yet in a FINAL block: from the database on PostgreSQL; on PGlite (the server
 * owns the database) from the costs the server reports, once the records anchored reach them and
 * FINALITY_DEPTH more blocks have passed.
 */
async function notFinal(
  target: BenchTarget,
  base: string,
  token: string,
  acknowledged: number,
): Promise<number> {
  if (target.databaseUrl) {
    return withDatabase(target, async (database) => {
      const { rows } = await database.pool.query<{ n: string }>(
        `select count(*) as n from sterilizations s left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
          where s.consumables_lot like 'SIM-%' and (b.id is null or b.status <> 'FINAL')`,
      );
      return Number(rows[0]!.n);
    });
  }
  const costs = await fetch(`${base}/api/v1/chain/costs?months=1`, {
    headers: { authorization: `Bearer ${token}` },
  }).then((response) => response.json() as Promise<{ data: { total: { records: number } } }>);
  const waiting = Math.max(0, acknowledged - costs.data.total.records);
  if (waiting === 0) await sleep((FINALITY_DEPTH + 2) * 1000);
  return waiting;
}

/** Every acknowledged record in one FINAL block, its proof to the root, the root on chain once. */
async function checkAnchoring(db: Db, devnet: Chain, ids: Set<number>) {
  const problems: string[] = [];
  const stored = await db.execute<
    Parameters<typeof integrityRecord>[0] & {
      block_id: number | null;
      status: string | null;
      merkle_root: Hex | null;
      merkle_proof: Hex[] | null;
      hashing_version: number | null;
      transaction_hash: Hex | null;
    }
  >(sql`
    select ${RECORD_FIELDS_SQL}, s.blockchain_data_block_id as block_id, b.status, b.merkle_root, s.merkle_proof,
      s.hashing_version, b.transaction_hash
    from sterilizations s join devices d on d.id = s.device_id
    left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
    where s.consumables_lot like 'SIM-%' order by s.id`);
  const blocks = new Map<number, { root: Hex; hash: Hex | null }>();
  for (const row of stored.rows) {
    if (!ids.has(Number(row.id))) continue;
    if (row.block_id === null || row.status !== 'FINAL' || !row.merkle_root || !row.merkle_proof) {
      if (problems.length < 10)
        problems.push(`record ${row.id} not in a FINAL block (${row.status ?? 'no block'})`);
      continue;
    }
    blocks.set(row.block_id, { root: row.merkle_root, hash: row.transaction_hash });
    const leaf = leafHash(integrityRecord(row), (row.hashing_version ?? 3) as HashingVersion);
    if (!verifyProof(leaf, row.merkle_proof, row.merkle_root)) {
      problems.push(`record ${row.id}: proof does not fold to block ${row.block_id}'s root`);
    }
  }
  const logs = await devnet.client.getLogs({
    address: devnet.contractAddress,
    event: ANCHORED_EVENT,
    fromBlock: 'earliest',
    toBlock: 'latest',
  });
  const anchors = new Map<number, { root: Hex; hash: Hex }[]>();
  for (const log of logs) {
    const id = Number(log.args.blockId);
    anchors.set(id, [...(anchors.get(id) ?? []), { root: log.args.root as Hex, hash: log.transactionHash }]);
  }
  for (const [blockId, block] of blocks) {
    const onChain = anchors.get(blockId) ?? [];
    if (onChain.length !== 1 || onChain[0]!.root !== block.root || onChain[0]!.hash !== block.hash) {
      problems.push(
        `block ${blockId}: ${onChain.length} anchors on chain, root ${onChain[0]?.root === block.root ? 'equal' : 'differs'}, transaction ${onChain[0]?.hash === block.hash ? 'the one stored' : 'another'}`,
      );
    }
  }
  const history = await db.execute<{ transactions: string; replaced: string }>(sql`
    select count(*) as transactions, count(distinct block_id) filter (where n > 1) as replaced
    from (select block_id, count(*) over (partition by block_id) as n from anchor_transactions) t`);
  return {
    problems,
    blocks: blocks.size,
    transactions: Number(history.rows[0]!.transactions),
    replaced: Number(history.rows[0]!.replaced),
  };
}
