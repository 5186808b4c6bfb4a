/** Starts the whole product: database (embedded or real), demo data on first start, API + app. */
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { embeddedDataDir, openDatabase } from './db/client.ts';
import { isSeeded, seedDemoData } from './db/seed.ts';

const config = loadConfig();
const database = await openDatabase(
  config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: embeddedDataDir(config.dataDir) },
);
if (config.seedDemoData && !(await isSeeded(database))) {
  console.log('First start: seeding demo data…');
  await seedDemoData(database, { keysDir: config.dataDir });
}
const app = await buildApp(config, { database, ownsDatabase: true });

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

await app.listen({ port: config.port, host: config.host });
const url = `http://localhost:${config.port}`;
console.log(`
uvtrace is running at ${url}
  database: ${database.kind === 'pglite' ? `embedded PGlite in ${embeddedDataDir(config.dataDir)}` : 'PostgreSQL (DATABASE_URL)'}
  chain: ${config.chain.rpcUrl ? `${config.chain.network} (CHAIN_RPC_URL)` : 'embedded devnet (in memory; earlier blocks are anchored again)'}, anchoring ${config.chain.anchorEnabled ? 'on' : 'off'}
  demo logins (password "demo-password"):
    super@example.com     SUPER_ADMIN
    admin@example.com     ADMIN
    care@example.com      CUSTOMER_CARE
    customer@example.com  CUSTOMER of Clinica San Marco
`);
