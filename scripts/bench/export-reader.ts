/**
 * A client that only downloads an export, in a thread of its own. A bench that polls the health check
 * while an export runs must not read the export on the same event loop: every chunk it counts would
 * delay the answers it times, and the figure would be the bench's own wait, not the server's.
 */
import { Worker } from 'node:worker_threads';

export type ExportRead = { lines: number; seconds: number };

/** Reads the export at `url` to its end in a worker thread: its lines (newline bytes) and seconds. */
export function readExportInThread(url: string, headers: Record<string, string>): Promise<ExportRead> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./export-reader-thread.ts', import.meta.url), {
      workerData: { url, headers },
    });
    worker.once('message', (read: ExportRead | { error: string }) =>
      'error' in read ? reject(new Error(read.error)) : resolve(read),
    );
    worker.once('error', reject);
  });
}
