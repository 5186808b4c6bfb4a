/**
 * The embedded devnet: Hardhat's EDR (the Rust EVM behind Hardhat 3) running in this process, seen as
 * an EIP-1193 provider. Chain id 31337, one funded development account (Hardhat's well-known account #0:
 * its key is public, so this chain is for development and demos only), automine (each transaction is its
 * own block) plus interval mining when more than one confirmation is configured.
 * The chain lives in memory: a restart starts a new chain (see anchoring/confirm.ts, resetEphemeralBlocks).
 */
import {
  ContractDecoder,
  EdrContext,
  L1_CHAIN_TYPE,
  l1GenesisState,
  l1HardforkLatest,
  l1HardforkToString,
  l1ProviderFactory,
  MineOrdering,
  type Provider,
  type ProviderConfig,
} from '@nomicfoundation/edr';
import { type EIP1193RequestFn, type Hex, hexToBytes } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

export const DEVNET_CHAIN_ID = 31337;
/** Hardhat's default account #0 (mnemonic "test test … junk"): public knowledge, devnet only. */
export const DEVNET_PRIVATE_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

let context: Promise<EdrContext> | undefined;
/** EDR wants one context per process. */
function edrContext(): Promise<EdrContext> {
  context ??= (async () => {
    const created = new EdrContext();
    await created.registerProviderFactory(L1_CHAIN_TYPE, l1ProviderFactory());
    return created;
  })();
  return context;
}

export interface Devnet {
  request: EIP1193RequestFn;
  privateKey: Hex;
  chainId: number;
}

export class RpcError extends Error {
  code: number;
  data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

export async function startDevnet(opts: { intervalMiningMs?: number } = {}): Promise<Devnet> {
  const hardfork = l1HardforkLatest();
  const address = privateKeyToAddress(DEVNET_PRIVATE_KEY);
  const config: ProviderConfig = {
    allowBlocksWithSameTimestamp: false,
    allowUnlimitedContractSize: false,
    bailOnCallFailure: false,
    bailOnTransactionFailure: false,
    chainId: BigInt(DEVNET_CHAIN_ID),
    coinbase: new Uint8Array(20),
    defaultTransactionGasLimit: 3_000_000n,
    genesisState: [
      ...l1GenesisState(hardfork),
      { address: hexToBytes(address), balance: 10_000n * 10n ** 18n },
    ],
    hardfork: l1HardforkToString(hardfork),
    initialBaseFeePerGas: 1_000_000_000n,
    minGasPrice: 0n,
    mining: {
      autoMine: true,
      interval: opts.intervalMiningMs ? BigInt(opts.intervalMiningMs) : undefined,
      memPool: { order: MineOrdering.Priority },
    },
    network: { genesisBlockGasLimit: 30_000_000n },
    networkId: BigInt(DEVNET_CHAIN_ID),
    observability: {},
    ownedAccounts: [],
    precompileOverrides: [],
  };
  const provider: Provider = await (await edrContext()).createProvider(
    L1_CHAIN_TYPE,
    config,
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} },
    { subscriptionCallback: () => {} },
    new ContractDecoder(),
  );
  let nextId = 1;
  const request = (async ({ method, params }: { method: string; params?: unknown }) => {
    const response = await provider.handleRequest(
      JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: params ?? [] }),
    );
    const data = (typeof response.data === 'string' ? JSON.parse(response.data) : response.data) as {
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    };
    if (data.error) throw new RpcError(data.error.code, data.error.message, data.error.data);
    return data.result;
  }) as EIP1193RequestFn;
  return { request, privateKey: DEVNET_PRIVATE_KEY, chainId: DEVNET_CHAIN_ID };
}
