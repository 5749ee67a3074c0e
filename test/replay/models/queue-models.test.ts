// The queue models (src-main/replay/models/) against the documented formulas (docs/replay.md
// "Fills and queue models") computed here independently, in exact rational arithmetic (BigInt),
// over every small case: of a decrease d at a level with `ahead` lots ahead of the user's order
// and `behind` behind it,
//   pessimistic:   max(0, d - behind) from ahead;
//   probabilistic: (1 - b^3 / (b^3 + a^3)) x d = a^3 x d / (a^3 + b^3), rounded to the nearest
//                  lot (half up), at most `ahead`, at least d - behind; an even split when
//                  a = b = 0.
// Cases where the two must differ (cancellations ahead of the order) are counted: the
// probabilistic model moves the order up where the pessimistic one does not.
import { describe, expect, it } from 'vitest';
import { PessimisticQueue } from '../../../src-main/replay/models/pessimistic-queue.ts';
import { ProbabilisticQueue } from '../../../src-main/replay/models/probabilistic-queue.ts';

/** round(n / m) half up, for n >= 0, m > 0 (BigInt). */
const roundHalfUp = (n: bigint, m: bigint): bigint => (2n * n + m) / (2n * m);

function probExpected(ahead: number, behind: number, d: number): number {
  const a3 = BigInt(ahead) ** 3n;
  const b3 = BigInt(behind) ** 3n;
  const share = a3 + b3 === 0n ? roundHalfUp(BigInt(d), 2n) : roundHalfUp(a3 * BigInt(d), a3 + b3);
  const capped = share < BigInt(ahead) ? share : BigInt(ahead);
  return Math.max(Number(capped), d - behind);
}

describe('queue models', () => {
  it('give the documented split of every decrease, and differ where cancellations come from ahead', () => {
    const pess = new PessimisticQueue();
    const prob = new ProbabilisticQueue();
    let differ = 0;
    const wrong: string[] = [];
    for (let ahead = 0; ahead <= 30; ahead++)
      for (let behind = 0; behind <= 30; behind++)
        for (let d = 1; d <= ahead + behind; d++) {
          const p = pess.fromAhead(ahead, behind, d);
          const q = prob.fromAhead(ahead, behind, d);
          if (p !== Math.max(0, d - behind)) wrong.push(`pessimistic ${ahead} ${behind} ${d}: ${p}`);
          if (q !== probExpected(ahead, behind, d)) wrong.push(`probabilistic ${ahead} ${behind} ${d}: ${q}`);
          // a split of d (never more than either side holds), and never a later fill than pessimistic
          if (q < Math.max(p, d - behind) || q > Math.min(ahead, d)) wrong.push(`bounds ${ahead} ${behind} ${d}: ${q}`);
          if (q !== p) differ++;
        }
    expect(wrong).toEqual([]);
    expect(differ).toBeGreaterThan(1000);
    // one worked by hand: 10 ahead, 5 behind, 6 cancelled: 1000 x 6 / 1125 = 5.33 -> 5 from ahead
    expect([prob.fromAhead(10, 5, 6), pess.fromAhead(10, 5, 6)]).toEqual([5, 1]);
  });
});
