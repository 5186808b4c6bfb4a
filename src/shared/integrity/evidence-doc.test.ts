/**
 * docs/integrity.md §12 and §13's worked examples, checked against the code: the example token verifies
 * with the example key, its hash and the record's version 3 leaf are the code's, and so is the key
 * event's leaf and the key's thumbprint.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compactVerify, importSPKI } from 'jose';
import { describe, expect, it } from 'vitest';
import { keyThumbprint } from './device-key.ts';
import { canonicalText, keyEventLeafHash, keyEventLeafText, leafFields, leafHash } from './index.ts';

const doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/integrity.md'), 'utf8');
/** The body of the doc's code block marked `example:<name>`. */
const example = (name: string) => {
  const found = new RegExp(`\`\`\`text example:${name}\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
  if (!found) throw new Error(`no example ${name} in docs/integrity.md`);
  return found[1]!;
};
const backticked = (label: string) => {
  const found = new RegExp(`${label}:? \`([^\`]+)\``).exec(doc);
  if (!found) throw new Error(`no ${label} in docs/integrity.md`);
  return found[1]!;
};

describe('docs/integrity.md: what the device signed, key history', () => {
  const publicKey = example('device-public-key');
  const token = example('device-token').split('\n').join('.');
  const canonical = JSON.parse(example('v3-canonical')) as (string | null)[];

  it("the example token verifies with the example key, and its hash is the leaf's", async () => {
    await compactVerify(token, await importSPKI(publicKey, 'RS256'));
    const sha = createHash('sha256').update(token, 'ascii').digest('hex');
    expect(doc).toContain(`Its SHA-256: \`${sha}\``);
    expect(canonical[15]).toBe(sha);
  });

  it("the record's version 3 canonical text and leaf are the code's", () => {
    const [, ...values] = canonical;
    const fields = leafFields(3);
    const record = Object.fromEntries(fields.map((field, i) => [field, values[i] ?? null]));
    expect(canonicalText(record as never, 3)).toBe(example('v3-canonical'));
    expect(leafHash(record as never, 3)).toBe(backticked('Leaf').toLowerCase());
  });

  it("the key event's leaf and the key's thumbprint are the code's", async () => {
    const [, id, serial, slot, action, thumbprint, effectiveAt] = JSON.parse(
      example('key-event-canonical'),
    ) as string[];
    expect(await keyThumbprint(publicKey)).toBe(thumbprint);
    const event = {
      id: id!,
      device_serial: serial!,
      slot: slot!,
      action: action!,
      thumbprint: thumbprint!,
      effective_at: effectiveAt!,
    };
    expect(keyEventLeafText(event)).toBe(example('key-event-canonical'));
    const leaves = [...doc.matchAll(/Leaf: `(0x[0-9a-f]{64})`/g)].map((match) => match[1]);
    expect(leaves).toContain(keyEventLeafHash(event));
  });
});
