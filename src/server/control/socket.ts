/**
 * A running server's local control socket: `DATA_DIR/uvtrace.sock`, a Unix socket of mode 0600, so
 * only the account that owns the data directory (and could read the database files anyway) reaches
 * it. Through it `npm run backup` and `npm run integrity:sweep` ask the server for what only the
 * server can give while it runs (docs/backups.md): a consistent copy of the embedded database, which
 * its process alone may open, and a sweep that reads the chain the server holds (the embedded devnet
 * lives in its memory). HTTP over the socket; nothing else is served on it.
 *
 *   POST /database-dump      the embedded database as PGlite's tarball; its schema in x-uvtrace-schema-*
 *   POST /integrity-sweep    the sweep's report, one JSON object per line: mismatches, then the summary
 */
import { createReadStream, existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const CONTROL_SOCKET_NAME = 'uvtrace.sock';

export function controlSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), CONTROL_SOCKET_NAME);
}

export interface ControlHandlers {
  /** Writes the embedded database to `target`; answers its schema version (absent with PostgreSQL). */
  dumpDatabase?: (target: string) => Promise<{ when: number; tag: string | null }>;
  /** Runs a whole integrity sweep, writing each line of its report as it comes. */
  integritySweep?: (send: (line: object) => void) => Promise<object>;
}

type Log = { info(msg: string): void; warn(msg: string): void };

export interface ControlSocket {
  path: string;
  close(): Promise<void>;
}

/** Whether a server answers on the socket (a file left by a server that died does not). */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = request({ socketPath, path: '/', method: 'GET', timeout: 2000 }, (response) => {
      response.resume();
      resolve(true);
    });
    probe.on('error', () => resolve(false));
    probe.on('timeout', () => {
      probe.destroy();
      resolve(false);
    });
    probe.end();
  });
}

async function handle(handlers: ControlHandlers, incoming: IncomingMessage, outgoing: ServerResponse) {
  if (incoming.method === 'POST' && incoming.url === '/database-dump' && handlers.dumpDatabase) {
    // Outside the data directory, which the backup copies.
    const directory = await mkdtemp(path.join(tmpdir(), 'uvtrace-dump-'));
    const target = path.join(directory, 'database.tar');
    try {
      const schema = await handlers.dumpDatabase(target);
      outgoing.writeHead(200, {
        'content-type': 'application/x-tar',
        'content-length': (await stat(target)).size,
        'x-uvtrace-schema-when': String(schema.when),
        'x-uvtrace-schema-tag': schema.tag ?? '',
      });
      await new Promise<void>((resolve, reject) => {
        const stream = createReadStream(target);
        stream.on('error', reject);
        outgoing.on('close', resolve);
        stream.pipe(outgoing);
      });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    return;
  }
  if (incoming.method === 'POST' && incoming.url === '/integrity-sweep' && handlers.integritySweep) {
    outgoing.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const send = (line: object) => outgoing.write(`${JSON.stringify(line)}\n`);
    const summary = await handlers.integritySweep(send);
    outgoing.end(`${JSON.stringify({ summary })}\n`);
    return;
  }
  outgoing.writeHead(incoming.method === 'GET' ? 200 : 404, { 'content-type': 'text/plain' });
  outgoing.end(incoming.method === 'GET' ? 'uvtrace\n' : 'not here\n');
}

/**
 * Opens the socket in the data directory. Answers null (and logs why) when it cannot: another server
 * answers there already, or the path is too long for a Unix socket.
 */
export async function openControlSocket(
  dataDir: string,
  handlers: ControlHandlers,
  log: Log,
): Promise<ControlSocket | null> {
  const socketPath = controlSocketPath(dataDir);
  await mkdir(path.dirname(socketPath), { recursive: true });
  if (existsSync(socketPath)) {
    if (await answers(socketPath)) {
      log.warn(`control socket: another server answers at ${socketPath}; this one opens none`);
      return null;
    }
    await rm(socketPath, { force: true });
  }
  // One request at a time: a dump holds the embedded database's queries while it is written.
  let queue: Promise<unknown> = Promise.resolve();
  const server: Server = createServer((incoming, outgoing) => {
    incoming.resume();
    queue = queue.then(() =>
      handle(handlers, incoming, outgoing).catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'application/json' });
        outgoing.end(`${JSON.stringify({ error: message })}\n`);
      }),
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    await chmod(socketPath, 0o600);
  } catch (error) {
    server.close();
    log.warn(
      `control socket: cannot listen at ${socketPath} (${(error as Error).message}): backups and sweeps of this running server are unavailable`,
    );
    return null;
  }
  server.unref();
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => rm(socketPath, { force: true })),
  };
}

/**
 * Asks the server running on a data directory: the response, or null when no server answers there
 * (no socket, or one left by a server that stopped).
 */
export function askServer(
  dataDir: string,
  route: '/database-dump' | '/integrity-sweep',
): Promise<IncomingMessage | null> {
  const socketPath = controlSocketPath(dataDir);
  if (!existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const call = request({ socketPath, path: route, method: 'POST' }, (response) => {
      if (response.statusCode === 200) return resolve(response);
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => {
        let message = text.trim();
        try {
          message = (JSON.parse(message) as { error?: string }).error ?? message;
        } catch {
          // Plain text: as it is.
        }
        reject(new Error(`the server at ${dataDir} refused ${route}: ${message}`));
      });
    });
    call.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(null);
      else reject(error);
    });
    call.end();
  });
}
