/**
 * The live events one server process publishes and every process delivers
 * (docs/adr/0025-live-updates-with-server-sent-events.md): what each one says, who may receive it,
 * and what a subscriber is shown of it.
 */
import { hasModule, isTenantScoped, type Role } from '#shared/access/index.ts';
import type { LiveEvent } from '#shared/api/index.ts';

/**
 * An event as it travels between processes: the subscriber's view (`LiveEvent`) plus what decides
 * its audience. Ids and counts only, never rows: a NOTIFY payload must stay under 8000 bytes.
 */
export type PublishedEvent =
  | { type: 'record.created'; customerId: number; deviceId: number; recordIds: number[] }
  /** customerIds: the owners of the block's records (its audience beside staff). */
  | { type: 'block.mined'; blockId: number; customerIds: number[] }
  /** customerId null: a staff-only alert (e.g. a block not mined in time). */
  | { type: 'alert.raised' | 'alert.acknowledged'; alertId: number; customerId: number | null };

export type EventType = PublishedEvent['type'];
export const EVENT_TYPES: readonly EventType[] = [
  'record.created',
  'block.mined',
  'alert.raised',
  'alert.acknowledged',
];

/** Who is listening: enough of the session's user to decide what they may see. */
export interface Subscriber {
  role: Role;
  customerId: number;
}

/** Follows the read rules of the calls the event refreshes (src/shared/access): staff see every tenant. */
export function mayReceive(subscriber: Subscriber, event: PublishedEvent): boolean {
  const ownOnly = isTenantScoped(subscriber.role);
  switch (event.type) {
    case 'record.created':
      return (
        hasModule(subscriber.role, 'sterilizations') &&
        (!ownOnly || event.customerId === subscriber.customerId)
      );
    case 'block.mined':
      // A block is shown only through its records (the list's status, the verification modal).
      return (
        hasModule(subscriber.role, 'sterilizations') &&
        (!ownOnly || event.customerIds.includes(subscriber.customerId))
      );
    case 'alert.raised':
    case 'alert.acknowledged':
      return !ownOnly || (event.customerId !== null && event.customerId === subscriber.customerId);
  }
}

/** What a subscriber is sent: a block's other owners are none of a customer's business. */
export function toLiveEvent(event: PublishedEvent): LiveEvent {
  if (event.type === 'block.mined') return { type: event.type, blockId: event.blockId };
  return event;
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
const isIdList = (value: unknown): value is number[] => Array.isArray(value) && value.every(isId);

/** A payload received from another process, checked: anything else on the channel is ignored. */
export function parsePublishedEvent(payload: string): PublishedEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const event = value as Record<string, unknown>;
  switch (event.type) {
    case 'record.created':
      return isId(event.customerId) && isId(event.deviceId) && isIdList(event.recordIds)
        ? {
            type: event.type,
            customerId: event.customerId,
            deviceId: event.deviceId,
            recordIds: event.recordIds,
          }
        : null;
    case 'block.mined':
      return isId(event.blockId) && isIdList(event.customerIds)
        ? { type: event.type, blockId: event.blockId, customerIds: event.customerIds }
        : null;
    case 'alert.raised':
    case 'alert.acknowledged':
      return isId(event.alertId) && (event.customerId === null || isId(event.customerId))
        ? { type: event.type, alertId: event.alertId, customerId: event.customerId }
        : null;
    default:
      return null;
  }
}
