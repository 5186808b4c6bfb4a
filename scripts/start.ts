/**
 * `npm start [-- --workers N]`: builds the app when its build is missing or older than its sources, then
 * starts the server (API + app + embedded database + demo data) in this process, or N server
 * processes on one PostgreSQL (src/server/cluster.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const builtIndex = path.join(root, 'dist/client/index.html');

function newestChange(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

const sources = ['src/client', 'src/shared', 'public', 'index.html', 'vite.config.ts'].map((item) =>
  path.join(root, item),
);
const stale =
  !existsSync(builtIndex) ||
  statSync(builtIndex).mtimeMs < Math.max(...sources.filter((item) => existsSync(item)).map(newestChange));
if (stale) {
  console.log('Building the app (vite build)…');
  const build = spawnSync(path.join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const { runFromCommandLine } = await import('#server/main.ts');
await runFromCommandLine(process.argv.slice(2));
