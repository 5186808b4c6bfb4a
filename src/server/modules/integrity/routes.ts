/**
 * Transactions and integrity hashes (docs/product.md §7): a transaction read from the chain with its decoded
 * inputs, the server-side leaf/root computation of the verification modal, the chain settings the
 * browser needs to verify on its own, and the read-only JSON-RPC endpoint it reads the chain through.
 */
import { sql } from 'drizzle-orm';
import { bytesToHex, decodeFunctionData, type Hex } from 'viem';
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { ApiError, notFound, ok, validationFailed } from '#server/http/envelope.ts';
import { TOKEN_SHA256_SQL } from '#server/modules/sterilizations/index.ts';
import { currentAuth, tenantScope } from '#server/security/guards.ts';
import {
  HASHING_VERSION,
  type HashingVersion,
  INTEGRITY_FIELDS,
  isHashingVersion,
  leafBytes,
  mapSliced,
  merkleRootAsync,
  processProof,
  recordFromForm,
} from '#shared/integrity/index.ts';
import { blockSideLeaves, integrityRecord, RECORD_FIELDS_SQL } from './anchor-worker.ts';
import { ANCHOR_ABI } from './artifact.ts';
import type { Chain } from './chain.ts';
import { isUnreachable } from './reachability.ts';
import { forwardReadOnly } from './rpc-proxy.ts';
import type { ChainService } from './service.ts';

const EXPLORERS: Record<string, string | null> = {
  mainnet: 'https://etherscan.io/tx/',
  sepolia: 'https://sepolia.etherscan.io/tx/',
  rinkeby: 'https://rinkeby.etherscan.io/tx/',
  devnet: null,
};

type AbiInput = { name?: string; type: string };

function paramValue(value: unknown): string {
  if (typeof value === 'bigint' || typeof value === 'number') return value.toString();
  if (typeof value === 'string') return value;
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item));
}

/** Decodes call data against the Anchor ABI; other call data gives an empty decoding. */
export function decodeInputs(input: Hex) {
  try {
    const { functionName, args } = decodeFunctionData({ abi: ANCHOR_ABI, data: input });
    const item = ANCHOR_ABI.find(
      (entry) => entry.type === 'function' && 'name' in entry && entry.name === functionName,
    ) as { inputs: readonly AbiInput[] } | undefined;
    const inputs = item?.inputs ?? [];
    return {
      function_name: functionName,
      params: (args ?? []).map((value, i) => ({
        name: inputs[i]?.name ?? `arg${i}`,
        type: inputs[i]?.type ?? 'unknown',
        value: paramValue(value),
      })),
    };
  } catch {
    return { function_name: '', params: [] };
  }
}

type BlockRecordRow = Parameters<typeof integrityRecord>[0] & { customer_id: number };

/**
 * What calculateHash needs to know of a stored block before hashing anything: its version, whether the
 * caller may ask about it, and the named record's owner and stored proof when it is a member.
 */
interface BlockFacts {
  version: number;
  /** A tenant-scoped caller has a record in the block (always true for staff). */
  holdsOwnRecord: boolean;
  member: { customerId: number; proof: Hex[] | null } | null;
}

async function blockFacts(
  db: Db,
  blockId: number,
  recordId: string | null,
  scope: number | null,
): Promise<BlockFacts | null> {
  const memberId = recordId !== null && /^\d{1,18}$/.test(recordId) ? recordId : null;
  const result = await db.execute<{
    hashing_version: number;
    holds_own_record: boolean;
    member_customer_id: number | null;
    merkle_proof: Hex[] | null;
  }>(sql`
    select b.hashing_version,
      ${scope === null ? sql`true` : sql`exists (select 1 from sterilizations o where o.blockchain_data_block_id = b.id and o.customer_id = ${scope})`} as holds_own_record,
      m.customer_id as member_customer_id, m.merkle_proof
    from blockchain_data_blocks b
    left join sterilizations m on m.id = ${memberId}::bigint and m.blockchain_data_block_id = b.id
    where b.id = ${blockId}`);
  const row = result.rows[0];
  if (!row) return null;
  return {
    version: row.hashing_version,
    holdsOwnRecord: row.holds_own_record,
    member:
      row.member_customer_id === null
        ? null
        : { customerId: Number(row.member_customer_id), proof: row.merkle_proof },
  };
}

/** A stored block's records, in id order, each with its owner. */
async function blockRecords(db: Db, blockId: number): Promise<BlockRecordRow[]> {
  const rows = await db.execute<BlockRecordRow>(sql`
    select ${RECORD_FIELDS_SQL}, s.customer_id
    from sterilizations s join devices d on d.id = s.device_id
    where s.blockchain_data_block_id = ${blockId}
    order by s.id`);
  return rows.rows;
}

/**
 * The block root is an oracle ("does this guess of a record's fields match?"), so it answers
 * only about records the caller may read. A tenant-scoped caller sees a block that holds one of its
 * records, and may not put its guess in place of another tenant's record of that (shared) block.
 */
function visibleTo(scope: number | null, facts: BlockFacts): boolean {
  if (scope === null) return true;
  if (!facts.holdsOwnRecord) return false;
  return facts.member === null || facts.member.customerId === scope;
}

/**
 * The root of a stored block with this leaf in place of the record with the same id (added when absent).
 * The other leaves are hashed with the block's own version. Computed in time slices: a block can hold
 * many thousands of records, and other requests go on meanwhile.
 */
async function blockRootWith(
  rows: BlockRecordRow[],
  version: HashingVersion,
  recordId: string | null,
  leaf: Uint8Array,
  /** The block's report version and key event leaves, which follow its records. */
  sideLeaves: Uint8Array[],
) {
  if (rows.length === 0) return null;
  const entries = await mapSliced(rows, (row) => ({
    id: BigInt(row.id),
    leaf: leafBytes(integrityRecord(row), version),
  }));
  const id = recordId !== null && /^\d+$/.test(recordId) ? BigInt(recordId) : null;
  const index = entries.findIndex((entry) => entry.id === id);
  if (index >= 0) entries[index]!.leaf = leaf;
  else {
    // Not a member of the block (an edited id): the record takes its place in id order, which can
    // never give the anchored root.
    entries.push({ id: id ?? -1n, leaf });
    entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
  return merkleRootAsync([...entries.map((entry) => entry.leaf), ...sideLeaves]);
}

/**
 * The evidence fields of a version 3 leaf (docs/integrity.md §12) of the stored record with this id,
 * read under the caller's scope; none for an id that names no record the caller may read.
 */
async function storedEvidence(
  db: Db,
  recordId: string | null,
  scope: number | null,
): Promise<Record<string, string | null>> {
  if (recordId === null || !/^\d{1,18}$/.test(recordId)) return {};
  const tenant = scope === null ? sql`true` : sql`s.customer_id = ${scope}`;
  const found = await db.execute<{
    token_sha256: string | null;
    token_position: number | null;
    cycle_ts: string | null;
  }>(sql`
    select ${TOKEN_SHA256_SQL} as token_sha256, s.token_position,
      s.cycle_ts::text as cycle_ts
    from sterilizations s where s.id = ${recordId} and ${tenant}`);
  const row = found.rows[0];
  if (!row) return {};
  return {
    token_sha256: row.token_sha256,
    token_position: row.token_position === null ? null : String(row.token_position),
    cycle_ts: row.cycle_ts,
  };
}

/** The form's hashing_version; absent: the block's (else the current one). Unknown → 422. */
function requestedVersion(text: string | undefined, blockVersion: number | undefined): HashingVersion {
  const trimmed = text?.trim();
  if (!trimmed) return isHashingVersion(blockVersion) ? blockVersion : HASHING_VERSION;
  const version = /^\d{1,3}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!isHashingVersion(version)) {
    throw validationFailed({ hashing_version: ['validation.hashing_version.unsupported'] });
  }
  return version;
}

/** The connected chain; 503 while no node answers to connect it (the rest of the server works on). */
async function connectedChain(chain: ChainService): Promise<Chain> {
  try {
    return await chain.chain();
  } catch {
    throw new ApiError(503, 'service_unavailable');
  }
}

export function integrityModule(deps: { db: Db; chain: ChainService }): ApiModule {
  const { db, chain } = deps;
  return {
    handlers: {
      async getTransaction(request) {
        const connected = await connectedChain(chain);
        const hash = request.params.id as Hex;
        const transaction = (await connected
          .request({ method: 'eth_getTransactionByHash', params: [hash] })
          .catch((error: unknown) => {
            if (isUnreachable(error)) throw new ApiError(503, 'service_unavailable');
            throw error;
          })) as { hash: Hex; input: Hex } | null;
        if (!transaction) throw notFound();
        return ok({
          hash: transaction.hash,
          network: connected.network,
          raw_inputs: transaction.input,
          decoded_inputs: decodeInputs(transaction.input),
        });
      },

      async calculateHash(request) {
        const scope = tenantScope(currentAuth(request));
        const form = (request.body ?? {}) as Record<string, string | undefined>;
        const recordId = form.id?.trim() ?? null;
        const blockText = form.blockchain_data_block_id?.trim();
        const blockId = blockText && /^\d{1,9}$/.test(blockText) ? Number(blockText) : null;
        const block = blockId === null ? null : await blockFacts(db, blockId, recordId, scope);
        if (blockId !== null && (!block || !visibleTo(scope, block))) throw notFound();
        const version = requestedVersion(form.hashing_version, block?.version);
        const record = recordFromForm({
          ...Object.fromEntries(INTEGRITY_FIELDS.map((field) => [field, form[field]])),
          // The form edits the 14 fields; a version 3 leaf also holds the stored record's evidence.
          ...(version >= 3 ? await storedEvidence(db, recordId, scope) : {}),
        });
        const leaf = leafBytes(record, version);
        const hash = bytesToHex(leaf);
        let blockHash: Hex | null = null;
        // A block of a version this server cannot hash (none yet) gives no root rather than a wrong one.
        if (block && blockId !== null && isHashingVersion(block.version)) {
          // A member's stored proof leads from its leaf to the block's root: the same root as the whole
          // tree rebuilt with this leaf in its place, without reading and hashing every record of the
          // block (a block made while catching up holds thousands). Otherwise the tree is rebuilt.
          const proof = block.member?.proof;
          blockHash = proof
            ? processProof(hash, proof)
            : await blockRootWith(
                await blockRecords(db, blockId),
                block.version,
                recordId,
                leaf,
                await blockSideLeaves(db, blockId),
              );
        }
        return ok({ hash, hashing_version: version, block_hash: blockHash });
      },

      async getChainInfo() {
        const connected = await connectedChain(chain);
        const rpcUrls = chain.config.publicRpcUrls.length > 0 ? chain.config.publicRpcUrls : ['/chain-rpc'];
        return ok({
          network: connected.network,
          chain_id: connected.chainId,
          contract_address: connected.contractAddress,
          rpc_url: rpcUrls[0]!,
          rpc_urls: rpcUrls,
          explorer_tx_url: EXPLORERS[connected.network] ?? null,
          hashing_version: HASHING_VERSION,
        });
      },

      async chainRpc(request, reply) {
        const connected = await connectedChain(chain);
        reply.header('cache-control', 'no-store');
        return forwardReadOnly(connected.request, request.body as Parameters<typeof forwardReadOnly>[1], {
          contractAddress: connected.contractAddress,
        });
      },
    },
  };
}
