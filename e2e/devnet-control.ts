/**
 * Test-only control of the end-to-end server's devnet mining, so a spec can hold an anchor
 * transaction in the mempool (a block SENT, not MINED) and then let it be mined.
 *
 * Only scripts/e2e-server.ts opens it (that script also wipes its data directory at start, so it is
 * never how a real server runs): a Unix socket at `<E2E_DATA_DIR>/devnet-control.sock`, mode 0600,
 * answering two devnet methods and nothing else. The server (`npm start`, src/server/main.ts) has no
 * such switch, and the public /chain-rpc endpoint stays read-only.
 */
import { chmod } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import path from 'node:path';

/** The end-to-end server's data directory (E2E_DATA_DIR lets suites run side by side). */
export const e2eDataDir = path.resolve(
  process.env.E2E_DATA_DIR || path.join(import.meta.dirname, '../test-results/e2e-data'),
);
const socketPath = path.join(e2eDataDir, 'devnet-control.sock');

/** evm_setAutomine [boolean]: mine each transaction as it arrives, or keep it in the mempool; evm_mine: mine one block now. */
const METHODS = new Set(['evm_setAutomine', 'evm_mine']);
type Call = { method: string; params?: unknown[] };
type DevnetRequest = (call: { method: string; params: unknown[] }) => Promise<unknown>;

/** Server side (scripts/e2e-server.ts): forwards the allowed methods to the in-process devnet. */
export async function serveDevnetControl(request: DevnetRequest): Promise<Server> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    let status = 200;
    let answer: unknown;
    try {
      const call = JSON.parse(body) as Call;
      if (req.method !== 'POST' || !METHODS.has(call.method)) {
        status = 403;
        answer = { error: `not allowed: ${call.method}` };
      } else {
        answer = { result: (await request({ method: call.method, params: call.params ?? [] })) ?? null };
      }
    } catch (error) {
      status = 500;
      answer = { error: (error as Error).message };
    }
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  await chmod(socketPath, 0o600);
  server.unref();
  return server;
}

/** Client side (specs): one call to the end-to-end server's devnet. */
export function devnetControl(
  method: 'evm_setAutomine' | 'evm_mine',
  params: unknown[] = [],
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      { socketPath, path: '/', method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          const parsed = JSON.parse(text || '{}') as { result?: unknown; error?: string };
          if (res.statusCode === 200) resolve(parsed.result);
          else reject(new Error(`devnet control ${method}: ${parsed.error ?? res.statusCode}`));
        });
      },
    );
    call.on('error', reject);
    call.end(JSON.stringify({ method, params }));
  });
}
