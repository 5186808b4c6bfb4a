/** How many lines a chunk of text holds (its newline bytes), counted natively: a byte loop in JS would
 * hold the bench's own event loop, and with it every latency the bench measures meanwhile. */
export function newlines(chunk: Uint8Array): number {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let count = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}

/**
 * Reads an export's answer to its end, or until `stop` says so (then cancels it: the server sees the
 * client go), and counts its lines.
 */
export async function countLines(response: Response, stop: () => boolean = () => false): Promise<number> {
  if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`);
  let lines = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    lines += newlines(value);
    if (stop()) {
      await reader.cancel();
      break;
    }
  }
  return lines;
}
