import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '#shared/api/index.ts';
import { parseFrame, readEventStream } from './event-stream';
import { applyLiveEvent } from './live-updates';
import { announcedRecords, countAnnounced } from './new-records';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('readEventStream', () => {
  it('reads events split anywhere across chunks and skips comments', async () => {
    const events: LiveEvent[] = [];
    const first = { type: 'record.created', customerId: 2, deviceId: 5, recordIds: [10, 11] };
    const second = { type: 'block.mined', blockId: 3 };
    const text = `: connected\n\nevent: record.created\ndata: ${JSON.stringify(first)}\n\n: heartbeat\n\nevent: block.mined\ndata: ${JSON.stringify(second)}\n\n`;
    // Cut into 7-byte pieces: frames and even the "è"-free JSON fall across chunk boundaries.
    const chunks = text.match(/[\s\S]{1,7}/g) ?? [];
    await readEventStream(streamOf(chunks), (event) => events.push(event));
    expect(events).toEqual([first, second]);
  });

  it('ignores frames without data or with data that is not an event', () => {
    expect(parseFrame(': heartbeat')).toBeNull();
    expect(parseFrame('data: not json')).toBeNull();
    expect(parseFrame('data: 42')).toBeNull();
    expect(parseFrame('event: block.mined\r\ndata: {"type":"block.mined","blockId":1}')).toEqual({
      type: 'block.mined',
      blockId: 1,
    });
  });
});

describe('applyLiveEvent', () => {
  function clientWithQueries() {
    const client = new QueryClient();
    const keys = [
      ['dashboard'],
      ['sterilizations', { page: 1, sortBy: 'received_ts', sortDir: 'desc' }],
      ['sterilizations', { page: 3, sortBy: 'device_serial', sortDir: 'asc' }],
      ['sterilizations', 'customer-filter'],
      ['alerts', { page: 1 }],
      ['customers', { page: 1 }],
    ];
    for (const key of keys) client.setQueryData(key, { any: 'data' });
    const stale = () =>
      client
        .getQueryCache()
        .getAll()
        .filter((query) => query.isStale())
        .map((query) => JSON.stringify(query.queryKey))
        .sort();
    return { client, stale };
  }

  it('a new record refreshes the dashboard only (lists decide themselves) and is announced', () => {
    const { client, stale } = clientWithQueries();
    applyLiveEvent(client, { type: 'record.created', customerId: 4, deviceId: 9, recordIds: [1, 2, 3] });
    expect(stale()).toEqual(['["dashboard"]']);
    expect(announcedRecords().at(-1)).toMatchObject({ customerId: 4, deviceId: 9, count: 3 });
  });

  it('a mined block refreshes every sterilization list, not the filter options', () => {
    const { client, stale } = clientWithQueries();
    applyLiveEvent(client, { type: 'block.mined', blockId: 8 });
    expect(stale()).toEqual([
      '["sterilizations",{"page":1,"sortBy":"received_ts","sortDir":"desc"}]',
      '["sterilizations",{"page":3,"sortBy":"device_serial","sortDir":"asc"}]',
    ]);
  });

  it('an alert refreshes the alerts and the dashboard', () => {
    const { client, stale } = clientWithQueries();
    applyLiveEvent(client, { type: 'alert.raised', alertId: 1, customerId: null });
    expect(stale()).toEqual(['["alerts",{"page":1}]', '["dashboard"]']);
  });
});

describe('countAnnounced', () => {
  it('adds up the records announced after a moment that match', () => {
    const records = [
      { receivedAt: 100, customerId: 1, deviceId: 1, count: 2 },
      { receivedAt: 200, customerId: 1, deviceId: 2, count: 3 },
      { receivedAt: 300, customerId: 2, deviceId: 3, count: 4 },
      { receivedAt: 400, customerId: null, deviceId: null, count: 0 },
    ];
    expect(countAnnounced(records, 150, () => true)).toBe(7);
    expect(countAnnounced(records, 150, (item) => item.customerId === 1)).toBe(3);
    expect(countAnnounced(records, 400, () => true)).toBe(0);
  });
});
