// Seeds demo data: `node scripts/seed.ts [--sterilizations N] [--records-per-token N] [--reset]`.
// Uses DATABASE_URL when set, otherwise the embedded PGlite under DATA_DIR (default ./data, the
// database in DATA_DIR/pglite). Device private keys go to DATA_DIR/device-keys/<serial>.pem.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { embeddedDataDir, migrate, openDatabase } from '#server/db/client.ts';
import { DEMO_PASSWORD, seedDemoData } from '#server/db/seed.ts';

const { values } = parseArgs({
  options: {
    sterilizations: { type: 'string', default: '3000' },
    'records-per-token': { type: 'string' },
    reset: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(
    [
      'usage: node scripts/seed.ts [--sterilizations N] [--records-per-token N] [--reset]',
      '  --sterilizations N      records to make (default 3000)',
      '  --records-per-token N   the most records a device signs into one token, 1-100',
      '                          (default 4; 100 from 100,000 records)',
      '  --reset                 drop the schema and start over',
    ].join('\n'),
  );
  process.exit(0);
}
const sterilizations = Number(values.sterilizations);
if (!Number.isInteger(sterilizations) || sterilizations < 0) {
  console.error(`--sterilizations must be a non-negative integer, got "${values.sterilizations}"`);
  process.exit(2);
}
const recordsPerToken =
  values['records-per-token'] === undefined ? undefined : Number(values['records-per-token']);
if (
  recordsPerToken !== undefined &&
  !(Number.isInteger(recordsPerToken) && recordsPerToken >= 1 && recordsPerToken <= 100)
) {
  console.error(`--records-per-token must be an integer from 1 to 100, got "${values['records-per-token']}"`);
  process.exit(2);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const databaseUrl = process.env.DATABASE_URL || undefined;
const dataRoot = path.resolve(process.env.DATA_DIR || 'data');
const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: embeddedDataDir(dataRoot) });
try {
  console.log(
    `database: ${databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite at ${embeddedDataDir(dataRoot)}`}`,
  );
  if (values.reset) {
    await database.pool.query('DROP SCHEMA IF EXISTS drizzle CASCADE');
    await database.pool.query('DROP SCHEMA public CASCADE');
    await database.pool.query('CREATE SCHEMA public');
    await migrate(database);
    console.log('schema dropped and recreated');
  }
  const summary = await seedDemoData(database, {
    sterilizations,
    keysDir: dataRoot,
    ...(recordsPerToken ? { recordsPerToken } : {}),
  });
  if (summary.alreadySeeded) {
    console.log('the database already holds data: nothing seeded (use --reset to start over)');
  } else {
    console.log(
      [
        `customers: ${summary.customers}, users: ${summary.users}, products: ${summary.products}, devices: ${summary.devices.length}, consumable batches: ${summary.consumableBatches}`,
        `sterilizations: ${summary.sterilizations} (${summary.sterilizationRowsPerSecond} rows/s)`,
        ...(summary.loadPhases
          ? [
              `  COPY load: tokens ${seconds(summary.loadPhases.tokensMs)}, records ${seconds(summary.loadPhases.copyMs)}, indexes ${seconds(summary.loadPhases.indexesMs)}, foreign keys ${seconds(summary.loadPhases.foreignKeysMs)}, counts and progress ${seconds(summary.loadPhases.bookkeepingMs)}`,
            ]
          : []),
        `device private keys: ${path.join(dataRoot, 'device-keys')}`,
        `accounts (password "${DEMO_PASSWORD}"):`,
        ...summary.accounts.map(
          (a) =>
            `  ${a.email.padEnd(36)} ${a.role.padEnd(14)} customer ${a.customerId}${a.disabled ? ' (disabled)' : ''}`,
        ),
        `done in ${(summary.elapsedMs / 1000).toFixed(1)} s`,
      ].join('\n'),
    );
  }
} finally {
  await database.close();
}
