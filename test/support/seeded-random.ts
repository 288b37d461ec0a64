// Jest runs a test file in a vm context, where every read of a global (`Math`) goes through the
// context's interceptor: ~0.7 µs, against ~0.05 µs for a module constant (measured 2026-12-07).
// The generators draw millions of numbers, so the two functions they call are read once here.
const { floor, imul } = Math;

/** A deterministic PRNG (mulberry32): generated tests print their seed, so a failure reproduces. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Helpers over one PRNG: an integer below `n`, one item of a list, a chance. */
export interface Dice {
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** Wraps a seeded PRNG in the helpers generated tests use. */
export function dice(seed: number): Dice {
  const next = seededRandom(seed);
  return {
    int: (n) => floor(next() * n),
    pick: (items) => items[floor(next() * items.length)] as (typeof items)[number],
    chance: (p) => next() < p,
  };
}
