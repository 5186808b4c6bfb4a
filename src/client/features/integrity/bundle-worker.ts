/**
 * The /verify page's Web Worker for proof bundles: checks every record of a bundle off the
 * page's thread with the shared verifier (src/shared/integrity/bundle.ts: each distinct transaction read
 * from the node once), reporting progress as it goes. Started with
 * `new Worker(new URL('./bundle-worker.ts', import.meta.url), { type: 'module' })`.
 */
import { type BundleVerification, verifyBundle } from '#shared/integrity/bundle.ts';

/** What the page sends: the bundle file's text and the node to ask. */
export type BundleJob = { text: string; rpcUrl: string };
/** What the worker answers: progress, then the result (or why the file could not be read). */
export type BundleWorkerMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; result: BundleVerification }
  | { type: 'error'; message: string };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<BundleJob>) => void) | null;
  postMessage: (message: BundleWorkerMessage) => void;
};

scope.onmessage = async (event) => {
  try {
    const bundle: unknown = JSON.parse(event.data.text);
    const result = await verifyBundle(bundle, {
      rpcUrl: event.data.rpcUrl,
      // As for one receipt on the page: a transaction still in the mempool has no confirmation.
      confirmations: true,
      progressEvery: 200,
      onProgress: ({ done, total }) => scope.postMessage({ type: 'progress', done, total }),
    });
    scope.postMessage({ type: 'done', result });
  } catch (error) {
    scope.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
};
