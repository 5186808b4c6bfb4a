/** What a server process does on start, whether it runs alone or as one of a cluster's (cluster.ts). */
import type { AppConfig } from './config.ts';
import { type Database, embeddedDataDir, openDatabase } from './db/client.ts';
import { isSeeded, seedDemoData } from './db/seed.ts';

/** The configured database, migrated, with the demo data on first start (SEED_DEMO_DATA). */
export async function openSeededDatabase(config: AppConfig): Promise<Database> {
  const database = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: embeddedDataDir(config.dataDir) },
  );
  if (config.seedDemoData && !(await isSeeded(database))) {
    console.log('First start: seeding demo data…');
    await seedDemoData(database, { keysDir: config.dataDir });
  }
  return database;
}

/** The start banner: where to open the app, what it runs on, the demo logins. */
export function banner(config: AppConfig, url: string, workers = 1): string {
  const database = config.databaseUrl
    ? 'PostgreSQL (DATABASE_URL)'
    : `embedded PGlite in ${embeddedDataDir(config.dataDir)}`;
  const chain =
    config.chain.rpcUrl && !config.chain.clusterDevnet
      ? `${config.chain.network} (CHAIN_RPC_URL)`
      : 'embedded devnet (in memory: each start anchors the earlier blocks again, same roots, so every receipt stays valid)';
  return `
uvtrace is running at ${url} (Node ${process.version}${workers > 1 ? `, ${workers} server processes` : ''})
  database: ${database}
  chain: ${chain}, anchoring ${config.chain.anchorEnabled ? 'on' : 'off'}
  demo logins (password "demo-password"):
    super@example.com     SUPER_ADMIN
    admin@example.com     ADMIN
    care@example.com      CUSTOMER_CARE
    customer@example.com  CUSTOMER of Clinica San Marco
`;
}

/** What a cluster worker tells the primary once it listens. */
export type WorkerListening = { type: 'uvtrace:listening'; url: string };
