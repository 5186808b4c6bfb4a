/**
 * Long streamed answers (the CSV exports, the proof bundle) give way to the requests a person is
 * waiting for. An export formats its rows as fast as the client takes them and would take a whole core;
 * a health check or a list page arriving meanwhile would wait behind its slices, and its database
 * round trip behind the export's queries. So the process counts the requests in flight (a stream that
 * stays open, an export or an event stream, says so and stops counting), and an export, between two
 * slices, waits until none is left, for at most GIVE_WAY_MAX_MS: it still moves while requests keep
 * arriving back to back, in the gaps and after each wait.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Resolves when the caller may do its next slice of background work. */
export type GiveWay = () => Promise<void>;

/** The longest an export waits for the requests in flight before its next slice. */
export const GIVE_WAY_MAX_MS = 20;

/** Only a turn of the event loop: for callers with no requests to give way to (scripts, tests). */
export const nextTurnOnly: GiveWay = async () => {
  await nextTurn();
};

export interface ForegroundRequests {
  /** This request stays open long (a stream): the others do not wait for it. */
  runsLong(request: FastifyRequest): void;
  giveWay: GiveWay;
  /** Requests in flight that a long stream gives way to. */
  inFlight(): number;
}

export function registerForegroundRequests(
  app: FastifyInstance,
  maxWaitMs = GIVE_WAY_MAX_MS,
): ForegroundRequests {
  let inFlight = 0;
  const counted = new WeakSet<object>();
  const waiters = new Set<() => void>();
  const release = (raw: object) => {
    if (!counted.delete(raw)) return;
    inFlight -= 1;
    if (inFlight > 0) return;
    for (const wake of [...waiters]) wake();
  };
  app.addHook('onRequest', (request, reply, done) => {
    counted.add(request.raw);
    inFlight += 1;
    // 'close' comes once the answer is sent or the connection is gone, whichever happens.
    reply.raw.once('close', () => release(request.raw));
    done();
  });
  return {
    runsLong: (request) => release(request.raw),
    inFlight: () => inFlight,
    async giveWay() {
      await nextTurn();
      if (inFlight === 0) return;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, maxWaitMs);
        waiters.add(wake);
      });
    },
  };
}

/**
 * Rows as text in slices of `sliceRows`, giving way after each: what a streamed export yields between
 * two of its database batches.
 */
export async function* inSlices<T>(
  rows: readonly T[],
  sliceRows: number,
  text: (slice: readonly T[]) => string,
  giveWay: GiveWay,
): AsyncGenerator<string> {
  for (let start = 0; start < rows.length; start += sliceRows) {
    yield text(rows.slice(start, start + sliceRows));
    await giveWay();
  }
}
