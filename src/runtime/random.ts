/** A source of uniform numbers in [0, 1), injected wherever randomness is used. */
export type Random = () => number;

export const systemRandom: Random = Math.random;

/**
 * mulberry32: a small seeded generator, so tests and benchmarks get the same
 * sequence every run.
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
