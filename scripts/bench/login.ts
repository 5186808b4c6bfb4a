/**
 * Login latency at 4 concurrent logins (argon2id included), against a server started here on a
 * throwaway embedded database. Target (docs/benchmarks.md): p95 ≤ 100 ms. Not a test: prints figures.
 *   node scripts/bench/login.ts [--requests 200]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { seedDemoData } from '#server/db/seed.ts';

const total = Number(process.argv[process.argv.indexOf('--requests') + 1]) || 200;
const concurrency = 4;
const dataDir = mkdtempSync(path.join(tmpdir(), 'uvtrace-bench-'));
const database = await openDatabase(
  process.env.DATABASE_URL
    ? { databaseUrl: process.env.DATABASE_URL }
    : { dataDir: path.join(dataDir, 'pglite') },
);
await seedDemoData(database, { sterilizations: 100, keysDir: dataDir });
const config = loadConfig({
  LOG_LEVEL: 'warn',
  PORT: '0',
  LOGIN_MAX_FAILURES: '100000',
  // The figure is argon2's latency: the per-address login limit would refuse most of this run.
  LOGIN_RATE_LIMIT_PER_MINUTE: '0',
  CLIENT_DIST: '/none',
});
const app = await buildApp(config, { database, ownsDatabase: true });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

const form = () => {
  const body = new FormData();
  body.append('email', 'admin@example.com');
  body.append('password', 'demo-password');
  return body;
};
const durations: number[] = [];
let next = 0;
async function worker() {
  while (next < total) {
    next += 1;
    const started = performance.now();
    const response = await fetch(`${address}/api/v1/auth/login`, { method: 'POST', body: form() });
    if (response.status !== 200) throw new Error(`login answered ${response.status}`);
    await response.arrayBuffer();
    durations.push(performance.now() - started);
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, worker));
const elapsed = (performance.now() - started) / 1000;
durations.sort((a, b) => a - b);
const pct = (p: number) =>
  durations[Math.min(durations.length - 1, Math.floor((p / 100) * durations.length))]!.toFixed(1);
console.log(
  `login x${total} at concurrency ${concurrency} on ${database.kind}: p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, ${(total / elapsed).toFixed(1)} logins/s`,
);
await app.close();
rmSync(dataDir, { recursive: true, force: true });
