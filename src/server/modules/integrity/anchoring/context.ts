/**
 * The anchor worker's options (the app's configuration and the tests' hooks), resolved once into what
 * every step of anchoring shares.
 */
import type { Db } from '#server/db/client.ts';
import type { Chain } from '../chain.ts';

export type AnchorLog = { info(msg: string): void; warn(msg: string): void; error(msg: string): void };

export interface AnchorWorkerOptions {
  db: Db;
  chain: Chain;
  /** Records per block (ANCHOR_BATCH_SIZE). */
  batchSize: number;
  /** Seconds the oldest waiting record may wait before a smaller block is made (ANCHOR_INTERVAL_SECONDS). */
  intervalSeconds: number;
  /** Confirmations before MINED (CHAIN_CONFIRMATIONS). */
  confirmations: number;
  /** How often the worker looks for work, ms (default 1000). */
  pollMs?: number;
  /** A backlog of at least 2 batches is taken this many batches at a time (default 16). */
  backlogFactor?: number;
  /**
   * A SENT transaction of which only the hash is known (sent before its signed bytes were kept) that the
   * node does not know is re-signed after this long (default: 0 on the devnet, 60 s otherwise).
   */
  resendAfterMs?: number;
  /** The most a transaction may pay per gas, in wei (ANCHOR_MAX_FEE_GWEI; default 100 gwei). */
  maxFeePerGas?: bigint;
  /** Chain blocks a transaction may wait unmined before it is replaced with higher fees (ANCHOR_REPLACE_AFTER_BLOCKS; default 5). */
  replaceAfterBlocks?: number;
  /** Blocks on top after which a MINED block is FINAL; null (default): the node's finalized tag (64 blocks without one). */
  finalityDepth?: number | null;
  /** Hears the alerts the worker raised (anchor_fee_ceiling), to mail and announce them; must not throw. */
  onAlertsRaised?: (alertIds: number[]) => Promise<void>;
  log?: AnchorLog;
  /**
   * A block of more records than this is stored in one transaction per this many (default 1024: the
   * largest block of the default settings, 16 × 64, is one transaction).
   */
  writePage?: number;
  /** A block a crashed run left half-stored is undone after this long (default 10 minutes). */
  abandonedAfterMs?: number;
  /** Test hook: runs after a block's leaves and tree are computed, before anything is stored. */
  beforeStore?: () => void | Promise<void>;
  /** Test hook: runs after each part of a block stored in parts (throw to simulate a crash). */
  afterStoredPart?: (blockId: number) => void | Promise<void>;
  /** Test hook: runs after the SENT row is written and before broadcasting (throw to simulate a crash). */
  beforeBroadcast?: (blockId: number) => void | Promise<void>;
}

/** The options with every default applied. */
export type AnchoringContext = Required<
  Pick<
    AnchorWorkerOptions,
    | 'db'
    | 'chain'
    | 'batchSize'
    | 'intervalSeconds'
    | 'confirmations'
    | 'pollMs'
    | 'resendAfterMs'
    | 'log'
    | 'writePage'
    | 'abandonedAfterMs'
    | 'maxFeePerGas'
    | 'replaceAfterBlocks'
    | 'finalityDepth'
  >
> &
  Pick<AnchorWorkerOptions, 'beforeStore' | 'afterStoredPart' | 'beforeBroadcast' | 'onAlertsRaised'> & {
    /** The most records one block takes: batchSize × backlogFactor. */
    maxBlock: number;
  };

export function anchoringContext(options: AnchorWorkerOptions): AnchoringContext {
  return {
    db: options.db,
    chain: options.chain,
    batchSize: options.batchSize,
    intervalSeconds: options.intervalSeconds,
    confirmations: options.confirmations,
    pollMs: options.pollMs ?? 1000,
    maxBlock: options.batchSize * (options.backlogFactor ?? 16),
    resendAfterMs: options.resendAfterMs ?? (options.chain.embedded ? 0 : 60_000),
    writePage: options.writePage ?? 1024,
    abandonedAfterMs: options.abandonedAfterMs ?? 10 * 60_000,
    maxFeePerGas: options.maxFeePerGas ?? 100n * 10n ** 9n,
    replaceAfterBlocks: options.replaceAfterBlocks ?? 5,
    finalityDepth: options.finalityDepth ?? null,
    onAlertsRaised: options.onAlertsRaised,
    log: options.log ?? { info() {}, warn() {}, error() {} },
    beforeStore: options.beforeStore,
    afterStoredPart: options.afterStoredPart,
    beforeBroadcast: options.beforeBroadcast,
  };
}
