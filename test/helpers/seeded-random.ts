// The one seeded random source of the tests and benchmarks (workload generation, not the
// simulator's own streams: those are src-main/market/sim/rng.ts). A given seed always yields the
// same sequence, on every machine, so a failing seeded test fails again the same way.

/**
 * mulberry32 (Tommy Ettinger): 32 bits of state, uniform doubles in [0, 1) with 2^-32 resolution.
 * Tiny and fast; good enough to generate test and benchmark workloads, not for statistics or crypto.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
