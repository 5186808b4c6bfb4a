/**
 * The chain as the app holds it: connected on first use (or at start when the anchor worker runs), with
 * the worker started and stopped with the app. Tests may hand in a chain shared by several apps.
 */
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { type AnchorWorker, createAnchorWorker, resetEphemeralBlocks } from './anchor-worker.ts';
import { type Chain, connectChain } from './chain.ts';

type Log = { info(msg: string): void; warn(msg: string): void; error(msg: string): void };

export interface ChainService {
  config: AppConfig['chain'];
  /** The connected chain (connects and, for a fresh devnet, re-queues earlier devnet blocks on first call). */
  chain(): Promise<Chain>;
  /** Starts the anchor worker (ANCHOR_ENABLED). */
  startWorker(): Promise<void>;
  stop(): Promise<void>;
  worker(): AnchorWorker | undefined;
}

export function createChainService(opts: {
  db: Db;
  config: AppConfig['chain'];
  log: Log;
  /** An already connected chain (tests); no ephemeral reset is done for it. */
  chain?: Chain;
  pollMs?: number;
}): ChainService {
  const { db, config, log } = opts;
  let connecting: Promise<Chain> | undefined;
  let worker: AnchorWorker | undefined;
  const chain = () => {
    connecting ??= (async () => {
      if (opts.chain) return opts.chain;
      const connected = await connectChain(config);
      // A cluster's workers share the primary's devnet, and the primary re-queued the earlier blocks
      // once before they started (a worker doing it would re-queue blocks the leader just anchored).
      const reset = config.clusterDevnet ? 0 : await resetEphemeralBlocks(db, connected);
      if (reset > 0) log.warn(`anchor: new devnet, ${reset} earlier devnet blocks will be anchored again`);
      log.info(
        `chain: ${connected.network} (id ${connected.chainId}), contract ${connected.contractAddress}`,
      );
      return connected;
    })();
    connecting.catch(() => {
      connecting = undefined;
    });
    return connecting;
  };
  return {
    config,
    chain,
    async startWorker() {
      worker ??= createAnchorWorker({
        db,
        chain: await chain(),
        batchSize: config.batchSize,
        intervalSeconds: config.intervalSeconds,
        confirmations: config.confirmations,
        pollMs: opts.pollMs,
        log,
      });
      worker.start();
    },
    async stop() {
      await worker?.stop();
    },
    worker: () => worker,
  };
}
