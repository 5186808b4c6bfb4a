/**
 * The catalogues stay complete: en and it carry the same ids, every shared validation id is there
 * with the English text of docs/product.md, and every literal message id used in src/client exists.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validationMessages } from '#shared/validation/index.ts';
import en from './en.json';
import itCatalogue from './it.json';

// vitest runs from the project root (jsdom gives import.meta.url an http: scheme).
const clientDir = resolve(process.cwd(), 'src/client');
const serverDir = resolve(process.cwd(), 'src/server');
/** Answers devices, not people: its messages are never shown in the app. */
const DEVICE_FACING = new Set([join('modules', 'sterilizations', 'ingestion.ts')]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.gen.ts') ? [path] : [];
  });
}

/*
 * Literal ids: formatMessage({ id: 'x' }), <FormattedMessage id="x" />, { id: 'x' } descriptors and
 * props named like labelId / messageId. Only dotted ids count (element ids such as "login-title" do not).
 */
const ID_PATTERN = /\b(?:id|[a-z][A-Za-z]*Id)\s*[:=]\s*\{?\s*(['"`])([a-z][\w-]*(?:\.[\w-]+)+)\1/g;

function usedIds(): Map<string, string> {
  const used = new Map<string, string>();
  for (const file of sourceFiles(clientDir)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(ID_PATTERN)) {
      const id = match[2];
      if (id && !used.has(id)) used.set(id, relative(clientDir, file));
    }
  }
  return used;
}

/*
 * Messages the server can answer with: ApiError's message, an envelope's `message: '…'`, the
 * framework-error table of plugins/errors.ts and every validation id it names.
 */
const SERVER_MESSAGE_PATTERNS = [
  /new ApiError\(\s*\d+,\s*'([a-z][\w.]*)'/g,
  /\bmessage: '([a-z][\w.]*)'/g,
  /^\s*\d{3}: '([a-z][\w.]*)',$/gm,
  /'(validation\.[\w.]+)'/g,
];

function serverMessages(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(serverDir)) {
    const name = relative(serverDir, file);
    if (DEVICE_FACING.has(name)) continue;
    const text = readFileSync(file, 'utf8');
    for (const pattern of SERVER_MESSAGE_PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const id = match[1];
        if (id && !found.has(id)) found.set(id, name);
      }
    }
  }
  return found;
}

const enIds = Object.keys(en as Record<string, string>);
const itIds = Object.keys(itCatalogue as Record<string, string>);

describe('i18n catalogues', () => {
  it('en and it have the same ids', () => {
    expect(enIds.filter((id) => !itIds.includes(id))).toEqual([]);
    expect(itIds.filter((id) => !enIds.includes(id))).toEqual([]);
  });

  it('have no empty messages', () => {
    for (const catalogue of [en, itCatalogue] as Array<Record<string, string>>) {
      expect(Object.entries(catalogue).filter(([, text]) => text.trim() === '')).toEqual([]);
    }
  });

  it('carry every shared validation id, in English with the product text', () => {
    const catalogue = en as Record<string, string>;
    for (const [id, text] of Object.entries(validationMessages)) {
      expect(catalogue[id], id).toBe(text);
      expect(itIds, id).toContain(id);
    }
  });

  it('carry every message id used in the client sources', () => {
    const used = usedIds();
    expect(used.size).toBeGreaterThan(10);
    const missing = [...used].filter(([id]) => !enIds.includes(id) || !itIds.includes(id));
    expect(missing.map(([id, file]) => `${id} (${file})`)).toEqual([]);
  });

  it('translate every message the server can answer the app with (as the id or errors.<id>)', () => {
    const messages = serverMessages();
    expect(messages.has('service_unavailable')).toBe(true);
    expect(messages.has('unsupported_media_type')).toBe(true);
    const translatable = (id: string) =>
      [id, `errors.${id}`].some((key) => enIds.includes(key) && itIds.includes(key));
    const missing = [...messages].filter(([id]) => !translatable(id));
    expect(missing.map(([id, file]) => `${id} (${file})`)).toEqual([]);
  });
});
