/**
 * The read-only JSON-RPC endpoint the browser verifies records through (POST /chain-rpc): only
 * methods that read the chain are forwarded to the node; everything else is refused with -32601.
 */
import type { EIP1193RequestFn } from 'viem';

export const READ_ONLY_METHODS: ReadonlySet<string> = new Set([
  'eth_chainId',
  'net_version',
  'eth_blockNumber',
  'eth_getBlockByNumber',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_call',
  'eth_getLogs',
]);

type JsonRpcId = string | number | null;
interface JsonRpcRequest {
  jsonrpc: '2.0';
  id?: JsonRpcId;
  method: string;
  params?: unknown[];
}
export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: { code: number; message: string } };

async function answer(request: EIP1193RequestFn, call: JsonRpcRequest): Promise<JsonRpcResponse> {
  const id = call.id ?? null;
  if (!READ_ONLY_METHODS.has(call.method)) {
    return { jsonrpc: '2.0', id, error: { code: -32601, message: `method not available: ${call.method}` } };
  }
  if (call.method === 'eth_getBlockByNumber' && call.params?.[1] === true) {
    return { jsonrpc: '2.0', id, error: { code: -32602, message: 'full transactions are not served' } };
  }
  try {
    const result = await request({ method: call.method, params: call.params ?? [] } as never);
    return { jsonrpc: '2.0', id, result: result ?? null };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return {
      jsonrpc: '2.0',
      id,
      error: {
        code: typeof code === 'number' ? code : -32603,
        message: typeof message === 'string' ? message.split('\n')[0]! : 'internal error',
      },
    };
  }
}

export async function forwardReadOnly(
  request: EIP1193RequestFn,
  body: JsonRpcRequest | JsonRpcRequest[],
): Promise<JsonRpcResponse | JsonRpcResponse[]> {
  if (Array.isArray(body)) return Promise.all(body.map((call) => answer(request, call)));
  return answer(request, body);
}
