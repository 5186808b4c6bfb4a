/**
 * Starts the whole product: database (embedded or real), demo data on first start, API + app.
 * Run directly (`node src/server/main.ts`) or through startServer (npm start, the end-to-end server).
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Chain } from './chain/chain.ts';
import { loadConfig, openUrl } from './config.ts';
import { embeddedDataDir, openDatabase } from './db/client.ts';
import { isSeeded, seedDemoData } from './db/seed.ts';

/** deps.chain: a chain already connected by the caller (the end-to-end server keeps its devnet's handle). */
export async function startServer(deps: { chain?: Chain } = {}): Promise<FastifyInstance> {
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: embeddedDataDir(config.dataDir) },
  );
  if (config.seedDemoData && !(await isSeeded(database))) {
    console.log('First start: seeding demo data…');
    await seedDemoData(database, { keysDir: config.dataDir });
  }
  const app = await buildApp(config, { database, ownsDatabase: true, chain: deps.chain });

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
  console.log(`
uvtrace is running at ${url} (Node ${process.version})
  database: ${database.kind === 'pglite' ? `embedded PGlite in ${embeddedDataDir(config.dataDir)}` : 'PostgreSQL (DATABASE_URL)'}
  chain: ${config.chain.rpcUrl ? `${config.chain.network} (CHAIN_RPC_URL)` : 'embedded devnet (in memory; earlier blocks are anchored again)'}, anchoring ${config.chain.anchorEnabled ? 'on' : 'off'}
  demo logins (password "demo-password"):
    super@example.com     SUPER_ADMIN
    admin@example.com     ADMIN
    care@example.com      CUSTOMER_CARE
    customer@example.com  CUSTOMER of Clinica San Marco
`);
  return app;
}

if (import.meta.main) await startServer();
