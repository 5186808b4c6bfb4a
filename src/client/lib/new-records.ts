/**
 * Records announced live since the page loaded (record.created events), kept so a list that must not
 * move under the user (paged, sorted or filtered) can say how many new ones match it ("3 new records")
 * instead of refreshing by itself.
 */
import { useSyncExternalStore } from 'react';

export interface AnnouncedRecords {
  /** When the event arrived (Date.now()), comparable with a query's dataUpdatedAt. */
  receivedAt: number;
  /** null with count 0: the stream was down for a while, records may have come unannounced. */
  customerId: number | null;
  deviceId: number | null;
  count: number;
}

/** Older announcements are of no use to any list on screen. */
const KEEP = 1000;
let announced: AnnouncedRecords[] = [];
const listeners = new Set<() => void>();

export function announceRecords(records: Omit<AnnouncedRecords, 'receivedAt'>): void {
  announced = [...announced.slice(-(KEEP - 1)), { ...records, receivedAt: Date.now() }];
  for (const listener of listeners) listener();
}

/** The stream was down: what a list shows may be out of date by an unknown number of records. */
export function announceGap(): void {
  announceRecords({ customerId: null, deviceId: null, count: 0 });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Every announcement so far (a new array on each one, so a render sees it change). */
export function announcedRecords(): readonly AnnouncedRecords[] {
  return announced;
}

export function useAnnouncedRecords(): readonly AnnouncedRecords[] {
  return useSyncExternalStore(subscribe, announcedRecords, announcedRecords);
}

/** How many announced records arrived after `since` and pass `matches`. */
export function countAnnounced(
  records: readonly AnnouncedRecords[],
  since: number,
  matches: (records: AnnouncedRecords) => boolean,
): number {
  let total = 0;
  for (const item of records) if (item.receivedAt > since && matches(item)) total += item.count;
  return total;
}
