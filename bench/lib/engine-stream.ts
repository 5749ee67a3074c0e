// Seeded command streams for the engine benchmark, stored as parallel typed arrays so that
// replaying a stream allocates nothing and every book under test sees exactly the same ops.

import { mulberry32 } from '../../test/helpers/seeded-random.ts';

export const Op = { RestingLimit: 1, CrossingLimit: 2, Market: 3, Cancel: 4 } as const;

export interface Stream {
  readonly length: number;
  readonly op: Uint8Array;
  /**
   * Order id (for cancels: the id to cancel). Int32, like the service's ids (a counter): read from a
   * Float64Array, each id would reach the books as a heap number until the replay loop is
   * optimized, which no caller of the service ever sends.
   */
  readonly id: Int32Array;
  readonly account: Int32Array;
  readonly side: Uint8Array;
  /** Limit price, or the market order's reference price. */
  readonly price: Int32Array;
  readonly qty: Int32Array;
  readonly tif: Uint8Array;
}

export interface StreamOptions {
  seed: number;
  /** Mixed commands: ~70% resting limits, 10% crossing limits, 10% market, 10% cancels. */
  mixed: number;
  /** Resting limits placed first (the deep-book case), spread over +-prefillSpread ticks. */
  prefill?: number;
  prefillSpread?: number;
  startMid?: number;
  accounts?: number;
}

export function makeStream(o: StreamOptions): Stream {
  const prefill = o.prefill ?? 0;
  const spread = o.prefillSpread ?? 2000;
  const accounts = o.accounts ?? 1000;
  const n = prefill + o.mixed;
  const s = {
    length: n,
    op: new Uint8Array(n),
    id: new Int32Array(n),
    account: new Int32Array(n),
    side: new Uint8Array(n),
    price: new Int32Array(n),
    qty: new Int32Array(n),
    tif: new Uint8Array(n),
  };
  const rnd = mulberry32(o.seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  let mid = o.startMid ?? 1_000_000;
  let nextId = 1;
  // Ring of recently placed ids: cancels pick from it (some are already gone, as in real traffic).
  const recent = new Int32Array(1024);
  let recentN = 0;

  for (let i = 0; i < n; i++) {
    s.account[i] = int(1, accounts);
    s.tif[i] = 1;
    const side = rnd() < 0.5 ? 1 : 2;
    s.side[i] = side;
    if (i < prefill) {
      s.op[i] = Op.RestingLimit;
      s.id[i] = nextId++;
      s.price[i] = side === 1 ? mid - int(1, spread) : mid + int(1, spread);
      s.qty[i] = int(1, 10);
      continue;
    }
    // The mid wanders by a tick now and then, so levels appear, empty and come back.
    const drift = rnd();
    if (drift < 0.05) mid += 1;
    else if (drift < 0.1) mid -= 1;
    const r = rnd();
    if (r < 0.7) {
      s.op[i] = Op.RestingLimit;
      s.id[i] = nextId;
      s.price[i] = side === 1 ? mid - int(1, 50) : mid + int(1, 50);
      s.qty[i] = int(1, 10);
    } else if (r < 0.8) {
      s.op[i] = Op.CrossingLimit;
      s.id[i] = nextId;
      s.price[i] = side === 1 ? mid + int(0, 10) : mid - int(0, 10);
      s.qty[i] = int(1, 40);
      s.tif[i] = rnd() < 0.5 ? 1 : 2;
    } else if (r < 0.9) {
      s.op[i] = Op.Market;
      s.id[i] = nextId;
      s.price[i] = mid;
      s.qty[i] = int(1, 40);
      s.tif[i] = 2;
    } else {
      s.op[i] = Op.Cancel;
      s.id[i] = recentN > 0 ? recent[int(0, Math.min(recentN, recent.length) - 1)] : 1;
      continue;
    }
    recent[recentN++ & (recent.length - 1)] = nextId;
    nextId++;
  }
  return s;
}
