/**
 * The integrity sweep's checks (docs/backups.md, "The integrity sweep"): everything stored that an
 * auditor relies on is recomputed from the stored data and compared, in phases that each walk one table
 * by id, so the work can be done in slices and resumed from any id:
 *
 *   blocks    each block's leaves from its records (by the block's hashing_version, with the shared
 *             functions of src/shared/integrity) and report versions, its Merkle root, each member's
 *             stored proof to that root, and a MINED or FINAL block's root against its anchor transaction
 *   evidence  each record that arrived in a device token: its stored values equal the values the device
 *             signed (canonical forms of docs/integrity.md §2)
 *   tokens    each token's SHA-256, and its RS256 signature under the key of its key event
 *   reports   each signed report version's SHA-256 against its stored PDF
 *   audit     the audit trail's hash chain (src/server/modules/audit/verify.ts)
 *
 * A slice never changes anything; it answers what it checked and every mismatch it found.
 */
import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { bytesToHex, decodeFunctionData, type Hex } from 'viem';
import type { Db } from '#server/db/client.ts';
import { GENESIS_HASH, verifyAuditChain } from '#server/modules/audit/index.ts';
import { recordsOf } from '#shared/ingestion/claims.ts';
import {
  canonicalDecimal,
  canonicalTimestamp,
  createSlicer,
  isHashingVersion,
  type KeyEventFields,
  keyEventLeafBytes,
  leafBytes,
  mapSliced,
  merkleLevelsAsync,
  processProof,
  reportLeafBytes,
  type Slicer,
} from '#shared/integrity/index.ts';
import { integrityRecord, KEY_EVENT_FIELDS_SQL, RECORD_FIELDS_SQL } from '../anchor-worker.ts';
import { ANCHOR_ABI } from '../artifact.ts';
import type { Chain } from '../chain.ts';

export const SWEEP_PHASES = ['blocks', 'evidence', 'tokens', 'reports', 'audit'] as const;
export type SweepPhase = (typeof SWEEP_PHASES)[number];

/** Where a sweep stands: the phase, the last id it checked there, and the audit chain's hash at that id. */
export interface SweepPosition {
  phase: SweepPhase;
  cursor: number;
  auditHash: string | null;
}

export const START_POSITION: SweepPosition = { phase: 'blocks', cursor: 0, auditHash: null };

export interface SweepCounts {
  /** Records recomputed as leaves of their block. */
  records: number;
  blocks: number;
  /** MINED and FINAL blocks whose root was compared with their anchor transaction. */
  blocksOnChain: number;
  /** MINED and FINAL blocks not compared with the chain (no chain to ask, or another network's). */
  blocksNotOnChain: number;
  /** Records compared with the values their device signed. */
  signedRecords: number;
  tokens: number;
  reportVersions: number;
  auditEntries: number;
}

export const NO_COUNTS: SweepCounts = {
  records: 0,
  blocks: 0,
  blocksOnChain: 0,
  blocksNotOnChain: 0,
  signedRecords: 0,
  tokens: 0,
  reportVersions: 0,
  auditEntries: 0,
};

export function addCounts(a: SweepCounts, b: Partial<SweepCounts>): SweepCounts {
  const sum = { ...a };
  for (const key of Object.keys(NO_COUNTS) as (keyof SweepCounts)[]) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  return sum;
}

export type MismatchSubject = 'record' | 'block' | 'token' | 'report_version' | 'key_event' | 'audit_entry';

export interface Mismatch {
  subject: MismatchSubject;
  subjectId: number;
  /** What failed: leaf, root, proof, hashing_version, chain, signed_value, signature, sha256, key_event, pdf, audit_chain. */
  check: string;
  /** The record's field (or the token's part) that differs, when the check can tell. */
  field?: string;
  recordId?: number;
  blockId?: number;
  tokenId?: number;
  message: string;
}

/** The condition a mismatch raises its alert under (one per subject and check). */
export function mismatchKey(mismatch: Mismatch): string {
  return `integrity_mismatch:${mismatch.subject}:${mismatch.subjectId}:${mismatch.check}`;
}

export interface SliceResult {
  counts: Partial<SweepCounts>;
  mismatches: Mismatch[];
  /** Where the next slice starts; the phase after the last is null (the pass is over). */
  next: SweepPosition | null;
}

export interface SweepContext {
  db: Db;
  /** The chain MINED blocks are compared with; null = those checks are skipped (counted as not on chain). */
  chain: Chain | null;
  /** Lets the event loop run during long computations (the server's background sweep). */
  slicer?: Slicer;
}

const short = (hex: string | null | undefined) => (hex ? `${hex.slice(0, 10)}…` : 'none');

/** The context's slicer, or one of long slices: a sweep run alone has no requests to let through. */
const sliceTimer = (context: SweepContext): Slicer => context.slicer ?? createSlicer(50);

function nextPhase(phase: SweepPhase): SweepPosition | null {
  const following = SWEEP_PHASES[SWEEP_PHASES.indexOf(phase) + 1];
  return following ? { phase: following, cursor: 0, auditHash: null } : null;
}

/** One slice of the phase at `position`, about `size` records' worth of work. */
export function sweepSlice(
  context: SweepContext,
  position: SweepPosition,
  size: number,
): Promise<SliceResult> {
  const limit = Math.max(1, size);
  switch (position.phase) {
    case 'blocks':
      return blocksSlice(context, position, limit);
    case 'evidence':
      return evidenceSlice(context, position, limit);
    case 'tokens':
      return tokensSlice(context, position, limit);
    case 'reports':
      return reportsSlice(context, position, Math.max(1, Math.floor(limit / 100)));
    case 'audit':
      return auditSlice(context, position, limit);
  }
}

// ---- blocks ------------------------------------------------------------------------------------------

type BlockRow = {
  id: number;
  status: string;
  network: string;
  merkle_root: Hex;
  transaction_hash: Hex | null;
  hashing_version: number;
};

type MemberRecord = Parameters<typeof integrityRecord>[0] & {
  record_hashing_version: number | null;
  merkle_proof: Hex[] | null;
};

type MemberReport = {
  id: number;
  report_id: number;
  version: number;
  sha256: string;
  merkle_proof: Hex[] | null;
};

type MemberKeyEvent = KeyEventFields & { id: number; merkle_proof: Hex[] | null };

async function blocksSlice(
  context: SweepContext,
  position: SweepPosition,
  limit: number,
): Promise<SliceResult> {
  const { db } = context;
  // A block gets its root once all of its members are written (docs/adr/0012-anchoring-on-chain.md), so
  // a block with a root is complete; a FAILED block's records have gone back to waiting.
  const blocks = await db.execute<BlockRow>(sql`
    select id, status, network, merkle_root, transaction_hash, hashing_version from blockchain_data_blocks
    where id > ${position.cursor} and merkle_root is not null and status <> 'FAILED'
    order by id limit 100`);
  const counts: Partial<SweepCounts> = { records: 0, blocks: 0, blocksOnChain: 0, blocksNotOnChain: 0 };
  const mismatches: Mismatch[] = [];
  let cursor = position.cursor;
  let done = 0;
  let checkedAll = true;
  for (const [i, block] of blocks.rows.entries()) {
    const checked = await checkBlock(context, block, mismatches);
    counts.records! += checked.records;
    counts.blocks! += 1;
    if (checked.onChain === true) counts.blocksOnChain! += 1;
    if (checked.onChain === false) counts.blocksNotOnChain! += 1;
    cursor = block.id;
    // A block is checked whole, however large: the slice ends after the block that fills it.
    done += checked.records + checked.reports + 1;
    if (done >= limit) {
      checkedAll = i === blocks.rows.length - 1;
      break;
    }
  }
  const finished = checkedAll && blocks.rows.length < 100;
  return {
    counts,
    mismatches,
    next: finished ? nextPhase('blocks') : { phase: 'blocks', cursor, auditHash: null },
  };
}

async function checkBlock(
  context: SweepContext,
  block: BlockRow,
  mismatches: Mismatch[],
): Promise<{ records: number; reports: number; onChain: boolean | null }> {
  const { db } = context;
  const slicer = sliceTimer(context);
  const records = (
    await db.execute<MemberRecord>(sql`
      select ${RECORD_FIELDS_SQL}, s.hashing_version as record_hashing_version, s.merkle_proof
      from sterilizations s join devices d on d.id = s.device_id
      where s.blockchain_data_block_id = ${block.id}
      order by s.id`)
  ).rows;
  const reports = (
    await db.execute<MemberReport>(sql`
      select id, report_id, version, sha256, merkle_proof from report_versions
      where blockchain_data_block_id = ${block.id} order by id`)
  ).rows;
  const keyEvents = (
    await db.execute<MemberKeyEvent>(sql`
      select ${KEY_EVENT_FIELDS_SQL}, merkle_proof from device_key_events
      where blockchain_data_block_id = ${block.id} order by id`)
  ).rows;
  const blockId = block.id;
  const others = reports.length + keyEvents.length;
  const members = records.length + others;
  // MINED and FINAL blocks claim their root is on chain: both are compared with it.
  const onChain =
    block.status === 'MINED' || block.status === 'FINAL'
      ? await checkAnchor(context, block, mismatches)
      : null;
  if (members === 0) return { records: 0, reports: 0, onChain };
  const version = block.hashing_version;
  if (!isHashingVersion(version)) {
    mismatches.push({
      subject: 'block',
      subjectId: blockId,
      blockId,
      check: 'hashing_version',
      field: 'hashing_version',
      message: `block ${blockId}: hashing_version ${version} is not one this code can recompute`,
    });
    return { records: records.length, reports: others, onChain };
  }
  // Leaves in the block's order: its records, then its report versions, then its key events, each by id
  // (docs/integrity.md §4, §10, §13).
  const leaves = [
    ...(await mapSliced(records, (record) => leafBytes(integrityRecord(record), version), slicer)),
    ...reports.map((report) =>
      reportLeafBytes(String(report.report_id), String(report.version), report.sha256),
    ),
    ...keyEvents.map((event) => keyEventLeafBytes(event)),
  ];
  const proofs = [...records, ...reports, ...keyEvents].map((member) => member.merkle_proof);
  const rebuilt = (await merkleLevelsAsync(leaves, slicer)).root;
  const stored = block.merkle_root.toLowerCase();
  const folded = await mapSliced(
    leaves,
    (leaf, i) => {
      const proof = proofs[i];
      return proof ? processProof(bytesToHex(leaf), proof).toLowerCase() : null;
    },
    slicer,
  );
  // Every member's proof leads to the root its members make, not to the stored one: the stored root is
  // what changed, and the block alone is named.
  const onlyRootChanged = rebuilt !== stored && folded.every((root) => root === rebuilt);
  if (rebuilt !== stored) {
    mismatches.push({
      subject: 'block',
      subjectId: blockId,
      blockId,
      check: 'root',
      field: onlyRootChanged ? 'merkle_root' : undefined,
      message: onlyRootChanged
        ? `block ${blockId}: its stored merkle_root ${short(stored)} differs from the root its ${members} members and their proofs make (${short(rebuilt)})`
        : `block ${blockId}: the root its ${members} members make now (${short(rebuilt)}) differs from its stored merkle_root ${short(stored)}`,
    });
  }
  records.forEach((record, i) => {
    const recordId = Number(record.id);
    if (record.record_hashing_version !== null && record.record_hashing_version !== version) {
      mismatches.push({
        subject: 'record',
        subjectId: recordId,
        recordId,
        blockId,
        check: 'hashing_version',
        field: 'hashing_version',
        message: `record ${recordId} (block ${blockId}): hashing_version ${record.record_hashing_version}, its block's is ${version}`,
      });
    }
    if (onlyRootChanged) return;
    if (folded[i] === null) {
      mismatches.push({
        subject: 'record',
        subjectId: recordId,
        recordId,
        blockId,
        check: 'proof',
        field: 'merkle_proof',
        message: `record ${recordId} (block ${blockId}): it has no stored Merkle proof`,
      });
    } else if (folded[i] !== stored) {
      mismatches.push({
        subject: 'record',
        subjectId: recordId,
        recordId,
        blockId,
        check: 'leaf',
        message: `record ${recordId} (block ${blockId}): its leaf and stored proof do not lead to the block's root (a value or the proof was changed after the block was made)`,
      });
    }
  });
  reports.forEach((report, i) => {
    if (onlyRootChanged || folded[records.length + i] === stored) return;
    mismatches.push({
      subject: 'report_version',
      subjectId: report.id,
      blockId,
      check: 'leaf',
      message: `report ${report.report_id} version ${report.version} (block ${blockId}): its leaf and stored proof do not lead to the block's root`,
    });
  });
  keyEvents.forEach((event, i) => {
    if (onlyRootChanged || folded[records.length + reports.length + i] === stored) return;
    mismatches.push({
      subject: 'key_event',
      subjectId: event.id,
      blockId,
      check: 'leaf',
      message: `key event ${event.id} of device ${event.device_serial} (block ${blockId}): its leaf and stored proof do not lead to the block's root`,
    });
  });
  return { records: records.length, reports: others, onChain };
}

/**
 * A MINED (or FINAL) block's anchor transaction, read from the chain and decoded as docs/integrity.md §6 says:
 * sent to the contract, successful, `anchor(blockId, root)` with this block's id and stored root.
 * Answers whether it was compared (false: no chain, or the block is another network's).
 */
async function checkAnchor(context: SweepContext, block: BlockRow, mismatches: Mismatch[]): Promise<boolean> {
  const { chain } = context;
  if (!chain || chain.network !== block.network) return false;
  const fail = (message: string) =>
    mismatches.push({ subject: 'block', subjectId: block.id, blockId: block.id, check: 'chain', message });
  const hash = block.transaction_hash;
  if (!hash) {
    fail(`block ${block.id}: ${block.status} without a transaction hash`);
    return true;
  }
  const transaction = (await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })) as {
    to: string | null;
    input: Hex;
  } | null;
  if (!transaction) {
    fail(`block ${block.id}: its transaction ${short(hash)} is not on ${chain.network}`);
    return true;
  }
  if (transaction.to?.toLowerCase() !== chain.contractAddress.toLowerCase()) {
    fail(`block ${block.id}: its transaction ${short(hash)} is not sent to the anchor contract`);
    return true;
  }
  const receipt = await chain.receipt(hash);
  if (receipt?.status !== 'success') {
    fail(`block ${block.id}: its transaction ${short(hash)} is ${receipt ? 'reverted' : 'not mined'}`);
    return true;
  }
  let args: readonly unknown[] = [];
  try {
    const decoded = decodeFunctionData({ abi: ANCHOR_ABI, data: transaction.input });
    if (decoded.functionName === 'anchor') args = decoded.args ?? [];
  } catch {
    // Not a call of anchor(uint256,bytes32): reported below.
  }
  const [anchoredId, anchoredRoot] = args as [bigint | undefined, Hex | undefined];
  if (anchoredId === undefined || anchoredRoot === undefined) {
    fail(`block ${block.id}: its transaction ${short(hash)} is not a call of anchor(uint256,bytes32)`);
  } else if (anchoredId !== BigInt(block.id)) {
    fail(`block ${block.id}: its transaction ${short(hash)} anchors block ${anchoredId}`);
  } else if (anchoredRoot.toLowerCase() !== block.merkle_root.toLowerCase()) {
    fail(
      `block ${block.id}: the chain holds root ${short(anchoredRoot)} for it, the database ${short(block.merkle_root)}`,
    );
  }
  return true;
}

// ---- evidence ----------------------------------------------------------------------------------------

/** How each signed value is stored: a record column and its kind (a decimal with the column's scale). */
const SIGNED_FIELDS = [
  { field: 'progressive_id', kind: 'number' },
  { field: 'supplied_energy', kind: 'number', scale: 2 },
  { field: 'nominal_time', kind: 'number', scale: 2 },
  { field: 'effective_time', kind: 'number', scale: 2 },
  { field: 'residual_lamp_life', kind: 'number', scale: 2 },
  { field: 'status_code', kind: 'number' },
  { field: 'latitude', kind: 'number', scale: 6 },
  { field: 'longitude', kind: 'number', scale: 6 },
  { field: 'consumables_lot', kind: 'text' },
  { field: 'lot_progressive_id', kind: 'number' },
  { field: 'notes', kind: 'text' },
  { field: 'cycle_ts', kind: 'instant' },
] as const;
type SignedField = (typeof SIGNED_FIELDS)[number]['field'];

/**
 * A canonical decimal (docs/integrity.md §2.1) rounded to `scale` fraction digits, half away from zero:
 * what a numeric(p, scale) column keeps of the number the device signed.
 */
export function roundedToScale(canonical: string, scale: number): string {
  const negative = canonical.startsWith('-');
  const [integer = '0', fraction = ''] = (negative ? canonical.slice(1) : canonical).split('.');
  if (fraction.length <= scale) return canonical;
  let digits = BigInt(integer + fraction.slice(0, scale));
  if (fraction.charCodeAt(scale) - 48 >= 5) digits += 1n;
  const text = digits.toString().padStart(scale + 1, '0');
  const value = scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
  return canonicalDecimal(negative ? `-${value}` : value) ?? value;
}

/** A value in the one form both sides are compared in (docs/integrity.md §2). */
function canonicalSigned(spec: (typeof SIGNED_FIELDS)[number], value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (spec.kind === 'instant') {
    return value instanceof Date || typeof value === 'string'
      ? (canonicalTimestamp(value) ?? String(value))
      : String(value);
  }
  if (spec.kind === 'text') return String(value);
  const decimal =
    typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint'
      ? canonicalDecimal(value)
      : undefined;
  if (decimal === undefined) return String(value);
  return 'scale' in spec ? roundedToScale(decimal, spec.scale) : decimal;
}

type SignedRecordRow = { [K in SignedField]: unknown } & {
  id: string;
  device_id: number;
  token_id: string;
  token_position: number | null;
  token_device_id: number;
  jws: string;
};

/** The records a token's payload carries, as ingestion read them (an object as notes is no note). */
function signedRecords(jws: string): unknown[] | null {
  try {
    const payload = JSON.parse(Buffer.from(jws.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const records = recordsOf(payload);
    if (!Array.isArray(records)) return null;
    return records.map((record) =>
      typeof record === 'object' &&
      record !== null &&
      typeof (record as { notes?: unknown }).notes === 'object'
        ? { ...record, notes: null }
        : record,
    );
  } catch {
    return null;
  }
}

async function evidenceSlice(
  context: SweepContext,
  position: SweepPosition,
  limit: number,
): Promise<SliceResult> {
  const { db } = context;
  // By id range, not by a count of matching rows: records without a token (older ones) are skipped
  // without a scan running ahead of the slice.
  const upTo = position.cursor + limit;
  const rows = (
    await db.execute<SignedRecordRow>(sql`
      select s.id, s.device_id, s.token_id, s.token_position, s.progressive_id, s.supplied_energy,
        s.nominal_time, s.effective_time, s.residual_lamp_life, s.status_code, s.latitude, s.longitude,
        s.consumables_lot, s.lot_progressive_id, s.notes, s.cycle_ts,
        t.device_id as token_device_id, t.jws
      from sterilizations s join device_tokens t on t.id = s.token_id
      where s.id > ${position.cursor} and s.id <= ${upTo}
      order by s.id`)
  ).rows;
  const mismatches: Mismatch[] = [];
  const decoded = new Map<string, unknown[] | null>();
  const slicer = sliceTimer(context);
  for (const [i, row] of rows.entries()) {
    if ((i & 63) === 63 && slicer.due()) await slicer.pause();
    const recordId = Number(row.id);
    const tokenId = Number(row.token_id);
    const mismatch = (check: string, field: string | undefined, message: string) =>
      mismatches.push({ subject: 'record', subjectId: recordId, recordId, tokenId, check, field, message });
    if (row.token_device_id !== row.device_id) {
      mismatch(
        'signed_value',
        'device_id',
        `record ${recordId}: its token ${tokenId} was sent by another device`,
      );
      continue;
    }
    if (!decoded.has(row.token_id)) decoded.set(row.token_id, signedRecords(row.jws));
    const signed = decoded.get(row.token_id);
    const claim = row.token_position === null ? undefined : signed?.[row.token_position];
    if (typeof claim !== 'object' || claim === null) {
      mismatch(
        'signed_value',
        'token_position',
        `record ${recordId}: its token ${tokenId} holds no record at position ${row.token_position}`,
      );
      continue;
    }
    for (const spec of SIGNED_FIELDS) {
      const stored = canonicalSigned(spec, row[spec.field]);
      const sent = canonicalSigned(spec, (claim as Record<string, unknown>)[spec.field]);
      if (stored !== sent) {
        mismatch(
          'signed_value',
          spec.field,
          `record ${recordId}: ${spec.field} is ${JSON.stringify(stored)} in the database, the device signed ${JSON.stringify(sent)} (token ${tokenId})`,
        );
      }
    }
  }
  const more = await db.execute<{ more: boolean }>(
    sql`select exists (select 1 from sterilizations where id > ${upTo}) as more`,
  );
  return {
    counts: { signedRecords: rows.length },
    mismatches,
    next: more.rows[0]?.more ? { phase: 'evidence', cursor: upTo, auditHash: null } : nextPhase('evidence'),
  };
}

// ---- tokens ------------------------------------------------------------------------------------------

type TokenRow = {
  id: string;
  device_id: number;
  jws: string;
  sha256: string;
  key_event_id: number;
  key_device_id: number;
  public_key: string;
};

/** Whether a compact JWS is an RS256 signature of its header and payload under this key. */
function rs256Verifies(jws: string, key: KeyObject): boolean {
  const parts = jws.split('.');
  if (parts.length !== 3) return false;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== 'RS256') return false;
    return verify(
      'sha256',
      Buffer.from(`${parts[0]}.${parts[1]}`, 'ascii'),
      key,
      Buffer.from(parts[2]!, 'base64url'),
    );
  } catch {
    return false;
  }
}

async function tokensSlice(
  context: SweepContext,
  position: SweepPosition,
  limit: number,
): Promise<SliceResult> {
  const rows = (
    await context.db.execute<TokenRow>(sql`
      select t.id, t.device_id, t.jws, t.sha256, e.id as key_event_id, e.device_id as key_device_id, e.public_key
      from device_tokens t join device_key_events e on e.id = t.key_event_id
      where t.id > ${position.cursor}
      order by t.id limit ${limit}`)
  ).rows;
  const keys = new Map<number, KeyObject | null>();
  const mismatches: Mismatch[] = [];
  const slicer = sliceTimer(context);
  for (const [i, row] of rows.entries()) {
    // An RS256 check is a fraction of a millisecond: the event loop runs between a few of them.
    if ((i & 7) === 7 && slicer.due()) await slicer.pause();
    const tokenId = Number(row.id);
    const mismatch = (check: string, field: string | undefined, message: string) =>
      mismatches.push({ subject: 'token', subjectId: tokenId, tokenId, check, field, message });
    if (createHash('sha256').update(row.jws, 'ascii').digest('hex') !== row.sha256) {
      mismatch('sha256', 'sha256', `token ${tokenId}: its stored SHA-256 is not the hash of its stored JWS`);
    }
    if (row.key_device_id !== row.device_id) {
      mismatch(
        'key_event',
        'key_event_id',
        `token ${tokenId}: its key event ${row.key_event_id} is another device's`,
      );
    }
    if (!keys.has(row.key_event_id)) {
      let key: KeyObject | null = null;
      try {
        key = createPublicKey(row.public_key);
      } catch {
        key = null;
      }
      keys.set(row.key_event_id, key);
    }
    const key = keys.get(row.key_event_id);
    if (!key || !rs256Verifies(row.jws, key)) {
      mismatch(
        'signature',
        'jws',
        `token ${tokenId}: its RS256 signature does not verify under the key of key event ${row.key_event_id}`,
      );
    }
  }
  const last = rows.at(-1);
  return {
    counts: { tokens: rows.length },
    mismatches,
    next:
      rows.length < limit || !last
        ? nextPhase('tokens')
        : { phase: 'tokens', cursor: Number(last.id), auditHash: null },
  };
}

// ---- reports -----------------------------------------------------------------------------------------

async function reportsSlice(
  context: SweepContext,
  position: SweepPosition,
  limit: number,
): Promise<SliceResult> {
  const rows = (
    await context.db.execute<{
      id: number;
      report_id: number;
      version: number;
      sha256: string;
      pdf: Buffer;
    }>(sql`
      select id, report_id, version, sha256, pdf from report_versions
      where id > ${position.cursor} order by id limit ${limit}`)
  ).rows;
  const mismatches: Mismatch[] = [];
  for (const row of rows) {
    if (createHash('sha256').update(row.pdf).digest('hex') !== row.sha256) {
      mismatches.push({
        subject: 'report_version',
        subjectId: row.id,
        check: 'pdf',
        field: 'pdf',
        message: `report ${row.report_id} version ${row.version}: its stored PDF is not the one signed (its SHA-256 differs)`,
      });
    }
  }
  const last = rows.at(-1);
  return {
    counts: { reportVersions: rows.length },
    mismatches,
    next:
      rows.length < limit || !last
        ? nextPhase('reports')
        : { phase: 'reports', cursor: last.id, auditHash: null },
  };
}

// ---- audit -------------------------------------------------------------------------------------------

async function auditSlice(
  context: SweepContext,
  position: SweepPosition,
  limit: number,
): Promise<SliceResult> {
  const report = await verifyAuditChain(context.db, {
    afterId: position.cursor,
    afterHash: position.auditHash ?? GENESIS_HASH,
    maxEntries: limit,
  });
  if (!report.ok) {
    return {
      counts: { auditEntries: report.count },
      mismatches: [
        {
          subject: 'audit_entry',
          subjectId: report.brokenId,
          check: 'audit_chain',
          message: `audit entry ${report.brokenId}: ${report.reason}`,
        },
      ],
      // The chain cannot be followed past a broken link: the pass ends here.
      next: nextPhase('audit'),
    };
  }
  return {
    counts: { auditEntries: report.count },
    mismatches: [],
    next: report.complete
      ? nextPhase('audit')
      : { phase: 'audit', cursor: report.headId ?? position.cursor, auditHash: report.head },
  };
}
