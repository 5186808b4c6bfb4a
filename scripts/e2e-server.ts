/** The server the end-to-end suite runs against: the production build on a fresh embedded database with demo data. */
import { rmSync } from 'node:fs';
import path from 'node:path';

// E2E_DATA_DIR lets two suites run side by side (each with its own port, build and database).
const dataDir = path.resolve(
  process.env.E2E_DATA_DIR || path.join(import.meta.dirname, '../test-results/e2e-data'),
);
rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
await import('../src/server/main.ts');
