// Checks the audit trail's hash chain (docs/audit.md): `npm run audit:verify`. Uses DATABASE_URL when
// set, otherwise the embedded PGlite under DATA_DIR (default ./data) — stop the server first then.
// Prints the number of entries and the chain's head hash and exits 0, or names the first broken entry
// and exits 1.
import path from 'node:path';
import { embeddedDataDir, openDatabase } from '#server/db/client.ts';
import { verifyAuditChain } from '#server/modules/audit/verify.ts';

const databaseUrl = process.env.DATABASE_URL || undefined;
const dataRoot = path.resolve(process.env.DATA_DIR || 'data');
if (!databaseUrl) {
  // PGlite does not lock its directory: two processes on it can damage it.
  console.log(`embedded database at ${embeddedDataDir(dataRoot)} (the server must not be running on it)`);
}
const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: embeddedDataDir(dataRoot) });
try {
  const report = await verifyAuditChain(database.db);
  if (report.ok) {
    console.log(`audit trail intact: ${report.count} entries, head ${report.head}`);
  } else {
    console.error(`audit trail BROKEN at entry ${report.brokenId}: ${report.reason}`);
    console.error(`(${report.count} entries before it verified)`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
