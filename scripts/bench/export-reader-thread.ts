/** The thread of export-reader.ts: fetches the export, counts its lines, posts them with the time taken. */
import { parentPort, workerData } from 'node:worker_threads';
import { countLines } from './newlines.ts';

const { url, headers } = workerData as { url: string; headers: Record<string, string> };
try {
  const started = performance.now();
  const lines = await countLines(await fetch(url, { headers }));
  parentPort?.postMessage({ lines, seconds: (performance.now() - started) / 1000 });
} catch (error) {
  parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
