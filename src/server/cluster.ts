/**
 * `--workers N` (N > 1): this process is the primary of N server processes (node:cluster) sharing one
 * port and one PostgreSQL. The primary serves no requests; it does once what must be done once:
 *   - migrations and the demo data on first start, before any worker runs (no two seeding at once);
 *   - without CHAIN_RPC_URL, the embedded devnet: it lives here (a devnet is one process's memory) and
 *     is served to the workers on a loopback port (modules/integrity/devnet-server.ts), after re-queuing the blocks
 *     of an earlier devnet once;
 * then forks the workers. Each runs the whole server (main.ts startServer); the background work runs
 * in one of them (background/leadership.ts). A worker that dies after starting is replaced; one that
 * dies while starting stops everything (a wrong setting would only die again). SIGINT/SIGTERM close
 * every worker gracefully (each finishes its requests and its anchor pass), then the primary exits.
 *
 * The embedded PGlite is refused before this runs (main.ts clusterRefusal): it is one process's database.
 */
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { loadConfig } from './config.ts';
import { resetEphemeralBlocks } from './modules/integrity/anchor-worker.ts';
import { connectChain } from './modules/integrity/chain.ts';
import { DEVNET_PRIVATE_KEY } from './modules/integrity/devnet.ts';
import { type DevnetServer, serveDevnet } from './modules/integrity/devnet-server.ts';
import { banner, openSeededDatabase, type WorkerListening } from './startup.ts';

/** How long stopping waits for the workers' graceful close before killing them. */
const STOP_TIMEOUT_MS = 30_000;

/** Prepares the database and the chain, forks the workers and returns once all of them listen. */
export async function startCluster(workers: number): Promise<void> {
  const config = loadConfig();

  const database = await openSeededDatabase(config);
  let devnet: DevnetServer | undefined;
  const workerEnv: Record<string, string> = {};
  try {
    if (!config.chain.rpcUrl) {
      const chain = await connectChain(config.chain);
      const reset = await resetEphemeralBlocks(database.db, chain);
      if (reset > 0)
        console.log(
          `anchor: new devnet, ${reset} earlier blocks will be anchored again with the same roots: their receipts stay valid`,
        );
      devnet = await serveDevnet(chain.request);
      Object.assign(workerEnv, {
        CHAIN_RPC_URL: devnet.url,
        CHAIN_NETWORK: 'devnet',
        ANCHOR_PRIVATE_KEY: DEVNET_PRIVATE_KEY,
        ANCHOR_CONTRACT_ADDRESS: chain.contractAddress,
        UVTRACE_CLUSTER_DEVNET: 'true',
      });
    }
  } finally {
    await database.close();
  }
  // The workers found the database seeded; they must not each try again if it was turned off.
  workerEnv.SEED_DEMO_DATA = 'false';

  cluster.setupPrimary({ exec: path.join(import.meta.dirname, 'main.ts'), args: [] });
  const listening = new Set<number>();
  let stopping = false;
  let announced = false;
  let url = '';

  const fork = () => cluster.fork(workerEnv);
  cluster.on('message', (worker: Worker, message: WorkerListening) => {
    if (message?.type !== 'uvtrace:listening') return;
    listening.add(worker.id);
    url = message.url;
    if (!announced && listening.size >= workers) {
      announced = true;
      console.log(banner(config, url, workers));
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    const started = listening.delete(worker.id);
    if (stopping) return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (!started) {
      console.error(`server process ${worker.process.pid} exited (${how}) while starting: stopping`);
      void stop(1);
      return;
    }
    console.error(`server process ${worker.process.pid} exited (${how}): starting another`);
    fork();
  });

  async function stop(exitCode: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    const running = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker);
    const exits = running.map(
      (worker) =>
        new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))),
    );
    for (const worker of running) worker.process.kill('SIGTERM');
    const timer = setTimeout(() => {
      console.error('server processes did not stop in time: killing them');
      for (const worker of running) worker.process.kill('SIGKILL');
    }, STOP_TIMEOUT_MS);
    await Promise.all(exits);
    clearTimeout(timer);
    await devnet?.close();
    process.exit(exitCode);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0));

  for (let i = 0; i < workers; i += 1) fork();
}
