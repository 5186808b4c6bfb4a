/**
 * A verifier written from docs/integrity.md §12–§13 alone: it imports nothing of src/, only Node's
 * crypto and a keccak256 (viem's; any Ethereum keccak256 would do). It reads the doc's example token
 * and key, checks the signature the way the doc says, compares the signed values with the record's
 * canonical values, and recomputes the record's and the key event's leaves.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { keccak256, stringToBytes } from 'viem';
import { describe, expect, it } from 'vitest';

const doc = readFileSync(path.resolve(import.meta.dirname, '../docs/integrity.md'), 'utf8');
const block = (name: string) =>
  new RegExp(`\`\`\`text example:${name}\\n([\\s\\S]*?)\\n\`\`\``).exec(doc)![1]!;
const leavesInDoc = [...doc.matchAll(/Leaf: `(0x[0-9a-f]{64})`/g)].map((match) => match[1]);

/** §2.1 for the plain decimals a JSON number prints: no exponent, no trailing zeros, no "+". */
const decimal = (value: number) => {
  const text = String(value);
  if (/e/i.test(text)) throw new Error('the example has no exponents');
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
};
/** §2.2: UTC, three fraction digits, Z. */
const instant = (text: string) => new Date(text).toISOString();

/** §13: the RFC 7638 thumbprint of an RSA key. */
function thumbprint(pem: string): string {
  const jwk = createPublicKey(pem).export({ format: 'jwk' }) as { e: string; n: string };
  return createHash('sha256').update(`{"e":"${jwk.e}","kty":"RSA","n":"${jwk.n}"}`).digest('base64url');
}

describe('a verifier from the documentation alone', () => {
  const pem = block('device-public-key');
  const [header, payload, signature] = block('device-token').split('\n') as [string, string, string];
  const token = `${header}.${payload}.${signature}`;
  const canonical = JSON.parse(block('v3-canonical')) as (string | null)[];

  it('checks the device signature: RS256 over header.payload with the key', () => {
    expect(/^[A-Za-z0-9_-]+$/.test(header + payload + signature)).toBe(true);
    expect(JSON.parse(Buffer.from(header, 'base64url').toString('utf8')).alg).toBe('RS256');
    const ok = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`, 'ascii'),
      createPublicKey(pem),
      Buffer.from(signature, 'base64url'),
    );
    expect(ok).toBe(true);
    // A token with one character changed does not verify.
    const other = verify(
      'sha256',
      Buffer.from(`${header}.${payload}x`, 'ascii'),
      createPublicKey(pem),
      Buffer.from(signature, 'base64url'),
    );
    expect(other).toBe(false);
  });

  it("checks that the signed values are the record's, in canonical form", () => {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const position = Number(canonical[16]);
    const signed = claims.sterilizations[position];
    expect(claims.iss).toBe(canonical[3]);
    expect(createHash('sha256').update(token, 'ascii').digest('hex')).toBe(canonical[15]);
    const numbers = [
      'progressive_id',
      'supplied_energy',
      'nominal_time',
      'effective_time',
      'residual_lamp_life',
      'status_code',
      'latitude',
      'longitude',
    ];
    const at = {
      progressive_id: 4,
      supplied_energy: 5,
      nominal_time: 6,
      effective_time: 7,
      residual_lamp_life: 8,
      status_code: 9,
      latitude: 10,
      longitude: 11,
      consumables_lot: 12,
      lot_progressive_id: 13,
      notes: 14,
      cycle_ts: 17,
    } as Record<string, number>;
    for (const field of numbers) expect(decimal(signed[field]), field).toBe(canonical[at[field]!]);
    expect(signed.consumables_lot).toBe(canonical[at.consumables_lot!]);
    expect(decimal(signed.lot_progressive_id)).toBe(canonical[at.lot_progressive_id!]);
    expect(signed.notes ?? null).toBe(canonical[at.notes!]);
    expect(instant(signed.cycle_ts)).toBe(canonical[at.cycle_ts!]);
  });

  it("recomputes the record's version 3 leaf and the key event's leaf", () => {
    expect(canonical[0]).toBe('uvtrace/sterilization/3');
    expect(leavesInDoc).toContain(keccak256(stringToBytes(JSON.stringify(canonical))));
    const keyEvent = JSON.parse(block('key-event-canonical')) as string[];
    expect(keyEvent[0]).toBe('uvtrace/device-key/1');
    expect(keyEvent[5]).toBe(thumbprint(pem));
    expect(leavesInDoc).toContain(keccak256(stringToBytes(JSON.stringify(keyEvent))));
  });
});
