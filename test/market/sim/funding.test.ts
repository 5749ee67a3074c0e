// Funding is settled at 00:00, 08:00 and 16:00 UTC of market time, once per trading pair, with the
// running interval's rate and the mark at that instant; users' positions pay or receive it.
import { placeOrder } from '../../helpers/exchange-commands.ts';
import { describe, expect, it, vi } from 'vitest';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import type { Command } from '../../../src-main/trading/exchange.ts';
import { T0, testVenue, tradingSymbols } from './helpers.ts';

const H = 3_600_000;

describe('funding settlement', () => {
  it('settles every trading pair exactly at the 8 h instants, with the feed rate and mark', () => {
    const tv = testVenue({ start: T0 + 8 * H - 30_000 }); // 07:59:30
    try {
      const ex = tv.venue.exchange;
      const calls: Array<{ symbol: string; rate: number; mark: number; time: number; published: number }> = [];
      const real = ex.execute.bind(ex);
      vi.spyOn(ex, 'execute').mockImplementation(((c: Command) => {
        if (c.kind === 'funding')
          calls.push({
            symbol: c.symbol,
            rate: c.rate,
            mark: c.mark,
            time: c.time,
            published: ex.pair(c.symbol)!.fundingRate,
          });
        return real(c);
      }) as typeof ex.execute);
      const sim = new Simulator({ exchange: ex, clock: tv.venue.clock, seed: 3 });
      const btc = sim.symbol('BTCUSDT')!;
      expect(btc.pair.nextFundingTime).toBe(T0 + 8 * H);
      sim.runUntil(T0 + 8 * H - sim.stepMs);
      expect(calls).toEqual([]);
      sim.step(); // 08:00:00.000
      expect(calls.map((c) => c.symbol)).toEqual(tradingSymbols(tv.venue));
      for (const c of calls) {
        expect(c.time).toBe(T0 + 8 * H);
        expect(c.rate).toBe(c.published); // the estimate shown until then is what is settled
        expect(c.mark).toBe(ex.pair(c.symbol)!.markPrice);
      }
      // the next interval
      expect(btc.pair.nextFundingTime).toBe(T0 + 16 * H);
      sim.runUntil(T0 + 8 * H + 60_000);
      expect(calls.length).toBe(tradingSymbols(tv.venue).length);
    } finally {
      tv.close();
    }
  });

  it("charges a user's long position mark x qty x rate at the instant", () => {
    const tv = testVenue({ start: T0 + 16 * H - 20_000 });
    try {
      const ex = tv.venue.exchange;
      const sim = new Simulator({ exchange: ex, clock: tv.venue.clock, seed: 4 });
      sim.runUntil(T0 + 16 * H - 10_000);
      const acct = tv.venue.accounts.upsert(
        { apiKey: 'funding-test-key', apiSecret: 'funding-test-secret', kind: 'user', balance: 100_000n * 10n ** 8n },
        T0,
      );
      placeOrder(ex, acct.id, { symbol: 'ETHUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '2' });
      expect(ex.positions(acct.id)[0].quantity).toBe(2);
      let settled: { rate: number; mark: number } | null = null;
      const real = ex.execute.bind(ex);
      vi.spyOn(ex, 'execute').mockImplementation(((c: Command) => {
        if (c.kind === 'funding' && c.symbol === 'ETHUSDT') settled = { rate: c.rate, mark: c.mark };
        return real(c);
      }) as typeof ex.execute);
      sim.runUntil(T0 + 16 * H + 5_000);
      expect(settled).not.toBeNull();
      const { rate, mark } = settled!;
      expect(rate).not.toBe(0);
      const fee = ex.positions(acct.id)[0].total_funding_fee;
      expect(fee).toBeCloseTo(mark * 2 * rate, 7); // a long pays a positive rate
    } finally {
      tv.close();
    }
  });

  it('a skip over several instants settles each of them, in order', () => {
    const tv = testVenue({ start: T0 + 1000 });
    try {
      const ex = tv.venue.exchange;
      const times: number[] = [];
      const real = ex.execute.bind(ex);
      vi.spyOn(ex, 'execute').mockImplementation(((c: Command) => {
        if (c.kind !== 'funding') return real(c);
        if (c.symbol === 'BTCUSDT') times.push(c.time);
        return 0;
      }) as typeof ex.execute);
      const sim = new Simulator({ exchange: ex, clock: tv.venue.clock, seed: 5 });
      sim.runUntil(T0 + 10_000);
      sim.skipTo(T0 + 17 * H);
      expect(times).toEqual([T0 + 8 * H, T0 + 16 * H]);
      expect(sim.time).toBe(T0 + 17 * H);
      expect(ex.pair('BTCUSDT')!.nextFundingTime).toBe(T0 + 24 * H);
      sim.runUntil(T0 + 17 * H + 30_000); // goes on normally after the skip
      expect(sim.stats.errors).toBe(0);
      expect(tv.trades.some((t) => t.time > T0 + 17 * H)).toBe(true);
    } finally {
      tv.close();
    }
  });
});
