// Runs a synchronous function with the venue clock reading a fixed market time.
//
// The exchange stamps orders and trades with clock.now(). A simulator step stands for one
// instant of market time, so everything it does must carry that instant, whatever the wall
// clock says while the step runs; otherwise trade times (and candles) would depend on how wall
// time grouped the steps. The clock object is shared, so `now` is shadowed on the instance for
// the duration of `fn` and restored afterwards (nesting and throwing are safe). Nothing else can
// observe the pinned value: `fn` is synchronous and JavaScript runs one thing at a time.
// (A first-class VirtualClock.runAt would be the cleaner home for this; see the simulator report.)
import type { VirtualClock } from '../../core/clock.ts';

type Pinnable = { now: () => number };

export function runAt<T>(clock: VirtualClock, time: number, fn: () => T): T {
  const c = clock as unknown as Pinnable;
  const own = Object.hasOwn(c, 'now');
  const previous = c.now;
  c.now = () => time;
  try {
    return fn();
  } finally {
    if (own) c.now = previous;
    else delete (c as Partial<Pinnable>).now;
  }
}
