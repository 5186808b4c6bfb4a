/** A seeded generator that can be copied at its current state, to replay the same draws. */
export interface Prng {
  (): number;
  clone(): Prng;
}

/** mulberry32: small, fast, good enough for demo data, and the same on every platform. */
export function createPrng(seed: number): Prng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return Object.assign(next, { clone: () => createPrng(a) });
}
