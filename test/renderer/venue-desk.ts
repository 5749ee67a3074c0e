// A one-way desk on a real in-process venue for the order form's tests: an account holding a
// long, and the order model's input taken from the venue's own records (the pair's filters, the
// account, the leverage setting, positions and open orders), so that what the form says can be
// checked against what the venue then does.
import type { OrderInput } from '../../src-main/trading/exchange.ts';
import type { LocalVenue } from '../../src-main/venue.ts';
import type { OrderModelInput } from '../../src-renderer/src/features/order-entry/order-model.ts';
import { placeOrder } from '../helpers/exchange-commands.ts';
import { venueKit } from '../trading/venues.ts';

export const USDT = 100_000_000n;

/** The desks' venues: the wall clock at 2026-01-05 12:00 UTC, 10,000 USDT to each new account. */
export const deskKit = () => venueKit({ wall: Date.UTC(2026, 0, 5, 12, 0, 0), balance: 10_000n * USDT });

export interface Desk {
  v: LocalVenue;
  u: number;
  symbol: string;
  mark: number;
  /** The leverage's notional cap, as the leverage route answers it. */
  maxNotional: number;
}

/** The SOLUSDT desk: 10x, a long of 500 bought at 185, 10,000 USDT. */
export const SOL_LONG_10X = { symbol: 'SOLUSDT', leverage: 10, qty: '500', price: '185', balance: 10_000n * USDT };

/** The BTCUSDT desk: 125x (notional cap 50,000), a long of 0.5 bought at 96,000, 100,000 USDT. */
export const BTC_LONG_125X = {
  symbol: 'BTCUSDT',
  leverage: 125,
  qty: '0.500',
  price: '96000.0',
  balance: 100_000n * USDT,
};

/**
 * A fresh venue of `kit` with a one-way account `name` at `leverage` on `symbol`, holding a long
 * of `qty` bought at `price` (the mark) from the house.
 */
export function deskLong(
  kit: Pick<ReturnType<typeof venueKit>, 'venue' | 'oneWayLong'>,
  name: string,
  p: { symbol: string; leverage: number; qty: string; price: string; balance: bigint },
): Desk {
  const v = kit.venue();
  const { u, maxNotional } = kit.oneWayLong(v, name, p, p.balance);
  return { v, u, symbol: p.symbol, mark: Number(p.price), maxNotional };
}

/** The order model's input for `form` on the desk: the venue's records, the mark as the last price, no book. */
export function deskInput(d: Desk, form: OrderModelInput['form']): OrderModelInput {
  const row = d.v.symbols.get(d.symbol)!;
  const setting = d.v.exchange.pairSetting(d.u, d.symbol);
  return {
    symbol: d.symbol,
    form,
    futures: {
      taker_fee_rate: String(row.takerFeeRate),
      maker_fee_rate: String(row.makerFeeRate),
      maintenance_margin_rate: String(row.maintenanceMarginRate),
      max_qty: row.maxQty,
      qty_step: row.stepSize,
      max_leverage: row.maxLeverage,
    },
    summary: d.v.exchange.summary(d.u),
    setting: { leverage: setting.leverage, marginMode: setting.marginMode as 1 | 2, maxLeverage: row.maxLeverage },
    positions: d.v.exchange.positions(d.u),
    openOrders: d.v.exchange.openOrders(d.u, d.symbol),
    markOf: () => d.mark,
    bestBid: 0,
    bestAsk: 0,
    last: d.mark,
    maxNotional: d.maxNotional,
    loggedIn: true,
    positionsLoaded: true,
  };
}

/** What the venue froze for order `id`, USDT. */
export const frozen = (d: Desk, id: string): number => Number(d.v.exchange.liveOrder(d.u, Number(id))!.frozen) / 1e8;

/** A limit order (good till cancel) by the desk's account opening `qty` on `side` at `price`: the venue's answer. */
export function placeLimit(d: Desk, side: 1 | 2, qty: string, price: string) {
  const input: OrderInput = { symbol: d.symbol, side, position_side: 1, position_action: 1, type: 1, price, qty };
  return placeOrder(d.v.exchange, d.u, input);
}

/**
 * Two resting sells against the BTCUSDT desk's long of 0.5, in this order: 0.3 at 98,000 (the
 * older, covered whole by the long) and 0.4 at 99,000 (0.2 covered, 0.2 opens).
 */
export function restingSells(d: Desk) {
  const older = placeLimit(d, 2, '0.300', '98000.0');
  const newer = placeLimit(d, 2, '0.400', '99000.0');
  return { older, newer };
}
