// The order form's one-way reduce-only orders against a real in-process venue. The venue trims
// a reduce-only order larger than the position to the position as it enters (api.md, Order
// rules): it freezes nothing, trades at most the position and never flips it. The form's
// preview, cost, Max and size percentages say the same, and the request a click sends is the
// one checked. The size % of an open is of each side's Max, which in one-way mode holds the
// position a sell against a long closes without margin (the label said '% of available margin').
// Orders another client placed reduce-only (reduce_only with position_action 1) the venue records
// as closes (in one-way mode position_action 2 is reduce-only; the record has no reduce_only), so
// the form leaves them out as the venue does: its cost of a new order is what the venue freezes.
import { describe, expect, it } from 'vitest';
import type { OrderInput } from '../../src-main/trading/exchange.ts';
import { orderModel, type OrderModel } from '../../src-renderer/src/features/order-entry/order-model.ts';
import { cancelOrder, houseLimit, placeOrder } from '../helpers/exchange-commands.ts';
import { deskInput, deskKit, deskLong, frozen, SOL_LONG_10X, type Desk } from './venue-desk.ts';

const SYMBOL = SOL_LONG_10X.symbol;
const kit = deskKit();

/** A one-way account at 10x on SOLUSDT holding a long of 500 bought at 185 (the mark). */
const desk = (name: string): Desk => deskLong(kit, name, SOL_LONG_10X);

/** The form on the desk: a limit open at `price`, by quantity or by percentage. */
function form(d: Desk, f: { price: string; qty?: string; pct?: number; reduceOnly: boolean }): OrderModel {
  return orderModel(
    deskInput(d, {
      action: 'open',
      type: 1,
      price: f.price,
      qty: f.qty ?? '',
      sizeMode: f.pct === undefined ? 'qty' : 'pct',
      pct: f.pct ?? 0,
      tif: 1,
      reduceOnly: f.reduceOnly,
    }),
  );
}

/** Sends what a click on `side` of `m` sends; returns the venue's record of the order. */
function click(d: Desk, m: OrderModel, side: 1 | 2) {
  const out = m.order(side);
  if (!out.ok) throw new Error(out.error);
  const r = placeOrder(d.v.exchange, d.u, out.order as OrderInput);
  return { result: r, record: d.v.exchange.openOrders(d.u, SYMBOL).find((o) => o.id === r.order_id) };
}

const cancel = (d: Desk, id: string) => cancelOrder(d.v.exchange, d.u, { symbol: SYMBOL, orderId: Number(id) });

describe('one-way reduce-only: the form previews the order the venue keeps (trimmed to the position, never a flip)', () => {
  it('long 500: a reduce-only sell of 800 at 186 is trimmed to 500 by the venue; the form shows 500 closed, no flip', () => {
    const d = desk('rdui0001');
    const m = form(d, { price: '186', qty: '800', reduceOnly: true });
    const sell = m.sell;
    // the form said: notional 800 x 186, the fee of 800, and a short of 300 flipped at 186 with its liquidation price
    expect(sell.liquidation).toBeNaN();
    expect(sell.notional).toBeCloseTo(500 * 186, 9);
    expect(sell.fee).toBeCloseTo(500 * 186 * Number(d.v.symbols.get(SYMBOL)!.makerFeeRate), 9);
    expect(sell.pnl).toBeCloseTo(500, 9);
    expect(sell.trimmedTo).toBe(500);
    expect(sell.cost).toBe(0);
    expect(sell.max).toBe(500);
    // the venue: accepted as a record of 500, nothing frozen
    const { result, record } = click(d, m, 2);
    expect(result.status).toBe(1);
    expect(Number(record!.qty)).toBe(500);
    expect(frozen(d, result.order_id)).toBe(sell.cost);
    // a buyer of 800 at 186 trades 500 of it: the long is closed, no short
    houseLimit(d.v.exchange, 1, '186', '800', SYMBOL);
    expect(d.v.exchange.positions(d.u).filter((p) => p.symbol === SYMBOL && p.quantity !== 0)).toEqual([]);
  });

  it('a reduce-only sell smaller than the long is not trimmed; 100% of a reduce-only side is the position', () => {
    const d = desk('rdui0002');
    const part = form(d, { price: '186', qty: '300', reduceOnly: true }).sell;
    expect(part.trimmedTo).toBeNaN();
    expect(part.notional).toBeCloseTo(300 * 186, 9);
    // what is left: a long of 200 at 185
    expect(part.liquidation).toBeGreaterThan(0);
    const all = form(d, { price: '186', pct: 100, reduceOnly: true });
    expect(Number(all.sell.qty)).toBe(500);
    const { record } = click(d, all, 2);
    expect(Number(record!.qty)).toBe(500);
  });

  it("the size % of an open is of each side's Max (the long a sell closes needs no margin), of a reduce-only order the position's", () => {
    const d = desk('rdui0003');
    const max = form(d, { price: '186', reduceOnly: false }).sell.max;
    expect(max).toBe(537.64);
    // the label said '% of available margin', yet 50% of the sell side is 268.82, all of it closing the long (no margin)
    const half = form(d, { price: '186', pct: 50, reduceOnly: false });
    expect(half.pctOf.label).toBe('% of Max');
    expect(half.pctOf.detail).toContain('closes first (no margin needed)');
    expect(Number(half.sell.qty)).toBe(268.82);
    expect(half.sell.cost).toBe(0);
    const placed = click(d, half, 2);
    expect(frozen(d, placed.result.order_id)).toBe(0);
    cancel(d, placed.result.order_id);
    // 100% is Max: accepted, and frozen as the form said
    const all = form(d, { price: '186', pct: 100, reduceOnly: false });
    expect(Number(all.sell.qty)).toBe(max);
    const whole = click(d, all, 2);
    expect(whole.result.status).toBe(1);
    expect(frozen(d, whole.result.order_id)).toBeCloseTo(all.sell.cost, 6);
    cancel(d, whole.result.order_id);
    // reduce-only: a share of the position
    expect(form(d, { price: '186', pct: 50, reduceOnly: true }).pctOf.label).toBe('% of position');
  });

  it("another client's reduce-only open (reduce_only with position_action 1) is recorded as a close: the form counts it as the venue does, its cost and Max match", () => {
    const d = desk('rdui0004');
    // a bot's reduce-only sell of 300 at 190, sent as an open with reduce_only (Binance's reduceOnly=true)
    const bot: OrderInput = {
      symbol: SYMBOL,
      side: 2,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '190',
      qty: '300',
      reduce_only: true,
    };
    const r = placeOrder(d.v.exchange, d.u, bot);
    const record = d.v.exchange.openOrders(d.u, SYMBOL).find((o) => o.id === r.order_id)!;
    // one-way mode: position_action 2 is reduce-only, and the record (no reduce_only field) says so
    expect(record.position_action).toBe(2);
    expect(frozen(d, r.order_id)).toBe(0);
    // the venue gives a new plain sell of 500 the whole long (reduce-only orders never open): it freezes
    // nothing, and the form, which leaves the bot's close out too, says so
    const m = form(d, { price: '187', qty: '500', reduceOnly: false });
    expect(m.sell.cost).toBe(0);
    const sent = click(d, m, 2);
    expect(sent.result.status).toBe(1);
    expect(frozen(d, sent.result.order_id)).toBeLessThanOrEqual(m.sell.cost);
    cancel(d, sent.result.order_id);
    // the form's Max (its 200 of cover plus what the margin opens) is within what the venue takes
    const max = form(d, { price: '187', reduceOnly: false }).sell.max;
    const maxed = click(d, form(d, { price: '187', pct: 100, reduceOnly: false }), 2);
    expect(Number(d.v.exchange.openOrders(d.u, SYMBOL).find((o) => o.id === maxed.result.order_id)!.qty)).toBe(max);
  });
});
