/**
 * A Server-Sent Events reader for tests of GET /api/v1/events over real HTTP (inject() waits for an
 * answer's end, which a stream never reaches), with the bearer header, as the browser's fetch sends it.
 * node:http with a connection of its own rather than fetch: undici's pool may open a spare connection
 * that never sends a request, which keeps the test server from closing for a minute.
 */
import { type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface SseEvent {
  event: string;
  data: unknown;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The body of a refused (non-stream) answer. */
  refusal: unknown;
  /** The next event (comments skipped); rejects when the stream ends first. */
  next(): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** How many heartbeat comments arrived so far. */
  heartbeats(): number;
  close(): void;
}

/** Starts `app` on a free port of 127.0.0.1 (once) and answers its base URL. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/**
 * Opens the stream; resolves once the server has answered (subscribed, for a 200). `requestHeaders` go with
 * the request (an X-Forwarded-For names the client address, the test apps trusting the proxy).
 */
export async function openEventStream(
  baseUrl: string,
  token?: string,
  requestHeaders: Record<string, string> = {},
): Promise<SseStream> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request(`${baseUrl}/api/v1/events`, {
      agent: false,
      headers: { ...requestHeaders, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    })
      .on('response', resolve)
      .on('error', reject)
      .end();
  });
  const status = response.statusCode ?? 0;
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers))
    if (typeof value === 'string') headers.set(name, value);
  const events: SseEvent[] = [];
  const waiters: { resolve(event: SseEvent): void; reject(error: Error): void }[] = [];
  let beats = 0;
  let finished = false;
  let markEnded: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    markEnded = resolve;
  });
  const finish = () => {
    finished = true;
    for (const waiter of waiters.splice(0)) waiter.reject(new Error('the event stream ended'));
    markEnded();
  };

  if (status !== 200) {
    let text = '';
    for await (const chunk of response) text += chunk;
    const refusal = (() => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return null;
      }
    })();
    finish();
    return {
      status,
      headers,
      refusal,
      next: () => Promise.reject(new Error(`refused: ${status}`)),
      ended,
      heartbeats: () => 0,
      close() {},
    };
  }

  response.setEncoding('utf8');
  let buffer = '';
  let connected: () => void = () => {};
  const firstFrame = new Promise<void>((resolve) => {
    connected = resolve;
  });
  const frame = (text: string) => {
    connected();
    let event = 'message';
    const data: string[] = [];
    for (const line of text.split('\n')) {
      if (line.startsWith(': heartbeat')) beats += 1;
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length === 0) return;
    const parsed: SseEvent = { event, data: JSON.parse(data.join('\n')) };
    const waiter = waiters.shift();
    if (waiter) waiter.resolve(parsed);
    else events.push(parsed);
  };
  void (async () => {
    try {
      for await (const value of response) {
        buffer += value;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          frame(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // destroyed by close()
    }
    connected();
    finish();
  })();
  await firstFrame;

  return {
    status,
    headers,
    refusal: null,
    next() {
      const queued = events.shift();
      if (queued) return Promise.resolve(queued);
      if (finished) return Promise.reject(new Error('the event stream ended'));
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    ended,
    heartbeats: () => beats,
    close: () => void response.destroy(),
  };
}
