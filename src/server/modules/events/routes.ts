/**
 * Live updates (docs/adr/0025-live-updates-with-server-sent-events.md): the caller's Server-Sent Events
 * stream, authorised by its bearer session.
 */

import type { ApiModule } from '#server/contract/handler-types.ts';
import type { EventBus } from '#server/event-bus/event-bus.ts';
import { ApiError } from '#server/http/envelope.ts';
import type { ForegroundRequests } from '#server/http/give-way.ts';
import { currentAuth } from '#server/security/guards.ts';
import type { EventStreams } from './event-streams.ts';

/** How long a new stream waits for the process to be listening (just started, or reconnecting). */
const LISTEN_WAIT_MS = 5_000;

export function eventsModule(deps: {
  bus: EventBus;
  streams: EventStreams;
  /** An open stream is not a request that exports wait for. */
  foreground?: ForegroundRequests;
}): ApiModule {
  return {
    handlers: {
      async streamEvents(request, reply) {
        const auth = currentAuth(request);
        deps.foreground?.runsLong(request);
        // A stream that says "connected" must not miss what is published next; while the process
        // cannot listen, the client is told to try again later, as for any call the database fails.
        let timer: NodeJS.Timeout | undefined;
        const listening = await Promise.race([
          deps.bus.ready().then(() => true),
          new Promise<false>((resolve) => {
            timer = setTimeout(resolve, LISTEN_WAIT_MS, false);
          }),
        ]);
        clearTimeout(timer);
        if (!listening) throw new ApiError(503, 'service_unavailable');
        return deps.streams.open(reply, auth, request.ip);
      },
    },
  };
}
