// A backup of everything uvtrace keeps (docs/backups.md): `npm run backup [-- --output DIR]`.
// DATABASE_URL set: the PostgreSQL database through pg_dump; otherwise the embedded database under
// DATA_DIR (default ./data), through the running server when one runs on it. Writes
// DIR/uvtrace-backup-<time>-<schema>.tar (default DIR: ./backups) and its SHA-256 beside it (.sha256).
import { parseArgs } from 'node:util';
import { createBackup } from '#server/backup/create.ts';
import { loadConfig } from '#server/config.ts';

const { values } = parseArgs({ options: { output: { type: 'string', default: 'backups' } } });
const config = loadConfig();
try {
  const result = await createBackup({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    outputDir: values.output,
    log: (line) => console.log(line),
  });
  console.log(`database copied from: ${result.source}`);
} catch (error) {
  console.error(`backup failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
