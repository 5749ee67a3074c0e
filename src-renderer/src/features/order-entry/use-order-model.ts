// The order form's model from the stores: picks what order-model.ts needs (form, catalogue,
// account at live marks, positions, open orders, book, tickers, notional cap) and computes it
// on every render, so it always matches what the screen shows. The pair's maintenance tiers come
// with its notional cap (notional-caps-store.ts).
import { useSymbolView } from '../../lib/use-symbol.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useLiveSummary } from '../account/use-live-summary.ts';
import { capKey } from './notional-caps-store.ts';
import { bookReach } from './book-reach.ts';
import { MarginMode, Side } from '../../../../src-shared/enums.ts';
import { useEffect } from 'react';
import { DEFAULT_LEVERAGE, orderModel, type OrderModel } from './order-model.ts';

export function useOrderModel(): OrderModel {
  const s = useServices();
  const { symbol, entry } = useSymbolView();
  const f = useSel(s.orderForm, (x) => x);
  // available at live marks (cross PnL counts), as the account panel shows it
  const summary = useLiveSummary();
  const setting = useSel(s.account, (x) => x.settings[symbol]);
  const positions = useSel(s.positions, (x) => x.positions);
  const positionsLoaded = useSel(s.positions, (x) => x.loaded);
  const openOrders = useSel(s.orders, (x) => x.orders);
  const bestBid = useSel(s.book, (b) => b.bestBid);
  const bestAsk = useSel(s.book, (b) => b.bestAsk);
  // the levels the order meets, only while it does (not a render on every book frame else): its
  // fee, PnL and entry are estimated at their prices
  const reach = bookReach(f);
  const asks = useSel(s.book, (b) => (reach(Side.BUY, b.bestAsk) ? b.levels.asks : undefined));
  const bids = useSel(s.book, (b) => (reach(Side.SELL, b.bestBid) ? b.levels.bids : undefined));
  const last = useSel(s.tickers, (t) => t.tickers[symbol]?.last);
  const tickers = useSel(s.tickers, (t) => t.tickers);
  const session = useSel(s.session, (x) => x.status);
  const maxNotional = useSel(s.notionalCaps, (x) => x.caps[capKey(symbol, setting?.leverage ?? DEFAULT_LEVERAGE)]);
  const tiers = useSel(s.notionalCaps, (x) => x.tiers);
  // the tiers of every other pair with a cross position (the cross wallet that backs an order's
  // liquidation price is less their maintenance margin, tier amount included); this pair's come
  // with its notional cap (order-entry.tsx)
  const loggedIn = session === 'ready';
  const pairs = [
    ...new Set(positions.filter((p) => p.margin_mode === MarginMode.CROSS && p.symbol !== symbol).map((p) => p.symbol)),
  ]
    .sort()
    .join(',');
  useEffect(() => {
    if (loggedIn)
      for (const pair of pairs.split(',').filter(Boolean)) void s.notionalCaps.getState().actions.learnTiers(pair);
  }, [s, pairs, loggedIn]);
  return orderModel({
    symbol,
    form: f,
    futures: entry?.futures,
    summary,
    setting,
    positions,
    openOrders,
    markOf: (sym) => tickers[sym]?.mark,
    bestBid,
    bestAsk,
    bids,
    asks,
    last,
    maxNotional,
    tiersOf: (sym) => tiers[sym],
    loggedIn,
    positionsLoaded,
  });
}
