/**
 * The embedded devnet served over JSON-RPC on a loopback port, for the worker processes of
 * `--workers N` (cluster.ts): the devnet lives in memory in one process, and every worker must see the
 * same chain (one anchors, all verify and serve /chain-rpc). Every method is forwarded: the port is on
 * 127.0.0.1 only and the workers use it as they would a node at CHAIN_RPC_URL. The browser still reads
 * the chain through each worker's read-only /chain-rpc. The tests' switchable nodes
 * (src/server/test/switchable-node.ts) are this server with a switch, by its hooks.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EIP1193RequestFn } from 'viem';
import { type JsonRpcResponse, nodeError } from './json-rpc.ts';

type Call = { id?: string | number | null; method?: unknown; params?: unknown };

async function answer(request: EIP1193RequestFn, call: Call): Promise<JsonRpcResponse> {
  const id = call.id ?? null;
  if (typeof call.method !== 'string')
    return { jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request' } };
  try {
    const result = await request({ method: call.method, params: call.params ?? [] } as never);
    return { jsonrpc: '2.0', id, result: result ?? null };
  } catch (error) {
    return { jsonrpc: '2.0', id, error: nodeError(error) };
  }
}

/** The reply to a request's body (one call or a batch), and how many calls it held. */
async function reply(request: EIP1193RequestFn, text: string) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body === undefined || body === null || typeof body !== 'object') {
    const parseError: JsonRpcResponse = {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'parse error' },
    };
    return { reply: parseError, calls: 1 };
  }
  if (Array.isArray(body)) {
    return { reply: await Promise.all(body.map((call: Call) => answer(request, call))), calls: body.length };
  }
  return { reply: await answer(request, body as Call), calls: 1 };
}

export interface DevnetServer {
  url: string;
  /** The HTTP server itself (a switch closes its idle connections). */
  server: Server;
  close(): Promise<void>;
}

/** What a switch in front of the devnet decides; without hooks every request is answered. */
export interface DevnetServerHooks {
  /** Whether a request is taken as it arrives; one that is not is left to the hook (ended or held). */
  admit?(incoming: IncomingMessage): boolean;
  /** Whether the reply to `calls` calls, ready now, is sent; when not, the connection is ended unanswered. */
  deliver?(calls: number): boolean;
}

export async function serveDevnet(
  request: EIP1193RequestFn,
  hooks: DevnetServerHooks = {},
): Promise<DevnetServer> {
  const server: Server = createServer((incoming, outgoing) => {
    if (hooks.admit && !hooks.admit(incoming)) return;
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      void (async () => {
        const answered = await reply(request, Buffer.concat(chunks).toString('utf8'));
        if (hooks.deliver && !hooks.deliver(answered.calls)) {
          incoming.socket.destroy();
          return;
        }
        outgoing.writeHead(200, { 'content-type': 'application/json' });
        outgoing.end(
          JSON.stringify(answered.reply, (_key, value) =>
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
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
