/**
 * Every field an audit entry can name reads in words in both languages (the audit view falls back to
 * the raw key otherwise): the keys are read from the server's own sources, where each change is
 * written as `field: { old: …, new: … }` or listed by an entity's audited-fields function.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '#client/i18n/en.json' with { type: 'json' };
import it_ from '#client/i18n/it.json' with { type: 'json' };

const SERVER = path.resolve(import.meta.dirname, '../../../server');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [file] : [];
  });
}

function auditedFieldNames(): Set<string> {
  const names = new Set<string>();
  for (const file of sources(SERVER)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^\s+([a-z][a-z0-9_]*): \{ old:/gm)) names.add(match[1]!);
    for (const fn of text.matchAll(/function \w*(?:AuditFields|settingsFields)\([\s\S]*?\n}\n/g)) {
      for (const match of fn[0].matchAll(/^ {4}([a-z][a-z0-9_]*): /gm)) names.add(match[1]!);
    }
  }
  return names;
}

describe('audit field names', () => {
  const names = auditedFieldNames();

  it('finds the fields the server audits', () => {
    for (const known of ['name', 'public_key_2', 'period_from', 'sha256', 'email_alert_kinds', 'lot_number'])
      expect(names).toContain(known);
  });

  it.each([
    ['en', en as Record<string, string>],
    ['it', it_ as Record<string, string>],
  ])('names each of them in %s', (_language, messages) => {
    const unnamed = [...names].filter(
      (name) => messages[`audit.field.${name}`] === undefined && messages[`fields.${name}`] === undefined,
    );
    expect(unnamed).toEqual([]);
  });
});
