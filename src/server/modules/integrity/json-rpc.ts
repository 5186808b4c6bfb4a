/**
 * JSON-RPC 2.0 as the server's endpoints in front of a chain node answer it (the devnet served to the
 * worker processes and to the tests' switchable nodes, devnet-server.ts; the public read-only
 * /chain-rpc, rpc-proxy.ts): the answer's shape, and an error the node threw as an answer's error.
 */
export type JsonRpcId = string | number | null;
export type JsonRpcError = { code: number; message: string; data?: unknown };
export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcError };

/** What a node's request threw, as a JSON-RPC error: its code, message and data where it has them. */
export function nodeError(error: unknown): JsonRpcError {
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  return {
    code: typeof code === 'number' ? code : -32603,
    message: typeof message === 'string' ? message : 'internal error',
    ...(data === undefined ? {} : { data }),
  };
}
