// A restart keeps the price impact's transient offset (docs/simulated-market.md, "A restart"):
// one-sided flow holds the book over the index; a service stopped and started again on the same
// data folder goes on with that offset (saved with the market checkpoint), so the index goes on
// from where it was and the book stays over it. Before, the offset started at 0: the new latent
// price was the last trade's, so the index jumped by the whole offset to the book and the premium
// the flow had built was gone.
import { describe, expect, it } from 'vitest';
import { placeBotOrder } from '../../helpers/exchange-commands.ts';
import { restartingSim, T0 } from './helpers.ts';

const SYMBOL = 'BTCUSDT';
const START = T0 + 14 * 3_600_000;
const { open, stop, run } = restartingSim({
  prefix: 'perpdesk-impact-restart-',
  seed: 3,
  start: START,
  symbol: SYMBOL,
});

describe('the transient price impact across a restart', () => {
  it('goes on from where the stopped service left it, and the index with it', { timeout: 300_000 }, async () => {
    const a = open(true);
    run(a.market, 5_000);
    // a minute of market buys of 2 M USDT a second: the book is held over the index
    run(a.market, 60_000, () => {
      const qty = (2_000_000 / a.s.pair.markPrice).toFixed(3);
      placeBotOrder(a.v.exchange, { symbol: SYMBOL, side: 1, position_side: 1, position_action: 1, type: 2, qty });
    });
    run(a.market, 2_000); // the flow trades at the book again
    const offset = a.s.impact.transient;
    const latent = a.s.process.price;
    expect(offset).toBeGreaterThan(0.0005); // 5 bp: well over the venues' basis (about 1 bp)
    expect(a.market.sim.stats.errors).toBe(0);
    await stop(a);

    const b = open(false);
    // the offset where it was (no market time has passed), the latent price (the index's centre)
    // too: within the venues' basis, a fraction of the offset it jumped by before
    expect(b.s.impact.transient).toBe(offset);
    expect(Math.abs(Math.log(b.s.process.price / latent))).toBeLessThan(0.3 * offset);
    run(b.market, 5_000);
    // and it goes on decaying with its 10-minute time constant (plus the flow's own impact)
    expect(b.s.impact.transient).toBeGreaterThan(0.8 * offset);
    expect(Math.abs(Math.log(b.s.feed.index / latent))).toBeLessThan(0.3 * offset);
    expect(b.market.sim.stats.errors).toBe(0);
  });
});
