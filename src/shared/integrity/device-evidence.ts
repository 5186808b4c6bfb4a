/**
 * The links of a record's evidence from the device's key to the chain (docs/integrity.md §14), as a
 * `uvtrace-proof-receipt/2` carries them, each checked on its own with pass, fail or unavailable and the
 * reason: (1) the device's JWS verifies with the key; (2) the values it signed are the record's; (3) the
 * key was in force when the record arrived and its key event is anchored no later than the record; (4)
 * the record is in the anchored root of a mined transaction. Runs in the browser (WebCrypto through
 * jose) and in Node alike. Not re-exported from ./index.ts: it pulls jose and viem's RPC client.
 */
import { compactVerify, decodeProtectedHeader, importSPKI } from 'jose';
import type { Hex } from 'viem';
import { canonicalValue, type LeafField } from './canonical.ts';
import { keyThumbprint } from './device-key.ts';
import { keyEventLeafHash } from './key-event-leaf.ts';
import { processProof } from './merkle.ts';
import type { ReceiptCheck } from './receipt.ts';

/** The key event whose key verified the token, as the receipt carries it. */
export type ReceiptKeyEvent = {
  event_id: number;
  device_serial: string;
  slot: number;
  action: string;
  public_key: string;
  thumbprint: string;
  effective_at: string;
};

/** Where the key event is anchored: its leaf's proof and the block's root and transaction. */
export type ReceiptKeyAnchor = {
  proof: string[];
  root: string | null;
  block_id: number;
  transaction_hash: string | null;
};

/** What a receipt of format 2 adds: the device's token exactly as stored, and the key that verified it. */
export type DeviceEvidence = {
  jws: string;
  position: number;
  key: ReceiptKeyEvent;
  key_anchor: ReceiptKeyAnchor | null;
};

export type LinkName = 'device_signature' | 'signed_values' | 'key_in_force' | 'anchored';
export const LINK_NAMES: readonly LinkName[] = [
  'device_signature',
  'signed_values',
  'key_in_force',
  'anchored',
];

/**
 * One link. `reason` names why it passed, failed or is unavailable (a message id suffix the page
 * translates; the command line prints `detail`), `values` the facts behind it.
 */
export type LinkResult = {
  link: LinkName;
  status: 'pass' | 'fail' | 'unavailable';
  reason: string;
  detail: string;
  values: Record<string, string>;
};

/** The fields a device signs for each record, by their leaf names. */
export const SIGNED_FIELDS = [
  'progressive_id',
  'supplied_energy',
  'nominal_time',
  'effective_time',
  'residual_lamp_life',
  'status_code',
  'latitude',
  'longitude',
  'consumables_lot',
  'lot_progressive_id',
  'notes',
  'cycle_ts',
] as const satisfies readonly LeafField[];

const result = (
  link: LinkName,
  status: LinkResult['status'],
  reason: string,
  detail: string,
  values: Record<string, string> = {},
): LinkResult => ({ link, status, reason, detail, values });

/** SHA-256 of the JWS's ASCII bytes, lowercase hex (Web Crypto: the browser and Node alike). */
async function jwsSha256(jws: string): Promise<string> {
  const bytes = new TextEncoder().encode(jws);
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The JWS's payload as JSON, without checking its signature (the signature link does that). */
function payloadOf(jws: string): Record<string, unknown> | null {
  const [, payload] = jws.split('.');
  if (payload === undefined || !/^[A-Za-z0-9_-]*$/.test(payload)) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(binary, (char) => char.charCodeAt(0)),
    );
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** (1) The JWS is a compact RS256 JWS that verifies with the key of the receipt's key event. */
export async function signatureLink(evidence: DeviceEvidence): Promise<LinkResult> {
  const link: LinkName = 'device_signature';
  try {
    if (decodeProtectedHeader(evidence.jws).alg !== 'RS256')
      return result(link, 'fail', 'algorithm', 'the token is not signed with RS256');
    const key = await importSPKI(evidence.key.public_key, 'RS256');
    await compactVerify(evidence.jws, key, { algorithms: ['RS256'] });
    return result(link, 'pass', 'verified', `the token verifies with key ${evidence.key.thumbprint}`, {
      thumbprint: evidence.key.thumbprint,
    });
  } catch (error) {
    return result(link, 'fail', 'invalid', `the token does not verify with the key: ${String(error)}`, {
      thumbprint: String(evidence.key?.thumbprint),
    });
  }
}

/**
 * (2) What the device signed is the record: the token's hash and the record's position in it are the
 * leaf's, its issuer is the record's device, and each signed value equals the record's in canonical form.
 */
export async function signedValuesLink(
  evidence: DeviceEvidence,
  record: Partial<Record<LeafField, string | null>>,
): Promise<LinkResult> {
  const link: LinkName = 'signed_values';
  const hash = await jwsSha256(evidence.jws);
  if (hash !== record.token_sha256)
    return result(
      link,
      'fail',
      'token_hash',
      `the token hashes to ${hash}, the record says ${record.token_sha256}`,
      {
        field: 'token_sha256',
      },
    );
  if (String(evidence.position) !== record.token_position)
    return result(
      link,
      'fail',
      'field',
      `the record's position is ${record.token_position}, the receipt's ${evidence.position}`,
      {
        field: 'token_position',
      },
    );
  const claims = payloadOf(evidence.jws);
  if (!claims) return result(link, 'fail', 'payload', 'the token carries no JSON payload');
  if (claims.iss !== record.device_serial)
    return result(
      link,
      'fail',
      'field',
      `signed by ${String(claims.iss)}, the record's device is ${record.device_serial}`,
      {
        field: 'device_serial',
      },
    );
  const records = Array.isArray(claims.sterilizations)
    ? claims.sterilizations
    : claims.sterilization !== undefined
      ? [claims.sterilization]
      : [];
  const signed = records[evidence.position] as Record<string, unknown> | undefined;
  if (typeof signed !== 'object' || signed === null)
    return result(link, 'fail', 'position', `the token has no record at position ${evidence.position}`);
  const differing = SIGNED_FIELDS.filter((field) => {
    const value = signed[field];
    // A device's object where text was expected is stored as no value (docs/product.md §3).
    const sent =
      typeof value === 'object' && value !== null ? null : (value as string | number | null | undefined);
    return canonicalValue(field, sent, 3) !== (record[field] ?? null);
  });
  if (differing.length > 0)
    return result(
      link,
      'fail',
      'field',
      `the record differs from what the device signed: ${differing.join(', ')}`,
      {
        field: differing.join(', '),
      },
    );
  return result(link, 'pass', 'equal', `the record's ${SIGNED_FIELDS.length} signed values are the device's`);
}

/**
 * (3) The key that verified the token was the device's, in force when the record arrived, and its key
 * event is in an anchored block no later than the record's. `anchorRoot` reads the key event's block
 * root from the chain (null: no node answered).
 */
export async function keyLink(
  evidence: DeviceEvidence,
  record: Partial<Record<LeafField, string | null>>,
  recordBlockId: number | null,
  anchoredKeyRoot: (anchor: ReceiptKeyAnchor) => Promise<ReceiptCheck[]>,
): Promise<LinkResult> {
  const link: LinkName = 'key_in_force';
  const key = evidence.key;
  let thumbprint: string;
  try {
    thumbprint = await keyThumbprint(key.public_key);
  } catch {
    return result(link, 'fail', 'key', 'the key is not an RSA public key');
  }
  if (thumbprint !== key.thumbprint)
    return result(
      link,
      'fail',
      'thumbprint',
      `the key's thumbprint is ${thumbprint}, the key event says ${key.thumbprint}`,
    );
  if (key.device_serial !== record.device_serial)
    return result(
      link,
      'fail',
      'other_device',
      `the key event is device ${key.device_serial}'s, the record ${record.device_serial}'s`,
    );
  if (key.action !== 'registered' && key.action !== 'replaced')
    return result(
      link,
      'fail',
      'not_in_force',
      `the key event ${key.action} the key: it put no key in force`,
    );
  const from = Date.parse(key.effective_at);
  const arrived = Date.parse(String(record.received_ts));
  if (!(from <= arrived))
    return result(
      link,
      'fail',
      'not_in_force',
      `the key came into force at ${key.effective_at}, after the record arrived`,
      {
        since: key.effective_at,
      },
    );
  const anchor = evidence.key_anchor;
  if (!anchor) return result(link, 'fail', 'not_anchored', 'the key event is not anchored');
  let folded: Hex;
  try {
    folded = processProof(keyEventLeafHash({ ...key, id: key.event_id }), anchor.proof as Hex[]);
  } catch {
    return result(link, 'fail', 'proof', "the key event's proof is not a list of 32-byte values");
  }
  if (anchor.root === null || folded.toLowerCase() !== anchor.root.toLowerCase())
    return result(link, 'fail', 'proof', `the key event and its proof fold to ${folded}, not ${anchor.root}`);
  if (recordBlockId !== null && anchor.block_id > recordBlockId)
    return result(
      link,
      'fail',
      'anchored_later',
      `the key event is anchored in block ${anchor.block_id}, after the record's ${recordBlockId}`,
    );
  const chain = await anchoredKeyRoot(anchor);
  const failed = chain.find((check) => !check.ok);
  if (failed)
    return result(link, 'fail', 'chain', `the key event's anchor does not hold: ${failed.detail}`, {
      check: failed.name,
    });
  return result(
    link,
    'pass',
    'in_force',
    `key ${key.thumbprint} in force since ${key.effective_at}, anchored in block ${anchor.block_id}`,
    {
      since: key.effective_at,
      block: String(anchor.block_id),
    },
  );
}

/** (4) From the record checks (leaf, root) and the chain checks of its own anchor. */
export function anchoredLink(checks: ReceiptCheck[]): LinkResult {
  const failed = checks.find((check) => !check.ok);
  return failed
    ? result('anchored', 'fail', 'check', `${failed.name}: ${failed.detail}`, { check: failed.name })
    : result('anchored', 'pass', 'mined', 'the record is in the anchored root of a mined transaction');
}

/** (3) and (4) for a record of a customer without blockchain: nothing of ours to check them against. */
export function unavailableLinks(): LinkResult[] {
  return (['key_in_force', 'anchored'] as const).map((link) =>
    result(link, 'unavailable', 'no_blockchain', "the record's customer does not anchor records on a chain"),
  );
}
