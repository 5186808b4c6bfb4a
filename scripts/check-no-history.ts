/**
 * The product's text speaks of the product, not of how it came about: no numbered work sessions,
 * issues or rounds in any file the repository keeps (git keeps the past). Flags the words
 * session, issue and round followed by a number (also "issue #N" and "session-N"), in any case; the
 * words alone ("login session", "sessions") are fine.
 * Run by `npm run lint`; exits 1 and prints each offending file:line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Where the product's text lives, relative to the repository root: every folder and file git keeps. */
const ROOTS = [
  'README.md',
  'docs',
  'src',
  'scripts',
  'e2e',
  'openapi',
  'public',
  '.ci/run',
  'package.json',
  'index.html',
  'biome.json',
  'redocly.yaml',
  'tsconfig.json',
  'vite.config.ts',
  'vitest.config.ts',
  'playwright.config.ts',
  'drizzle.config.ts',
];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git']);
/** This check's own test, whose examples are what it flags. */
const SKIPPED_FILES = new Set(['scripts/check-no-history.test.ts']);
/** Text files only: images, archives and the like are not read. */
const TEXT = /\.(ts|tsx|mts|mjs|js|json|md|sql|yaml|yml|css|html|txt)$/;
const HISTORY = /\b(?:session|issue|round)s?(?:[ \t]*#[ \t]*|[ \t]+|-)\d+/gi;

export interface Finding {
  /** File relative to the repository root, with forward slashes. */
  file: string;
  /** 1-based line number. */
  line: number;
  /** What matched: the word and its number. */
  match: string;
}

/** Every numbered session, issue or round in a text. */
export function findHistory(file: string, text: string): Finding[] {
  const found: Finding[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(HISTORY)) found.push({ file, line: index + 1, match: match[0] });
  });
  return found;
}

function* textFiles(root: string, relative: string): Generator<string> {
  const full = path.join(root, relative);
  if (!statSync(full, { throwIfNoEntry: false })) return;
  if (statSync(full).isFile()) {
    yield relative;
    return;
  }
  for (const entry of readdirSync(full, { withFileTypes: true })) {
    const child = path.posix.join(relative, entry.name);
    if (SKIPPED_FOLDERS.has(entry.name) || SKIPPED_FILES.has(child)) continue;
    if (entry.isDirectory()) yield* textFiles(root, child);
    else if (TEXT.test(entry.name)) yield child;
  }
}

/** Every finding under the product's text roots of `root`. */
export function findHistoryIn(root: string): Finding[] {
  const found: Finding[] = [];
  for (const start of ROOTS) {
    for (const file of textFiles(root, start)) {
      found.push(...findHistory(file, readFileSync(path.join(root, file), 'utf8')));
    }
  }
  return found;
}

if (import.meta.main) {
  const root = path.join(import.meta.dirname, '..');
  const found = findHistoryIn(root);
  for (const { file, line, match } of found) console.error(`${file}:${line}: "${match}"`);
  if (found.length > 0) {
    console.error(
      `${found.length} mention(s) of numbered sessions, issues or rounds: speak of the product instead (scripts/check-no-history.ts)`,
    );
    process.exit(1);
  }
  console.log('no history in the product text');
}
