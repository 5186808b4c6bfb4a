/**
 * Long computations (the leaves and tree of a large block) in slices: work until a slice has lasted
 * sliceMs, then let the event loop run, so a server keeps answering requests and a page keeps painting.
 * Isomorphic: setImmediate in Node (runs after pending I/O), a zero timeout in the browser.
 */

export interface Slicer {
  /** True when the current slice has used its time. */
  due(): boolean;
  /** Lets the event loop run, then starts a new slice. */
  pause(): Promise<void>;
}

const letEventLoopRun: () => Promise<void> =
  typeof globalThis.setImmediate === 'function'
    ? () => new Promise((resolve) => globalThis.setImmediate(resolve))
    : () => new Promise((resolve) => setTimeout(resolve, 0));

export function createSlicer(sliceMs = 10): Slicer {
  let sliceStart = performance.now();
  return {
    due: () => performance.now() - sliceStart >= sliceMs,
    async pause() {
      await letEventLoopRun();
      sliceStart = performance.now();
    },
  };
}

/** items.map(fn), pausing whenever the slicer's slice is used up. */
export async function mapSliced<T, U>(
  items: readonly T[],
  fn: (item: T, index: number) => U,
  slicer: Slicer = createSlicer(),
): Promise<U[]> {
  const results = new Array<U>(items.length);
  for (let i = 0; i < items.length; i += 1) {
    results[i] = fn(items[i]!, i);
    if ((i & 63) === 63 && slicer.due()) await slicer.pause();
  }
  return results;
}
