// The order form's model from the stores: picks what order-model.ts needs (form, catalogue,
// account at live marks, positions, open orders, book, tickers, notional cap) and computes it
// on every render, so it always matches what the screen shows. The pair's maintenance tiers come
// with its notional cap (notional-caps-store.ts).
import { useSymbolView } from '../../lib/use-symbol.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useLiveSummary } from '../account/use-live-summary.ts';
import { capKey } from './notional-caps-store.ts';
import { parseDecimalInput } from './decimal-input.ts';
import { OrderType } from '../../../../src-shared/enums.ts';
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
  // the levels a limit price crosses, only while it does (not a render on every book frame else):
  // its fee is estimated at their prices
  const limit = f.type === OrderType.LIMIT && !f.stop ? parseDecimalInput(f.price) : null;
  const at = limit?.kind === 'ok' ? limit.n : NaN;
  const asks = useSel(s.book, (b) => (at >= b.bestAsk ? b.levels.asks : undefined));
  const bids = useSel(s.book, (b) => (at <= b.bestBid ? b.levels.bids : undefined));
  const last = useSel(s.tickers, (t) => t.tickers[symbol]?.last);
  const tickers = useSel(s.tickers, (t) => t.tickers);
  const session = useSel(s.session, (x) => x.status);
  const maxNotional = useSel(s.notionalCaps, (x) => x.caps[capKey(symbol, setting?.leverage ?? DEFAULT_LEVERAGE)]);
  const tiers = useSel(s.notionalCaps, (x) => x.tiers[symbol]);
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
    tiers,
    loggedIn: session === 'ready',
    positionsLoaded,
  });
}
