// The desk the order form's stop tests share (stop-order and trailing-stop): BTCUSDT on a hedge-mode
// account of 10,000 USDT at 20x, the mark 95,000 and the book 94,990 / 95,000, the form on its Stop
// kind with 0.010 to send; a long of 0.05 bought at 94,000 to close; the pair's decimals; and the
// codes of the price a stop watches and of the way its trigger is crossed.
import type { PositionRecord } from '../../src-shared/types.ts';
import { orderModel, type OrderModelInput } from '../../src-renderer/src/features/order-entry/order-model.ts';
import { BTC_FUTURES } from './futures-row.ts';

type Form = Partial<OrderModelInput['form']>;

export const MARK = 1;
export const LAST = 2;
export const RISES = 1;
export const FALLS = 2;

export const display = { pd: 1, qd: 3, base: 'BTC' };

export const long = {
  symbol: 'BTCUSDT',
  position_side: 1,
  margin_mode: 2,
  quantity: 0.05,
  entry_price: 94_000,
  margin: 235,
} as PositionRecord;

/**
 * The order model of the desk with the last price at `last` and the stop form's fields `stop`
 * (each test's kind of stop), changed by a test's `form`, with `positions` held.
 */
export function stopModels(desk: { last: number; stop: Form }) {
  return (form: Form, positions: PositionRecord[] = []) =>
    orderModel({
      symbol: 'BTCUSDT',
      form: {
        action: 'open',
        type: 1,
        price: '',
        qty: '0.010',
        sizeMode: 'qty',
        pct: 0,
        tif: 1,
        reduceOnly: false,
        stop: true,
        ...desk.stop,
        ...form,
      },
      futures: BTC_FUTURES,
      summary: { available_balance: '10000', wallet_balance: '10000', position_mode: 'hedge' },
      setting: { leverage: 20, marginMode: 2, maxLeverage: 125 },
      positions,
      openOrders: [],
      markOf: () => 95_000,
      bestBid: 94_990,
      bestAsk: 95_000,
      last: desk.last,
      maxNotional: 1_000_000,
      loggedIn: true,
      positionsLoaded: true,
    });
}
