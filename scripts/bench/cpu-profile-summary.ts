/**
 * Sums a V8 CPU profile (`node --cpu-prof`, e.g. `npm run bench:load -- --cpu-profile DIR`) by where
 * the time was spent: the top functions by self time, and self time per package or source folder.
 *
 *   node scripts/bench/cpu-profile-summary.ts FILE.cpuprofile [--top 40]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '40' } },
});
const file = positionals[0];
if (!file) {
  console.error('usage: node scripts/bench/cpu-profile-summary.ts FILE.cpuprofile [--top 40]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));

/** Self time per node, in ms, from the samples and the time between them. */
const selfMs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
});

/** A package (node_modules/<name>), a project folder (src/server/db), node's own code, or V8. */
function place(url: string): string {
  if (!url) return '(V8: GC, idle, native)';
  if (url.startsWith('node:')) return 'node internals';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1] as string;
  const inProject = /\/(src\/[^/]+\/[^/]+|scripts\/[^/]+)/.exec(url);
  return inProject ? (inProject[1] as string).replace(/\.ts$/, '') : url;
}

const totalMs = (profile.endTime - profile.startTime) / 1000;
const functions = new Map<string, number>();
const places = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const frame = byId.get(id)?.callFrame;
  if (!frame) continue;
  const where = place(frame.url);
  const file = /\/((?:src|scripts)\/.*)$/.exec(frame.url)?.[1] ?? where;
  const name = `${frame.functionName || '(anonymous)'} ${file}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
  functions.set(name, (functions.get(name) ?? 0) + ms);
  places.set(where, (places.get(where) ?? 0) + ms);
}
const idle = functions.get('(idle) (V8: GC, idle, native)') ?? 0;
const busy = totalMs - idle;
const rows = (map: Map<string, number>, top: number) =>
  [...map]
    .filter(([name]) => !name.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => `| ${name} | ${ms.toFixed(0)} | ${((ms / busy) * 100).toFixed(1)} % |`)
    .join('\n');

console.log(`${file}: ${(totalMs / 1000).toFixed(1)} s profiled, busy ${(busy / 1000).toFixed(1)} s (${((busy / totalMs) * 100).toFixed(0)} %)

| where (self time) | ms | of busy |
|---|---|---|
${rows(places, 30)}

| function (self time) | ms | of busy |
|---|---|---|
${rows(functions, Number(values.top))}`);
