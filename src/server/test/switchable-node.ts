/**
 * A chain node that tests (and bench:faults) can take away: the devnet served over JSON-RPC on a
 * loopback port (devnet-server.ts), with a switch. `down` ends each connection as it arrives (a node
 * that refuses), `silent` keeps it open and never answers (a node that hangs, so the caller's time-out
 * decides), `up` forwards again. The server points CHAIN_RPC_URL (or a connectChain config) at `url`.
 */
import type { Socket } from 'node:net';
import type { EIP1193RequestFn } from 'viem';
import { serveDevnet } from '../modules/integrity/devnet-server.ts';

export type NodeMode = 'up' | 'down' | 'silent';

export interface SwitchableNode {
  url: string;
  mode(): NodeMode;
  set(mode: NodeMode): void;
  /** Calls answered since the node started (all modes but `up` answer none). */
  answered(): number;
  close(): Promise<void>;
}

export async function serveSwitchableNode(request: EIP1193RequestFn): Promise<SwitchableNode> {
  let mode: NodeMode = 'up';
  let answered = 0;
  const held = new Set<Socket>();
  const devnet = await serveDevnet(request, {
    admit(incoming) {
      if (mode === 'down') {
        incoming.socket.destroy();
        return false;
      }
      if (mode === 'silent') {
        held.add(incoming.socket);
        incoming.socket.once('close', () => held.delete(incoming.socket));
        return false;
      }
      return true;
    },
    deliver(calls) {
      // Switched off while the devnet worked on it: the caller sees no answer either.
      if (mode !== 'up') return false;
      answered += calls;
      return true;
    },
  });
  return {
    url: devnet.url,
    mode: () => mode,
    set(next) {
      mode = next;
      // Kept-alive connections of an earlier mode would otherwise still be served.
      if (next !== 'up') devnet.server.closeIdleConnections();
      if (next === 'up') for (const socket of held) socket.destroy();
    },
    answered: () => answered,
    async close() {
      for (const socket of held) socket.destroy();
      await devnet.close();
    },
  };
}
