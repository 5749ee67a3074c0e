// The probabilistic queue model (docs/replay.md "Fills and queue models"), as hftbacktest's
// ProbQueueModel with its power function f(x) = x^n (PowerProbQueueFunc3 for n = 3): of a
// decrease d at a level with `ahead` lots ahead of the user's order and `behind` behind it, the
// part taken from ahead is (1 - f(behind) / (f(behind) + f(ahead))) x d = f(ahead) x d /
// (f(ahead) + f(behind)), rounded to the nearest lot (half up, computed exactly in integers while
// they stay below 2^53, else in floating point), at most `ahead`, and at least what `behind`
// cannot cover (d - behind). With nothing on either side (f(behind) + f(ahead) = 0) the split is
// even. (hftbacktest takes d - behind from ahead on top of its share where behind cannot cover
// it; here the share is raised to it, so the two parts always add up to d.)
import type { QueueModel } from './queue-model.ts';

export class ProbabilisticQueue implements QueueModel {
  readonly name = 'probabilistic';
  private readonly power: number;

  constructor(power = 3) {
    this.power = power;
  }

  fromAhead(ahead: number, behind: number, decrease: number): number {
    const fa = ahead ** this.power;
    const fb = behind ** this.power;
    const share = fa + fb === 0 ? roundHalfUp(decrease, 2) : roundHalfUp(fa * decrease, fa + fb);
    return Math.max(Math.min(ahead, share), decrease - behind);
  }
}

/** n / m rounded half up (n >= 0, m > 0): exact while both are safe integers. */
function roundHalfUp(n: number, m: number): number {
  if (!Number.isSafeInteger(n) || !Number.isSafeInteger(m)) return Math.floor(n / m + 0.5);
  let q = Math.floor(n / m);
  let r = n - q * m;
  // n / m may round to the next integer in floating point: the remainder puts q right
  if (r < 0) {
    q--;
    r += m;
  } else if (r >= m) {
    q++;
    r -= m;
  }
  return 2 * r >= m ? q + 1 : q;
}
