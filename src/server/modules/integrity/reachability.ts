/**
 * Whether the chain's nodes answer, as the server last saw it: every call to the node reports here, so
 * the health endpoint and the anchor worker know the node is away without waiting for a time-out of their
 * own. A JSON-RPC error is an answer (the node is there); only a call no node answered (refused, timed
 * out, an HTTP failure) counts as unreachable.
 */
import { BaseError, HttpRequestError, TimeoutError } from 'viem';

export type ChainReachability = 'ok' | 'unreachable';

export interface ReachabilityTracker {
  /** The last call's outcome and when it was seen (ms since the epoch); null before any call. */
  last(): { state: ChainReachability; at: number; error?: string } | null;
  answered(): void;
  failed(error: unknown): void;
}

export function createReachabilityTracker(): ReachabilityTracker {
  let last: { state: ChainReachability; at: number; error?: string } | null = null;
  return {
    last: () => last,
    answered() {
      last = { state: 'ok', at: Date.now() };
    },
    failed(error) {
      last = { state: 'unreachable', at: Date.now(), error: (error as Error)?.message?.split('\n')[0] };
    },
  };
}

/** True when no node answered the call (as opposed to a node answering with a JSON-RPC error). */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof BaseError) {
    return Boolean(error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError));
  }
  return error instanceof HttpRequestError || error instanceof TimeoutError;
}
