/**
 * Reads a Server-Sent Events body (text/event-stream) as the server writes it: frames separated by a
 * blank line, `event:` and `data:` fields, comment lines (heartbeats) ignored. fetch's body rather than
 * EventSource, because EventSource cannot send the Authorization header.
 */
import type { LiveEvent } from '#shared/api/index.ts';

/** One frame's data as a LiveEvent, or null for a frame without data or with data we do not know. */
export function parseFrame(frame: string): LiveEvent | null {
  const data: string[] = [];
  for (const line of frame.split(/\r?\n/)) {
    if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  }
  if (data.length === 0) return null;
  try {
    const value: unknown = JSON.parse(data.join('\n'));
    return typeof value === 'object' &&
      value !== null &&
      typeof (value as { type?: unknown }).type === 'string'
      ? (value as LiveEvent)
      : null;
  } catch {
    return null;
  }
}

/** Calls onEvent for each event of the body until it ends (resolves) or breaks (rejects). */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: LiveEvent) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    const frames = buffer.split(/\r?\n\r?\n/);
    buffer = frames.pop() ?? '';
    for (const frame of frames) {
      const event = parseFrame(frame);
      if (event) onEvent(event);
    }
  }
}
