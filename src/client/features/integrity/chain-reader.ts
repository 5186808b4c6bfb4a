/**
 * Reads an anchoring transaction straight from the chain, in the browser, over the public JSON-RPC
 * URLs (GET /chain → rpc_urls, asked in order, the next when one does not answer), and decodes it with
 * the contract's ABI. Loaded on demand: viem's client
 * code stays out of the list's chunk. Only the ABI of the artifact is imported (not the bytecode).
 */
// The bare client and single actions (not createPublicClient, whose decorator bundles every action).
import { type Abi, createClient, decodeFunctionData, fallback, type Hex, http } from 'viem';
import { getTransaction, getTransactionReceipt } from 'viem/actions';
import { API_BASE_URL } from '#client/lib/api-client.ts';
import { abi } from '#shared/integrity/anchor-contract/Anchor.json';
import { resolveRpcUrl } from '#shared/integrity/rpc-url.ts';
import type { AnchorTransaction } from './verification';

const ANCHOR_ABI = abi as Abi;

function paramText(value: unknown): string {
  if (typeof value === 'bigint' || typeof value === 'number') return value.toString();
  if (typeof value === 'string') return value;
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
}

function decode(input: Hex): Pick<AnchorTransaction, 'functionName' | 'params'> {
  try {
    const { functionName, args } = decodeFunctionData({ abi: ANCHOR_ABI, data: input });
    const item = ANCHOR_ABI.find((entry) => entry.type === 'function' && entry.name === functionName);
    const inputs = item && item.type === 'function' ? item.inputs : [];
    return {
      functionName,
      params: (args ?? []).map((value, index) => ({
        name: inputs[index]?.name ?? `arg${index}`,
        type: inputs[index]?.type ?? '',
        value: paramText(value),
      })),
    };
  } catch {
    return { functionName: null, params: [] };
  }
}

export async function readAnchorTransaction(
  rpcUrls: readonly string[],
  hash: Hex,
): Promise<AnchorTransaction> {
  // GET /chain's rpc_urls may be a path on the API's server (`/chain-rpc`): resolved against the API.
  const chainInfoUrl = new URL(`${API_BASE_URL}/chain`, window.location.href);
  const client = createClient({
    transport: fallback(
      rpcUrls.map((rpcUrl) => http(resolveRpcUrl(rpcUrl, chainInfoUrl), { timeout: 15_000 })),
      { retryCount: 1 },
    ),
  });
  const [transaction, receipt] = await Promise.all([
    getTransaction(client, { hash }),
    getTransactionReceipt(client, { hash }).catch(() => null),
  ]);
  return {
    hash: transaction.hash,
    to: transaction.to,
    input: transaction.input,
    succeeded: receipt ? receipt.status === 'success' : null,
    ...decode(transaction.input),
  };
}
