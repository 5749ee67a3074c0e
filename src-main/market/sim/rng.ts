// Seeded random source of the simulator: xoshiro128** (Blackman & Vigna), 32-bit state words,
// period 2^128 - 1, seeded through splitmix32 from a hash of a named path.
//
// Invariants
// - No Math.random anywhere in the simulator: every draw comes from an Rng, and every Rng is
//   `Rng.stream(seed, ...path)` with a path naming what it drives (symbol, component). Streams
//   are independent of each other, so adding a symbol or a component never shifts the draws
//   of another one, and the order in which components are built does not matter.
// - A stream's draws depend only on its seed, its path and how many draws came before; the
//   spare normal of Box-Muller is part of that state.
// Limits: uniforms carry 32 bits (resolution 2^-32), enough for a simulation; not for crypto.

/** 32-bit FNV-1a over the UTF-16 code units of a string. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** splitmix32: spreads one 32-bit value into well-mixed successive words. */
function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

const TWO_32 = 4294967296;

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare = 0;
  private hasSpare = false;

  constructor(a: number, b: number, c: number, d: number) {
    this.a = a >>> 0;
    this.b = b >>> 0;
    this.c = c >>> 0;
    this.d = d >>> 0;
    if ((this.a | this.b | this.c | this.d) === 0) this.d = 1; // the all-zero state is a fixed point
  }

  /** The stream named `path` under `seed`, e.g. Rng.stream(7, 'BTCUSDT', 'taker'). */
  static stream(seed: number | string, ...path: Array<string | number>): Rng {
    const key = [String(seed), ...path.map(String)].join('\u0000');
    // two hashes (the second of the reversed key) so that 64 bits of the key reach the state
    const st = { s: fnv1a(key) };
    const st2 = { s: fnv1a(key.split('').reverse().join('')) ^ 0x5bd1e995 };
    return new Rng(splitmix32(st), splitmix32(st2), splitmix32(st), splitmix32(st2));
  }

  /** Next 32-bit unsigned integer. */
  u32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / TWO_32;
  }

  /** Uniform in [lo, hi). */
  between(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal (Box-Muller; the second value is kept for the next call). */
  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    const u = 1 - this.next(); // (0, 1]: log is finite
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    const th = 2 * Math.PI * v;
    this.spare = r * Math.sin(th);
    this.hasSpare = true;
    return r * Math.cos(th);
  }

  /** Exponential with mean 1. */
  exp(): number {
    return -Math.log(1 - this.next());
  }

  /** Laplace (double exponential) with the given scale, mean 0. */
  laplace(scale: number): number {
    const e = this.exp() * scale;
    return this.next() < 0.5 ? -e : e;
  }

  /** Pareto with minimum xm and tail index alpha (heavier tail for smaller alpha). */
  pareto(xm: number, alpha: number): number {
    return xm / Math.pow(1 - this.next(), 1 / alpha);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
