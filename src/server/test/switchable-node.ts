/**
 * A chain node that tests (and bench:faults) can take away: a loopback JSON-RPC server forwarding every
 * call to a devnet, with a switch. `down` ends each connection as it arrives (a node that refuses),
 * `silent` keeps it open and never answers (a node that hangs, so the caller's time-out decides), `up`
 * forwards again. The server points CHAIN_RPC_URL (or a connectChain config) at `url`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { EIP1193RequestFn } from 'viem';

export type NodeMode = 'up' | 'down' | 'silent';

export interface SwitchableNode {
  url: string;
  mode(): NodeMode;
  set(mode: NodeMode): void;
  /** Calls answered since the node started (all modes but `up` answer none). */
  answered(): number;
  close(): Promise<void>;
}

type Call = { id?: string | number | null; method?: unknown; params?: unknown };

async function answer(request: EIP1193RequestFn, call: Call) {
  const id = call.id ?? null;
  try {
    const result = await request({ method: String(call.method), params: call.params ?? [] } as never);
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

export async function serveSwitchableNode(request: EIP1193RequestFn): Promise<SwitchableNode> {
  let mode: NodeMode = 'up';
  let answered = 0;
  const held = new Set<Socket>();
  const server: Server = createServer((incoming, outgoing) => {
    if (mode === 'down') {
      incoming.socket.destroy();
      return;
    }
    if (mode === 'silent') {
      held.add(incoming.socket);
      incoming.socket.once('close', () => held.delete(incoming.socket));
      return;
    }
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[];
        const reply = Array.isArray(body)
          ? await Promise.all(body.map((call) => answer(request, call)))
          : await answer(request, body);
        // Switched off while the devnet worked on it: the caller sees no answer either.
        if (mode !== 'up') {
          incoming.socket.destroy();
          return;
        }
        answered += Array.isArray(body) ? body.length : 1;
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
    mode: () => mode,
    set(next) {
      mode = next;
      // Kept-alive connections of an earlier mode would otherwise still be served.
      if (next !== 'up') server.closeIdleConnections();
      if (next === 'up') for (const socket of held) socket.destroy();
    },
    answered: () => answered,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of held) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
