// The probabilistic queue model (docs/replay.md "Fills and queue models"), as hftbacktest's
// ProbQueueModel with its power function f(x) = x^n (PowerProbQueueFunc3 for n = 3): of a
// decrease d at a level with `ahead` lots ahead of the user's order and `behind` behind it, the
// part taken from ahead is (1 - f(behind) / (f(behind) + f(ahead))) x d, rounded to the nearest
// lot (half up), at most `ahead`, and at least what `behind` cannot cover (d - behind). With
// nothing on either side (f(behind) + f(ahead) = 0) the split is even.
import type { QueueModel } from './queue-model.ts';

export class ProbabilisticQueue implements QueueModel {
  readonly name = 'probabilistic';
  private readonly power: number;

  constructor(power = 3) {
    this.power = power;
  }

  fromAhead(ahead: number, behind: number, decrease: number): number {
    const fb = behind ** this.power;
    const fa = ahead ** this.power;
    const prob = fb + fa > 0 ? fb / (fb + fa) : 0.5;
    return Math.max(Math.min(ahead, Math.round((1 - prob) * decrease)), decrease - behind);
  }
}
