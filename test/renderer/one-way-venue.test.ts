// The order form's one-way figures against a real in-process venue: the same account, position
// and resting orders, the form's preview cost (what the venue would freeze) and Max of each side
// from the venue's own records, then the venue's answer. An accepted order freezes what the form
// said; the form's Max is accepted and one quantity step more is refused (3009 margin, or 3013
// the leverage's notional cap), with and without resting orders against the net position.
import { describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { orderModel, type SideModel } from '../../src-renderer/src/features/order-entry/order-model.ts';
import { cancelOrder } from '../helpers/exchange-commands.ts';
import { refusal } from '../trading/venues.ts';
import {
  BTC_LONG_125X,
  deskInput,
  deskKit,
  deskLong,
  frozen,
  placeLimit,
  restingSells,
  SOL_LONG_10X,
  type Desk,
} from './venue-desk.ts';

const kit = deskKit();

/** The form's side `side` for a limit open of `qty` at `price`, from the venue's records. */
function form(d: Desk, side: 1 | 2, price: string, qty = ''): SideModel {
  const m = orderModel(
    deskInput(d, { action: 'open', type: 1, price, qty, sizeMode: 'qty', pct: 0, tif: 1, reduceOnly: false }),
  );
  return side === 1 ? m.buy : m.sell;
}

/**
 * Places the form's Max of `side` at `price`: the venue accepts it and freezes the form's cost;
 * one step more is refused with `code`. The Max order is cancelled again; returns the Max.
 */
function maxIsExact(d: Desk, side: 1 | 2, price: string, code: number): number {
  const max = form(d, side, price).max;
  const step = Number(d.v.symbols.get(d.symbol)!.stepSize);
  const decimals = d.v.symbols.get(d.symbol)!.stepSize.split('.')[1]?.length ?? 0;
  const qty = max.toFixed(decimals);
  const cost = form(d, side, price, qty).cost;
  const r = placeLimit(d, side, qty, price);
  expect(r.status).toBe(1);
  expect(frozen(d, r.order_id)).toBeCloseTo(cost, 6);
  cancelOrder(d.v.exchange, d.u, { symbol: d.symbol, orderId: Number(r.order_id) });
  const more = (max + step).toFixed(decimals);
  expect(refusal(() => placeLimit(d, side, more, price)).code).toBe(code);
  return max;
}

describe('one-way: the form margins and caps an order against the net position as the venue does', () => {
  it('SOLUSDT 10x, long 500 at 185, 703.75 available: a plain close costs nothing; Max sells the long and what the margin opens beyond it', () => {
    const d = deskLong(kit, 'owui0001', SOL_LONG_10X);
    expect(d.v.exchange.summary(d.u).available_balance).toBe('703.75000000');
    // the close of the whole long at 186: the venue freezes nothing (the form showed 93,046.5 / 10 + fee)
    const close = form(d, 2, '186', '500');
    expect(close.cost).toBe(0);
    expect(close.margin).toBe(0);
    // Max: 500 + 703.75 x 10 / (186 x 1.005) = 500 + 37.648 -> 537.64 (was 37.64)
    expect(maxIsExact(d, 2, '186', Errors.INSUFFICIENT_MARGIN.code)).toBe(537.64);
    // a sell of 510 opens 10: 1,860 / 10 + 0.93
    expect(form(d, 2, '186', '510').cost).toBeCloseTo(186.93, 9);
    const r = placeLimit(d, 2, '500', '186');
    expect(frozen(d, r.order_id)).toBe(close.cost);
    // with that close resting, the long is taken: a second sell of 500 at 187 opens all of it
    const second = form(d, 2, '187', '500');
    expect(second.cost).toBeCloseTo(9396.75, 9);
    const e = refusal(() => placeLimit(d, 2, '500', '187'));
    expect(e.code).toBe(Errors.INSUFFICIENT_MARGIN.code);
    expect(e.message).toContain(`needs ${second.cost.toFixed(2)} USDT`);
    // and Max is what the margin opens alone: 7,037.5 / (187 x 1.005) = 37.44
    expect(maxIsExact(d, 2, '187', Errors.INSUFFICIENT_MARGIN.code)).toBe(37.44);
    // a buy adds to the long: margin-bound as before
    expect(maxIsExact(d, 1, '184', Errors.INSUFFICIENT_MARGIN.code)).toBe(38.05);
  });

  it('BTCUSDT 125x (cap 50,000), long 0.5 at 96,000: a sell may close the long and open 50,000 beyond it, resting sells take the long oldest first', () => {
    const d = deskLong(kit, 'owui0002', BTC_LONG_125X);
    expect(d.maxNotional).toBe(50_000);
    // sell at 97,000: 0.5 + 50,000 / 97,000 = 1.0154 -> 1.015 (the form counted the long as the sell's side: 0.020)
    expect(maxIsExact(d, 2, '97000.0', Errors.LEVERAGE_INVALID.code)).toBe(1.015);
    // buy at 95,000: the long (48,000 at the mark) leaves 2,000: 0.021
    expect(maxIsExact(d, 1, '95000.0', Errors.LEVERAGE_INVALID.code)).toBe(0.021);
    // two resting sells: 0.3 (the older, covered whole) and 0.4 (0.2 covered, 0.2 opens)
    const { older, newer } = restingSells(d);
    expect(frozen(d, older.order_id)).toBe(0);
    // the newer opens 0.2 x 99,000 = 19,800: margin 158.4 + fee 9.9
    expect(frozen(d, newer.order_id)).toBeCloseTo(168.3, 8);
    // a third sell meets no long: 0.2 x 99,000 of the cap is used, (50,000 - 19,800) / 97,000 = 0.311
    expect(form(d, 2, '97000.0', '0.100').cost).toBeCloseTo(9700 / 125 + 9700 * 0.0005, 9);
    expect(maxIsExact(d, 2, '97000.0', Errors.LEVERAGE_INVALID.code)).toBe(0.311);
    // cancelling the older gives the long back to the newer (covered whole) and 0.1 to a new sell
    cancelOrder(d.v.exchange, d.u, { symbol: d.symbol, orderId: Number(older.order_id) });
    expect(frozen(d, newer.order_id)).toBe(0);
    expect(form(d, 2, '97000.0', '0.100').cost).toBe(0);
    expect(maxIsExact(d, 2, '97000.0', Errors.LEVERAGE_INVALID.code)).toBe(0.615);
  });
});
