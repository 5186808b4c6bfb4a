/**
 * Live updates (docs/adr/0025-live-updates-with-server-sent-events.md): while a user is logged in, one stream
 * of server events (GET /api/v1/events) becomes TanStack Query invalidations by the API-path keys, so the
 * dashboard, the records' block status and the alerts refresh by themselves. New records are also
 * announced (new-records.ts): the sterilization list decides there whether to refresh itself (page 1
 * as it opens) or to offer "N new records" (a view the user has paged, sorted or filtered).
 *
 * The stream is read with fetch through the one API client, so the session token travels in the
 * Authorization header, never in a URL. A dropped stream is reopened with backoff; events sent while
 * it was down are not replayed, so each reopening refreshes everything live as if events had come.
 */
import type { QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { LiveEvent } from '#shared/api/index.ts';
import { api } from './api-client';
import { readEventStream } from './event-stream';
import { announceGap, announceRecords } from './new-records';
import { useSession } from './session';

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/** A list query of GET /sterilizations (key ['sterilizations', {page…}]), not its filter options. */
const isSterilizationList = (key: readonly unknown[]) =>
  key[0] === 'sterilizations' && typeof key[1] === 'object' && key[1] !== null;

/** A query of a customer's reports (key ['customers', id, 'reports', …]). */
const isReportList = (key: readonly unknown[]) => key[0] === 'customers' && key[2] === 'reports';

export function applyLiveEvent(queryClient: QueryClient, event: LiveEvent): void {
  switch (event.type) {
    case 'record.created':
      announceRecords({
        customerId: event.customerId,
        deviceId: event.deviceId,
        count: event.recordIds.length,
      });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
      return;
    case 'block.mined':
      // A block changes its records' and signed reports' status, not their order: every list may
      // refresh in place (a report's receipt is offered once its version is anchored).
      void queryClient.invalidateQueries({
        predicate: (query) => isSterilizationList(query.queryKey) || isReportList(query.queryKey),
      });
      return;
    case 'alert.raised':
    case 'alert.acknowledged':
      void queryClient.invalidateQueries({ queryKey: ['alerts'] });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
      return;
  }
}

/** After a gap in the stream: whatever an event could have changed. */
function refreshAfterGap(queryClient: QueryClient): void {
  announceGap();
  for (const key of [['dashboard'], ['alerts']]) void queryClient.invalidateQueries({ queryKey: key });
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

type TabMessage = { kind: 'event'; event: LiveEvent } | { kind: 'gap' };

/**
 * Follows the stream until `signal` aborts or the session ends: a 401 goes through the API client's
 * "session expired" handling, which logs out; nothing is retried after it. `missedBefore`: events may
 * have been missed before this call (another tab was following them and closed).
 */
async function followStream(
  signal: AbortSignal,
  missedBefore: boolean,
  handle: (message: TabMessage) => void,
): Promise<void> {
  let retryMs = FIRST_RETRY_MS;
  let missed = missedBefore;
  while (!signal.aborted) {
    try {
      const { data, response } = await api.GET('/events', { parseAs: 'stream', signal });
      if (response.status === 401) return;
      if (response.ok && data) {
        if (missed) handle({ kind: 'gap' });
        missed = true;
        retryMs = FIRST_RETRY_MS;
        await readEventStream(data, (event) => handle({ kind: 'event', event }));
      }
    } catch {
      // Network failure or the stream broke: try again below.
    }
    if (signal.aborted) return;
    // Jitter spreads the reconnections of many browsers after a server restart.
    await pause(retryMs * (0.75 + Math.random() / 2), signal);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  }
}

const TAB_LOCK = 'uvtrace.live-updates';

/**
 * Live updates for this tab until the returned function is called. The tabs of one browser share one
 * stream: a browser opens at most six HTTP/1.1 connections to a host, and a stream per tab would take
 * one each. The tab holding a Web Lock follows the stream and passes each event on over a
 * BroadcastChannel; when it closes, the lock goes to another tab, which takes over (and refreshes, as
 * events may have passed meanwhile). Without those APIs every tab follows its own stream.
 */
export function startLiveUpdates(queryClient: QueryClient): () => void {
  const stop = new AbortController();
  const { signal } = stop;
  const apply = (message: TabMessage) =>
    message.kind === 'gap' ? refreshAfterGap(queryClient) : applyLiveEvent(queryClient, message.event);
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(TAB_LOCK);
  channel?.addEventListener('message', (message: MessageEvent<TabMessage>) => apply(message.data));
  const lead = (missedBefore: boolean) =>
    followStream(signal, missedBefore, (message) => {
      apply(message);
      channel?.postMessage(message);
    });

  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks || !channel) {
    void lead(false);
  } else {
    // First try without waiting: the first tab has missed nothing; a tab that waited has.
    void locks
      .request(TAB_LOCK, { ifAvailable: true }, (lock) => (lock ? lead(false) : 'taken'))
      .then((outcome) =>
        outcome === 'taken' && !signal.aborted
          ? locks.request(TAB_LOCK, { signal }, () => lead(true))
          : undefined,
      )
      .catch(() => {
        // Aborted while waiting for the lock: this tab is closing its live updates.
      });
  }
  return () => {
    stop.abort();
    channel?.close();
  };
}

/** Keeps the stream open while a session exists (a new login opens a new one). */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  const token = useSession()?.token;
  useEffect(() => (token ? startLiveUpdates(queryClient) : undefined), [token, queryClient]);
}
