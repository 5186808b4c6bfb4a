/**
 * Starts the whole product: database (embedded or real), demo data on first start, API + app.
 * Run directly (`node src/server/main.ts [--workers N]`) or through startServer (npm start, the
 * end-to-end server). With --workers N > 1 this process becomes the primary of N server processes
 * (cluster.ts), each of which runs startServer.
 */
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { type AppConfig, loadConfig, openUrl } from './config.ts';
import type { Chain } from './modules/integrity/chain.ts';
import { banner, openSeededDatabase, type WorkerListening } from './startup.ts';

/** deps.chain: a chain already connected by the caller (the end-to-end server keeps its devnet's handle). */
export async function startServer(deps: { chain?: Chain } = {}): Promise<FastifyInstance> {
  const config = loadConfig();
  const database = await openSeededDatabase(config);
  // Imported here: a cluster's primary (same entry file) never builds an app, and starts sooner without it.
  const { buildApp } = await import('./app.ts');
  const app = await buildApp(config, { database, ownsDatabase: true, chain: deps.chain });
  // The socket `npm run backup` and `npm run integrity:sweep` reach a running server through
  // (docs/backups.md); a cluster's workers share a PostgreSQL database, which needs none.
  const { openServerControlSocket } = await import('./control/server-control.ts');
  const control = cluster.isWorker ? null : await openServerControlSocket(app, database, config);
  app.addHook('onClose', async () => control?.close());

  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info(`${signal}: closing`);
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  }

  // Fastify's own line would name the address it bound (127.0.0.1 for the default "localhost") and the
  // banner the one to open: both say the one to open, the log line with the bound address after it.
  await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: (address) => {
      const bound = new URL(address);
      return `listening at ${openUrl(config.host, Number(bound.port))} (bound to ${bound.host})`;
    },
  });
  const url = openUrl(config.host, (app.server.address() as AddressInfo).port);
  // A cluster's primary prints one banner for all its workers.
  if (cluster.isWorker) process.send?.({ type: 'uvtrace:listening', url } satisfies WorkerListening);
  else console.log(banner(config, url));
  return app;
}

/** `--workers N`: how many server processes to run (default 1: this one). */
export function workersArgument(argv: string[]): number {
  const { values } = parseArgs({ args: argv, options: { workers: { type: 'string' } }, strict: true });
  if (values.workers === undefined) return 1;
  const workers = Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64)
    throw new Error(`--workers must be a whole number from 1 to 64, got "${values.workers}"`);
  return workers;
}

/** Why N server processes cannot run with this configuration, or null when they can. */
export function clusterRefusal(config: AppConfig, workers: number): string | null {
  if (workers > 1 && !config.databaseUrl) {
    return (
      `--workers ${workers} needs DATABASE_URL: the embedded PGlite database can be opened by one ` +
      'process only. Run one process (without --workers), or set DATABASE_URL to a PostgreSQL server.'
    );
  }
  return null;
}

/** The command line's entry (main.ts run directly, npm start): one server process, a cluster worker, or a cluster's primary. */
export async function runFromCommandLine(argv: string[]): Promise<void> {
  if (cluster.isWorker) {
    await startServer();
    return;
  }
  let workers: number;
  try {
    workers = workersArgument(argv);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  if (workers === 1) {
    await startServer();
    return;
  }
  // Said before anything heavy is loaded: it is a setting to change, not a failure to wait for.
  const refusal = clusterRefusal(loadConfig(), workers);
  if (refusal) {
    console.error(refusal);
    process.exit(1);
  }
  const { startCluster } = await import('./cluster.ts');
  await startCluster(workers);
}

if (import.meta.main) await runFromCommandLine(process.argv.slice(2));
