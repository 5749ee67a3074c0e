// The 2 s poll of every pair's price records (GET /fapi/v1/prices, topbar/ticker-feed.ts) beside
// the trades of the pair on screen (trades/trades-feed.ts): an answer asked for before trades the
// screen has already shown is older than they are. Before, it overwrote the pair's last price
// with its own, older one, and a price alert set meanwhile (from the trades' last) fired on a
// price from before it was set: last 96,000.0 from a trade, an alert at >= 96,100.0 set, then a
// poll answer of a moment before the trade saying 96,150.0 fired it ("Fired at 96,150.0") with
// the market never there since. An answer never moves the last back past a newer trade's, and a
// price from before an alert was set never fires it.
import { describe, expect, it } from 'vitest';
import type { PriceRecord } from '../../src-shared/types.ts';
import { watchAlerts } from '../../src-renderer/src/features/alerts/alerts-feed.ts';
import { createAlertsStore } from '../../src-renderer/src/features/alerts/alerts-store.ts';
import { createSymbolsStore } from '../../src-renderer/src/features/symbols/symbols-store.ts';
import { createTickerStore } from '../../src-renderer/src/features/topbar/ticker-store.ts';
import { createToastsStore } from '../../src-renderer/src/features/toasts/toasts-store.ts';

const record = (symbol: string, last: string, timestamp: number): PriceRecord => ({
  symbol,
  index_price: last,
  mark_price: last,
  last_price: last,
  funding_rate: '0.000100',
  next_funding_time: 1_800_000_000_000,
  price_precision: 1,
  qty_precision: 3,
  timestamp,
});

function screen() {
  let market = 1_000;
  const tickers = createTickerStore();
  const alerts = createAlertsStore(null, () => market);
  const stop = watchAlerts({
    alerts,
    tickers,
    symbols: createSymbolsStore({} as never),
    toasts: createToastsStore(),
    now: () => market,
    win: { addEventListener: () => {}, removeEventListener: () => {} },
  });
  const at = (t: number) => (market = t);
  return { tickers, alerts, at, stop };
}

describe('price alerts and the poll of every price record', () => {
  it('an answer older than the trades shown moves no last price back and fires nothing', () => {
    const s = screen();
    try {
      // a trade at market 1,000 ms: the last is 96,000.0
      s.tickers.getState().actions.applyLast('BTCUSDT', 96000, { at: 1_000, highs: [96000], lows: [96000] });
      s.at(1_200);
      expect(s.alerts.getState().actions.add('BTCUSDT', '96100.0', 96000).ok).toBe(true);
      // the poll asked before that trade answers now: 96,150.0 at 900 ms
      s.tickers.getState().actions.applyPrices([record('BTCUSDT', '96150.0', 900), record('ETHUSDT', '3200.00', 900)]);
      const t = s.tickers.getState().tickers;
      expect(t.BTCUSDT.last).toBe(96000);
      expect(t.BTCUSDT.mark).toBe(96150);
      expect(t.ETHUSDT.last).toBe(3200);
      expect(s.alerts.getState().alerts[0].fired).toBeUndefined();
      // a price push as old: the same
      s.tickers
        .getState()
        .actions.applyPricePush({ E: 950, s: 'BTCUSDT', i: '96150.0', m: '96150.0', l: '96150.0', r: '0.0001', T: 0 });
      expect(s.tickers.getState().tickers.BTCUSDT.last).toBe(96000);
      expect(s.alerts.getState().alerts[0].fired).toBeUndefined();
    } finally {
      s.stop();
    }
  });

  it('a price from before an alert was set does not fire it; the next one after does', () => {
    const s = screen();
    try {
      s.tickers.getState().actions.applyPrices([record('ETHUSDT', '3200.00', 1_000)]);
      s.at(1_500);
      expect(s.alerts.getState().actions.add('ETHUSDT', '3250.00', 3200).ok).toBe(true);
      // an answer of 1,400 ms arriving after the alert was set at 1,500: the last moves, the alert waits
      s.tickers.getState().actions.applyPrices([record('ETHUSDT', '3260.00', 1_400)]);
      expect(s.tickers.getState().tickers.ETHUSDT.last).toBe(3260);
      expect(s.alerts.getState().alerts[0].fired).toBeUndefined();
      s.at(3_500);
      s.tickers.getState().actions.applyPrices([record('ETHUSDT', '3260.00', 3_400)]);
      expect(s.alerts.getState().alerts[0].fired).toEqual({ at: 3_500, last: 3260 });
    } finally {
      s.stop();
    }
  });
});
