/**
 * A chain as production reaches one, for the tests of anchoring on a real network: the embedded devnet
 * (whose test controls stay in the test's hands: mining, base fee, snapshots) behind switchable JSON-RPC
 * nodes, and the server's Chain connected to those nodes over HTTP (CHAIN_RPC_URL), not in process.
 * Plus what those tests share: the suite's app and chain, an anchor worker on them, records posted by a
 * blockchain clinic's device, waiting for blocks, and checking that each block is on chain once.
 */
import type { Hex } from 'viem';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';
import { loadConfig } from '../config.ts';
import {
  type AnchorWorker,
  type AnchorWorkerOptions,
  createAnchorWorker,
} from '../modules/integrity/anchor-worker.ts';
import { ANCHORED_EVENT } from '../modules/integrity/artifact.ts';
import { type Chain, connectChain } from '../modules/integrity/chain.ts';
import { DEVNET_PRIVATE_KEY } from '../modules/integrity/devnet.ts';
import { ingestRecords } from './ingest.ts';
import { type SwitchableNode, serveSwitchableNode } from './switchable-node.ts';
import { createTestApp, type TestApp, uniqueClientAddress } from './test-app.ts';

export interface NodeChain {
  /** The devnet itself, in process: test controls (evm_mine, evm_setAutomine, …) go straight to it. */
  devnet: Chain;
  nodes: SwitchableNode[];
  /** The server's view: CHAIN_RPC_URL = the nodes, in order. */
  chain: Chain;
  /** The environment that connects a server to these nodes. */
  env: Record<string, string>;
  /** A raw call to the devnet (a test control). */
  control(method: string, params?: unknown[]): Promise<unknown>;
  /** Mines `count` blocks whose base fee is `baseFee` (a transaction paying less stays in the mempool). */
  mineAt(baseFee: bigint, count?: number): Promise<void>;
  close(): Promise<void>;
}

export async function devnetBehindNodes(count = 1, env: Record<string, string> = {}): Promise<NodeChain> {
  const devnet = await connectChain(loadConfig({}).chain);
  const nodes = await Promise.all(Array.from({ length: count }, () => serveSwitchableNode(devnet.request)));
  const nodeEnv = {
    CHAIN_RPC_URL: nodes.map((node) => node.url).join(','),
    ANCHOR_PRIVATE_KEY: DEVNET_PRIVATE_KEY,
    ANCHOR_CONTRACT_ADDRESS: devnet.contractAddress,
    CHAIN_RPC_TIMEOUT_SECONDS: '1',
    ...env,
  };
  const chain = await connectChain(loadConfig(nodeEnv).chain);
  const control: NodeChain['control'] = (method, params = []) => devnet.request({ method, params } as never);
  return {
    devnet,
    nodes,
    chain,
    env: nodeEnv,
    control,
    async mineAt(baseFee, count = 1) {
      for (let i = 0; i < count; i += 1) {
        await control('hardhat_setNextBlockBaseFeePerGas', [`0x${baseFee.toString(16)}`]);
        await control('evm_mine');
      }
    },
    async close() {
      await Promise.all(nodes.map((node) => node.close()));
    },
  };
}

export interface ChainSuite {
  /** The suite's app (valid once its beforeAll has run). */
  readonly t: TestApp;
  /** The devnet behind its nodes (valid in a test). */
  readonly nodes: NodeChain;
  /** An anchor worker on the app's database and the nodes, taking every waiting record, polling fast. */
  worker(overrides?: Partial<AnchorWorkerOptions>): AnchorWorker;
}

/**
 * The suite's app (a test app on a fresh database) and its devnet behind `nodes` switchable nodes: opened
 * before its tests and closed after them. With `chainPerTest`, each test gets a devnet of its own (a test
 * that reverts the chain would otherwise take the next test's blocks with it).
 */
export function setUpChainSuite({ nodes = 1, chainPerTest = false } = {}): ChainSuite {
  let app: TestApp | undefined;
  let chain: NodeChain | undefined;
  beforeAll(async () => {
    app = await createTestApp();
    if (!chainPerTest) chain = await devnetBehindNodes(nodes);
  });
  afterAll(async () => {
    await app?.close();
    await chain?.close();
  });
  if (chainPerTest) {
    beforeEach(async () => {
      chain = await devnetBehindNodes(nodes);
    });
    afterEach(async () => {
      await chain?.close();
      chain = undefined;
    });
  }
  const opened = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the suite's ${what} is not open yet (use it inside a test)`);
    return value;
  };
  return {
    get t() {
      return opened(app, 'app');
    },
    get nodes() {
      return opened(chain, 'chain');
    },
    worker: (overrides = {}) =>
      createAnchorWorker({
        db: opened(app, 'app').database.db,
        chain: opened(chain, 'chain').chain,
        batchSize: 1000,
        intervalSeconds: 0,
        confirmations: 1,
        pollMs: 10,
        ...overrides,
      }),
  };
}

let progressive = 5_000_000;

/** Posts `count` signed records of a blockchain clinic's device through `app`; answers their ids. */
export async function ingestThrough(
  t: TestApp,
  app: { inject: TestApp['app']['inject'] },
  count: number,
): Promise<number[]> {
  const { rows } = await t.database.pool.query<{ device_serial: string }>(
    `select d.device_serial from devices d join customers c on c.id = d.customer_id
      where c.enable_blockchain and d.deleted_at is null and d.public_key is not null order by d.id limit 1`,
  );
  const device = t.seed.devices.find((one) => one.serial === rows[0]!.device_serial)!;
  const records: SterilizationClaim[] = Array.from({ length: count }, () => ({
    progressive_id: ++progressive,
    supplied_energy: 300,
    nominal_time: 10,
    effective_time: 9.5,
    residual_lamp_life: 4000,
    status_code: 0,
    latitude: null,
    longitude: null,
    consumables_lot: 'L-CHAIN-01',
    lot_progressive_id: 1,
    batch_quantity: 100_000,
    notes: null,
  }));
  await ingestRecords(app, device, records, { 'x-forwarded-for': uniqueClientAddress() });
  const stored = await t.database.pool.query<{ id: string }>(
    `select id from sterilizations where progressive_id > $1 and progressive_id <= $2 order by id`,
    [progressive - count, progressive],
  );
  return stored.rows.map((row) => Number(row.id));
}

/** Records of blockchain clinics not yet in a block of one of these states. */
export async function waitingRecords(
  t: TestApp,
  anchored: readonly string[] = ['MINED', 'FINAL'],
): Promise<number> {
  const { rows } = await t.database.pool.query<{ waiting: string }>(
    `select count(*) as waiting from sterilizations s join customers c on c.id = s.customer_id
      left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
      where c.enable_blockchain and (b.id is null or not (b.status = any($1::text[])))`,
    [anchored],
  );
  return Number(rows[0]!.waiting);
}

/** Polls `condition` every 50 ms for at most `ms`; fails with `what` when it never holds. */
export async function eventually(what: string, condition: () => Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not after ${ms} ms`);
}

/**
 * Each block holding records (of those `only` names, when given: blocks of an earlier devnet are not on
 * this one) is on chain once, with its root, by the transaction the database names; nothing on chain
 * that no stored block accounts for.
 */
export async function expectEachBlockAnchoredOnce(
  t: TestApp,
  devnet: Chain,
  only?: number[],
): Promise<number> {
  const blocks = await t.database.pool.query<{ id: number; merkle_root: Hex; transaction_hash: Hex }>(
    `select distinct b.id, b.merkle_root, b.transaction_hash from blockchain_data_blocks b
      join sterilizations s on s.blockchain_data_block_id = b.id
      where $1::int[] is null or b.id = any($1::int[]) order by b.id`,
    [only ?? null],
  );
  const logs = await devnet.client.getLogs({
    address: devnet.contractAddress,
    event: ANCHORED_EVENT,
    fromBlock: 'earliest',
    toBlock: 'latest',
  });
  const events = new Map<number, Hex[]>();
  for (const log of logs) {
    const id = Number(log.args.blockId);
    events.set(id, [...(events.get(id) ?? []), log.transactionHash]);
  }
  for (const block of blocks.rows) {
    expect(events.get(Number(block.id)), `block ${block.id}`).toEqual([block.transaction_hash]);
    expect(await devnet.anchoredRoot(Number(block.id))).toBe(block.merkle_root);
  }
  const withRecords = new Set(blocks.rows.map((block) => Number(block.id)));
  for (const id of events.keys()) {
    // Blocks without records (signed reports, key events alone) are anchored too; none unknown.
    if (!withRecords.has(id)) {
      const known = await t.database.pool.query('select 1 from blockchain_data_blocks where id = $1', [id]);
      expect(known.rowCount, `block ${id} on chain`).toBe(1);
    }
  }
  return blocks.rows.length;
}
