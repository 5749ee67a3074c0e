// The top bar's 24 h change follows the last price it shows: the price moves with every trade
// and price push, the venue's 24 h ticker is asked every 2 s, and until 2026-12-07 the change
// was the ticker's as answered, so a last price that had risen from 101.0 to 102.0 stood beside
// "+1.000%" until the next answer. The change is now the shown last price's against the day's
// open (the ticker's texts exactly while the two prices agree).
import { describe, expect, it } from 'vitest';
import type { Ticker24hRecord } from '../../src-shared/types.ts';
import { change24, change24Text, createTickerStore } from '../../src-renderer/src/features/topbar/ticker-store.ts';

const day = (last: string, change: string, percent: string): Ticker24hRecord => ({
  symbol: 'BTCUSDT',
  open_price: '100.0',
  high_price: '103.0',
  low_price: '99.0',
  last_price: last,
  price_change: change,
  price_change_percent: percent,
  weighted_avg_price: '100.5',
  volume: '10.000',
  quote_volume: '1005.00',
  trade_count: 10,
  open_time: 0,
  close_time: 60_000,
});

describe("the top bar's 24 h change", () => {
  it("is the ticker's texts while its last price is the one shown", () => {
    const s = createTickerStore();
    s.getState().actions.applyLast('BTCUSDT', 101, { at: 60_000, highs: [101], lows: [101] });
    s.getState().actions.applyDay([day('101.0', '1.0', '1.000')]);
    const t = s.getState().tickers.BTCUSDT;
    expect(change24Text(t)).toEqual({ price: '+1.0', percent: '+1.000%' });
    expect(change24(t)).toBeCloseTo(0.01, 12);
  });

  it('moves with the last price shown, before the next ticker answer', () => {
    const s = createTickerStore();
    s.getState().actions.applyDay([day('101.0', '1.0', '1.000')]);
    // a trade at 102.0: the top bar's last price, the ticker not asked again yet
    s.getState().actions.applyLast('BTCUSDT', 102, { at: 61_000, highs: [102], lows: [102] });
    const up = s.getState().tickers.BTCUSDT;
    expect(up.last).toBe(102);
    expect(change24Text(up)).toEqual({ price: '+2.0', percent: '+2.000%' });
    expect(change24(up)).toBeCloseTo(0.02, 12);
    // a price push below the open: the change turns negative with it
    s.getState().actions.applyPricePush({ E: 62_000, s: 'BTCUSDT', i: '99.8', m: '99.8', l: '99.7', r: '0', T: 0 });
    const down = s.getState().tickers.BTCUSDT;
    expect(change24Text(down)).toEqual({ price: '-0.3', percent: '-0.300%' });
    expect(change24(down)).toBeCloseTo(-0.003, 12);
    // back at the open: no sign, no colour
    s.getState().actions.applyLast('BTCUSDT', 100, { at: 63_000, highs: [100], lows: [100] });
    expect(change24Text(s.getState().tickers.BTCUSDT)).toEqual({ price: '0.0', percent: '0.000%' });
    expect(change24(s.getState().tickers.BTCUSDT)).toBe(0);
  });
});
