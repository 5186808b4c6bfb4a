/**
 * publishEvent: how any server code announces something live (a record stored, a block mined, an
 * alert raised). Call it after the change has committed; it never throws and never waits for a
 * subscriber, so the caller (ingestion, the anchor worker) is neither failed nor slowed by it.
 *
 * On PostgreSQL the event is a NOTIFY on one channel, which every server process on the database
 * LISTENs to (event-bus.ts). On the embedded PGlite, which only one process can open, it is handed to
 * that process's subscribers directly: PGlite is one backend shared by every socket connection, so a
 * notification comes back on the connection that sent it, never on a dedicated listening one.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { describeError } from '../db/error-causes.ts';
import type { PublishedEvent } from './published-event.ts';

/** The one NOTIFY channel of live events. */
export const EVENTS_CHANNEL = 'uvtrace_events';
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
export const MAX_PAYLOAD_BYTES = 7900;

type Deliver = (event: PublishedEvent) => void;
/** Subscribers of a database that delivers in-process (PGlite), keyed by its drizzle handle. */
const inProcess = new WeakMap<Db, Set<Deliver>>();

/**
 * Makes events published on this database reach `deliver` in this process, without NOTIFY (the
 * embedded database). Answers the function that stops it.
 */
export function deliverInProcess(db: Db, deliver: Deliver): () => void {
  let subscribers = inProcess.get(db);
  if (!subscribers) {
    subscribers = new Set();
    inProcess.set(db, subscribers);
  }
  subscribers.add(deliver);
  return () => subscribers.delete(deliver);
}

const payloadBytes = (event: PublishedEvent) => Buffer.byteLength(JSON.stringify(event));

/** The event as one or more events of payloads under the limit (its id list split in halves). */
export function fitPayloads(event: PublishedEvent): PublishedEvent[] {
  if (payloadBytes(event) <= MAX_PAYLOAD_BYTES) return [event];
  const halves = <T>(list: T[]) => [list.slice(0, list.length >> 1), list.slice(list.length >> 1)];
  if (event.type === 'record.created' && event.recordIds.length > 1)
    return halves(event.recordIds).flatMap((recordIds) => fitPayloads({ ...event, recordIds }));
  if (event.type === 'block.mined' && event.customerIds.length > 1)
    return halves(event.customerIds).flatMap((customerIds) => fitPayloads({ ...event, customerIds }));
  return [event];
}

export function publishEvent(db: Db, event: PublishedEvent): Promise<void> {
  return publishEvents(db, [event]);
}

/** Several events at once: on PostgreSQL one statement (one transaction) for all their NOTIFYs. */
export async function publishEvents(db: Db, events: PublishedEvent[]): Promise<void> {
  if (events.length === 0) return;
  const local = inProcess.get(db);
  if (local) {
    // Delivered after the caller's own continuation, as a NOTIFY would be.
    queueMicrotask(() => {
      for (const event of events) for (const deliver of local) deliver(event);
    });
    return;
  }
  const payloads = events.flatMap(fitPayloads).map((part) => JSON.stringify(part));
  try {
    await db.execute(
      sql`select pg_notify(${EVENTS_CHANNEL}, payload) from jsonb_array_elements_text(${JSON.stringify(payloads)}::jsonb) with ordinality as p(payload, n) order by n`,
    );
  } catch (error) {
    // A live update lost is repaired by the next one or a reload; the change itself has committed.
    console.error(
      `[events] could not publish ${events.map((event) => event.type).join(', ')}: ${describeError(error)}`,
    );
  }
}
