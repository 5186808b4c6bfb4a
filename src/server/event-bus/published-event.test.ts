import { describe, expect, it } from 'vitest';
import { fitPayloads, MAX_PAYLOAD_BYTES } from './publish.ts';
import { mayReceive, type PublishedEvent, parsePublishedEvent, type Subscriber } from './published-event.ts';

const staff: Subscriber[] = (['SUPER_ADMIN', 'ADMIN', 'CUSTOMER_CARE'] as const).map((role) => ({
  role,
  customerId: 1,
}));
const clinic: Subscriber = { role: 'CUSTOMER', customerId: 7 };
const otherClinic: Subscriber = { role: 'CUSTOMER', customerId: 8 };

describe('mayReceive', () => {
  const cases: [PublishedEvent, boolean, boolean][] = [
    // event, the clinic (7) receives it, the other clinic (8) receives it; staff always do
    [{ type: 'record.created', customerId: 7, deviceId: 3, recordIds: [1] }, true, false],
    [{ type: 'block.mined', blockId: 4, customerIds: [7, 9] }, true, false],
    [{ type: 'block.mined', blockId: 5, customerIds: [] }, false, false],
    [{ type: 'alert.raised', alertId: 1, customerId: 7 }, true, false],
    [{ type: 'alert.acknowledged', alertId: 1, customerId: 8 }, false, true],
    [{ type: 'alert.raised', alertId: 2, customerId: null }, false, false],
  ];
  for (const [event, toClinic, toOther] of cases) {
    it(`${event.type} ${JSON.stringify(event)}`, () => {
      for (const subscriber of staff) expect(mayReceive(subscriber, event)).toBe(true);
      expect(mayReceive(clinic, event)).toBe(toClinic);
      expect(mayReceive(otherClinic, event)).toBe(toOther);
    });
  }
});

describe('parsePublishedEvent', () => {
  it('reads back what was published and refuses anything else', () => {
    const event: PublishedEvent = { type: 'record.created', customerId: 2, deviceId: 3, recordIds: [4, 5] };
    expect(parsePublishedEvent(JSON.stringify(event))).toEqual(event);
    expect(
      parsePublishedEvent('{"type":"record.created","customerId":"2","deviceId":3,"recordIds":[]}'),
    ).toBeNull();
    expect(parsePublishedEvent('{"type":"block.mined","blockId":1}')).toBeNull();
    expect(parsePublishedEvent('{"type":"session.ended"}')).toBeNull();
    expect(parsePublishedEvent('not json')).toBeNull();
    expect(parsePublishedEvent('null')).toBeNull();
  });
});

describe('fitPayloads', () => {
  it('splits an event whose payload would reach the NOTIFY limit, losing no id', () => {
    const customerIds = Array.from({ length: 2000 }, (_, i) => 1_000_000 + i);
    const parts = fitPayloads({ type: 'block.mined', blockId: 9, customerIds });
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts)
      expect(Buffer.byteLength(JSON.stringify(part))).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(parts.flatMap((part) => (part.type === 'block.mined' ? part.customerIds : []))).toEqual(
      customerIds,
    );
  });

  it('leaves a small event whole', () => {
    const event: PublishedEvent = { type: 'alert.raised', alertId: 1, customerId: 2 };
    expect(fitPayloads(event)).toEqual([event]);
  });
});
