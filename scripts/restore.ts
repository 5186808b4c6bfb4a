// Restores a backup (docs/backups.md): `npm run restore -- FILE [--no-owner]`, into the empty DATA_DIR
// (default ./data) or, with DATABASE_URL, into that empty PostgreSQL database; then runs the migrations
// the backup's schema lacks. Refuses, writing nothing, a damaged file (its .sha256 must stand beside
// it), a schema newer than this code's, and a target that is not empty. Exits 1 on a refusal.
import { parseArgs } from 'node:util';
import { RestoreRefused, restoreBackup } from '#server/backup/restore.ts';
import { loadConfig } from '#server/config.ts';

const { values, positionals } = parseArgs({
  options: { 'no-owner': { type: 'boolean', default: false } },
  allowPositionals: true,
});
const [file] = positionals;
if (!file || positionals.length > 1) {
  console.error('usage: npm run restore -- <backup file> [--no-owner]');
  process.exit(2);
}
const config = loadConfig();
try {
  await restoreBackup({
    file,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    noOwner: values['no-owner'],
    log: (line) => console.log(line),
  });
} catch (error) {
  console.error(
    error instanceof RestoreRefused
      ? `restore refused: ${error.message}`
      : `restore failed: ${(error as Error).message}`,
  );
  process.exitCode = 1;
}
