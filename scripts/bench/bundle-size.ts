/**
 * Prints the gzip size of the JavaScript a first visit loads (the entry and its static imports) and of
 * each lazily loaded chunk (route-level code splitting), from the Vite manifest of `npm run build`.
 * Targets (docs/benchmarks.md): initial ≤ 200 kB gzip, each route chunk ≤ 80 kB gzip.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  src?: string;
}

const dist = path.resolve(process.env.CLIENT_DIST ?? path.join(import.meta.dirname, '../../dist/client'));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;
const gzipKb = (file: string) => gzipSync(readFileSync(path.join(dist, file))).length / 1024;

function staticClosure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(imported, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entryKey) throw new Error('no entry in the Vite manifest: run `npm run build` first');
// The first paint also waits for the default language's message catalogue (a chunk of its own, see
// src/client/lib/intl.tsx), so it counts as initial too.
const DEFAULT_CATALOGUE = 'src/client/i18n/en.json';
if (!manifest[DEFAULT_CATALOGUE]) throw new Error(`${DEFAULT_CATALOGUE} is not a chunk of its own`);
const initial = staticClosure(DEFAULT_CATALOGUE, staticClosure(entryKey));
const initialKb = [...initial].reduce((sum, key) => sum + gzipKb(manifest[key]!.file), 0);

const rows = Object.entries(manifest)
  .filter(([key, chunk]) => chunk.isDynamicEntry && !initial.has(key) && chunk.file.endsWith('.js'))
  .map(([key, chunk]) => {
    const own = [...staticClosure(key)].filter((item) => !initial.has(item));
    return {
      chunk: chunk.src ?? key,
      ownKb: gzipKb(chunk.file),
      withSharedKb: own.reduce((sum, item) => sum + gzipKb(manifest[item]!.file), 0),
    };
  })
  .sort((a, b) => b.withSharedKb - a.withSharedKb);

console.log(
  `initial JavaScript: ${initialKb.toFixed(1)} kB gzip (target ≤ 200) ${initialKb <= 200 ? 'OK' : 'OVER'}`,
);
console.log(
  "\nRoute chunk: the route's own chunk (target ≤ 80). With shared: plus the lazily loaded chunks it shares",
);
console.log('with other routes (date pickers, table, forms), fetched once and cached.\n');
console.log('| lazily loaded chunk | own kB gzip | ≤ 80 | with shared chunks, kB gzip |');
console.log('|---|---:|---|---:|');
for (const row of rows) {
  console.log(
    `| ${row.chunk.replace('?tsr-split=component', '')} | ${row.ownKb.toFixed(1)} | ${row.ownKb <= 80 ? 'OK' : 'OVER'} | ${row.withSharedKb.toFixed(1)} |`,
  );
}
