/**
 * The read-only JSON-RPC endpoint the browser verifies records through (POST /chain-rpc). It is
 * public (a receipt is checked without an account), so it forwards only what a verifier needs and
 * bounds what one request may cost the node: the methods the verification reads (viem's
 * getChainId, getBlockNumber, getTransaction, getTransactionReceipt, and the contract's roots and
 * events of docs/integrity.md), batches of a few calls, log queries over a bounded block range, and
 * eth_call on the anchor contract only. The route is also rate-limited per client address (app.ts).
 * Every refusal is a JSON-RPC error, as a node would answer it.
 */
import type { EIP1193RequestFn } from 'viem';
import { type JsonRpcId, type JsonRpcResponse, nodeError } from './json-rpc.ts';

export const READ_ONLY_METHODS: ReadonlySet<string> = new Set([
  'eth_chainId',
  'eth_blockNumber',
  'eth_getBlockByNumber',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_call',
  'eth_getLogs',
]);

/** Calls in one batch; the browser's verifier sends one call per request. */
export const MAX_BATCH_CALLS = 10;
/** Blocks one eth_getLogs may cover (from and to included). */
export const MAX_LOG_BLOCKS = 10_000;

/** JSON-RPC error codes (JSON-RPC 2.0 and EIP-1474). */
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const LIMIT_EXCEEDED = -32005;

interface JsonRpcRequest {
  jsonrpc: '2.0';
  id?: JsonRpcId;
  method: string;
  params?: unknown[];
}

export interface ProxyOptions {
  /** The anchor contract: the only target of eth_call. */
  contractAddress: string;
}

class Refusal extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

const refusal = (id: JsonRpcId, code: number, message: string): JsonRpcResponse => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The block a log filter's bound names: a number, or a tag resolved to the number the node gives it
 * now ("earliest" is 0). A bound that cannot be resolved is refused rather than left to the node, whose
 * range would then be unknown.
 */
async function blockNumberOf(request: EIP1193RequestFn, bound: unknown): Promise<bigint> {
  if (typeof bound === 'string' && /^0x[0-9a-f]{1,16}$/i.test(bound)) return BigInt(bound);
  if (bound === 'earliest') return 0n;
  if (bound === 'latest' || bound === 'pending') {
    return BigInt((await request({ method: 'eth_blockNumber' } as never)) as string);
  }
  if (bound === 'safe' || bound === 'finalized') {
    const block = (await request({ method: 'eth_getBlockByNumber', params: [bound, false] } as never)) as {
      number?: unknown;
    } | null;
    if (typeof block?.number === 'string') return BigInt(block.number);
  }
  throw new Refusal(INVALID_PARAMS, `eth_getLogs: unknown block ${JSON.stringify(bound) ?? 'bound'}`);
}

/** The filter with its range as block numbers, refused when it covers more than MAX_LOG_BLOCKS. */
async function boundedLogFilter(request: EIP1193RequestFn, params: unknown[]): Promise<unknown[]> {
  const [filter] = params;
  if (params.length !== 1 || !isObject(filter))
    throw new Refusal(INVALID_PARAMS, 'eth_getLogs takes one filter');
  // One block by its hash: nothing to bound.
  if (filter.blockHash !== undefined) return params;
  const from = await blockNumberOf(request, filter.fromBlock ?? 'latest');
  const to = await blockNumberOf(request, filter.toBlock ?? 'latest');
  if (to >= from && to - from + 1n > BigInt(MAX_LOG_BLOCKS)) {
    throw new Refusal(LIMIT_EXCEEDED, `eth_getLogs covers at most ${MAX_LOG_BLOCKS} blocks`);
  }
  // The numbers just resolved, so that the node's range is the one checked (a new block may come).
  return [{ ...filter, fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` }];
}

/** The parameters to forward, or a Refusal. */
async function checkedParams(request: EIP1193RequestFn, call: JsonRpcRequest, options: ProxyOptions) {
  const params = call.params ?? [];
  if (!READ_ONLY_METHODS.has(call.method)) {
    throw new Refusal(METHOD_NOT_FOUND, `method not available: ${call.method}`);
  }
  if (call.method === 'eth_getBlockByNumber' && params[1] === true) {
    throw new Refusal(INVALID_PARAMS, 'full transactions are not served');
  }
  if (call.method === 'eth_call') {
    const target = isObject(params[0]) ? params[0].to : undefined;
    if (typeof target !== 'string' || target.toLowerCase() !== options.contractAddress.toLowerCase()) {
      throw new Refusal(INVALID_PARAMS, 'eth_call is served for the anchor contract only');
    }
  }
  if (call.method === 'eth_getLogs') return boundedLogFilter(request, params);
  return params;
}

async function answer(
  request: EIP1193RequestFn,
  call: JsonRpcRequest,
  options: ProxyOptions,
): Promise<JsonRpcResponse> {
  const id = call.id ?? null;
  try {
    const params = await checkedParams(request, call, options);
    const result = await request({ method: call.method, params } as never);
    return { jsonrpc: '2.0', id, result: result ?? null };
  } catch (error) {
    if (error instanceof Refusal) return refusal(id, error.code, error.message);
    const { code, message } = nodeError(error);
    return refusal(id, code, message.split('\n')[0]!);
  }
}

export async function forwardReadOnly(
  request: EIP1193RequestFn,
  body: JsonRpcRequest | JsonRpcRequest[],
  options: ProxyOptions,
): Promise<JsonRpcResponse | JsonRpcResponse[]> {
  if (!Array.isArray(body)) return answer(request, body, options);
  // A batch over the cap is refused whole, with one error (JSON-RPC 2.0 §6 answers a batch it cannot
  // take with a single response object).
  if (body.length > MAX_BATCH_CALLS) {
    return refusal(null, LIMIT_EXCEEDED, `a batch holds at most ${MAX_BATCH_CALLS} calls`);
  }
  return Promise.all(body.map((call) => answer(request, call, options)));
}
