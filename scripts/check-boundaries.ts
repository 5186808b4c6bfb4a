/**
 * The layout's import rules, enforced instead of remembered (docs/adr/0003-server-layout-and-boundaries.md):
 * - src/shared is isomorphic: it imports neither the server, nor the client, nor node: modules;
 * - the server never imports the client, the client never imports the server;
 * - a client feature does not import another feature (what two of them need lives in
 *   src/client/components|lib);
 * - a server module imports another module only through that module's public surface, its `index.ts`
 *   (`#server/modules/audit/index.ts` or `../audit/index.ts`), never one of its inner files.
 * Run by `npm run lint`; exits 1 and lists every import that breaks a rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface ImportEdge {
  /** Importing file, relative to the repository root with forward slashes. */
  from: string;
  /** The specifier as written. */
  specifier: string;
  /** The imported file or folder relative to the root (undefined for packages). */
  target: string | undefined;
}

/** The package's import aliases (package.json "imports"), e.g. `#server/*` → `./src/server/*`. */
const ALIASES: [prefix: string, folder: string][] = Object.entries(
  JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8')).imports ?? {},
).map(([pattern, target]) => [
  pattern.replace(/\*$/, ''),
  String(target).replace(/^\.\//, '').replace(/\*$/, ''),
]);

/** The file or folder a specifier names, relative to the root; undefined for a package. */
function targetOf(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) {
    return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  }
  const alias = ALIASES.find(([prefix]) => specifier.startsWith(prefix));
  return alias ? alias[1] + specifier.slice(alias[0].length) : undefined;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const GENERATED = new Set(['src/shared/api/schema.ts', 'src/client/routeTree.gen.ts']);

/** Every import and re-export of a source text, static and dynamic. */
export function importsOf(file: string, text: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2];
    if (!specifier) continue;
    edges.push({ from: file, specifier, target: targetOf(file, specifier) });
  }
  return edges;
}

/** `src/client/features/<name>` or `src/server/modules/<name>` a path lies in, if any. */
function sliceOf(file: string): string | undefined {
  const match = /^src\/(client\/features|server\/modules)\/([^/]+)\//.exec(`${file}/`);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

const layerOf = (file: string) => /^src\/(shared|server|client)\//.exec(`${file}/`)?.[1];

/** Why an import breaks a rule, or undefined when it is allowed. */
export function violation(edge: ImportEdge): string | undefined {
  const fromLayer = layerOf(edge.from);
  // Tests of shared code run in Node only, so they may read fixtures from disk.
  const isTest = /\.test\.tsx?$/.test(edge.from);
  if (fromLayer === 'shared' && !isTest && edge.specifier.startsWith('node:')) {
    return 'src/shared runs in the browser too: no node: imports';
  }
  if (edge.target === undefined) return undefined;
  const toLayer = layerOf(edge.target);
  if (fromLayer && toLayer && fromLayer !== toLayer && toLayer !== 'shared') {
    return `src/${fromLayer} may not import src/${toLayer}`;
  }
  const fromSlice = sliceOf(edge.from);
  const toSlice = sliceOf(edge.target);
  if (fromSlice && toSlice && fromSlice !== toSlice) {
    if (toSlice.startsWith('client/')) {
      return `${fromSlice} may not import ${toSlice}: move what both need to a shared home`;
    }
    if (edge.target !== `src/${toSlice}/index.ts`) {
      return `${fromSlice} may import ${toSlice} only through its public surface, src/${toSlice}/index.ts: export what is needed there and import that`;
    }
  }
  return undefined;
}

function* sourceFiles(directory: string): Generator<string> {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.posix.join(directory, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !GENERATED.has(full)) yield full;
  }
}

/** Every import under src/ that breaks a rule, as "file: specifier — why". */
export function findViolations(root: string): string[] {
  const found: string[] = [];
  for (const file of sourceFiles('src')) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const edge of importsOf(file, text)) {
      const why = violation(edge);
      if (why) found.push(`${edge.from}: '${edge.specifier}' — ${why}`);
    }
  }
  return found;
}

if (import.meta.main) {
  const root = path.join(import.meta.dirname, '..');
  process.chdir(root);
  const found = findViolations(root);
  for (const line of found) console.error(line);
  if (found.length > 0) {
    console.error(`${found.length} import(s) break the layout's boundaries (scripts/check-boundaries.ts)`);
    process.exit(1);
  }
  console.log('import boundaries hold');
}
