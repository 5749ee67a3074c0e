// A price alert on the pair on screen fires on any trade the screen is told of that reaches its
// level (features/alerts/alerts-feed.ts, trades/trades-feed.ts): a push of the trade channel holds
// up to 100 ms of trades, and the screen draws its newest once a frame. Before, only the last
// trade of each frame's trades was checked, so a level a trade reached inside the batch was
// missed when the batch's last trade came back: paused, an alert at or above 95,435.2 with the
// last at 95,435.1 (bid) and a market buy printing 95,435.2 then a sell printing 95,435.1 in the
// same push left the alert waiting ("+0.1 to go") while the tape and the candle's high showed it.
import { describe, expect, it } from 'vitest';
import { watchAlerts } from '../../src-renderer/src/features/alerts/alerts-feed.ts';
import { createAlertsStore } from '../../src-renderer/src/features/alerts/alerts-store.ts';
import { createSymbolsStore } from '../../src-renderer/src/features/symbols/symbols-store.ts';
import { createTickerStore } from '../../src-renderer/src/features/topbar/ticker-store.ts';
import { createToastsStore } from '../../src-renderer/src/features/toasts/toasts-store.ts';
import { startTradesFeed } from '../../src-renderer/src/features/trades/trades-feed.ts';
import { createTradesStore } from '../../src-renderer/src/features/trades/trades-store.ts';
import { createWorkspaceStore } from '../../src-renderer/src/lib/workspace-store.ts';

function screen() {
  const handlers = new Map<string, (data: unknown) => void>();
  const ws = {
    on: (stream: string, fn: (data: unknown) => void) => (handlers.set(stream, fn), () => handlers.delete(stream)),
    subscribe: async () => ({}),
    unsubscribe: async () => ({}),
    onOpen: () => () => {},
    subscriptions: [],
    onReconnect: () => () => {},
  };
  const tickers = createTickerStore();
  const alerts = createAlertsStore(null, () => 1);
  const toasts = createToastsStore();
  const stops = [
    startTradesFeed({
      ws: ws as never,
      workspace: createWorkspaceStore({ symbol: 'BTCUSDT' }),
      store: createTradesStore(),
      tickers,
    }),
    watchAlerts({
      alerts,
      tickers,
      symbols: createSymbolsStore({} as never),
      toasts,
      now: () => 2,
      win: { addEventListener: () => {}, removeEventListener: () => {} },
    }),
  ];
  let id = 0;
  /** One push of the trade channel: these prices, oldest first. */
  const push = (...prices: string[]) =>
    handlers.get('trade@BTCUSDT')!(prices.map((p) => ({ s: 'BTCUSDT', t: ++id, p, q: '0.010', T: id, S: 1 })));
  const frame = () => new Promise((r) => setTimeout(r, 50));
  const alertToasts = () => toasts.getState().toasts.filter((t) => t.kind === 'alert');
  return { tickers, alerts, push, frame, alertToasts, stop: () => stops.forEach((f) => f()) };
}

describe('price alerts on the trades of the pair on screen', () => {
  it('fire on a trade that reached the level inside a batch whose last trade came back', async () => {
    const s = screen();
    try {
      s.push('95435.1');
      await s.frame();
      expect(s.tickers.getState().tickers.BTCUSDT.last).toBe(95435.1);
      const up = s.alerts.getState().actions.add('BTCUSDT', '95435.2', 95435.1);
      const down = s.alerts.getState().actions.add('BTCUSDT', '95434.9', 95435.1);
      expect(up.ok && down.ok).toBe(true);
      // a buy takes the ask, a sell the bid, in one push: the last is where it was
      s.push('95435.2', '95435.1');
      await s.frame();
      expect(s.tickers.getState().tickers.BTCUSDT.last).toBe(95435.1);
      const [a, b] = s.alerts.getState().alerts;
      expect(a.fired).toEqual({ at: 2, last: 95435.2 });
      expect(b.fired).toBeUndefined();
      expect(s.alertToasts().map((t) => [t.title, t.body])).toEqual([
        ['Price alert: BTCUSDT ≥ 95,435.2', 'Last price 95,435.2'],
      ]);
      // two pushes in one frame, the dip in the first: the level below is reached too, once
      s.push('95434.9', '95435.0');
      s.push('95435.1');
      await s.frame();
      expect(s.alerts.getState().alerts[1].fired).toEqual({ at: 2, last: 95434.9 });
      expect(s.alertToasts()).toHaveLength(2);
      s.push('95434.0', '95436.0');
      await s.frame();
      expect(s.alertToasts()).toHaveLength(2);
    } finally {
      s.stop();
    }
  });

  it('count every trade of a push, also those older than the newest the tape keeps', async () => {
    const s = screen();
    try {
      s.push('95435.1');
      await s.frame();
      expect(s.alerts.getState().actions.add('BTCUSDT', '95500.0', 95435.1).ok).toBe(true);
      // a sweep to 95,500.0 first, then 100 trades back at 95,435.1 in the same push
      s.push('95500.0', ...Array.from({ length: 100 }, () => '95435.1'));
      await s.frame();
      expect(s.alerts.getState().alerts[0].fired).toEqual({ at: 2, last: 95500 });
    } finally {
      s.stop();
    }
  });

  // Before, "Fired at" was the extreme of the frame's trades: an alert at or above 95,975.7 said
  // "Fired at 95,976.4" where the first trade at or past the level printed 95,975.9.
  it('fire at the price of the first trade, in time order, that reached the level', async () => {
    const s = screen();
    try {
      s.push('95975.0');
      await s.frame();
      const act = s.alerts.getState().actions;
      expect(act.add('BTCUSDT', '95975.7', 95975).ok && act.add('BTCUSDT', '95974.3', 95975).ok).toBe(true);
      // two pushes in one frame: up through the level, higher, back, then down through the other
      s.push('95975.2', '95975.9', '95976.4', '95975.1');
      s.push('95974.2', '95973.8', '95974.0');
      await s.frame();
      expect(s.alerts.getState().alerts.map((a) => a.fired?.last)).toEqual([95975.9, 95974.2]);
      expect(s.alertToasts().map((t) => t.body)).toEqual(['Last price 95,975.9', 'Last price 95,974.2']);
    } finally {
      s.stop();
    }
  });
});
