// The chart's price lines of the current pair (chart/price-lines.ts): in hedge mode a pair's long
// and short each have their take-profit and stop-loss, named by side ("TP long", "SL short") so
// they can be told apart (and dragged knowingly); one-way mode's one position keeps "TP" / "SL".
// Limit orders at one price share one counted line that does not drag, and so do waiting stops at
// one trigger (a drag of one of two overlapping lines moved the older stop, with no hint which).
import { describe, expect, it } from 'vitest';
import type { ConditionalOrderRecord, OrderRecord, PositionRecord } from '../../src-shared/types.ts';
import { priceLines, type PriceLinesInput } from '../../src-renderer/src/features/chart/price-lines.ts';

const position = (position_side: 1 | 2, quantity: number): PositionRecord =>
  ({ symbol: 'BTCUSDT', position_side, quantity, entry_price: 96_100, liquidation_price: 0 }) as PositionRecord;

const order = (id: string, side: 1 | 2, price: string, qty: string): OrderRecord =>
  ({ id, symbol: 'BTCUSDT', side, type: 1, price, qty, filled_qty: '0' }) as OrderRecord;

const stop = (id: string, side: 1 | 2, trigger_price: string, qty: string | null): ConditionalOrderRecord =>
  ({
    id,
    symbol: 'BTCUSDT',
    side,
    trigger_price,
    qty,
    close_position: qty === null,
    status: 1,
    callback_rate: null,
  }) as ConditionalOrderRecord;

const input = (change: Partial<PriceLinesInput>): PriceLinesInput => ({
  symbol: 'BTCUSDT',
  qd: 3,
  hedge: true,
  positions: [],
  tpsl: {},
  orders: [],
  alerts: [],
  stops: [],
  ...change,
});

/** "id title" of each line that moves, "id title (fixed)" of the others, of the kinds asked. */
const shown = (i: PriceLinesInput, kinds: RegExp) =>
  priceLines(i)
    .filter((l) => kinds.test(l.id))
    .map((l) => `${l.id} ${l.title}${l.movable === true ? '' : ' (fixed)'}`);

describe("the chart's take-profit and stop-loss lines", () => {
  const tpsl = {
    'BTCUSDT:1': { takeProfit: '96180.0', stopLoss: '96020.0', workingType: 1, tpWorkingType: 1, slWorkingType: 1 },
    'BTCUSDT:2': { takeProfit: '95980.0', stopLoss: '96220.0', workingType: 1, tpWorkingType: 1, slWorkingType: 1 },
  };

  it("hedge mode: the long's and the short's are named by side", () => {
    const both = input({ positions: [position(1, 0.03), position(2, 0.02)], tpsl });
    expect(shown(both, /^(tp|sl):/)).toEqual([
      'tp:BTCUSDT:1 TP long',
      'sl:BTCUSDT:1 SL long',
      'tp:BTCUSDT:2 TP short',
      'sl:BTCUSDT:2 SL short',
    ]);
    // and so with one side alone: the names do not change as the other side opens or closes
    expect(shown(input({ positions: [position(2, 0.02)], tpsl }), /^(tp|sl):/)).toEqual([
      'tp:BTCUSDT:2 TP short',
      'sl:BTCUSDT:2 SL short',
    ]);
  });

  it('one-way mode: one position, "TP" and "SL"', () => {
    const one = input({ hedge: false, positions: [position(1, 0.03)], tpsl });
    expect(shown(one, /^(tp|sl):/)).toEqual(['tp:BTCUSDT:1 TP', 'sl:BTCUSDT:1 SL']);
  });
});

describe("the chart's limit order lines", () => {
  it('one order alone at its price drags; several at one price share a counted line that does not', () => {
    const orders = [
      order('1', 1, '95000.0', '0.010'),
      order('2', 1, '95000.0', '0.020'),
      order('3', 2, '97000.0', '0.005'),
      { ...order('4', 2, '98000.0', '1'), symbol: 'ETHUSDT' },
    ];
    expect(shown(input({ orders }), /^orders?:/)).toEqual([
      'orders:1:95000.0 Buy 0.030 (2 orders) (fixed)',
      'order:3 Sell 0.005',
    ]);
  });
});

describe("the chart's stop lines", () => {
  it('a stop alone at its trigger drags; several at one trigger share a counted line that does not', () => {
    const stops = [
      stop('815711', 1, '96334.0', null),
      stop('816361', 1, '96334.0', '0.010'),
      stop('9', 2, '95000.0', '0.005'),
      stop('10', 2, '97000.0', '0.010'),
      stop('11', 1, '97000.0', '0.020'),
    ];
    expect(shown(input({ stops }), /^stops?:/)).toEqual([
      'stops:96334.0 Stop Buy 0.010 + close (2 stops) (fixed)',
      'stop:9 Stop Sell 0.005',
      'stops:97000.0 Stop Buy 0.020, Sell 0.010 (2 stops) (fixed)',
    ]);
  });

  it("a trailing stop's line alone does not drag either: the venue never modifies one", () => {
    const trailing = { ...stop('12', 2, '95000.0', '0.005'), callback_rate: '1.0' };
    expect(shown(input({ stops: [trailing] }), /^stops?:/)).toEqual(['stop:12 Stop Sell 0.005 (fixed)']);
  });

  it('a trailing stop waiting for its activation price says so: its line is not armed yet', () => {
    // a sell trailing 2.0% once the last price rises to 97,000.0: its trigger_price 95,060.0 is where
    // it would start from, drawn (before) as a plain "Stop Sell 0.004" with the last price at 95,050.0
    const waiting = {
      ...stop('13', 2, '95060.0', '0.004'),
      callback_rate: '2.0',
      activation_price: '97000.0',
      peak_price: null,
    };
    const buy = {
      ...stop('14', 1, '96900.0', '0.004'),
      callback_rate: '2.0',
      activation_price: '95000.0',
      peak_price: null,
    };
    const active = { ...waiting, id: '15', trigger_price: '95000.0', peak_price: '96939.0' };
    expect(shown(input({ stops: [waiting, buy, active] }), /^stops?:/)).toEqual([
      'stop:13 Stop Sell 0.004 · activates at ≥ 97,000.0 (fixed)',
      'stop:14 Stop Buy 0.004 · activates at ≤ 95,000.0 (fixed)',
      'stop:15 Stop Sell 0.004 (fixed)',
    ]);
  });
});
