/**
 * The chain as the app holds it: connected on first use (or at start when the anchor worker runs), with
 * the worker started and stopped with the app. Tests may hand in a chain shared by several apps.
 */
import type { AppConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { type AnchorWorker, createAnchorWorker, resetEphemeralBlocks } from './anchor-worker.ts';
import { type Chain, connectChain } from './chain.ts';
import type { ChainReachability } from './reachability.ts';

/** How long a call's outcome stands for the node's reachability before health probes again. */
const FRESH_MS = 5_000;
/** The longest health waits for a probe when nothing is known yet. */
const PROBE_WAIT_MS = 2_000;

type Log = { info(msg: string): void; warn(msg: string): void; error(msg: string): void };

export interface ChainService {
  config: AppConfig['chain'];
  /** The connected chain (connects and, for a fresh devnet, re-queues earlier devnet blocks on first call). */
  chain(): Promise<Chain>;
  /**
   * Whether a node of the chain answers, for the health endpoint: what the last call to the node saw
   * when it is recent, else a probe (at most PROBE_WAIT_MS waited for; a staler answer is given meanwhile).
   */
  reachability(): Promise<ChainReachability>;
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
  /** Hears the alerts the anchor worker raises (a block waiting at the fee ceiling). */
  onAlertsRaised?: (alertIds: number[]) => Promise<void>;
}): ChainService {
  const { db, config, log } = opts;
  let connecting: Promise<Chain> | undefined;
  let connected: Chain | undefined = opts.chain;
  let probing: Promise<ChainReachability> | undefined;
  let worker: AnchorWorker | undefined;
  const chain = () => {
    connecting ??= (async () => {
      if (opts.chain) return opts.chain;
      const fresh = await connectChain(config);
      // A cluster's workers share the primary's devnet, and the primary re-queued the earlier blocks
      // once before they started (a worker doing it would re-queue blocks the leader just anchored).
      const reset = config.clusterDevnet ? 0 : await resetEphemeralBlocks(db, fresh);
      if (reset > 0)
        log.warn(
          `anchor: new devnet, ${reset} earlier blocks will be anchored again with the same roots: their receipts stay valid`,
        );
      log.info(`chain: ${fresh.network} (id ${fresh.chainId}), contract ${fresh.contractAddress}`);
      return fresh;
    })();
    connecting.then(
      (ready) => {
        connected = ready;
      },
      () => {
        connecting = undefined;
      },
    );
    return connecting;
  };
  /** A probe's outcome while no chain is connected (the node away since start): the tracker's otherwise. */
  let unconnected: { state: ChainReachability; at: number } | undefined;
  const lastSeen = () => connected?.reachability.last() ?? unconnected;
  const probe = () => {
    probing ??= (async (): Promise<ChainReachability> => {
      try {
        await (await chain()).blockNumber();
        return 'ok';
      } catch {
        unconnected = { state: 'unreachable', at: Date.now() };
        return 'unreachable';
      }
    })().finally(() => {
      probing = undefined;
    });
    return probing;
  };
  return {
    config,
    chain,
    async reachability() {
      // The devnet in this process is always there; a node, the cluster primary's devnet included, may not be.
      if (connected ? connected.inProcess : !config.rpcUrl) return 'ok';
      const last = lastSeen();
      if (last && Date.now() - last.at < FRESH_MS) return last.state;
      const probed = probe();
      if (last) return last.state;
      const waited = await Promise.race([
        probed,
        new Promise<null>((resolve) => setTimeout(resolve, PROBE_WAIT_MS, null).unref()),
      ]);
      return waited ?? 'unreachable';
    },
    async startWorker() {
      worker ??= createAnchorWorker({
        db,
        chain: await chain(),
        batchSize: config.batchSize,
        intervalSeconds: config.intervalSeconds,
        confirmations: config.confirmations,
        maxFeePerGas: config.maxFeePerGasWei,
        replaceAfterBlocks: config.replaceAfterBlocks,
        finalityDepth: config.finalityDepth,
        onAlertsRaised: opts.onAlertsRaised,
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
