/**
 * The chain as the server uses it: the embedded devnet (default) or a real network reached over
 * CHAIN_RPC_URL. Everything else (worker, calls, the browser's read-only endpoint) goes through this.
 */

import { keccak256 as nativeKeccak256 } from '@nomicfoundation/edr';
import {
  type Address,
  createPublicClient,
  custom,
  defineChain,
  type EIP1193RequestFn,
  encodeFunctionData,
  fallback,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  type TransactionReceipt,
  type TransactionSerializable,
  type Chain as ViemChain,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainConfig, ChainNetwork } from '#server/config.ts';
import { setKeccak256 } from '#shared/integrity/index.ts';
import { ANCHOR_BYTECODE, ANCHOR_FUNCTIONS, ANCHORED_EVENT } from './artifact.ts';
import { startDevnet } from './devnet.ts';
import { createReachabilityTracker, isUnreachable, type ReachabilityTracker } from './reachability.ts';

// The server hashes with EDR's native keccak256 (same function, several times faster than viem's).
setKeccak256((data) => nativeKeccak256(data));

export const ZERO_ROOT: Hex = `0x${'0'.repeat(64)}`;

/** EIP-1559 fees per gas, in wei. */
export interface AnchorFees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** What the node's fee history suggests now. */
export interface FeeSuggestion extends AnchorFees {
  /** The next block's base fee: below it no transaction is mined. */
  baseFeePerGas: bigint;
}

export interface PreparedAnchor extends AnchorFees {
  hash: Hex;
  serialized: Hex;
  nonce: number;
  gas: bigint;
}

/** Blocks of fee history the suggestion looks at, and the tip percentile it takes of each. */
const FEE_HISTORY_BLOCKS = 10;
const TIP_PERCENTILE = 50;

export interface Chain {
  network: ChainNetwork;
  chainId: number;
  contractAddress: Address;
  /** The anchoring account. */
  account: Address;
  /** True for the embedded devnet (in this process, or the cluster primary's), which starts empty on every start. */
  embedded: boolean;
  /** The in-process devnet: never unreachable. */
  inProcess: boolean;
  /** Whether the node answered the last call (every call reports to it). */
  reachability: ReachabilityTracker;
  client: PublicClient;
  /** Raw JSON-RPC request to the node (the read-only endpoint filters what the browser may call). */
  request: EIP1193RequestFn;
  /**
   * Signs anchor(blockId, root) locally, so its hash is known (and stored) before it is broadcast: with
   * the given fees (else the suggested ones), and for a replacement the nonce and gas limit of the
   * transaction it replaces (else the account's next nonce and an estimate).
   */
  prepareAnchor(
    blockId: number,
    root: Hex,
    fees?: AnchorFees,
    replacing?: { nonce: number; gas: bigint },
  ): Promise<PreparedAnchor>;
  /**
   * EIP-1559 fees from the node's fee history (eth_feeHistory): the next block's base fee twice (room for
   * six full blocks of increases) plus the median tip of the last blocks that paid one, else the
   * node's own tip suggestion.
   */
  suggestFees(): Promise<FeeSuggestion>;
  /** Transactions of the anchoring account mined so far (the nonce its next mined transaction has). */
  minedNonce(): Promise<number>;
  /** The node's `finalized` block number, or null when the node has no such tag. */
  finalizedBlockNumber(): Promise<bigint | null>;
  broadcast(serialized: Hex): Promise<void>;
  /** The root the contract holds for a block id, or null when the id is not anchored. */
  anchoredRoot(blockId: number): Promise<Hex | null>;
  /** The transaction that anchored a block id, found through its Anchored event. */
  findAnchorTransaction(blockId: number): Promise<Hex | null>;
  /** The receipt, or null while the transaction is not mined (or unknown). */
  receipt(hash: Hex): Promise<TransactionReceipt | null>;
  /** Whether the node knows the transaction at all (mined or in its mempool). */
  knowsTransaction(hash: Hex): Promise<boolean>;
  blockNumber(): Promise<bigint>;
}

function viemChain(chainId: number, network: string, rpcUrl: string): ViemChain {
  return defineChain({
    id: chainId,
    name: network,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/**
 * The configured nodes as one request function: each call goes to the first node that answers, each node
 * given rpcTimeoutSeconds (viem's fallback over one http transport per URL); a call no node answered is
 * tried once more through the list. Every outcome is reported to `reachability`.
 */
function nodesRequest(config: ChainConfig, reachability: ReachabilityTracker): EIP1193RequestFn {
  const timeout = config.rpcTimeoutSeconds * 1000;
  const transport = fallback(
    config.rpcUrls.map((url) => http(url, { timeout, retryCount: 0 })),
    { retryCount: 1, retryDelay: 200 },
  )({ timeout });
  const request = transport.request as EIP1193RequestFn;
  return (async (args: Parameters<EIP1193RequestFn>[0]) => {
    try {
      const result = await request(args as never);
      reachability.answered();
      return result;
    } catch (error) {
      if (isUnreachable(error)) reachability.failed(error);
      else reachability.answered();
      throw error;
    }
  }) as EIP1193RequestFn;
}

export async function connectChain(config: ChainConfig): Promise<Chain> {
  let request: EIP1193RequestFn;
  let privateKey: Hex;
  let contractAddress: Address | undefined;
  const embedded = !config.rpcUrl || config.clusterDevnet;
  const reachability = createReachabilityTracker();
  if (config.rpcUrl) {
    request = nodesRequest(config, reachability);
    privateKey = config.privateKey as Hex;
    contractAddress = config.contractAddress as Address;
  } else {
    const devnet = await startDevnet({ intervalMiningMs: config.confirmations > 1 ? 1000 : undefined });
    request = devnet.request;
    privateKey = devnet.privateKey;
  }
  const account = privateKeyToAccount(privateKey);
  const chainId = Number(await request({ method: 'eth_chainId' }));
  const chain = viemChain(chainId, config.network, config.rpcUrl ?? 'http://localhost/chain-rpc');
  // Retries are the node transport's (and the worker's next pass): none here on top of them.
  const client = createPublicClient({
    chain,
    transport: custom({ request }, { retryCount: 0 }),
    pollingInterval: 500,
  });

  if (!contractAddress) {
    // Deployed by the dev account's first transaction: the address is the same on every start.
    const nonce = await client.getTransactionCount({ address: account.address });
    const expected = getContractAddress({ from: account.address, nonce: 0n });
    if (nonce === 0) {
      const request = await client.prepareTransactionRequest({
        account,
        chain,
        data: ANCHOR_BYTECODE,
        gas: 1_000_000n,
      });
      const serialized = await account.signTransaction(request as TransactionSerializable);
      const hash = await client.sendRawTransaction({ serializedTransaction: serialized });
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success' || receipt.contractAddress?.toLowerCase() !== expected.toLowerCase()) {
        throw new Error('deploying the Anchor contract on the devnet failed');
      }
    }
    contractAddress = expected;
  }
  const address = contractAddress;

  async function suggestFees(): Promise<FeeSuggestion> {
    const history = await client.getFeeHistory({
      blockCount: FEE_HISTORY_BLOCKS,
      rewardPercentiles: [TIP_PERCENTILE],
      blockTag: 'latest',
    });
    // baseFeePerGas holds one more entry than the blocks asked: the next block's.
    const baseFeePerGas = history.baseFeePerGas.at(-1) ?? (await client.getGasPrice());
    const tips = (history.reward ?? [])
      .map((rewards) => rewards[0] ?? 0n)
      .filter((tip) => tip > 0n)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const maxPriorityFeePerGas =
      tips.length > 0 ? tips[Math.floor(tips.length / 2)]! : await client.estimateMaxPriorityFeePerGas();
    return { baseFeePerGas, maxPriorityFeePerGas, maxFeePerGas: 2n * baseFeePerGas + maxPriorityFeePerGas };
  }

  return {
    network: config.network,
    chainId,
    contractAddress: address,
    account: account.address,
    embedded,
    inProcess: !config.rpcUrl,
    reachability,
    client,
    request,
    async prepareAnchor(blockId, root, fees, replacing) {
      const data = encodeFunctionData({
        abi: ANCHOR_FUNCTIONS,
        functionName: 'anchor',
        args: [BigInt(blockId), root],
      });
      const { maxFeePerGas, maxPriorityFeePerGas } = fees ?? (await suggestFees());
      const nonce =
        replacing?.nonce ??
        (await client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
      const gas =
        replacing?.gas ?? (await client.estimateGas({ account: account.address, to: address, data }));
      const transaction: TransactionSerializable = {
        chainId,
        type: 'eip1559',
        to: address,
        data,
        nonce,
        gas,
        maxFeePerGas,
        maxPriorityFeePerGas,
      };
      const serialized = await account.signTransaction(transaction);
      return { hash: keccak256(serialized), serialized, nonce, gas, maxFeePerGas, maxPriorityFeePerGas };
    },
    suggestFees,
    minedNonce: () => client.getTransactionCount({ address: account.address, blockTag: 'latest' }),
    async finalizedBlockNumber() {
      try {
        return (await client.getBlock({ blockTag: 'finalized' })).number;
      } catch (error) {
        if (isUnreachable(error)) throw error;
        return null; // a node (or chain) without finality: the caller counts blocks instead
      }
    },
    async broadcast(serialized) {
      await client.sendRawTransaction({ serializedTransaction: serialized });
    },
    async anchoredRoot(blockId) {
      const root = await client.readContract({
        address,
        abi: ANCHOR_FUNCTIONS,
        functionName: 'roots',
        args: [BigInt(blockId)],
      });
      return root === ZERO_ROOT ? null : root;
    },
    async findAnchorTransaction(blockId) {
      const logs = await client.getLogs({
        address,
        event: ANCHORED_EVENT,
        args: { blockId: BigInt(blockId) },
        fromBlock: 'earliest',
        toBlock: 'latest',
      });
      return logs[0]?.transactionHash ?? null;
    },
    async receipt(hash) {
      try {
        return await client.getTransactionReceipt({ hash });
      } catch (error) {
        if ((error as Error).name === 'TransactionReceiptNotFoundError') return null;
        throw error;
      }
    },
    async knowsTransaction(hash) {
      const found = await request({ method: 'eth_getTransactionByHash', params: [hash] });
      return found !== null && found !== undefined;
    },
    blockNumber: () => client.getBlockNumber({ cacheTime: 0 }),
  };
}
