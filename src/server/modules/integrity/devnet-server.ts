/**
 * The embedded devnet served over JSON-RPC on a loopback port, for the worker processes of
 * `--workers N` (cluster.ts): the devnet lives in memory in one process, and every worker must see the
 * same chain (one anchors, all verify and serve /chain-rpc). Every method is forwarded: the port is on
 * 127.0.0.1 only and the workers use it as they would a node at CHAIN_RPC_URL. The browser still reads
 * the chain through each worker's read-only /chain-rpc.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EIP1193RequestFn } from 'viem';

type Call = { id?: string | number | null; method?: unknown; params?: unknown };

async function answer(request: EIP1193RequestFn, call: Call) {
  const id = call.id ?? null;
  if (typeof call.method !== 'string')
    return { jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request' } };
  try {
    const result = await request({ method: call.method, params: call.params ?? [] } as never);
    return { jsonrpc: '2.0', id, result: result ?? null };
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    return {
      jsonrpc: '2.0',
      id,
      error: {
        code: typeof code === 'number' ? code : -32603,
        message: typeof message === 'string' ? message : 'internal error',
        ...(data === undefined ? {} : { data }),
      },
    };
  }
}

export interface DevnetServer {
  url: string;
  close(): Promise<void>;
}

export async function serveDevnet(request: EIP1193RequestFn): Promise<DevnetServer> {
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      void (async () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = undefined;
        }
        const reply =
          body === undefined || body === null || typeof body !== 'object'
            ? { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }
            : Array.isArray(body)
              ? await Promise.all(body.map((call: Call) => answer(request, call)))
              : await answer(request, body as Call);
        outgoing.writeHead(200, { 'content-type': 'application/json' });
        outgoing.end(
          JSON.stringify(reply, (_key, value) =>
            typeof value === 'bigint' ? `0x${value.toString(16)}` : value,
          ),
        );
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
