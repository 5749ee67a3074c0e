// The facade's translation layer on its own (no venue, no HTTP): Binance's new-order parameters
// to the native place input in both position modes, its refusals with Binance's codes and names,
// native order records to Binance's, Binance's candle windows over a reader, and the isolated
// margin route's parameters, answer and history entries.
import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  MarginChangeType,
  OrderStatus,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  TimeInForce,
} from '../../../src-shared/enums.ts';
import { BinanceError } from '../../../src-main/api/binance/errors.ts';
import { Params } from '../../../src-main/api/binance/params.ts';
import { selectKlines } from '../../../src-main/api/binance/translate/klines.ts';
import {
  averagePrice,
  binanceOrder,
  forcedOrder,
  parseNewOrder,
  placedOrder,
  placeInput,
  statusName,
} from '../../../src-main/api/binance/translate/orders.ts';
import { orderFigures } from '../../../src-main/api/binance/translate/account.ts';
import {
  marginAmount,
  marginAnswer,
  marginHistoryEntry,
  marginPositionSide,
  marginRequest,
} from '../../../src-main/api/binance/translate/margin.ts';
import { SymbolMath } from '../../../src-main/risk/money.ts';
import type { OrderState } from '../../../src-main/trading/ports.ts';

const math = new SymbolMath({
  symbol: 'BTCUSDT',
  tickSize: '0.1',
  stepSize: '0.001',
  pricePrecision: 1,
  qtyPrecision: 3,
  makerFeeRate: '0.0002',
  takerFeeRate: '0.0005',
});

const params = (p: Record<string, string>) => Params.of({ ...p });
const limit = (p: Record<string, string> = {}) =>
  parseNewOrder(
    params({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.010',
      price: '90000',
      timeInForce: 'GTC',
      ...p,
    }),
  );

function refusal(f: () => unknown): { code: number; msg: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof BinanceError) return { code: e.code, msg: e.message };
    throw e;
  }
  throw new Error('not refused');
}

describe('new order parameters -> native place input', () => {
  it('one-way: BOTH opens, reduceOnly closes and is kept as reduce_only', () => {
    expect(placeInput(limit(), 'BTCUSDT', 'one_way')).toEqual({
      symbol: 'BTCUSDT',
      side: Side.BUY,
      type: OrderType.LIMIT,
      position_side: PositionSide.LONG,
      position_action: PositionAction.OPEN,
      qty: '0.010',
      price: '90000',
      time_in_force: TimeInForce.GTC,
    });
    const close = placeInput(limit({ side: 'SELL', reduceOnly: 'true' }), 'BTCUSDT', 'one_way');
    expect(close).toMatchObject({ side: Side.SELL, position_action: PositionAction.CLOSE, reduce_only: true });
  });

  it('hedge: LONG / SHORT with the side pick open or close; BOTH and reduceOnly (true or false) are refused', () => {
    const closeShort = placeInput(limit({ positionSide: 'SHORT' }), 'BTCUSDT', 'hedge');
    expect(closeShort).toMatchObject({ position_side: PositionSide.SHORT, position_action: PositionAction.CLOSE });
    const openShort = placeInput(limit({ side: 'SELL', positionSide: 'SHORT' }), 'BTCUSDT', 'hedge');
    expect(openShort).toMatchObject({ position_side: PositionSide.SHORT, position_action: PositionAction.OPEN });
    expect(refusal(() => placeInput(limit(), 'BTCUSDT', 'hedge')).code).toBe(-4061);
    for (const reduceOnly of ['true', 'false'])
      expect(refusal(() => placeInput(limit({ positionSide: 'LONG', reduceOnly }), 'BTCUSDT', 'hedge'))).toEqual({
        code: -1106,
        msg: "Parameter 'reduceOnly' sent when not required.",
      });
  });

  it('market orders carry no price and answer GTC; a price with one is -1106', () => {
    const m = parseNewOrder(params({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.010' }));
    const input = placeInput(m, 'BTCUSDT', 'one_way');
    expect(input).not.toHaveProperty('price');
    expect(input.type).toBe(OrderType.MARKET);
    const r = refusal(() =>
      parseNewOrder(params({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '1', price: '1' })),
    );
    expect(r.code).toBe(-1106);
  });

  it.each([
    [{ side: 'HOLD' }, -1117],
    [{ type: 'STOP_MARKET' }, -4120],
    [{ type: 'TRAILING_STOP' }, -1116],
    [{ timeInForce: 'GTD' }, -1115],
    [{ newClientOrderId: 'has space' }, -1100],
    [{ positionSide: 'UP' }, -4060],
    [{ newOrderRespType: 'FULL' }, -1136],
    [{ workingType: 'LAST_PRICE' }, -4031],
    [{ selfTradePreventionMode: 'EXPIRE_ALL' }, -5039],
    [{ priceMatch: 'QUEUE' }, -1130],
    [{ reduceOnly: 'yes' }, -1130],
  ])('%j is refused with %i', (p, code) => {
    expect(refusal(() => limit(p as Record<string, string>)).code).toBe(code);
  });

  it('parameters the schema has validated read the same (every spelling of the booleans), and what it cannot check is refused', () => {
    const base = {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      quantity: '0.010',
      price: '90000',
      timeInForce: 'IOC',
    };
    for (const [t, f] of [
      ['true', 'false'],
      ['TRUE', 'FALSE'],
      ['True', 'False'],
    ]) {
      for (const [text, value] of [
        [t, true],
        [f, false],
      ] as const) {
        const p = {
          ...base,
          reduceOnly: text,
          newOrderRespType: 'RESULT',
          positionSide: 'SHORT',
          newClientOrderId: 'a.b',
        };
        const checked = parseNewOrder(params(p), true);
        expect(checked).toEqual(parseNewOrder(params(p)));
        expect(checked.reduceOnly).toBe(value);
      }
      expect(refusal(() => parseNewOrder(params({ ...base, closePosition: t }), true)).code).toBe(-4136);
      expect(parseNewOrder(params({ ...base, closePosition: f }), true).tif).toBe(TimeInForce.IOC);
    }
    expect(parseNewOrder(params(base), true)).toMatchObject({
      respType: 'ACK',
      positionSide: 'BOTH',
      reduceOnly: undefined,
    });
    expect(refusal(() => parseNewOrder(params({ ...base, price: '' }), true)).code).toBe(-1102);
    expect(refusal(() => parseNewOrder(params({ ...base, type: 'MARKET' }), true)).code).toBe(-1106);
  });

  it('Close-All (closePosition=true) on a LIMIT or MARKET order is -4136 before the quantity it lacks is asked for', () => {
    // Binance: closePosition goes with STOP_MARKET / TAKE_PROFIT_MARKET only, and a bot sending it
    // sends no quantity; the type's refusal comes first, for a single order and a batch entry alike
    const market = { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', positionSide: 'LONG', closePosition: 'true' };
    const limitOne = { ...market, type: 'LIMIT', price: '90000', timeInForce: 'GTC' };
    for (const p of [market, limitOne])
      for (const validated of [true, false]) {
        const e = refusal(() => parseNewOrder(params(p), validated));
        expect([e.code, e.msg]).toEqual([-4136, `Target strategy invalid for orderType ${p.type},closePosition true`]);
      }
    // a conditional type is refused as such (an algo order: -4120, as Binance), closePosition or not
    expect(refusal(() => parseNewOrder(params({ ...market, type: 'STOP_MARKET' }))).code).toBe(-4120);
    // without closePosition the quantity is still mandatory
    const { closePosition: _, ...plain } = market;
    expect(refusal(() => parseNewOrder(params(plain), true)).msg).toMatch(/^Mandatory parameter 'quantity'/);
  });

  it('missing mandatory parameters name themselves (-1102)', () => {
    for (const name of ['symbol', 'side', 'type', 'quantity', 'price', 'timeInForce']) {
      const p: Record<string, string> = {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: '0.010',
        price: '90000',
        timeInForce: 'GTC',
      };
      delete p[name];
      const r = refusal(() => parseNewOrder(params(p)));
      expect(r.code, name).toBe(-1102);
      expect(r.msg, name).toContain(`'${name}'`);
    }
  });
});

describe('native records -> Binance records', () => {
  const order: OrderState = {
    id: 42,
    clientOrderId: 'my.bot:1',
    accountId: 1,
    symbol: 'BTCUSDT',
    side: Side.SELL,
    type: OrderType.LIMIT,
    tif: TimeInForce.GTX,
    priceTicks: 900_005,
    qtyLots: 20,
    filledLots: 10,
    filledQuote: 90_000_500_000n, // 0.010 x 90000.5 = 900.005 USDT in 1e-8 units
    status: OrderStatus.PARTIALLY_FILLED,
    leverage: 10,
    marginMode: 2,
    positionSide: PositionSide.SHORT,
    positionAction: PositionAction.OPEN,
    reduceOnly: false,
    frozen: 0n,
    totalFee: 0n,
    createdAt: 1000,
    updatedAt: 2000,
  };

  it('an order: Binance names and text amounts, hedge side SHORT, one-way BOTH', () => {
    expect(binanceOrder(math, order, 'hedge')).toMatchObject({
      orderId: 42,
      status: 'PARTIALLY_FILLED',
      price: '90000.5',
      avgPrice: '90000.50000000',
      origQty: '0.020',
      executedQty: '0.010',
      cumQuote: '900.00500000',
      timeInForce: 'GTX',
      side: 'SELL',
      positionSide: 'SHORT',
      time: 1000,
      updateTime: 2000,
    });
    // a one-way order is recorded on LONG; a record on SHORT is a hedge order (placed before a switch)
    expect(binanceOrder(math, { ...order, positionSide: PositionSide.LONG }, 'one_way').positionSide).toBe('BOTH');
    expect(binanceOrder(math, order, 'one_way').positionSide).toBe('SHORT');
  });

  it("a forced close order as forceOrders lists it: LIMIT IOC (reduceOnly false, as Binance's example), one-way BOTH; a market-sent one's price '0'", () => {
    const adl: OrderState = {
      ...order,
      clientOrderId: 'adl_autoclose',
      side: Side.BUY,
      tif: TimeInForce.IOC,
      qtyLots: 10,
      status: OrderStatus.FILLED,
      reduceOnly: true,
      positionAction: PositionAction.CLOSE,
    };
    // a one-way account's close order is recorded on LONG
    const one = forcedOrder(math, { ...adl, positionSide: PositionSide.LONG }, 'one_way');
    expect(one).toEqual({
      orderId: 42,
      symbol: 'BTCUSDT',
      status: 'FILLED',
      clientOrderId: 'adl_autoclose',
      price: '90000.5',
      avgPrice: '90000.50000000',
      origQty: '0.010',
      executedQty: '0.010',
      cumQuote: '900.00500000',
      timeInForce: 'IOC',
      type: 'LIMIT',
      reduceOnly: false,
      closePosition: false,
      side: 'BUY',
      positionSide: 'BOTH',
      stopPrice: '0',
      workingType: 'CONTRACT_PRICE',
      origType: 'LIMIT',
      time: 1000,
      updateTime: 2000,
    });
    expect(forcedOrder(math, { ...adl, type: OrderType.MARKET, priceTicks: 0 }, 'hedge')).toMatchObject({
      price: '0',
      type: 'LIMIT',
      positionSide: 'SHORT',
    });
  });

  it("averagePrice reads the venue's texts as it reads decimals, to the unit; '0' before a fill", () => {
    // 0.013 BTC for 1,249.12345679 USDT: 96,086.41975307... -> 96,086.41975308 (half up at 8 decimals)
    for (const [quote, qty] of [
      ['1249.12345679', '0.013'],
      [new Decimal('1249.12345679'), new Decimal('0.013')],
      ['1249.123456790', '1.3e-2'],
    ] as const) {
      expect(averagePrice(math, quote, qty)).toBe('96086.41975308');
    }
    expect(averagePrice(math, '0.00000000', '0.000')).toBe('0');
    expect(averagePrice(math, new Decimal(0), new Decimal(0))).toBe('0');
    // a quantity off the pair's step is no venue text: refused as before
    expect(() => averagePrice(math, '1.00000000', '0.0005')).toThrow(RangeError);
  });

  it('a self-trade-expired order is EXPIRED_IN_MATCH; an ACK answer is NEW with nothing filled', () => {
    expect(statusName({ status: OrderStatus.EXPIRED, expiredInMatch: true })).toBe('EXPIRED_IN_MATCH');
    expect(statusName({ status: OrderStatus.EXPIRED })).toBe('EXPIRED');
    const placed = {
      orderId: 7,
      clientOrderId: 'c',
      status: OrderStatus.FILLED,
      filledQty: '0.010',
      filledQuote: '900.00000000',
      expiredInMatch: false,
      time: 5,
    };
    expect(placedOrder(math, limit(), placed, 'one_way')).toMatchObject({
      status: 'NEW',
      executedQty: '0',
      cumQty: '0',
    });
    expect(placedOrder(math, limit({ newOrderRespType: 'RESULT' }), placed, 'one_way')).toMatchObject({
      status: 'FILLED',
      executedQty: '0.010',
      avgPrice: '90000.00000000',
    });
  });

  it('origQty is the quantity the exchange accepted when the placement says it (a trimmed reduce-only order), else the one sent', () => {
    const placed = {
      orderId: 8,
      clientOrderId: 'c',
      status: OrderStatus.NEW,
      filledQty: '0.000',
      filledQuote: '0',
      expiredInMatch: false,
      time: 5,
    };
    expect(placedOrder(math, limit(), placed, 'one_way').origQty).toBe('0.010');
    expect(placedOrder(math, limit(), { ...placed, qtyLots: 4 }, 'one_way').origQty).toBe('0.004');
  });

  it("open orders' figures: remaining x price by side, and the margin the venue says they hold", () => {
    const rec = (side: number, action: number) =>
      ({
        side,
        position_side: 1,
        position_action: action,
        qty: '2',
        filled_qty: '0.5',
        price: '100',
        leverage: 5,
      }) as never;
    const f = orderFigures(
      [rec(Side.BUY, PositionAction.OPEN), rec(Side.SELL, PositionAction.CLOSE)],
      null,
      3_009_000_000n,
    );
    expect(f).toEqual({ bidNotional: 150, askNotional: 150, frozen: 3_009_000_000n });
  });
});

describe("Binance's candle windows", () => {
  const MIN = 60_000;
  // native tuples, newest first, of the minutes 0..9
  const all = Array.from({ length: 10 }, (_, i) => [
    i * MIN,
    i * MIN + MIN - 1,
    'o',
    'h',
    'l',
    'c',
    'v',
    'q',
    1,
    'V',
    'Q',
  ]);
  const read = (q: { limit?: number; startTime?: number; endTime?: number }) => {
    const rows = all
      .filter((k) => (q.startTime ?? 0) <= (k[0] as number) && (k[0] as number) <= (q.endTime ?? Infinity))
      .reverse();
    return q.limit === undefined ? rows : rows.slice(0, q.limit);
  };
  const opens = (w: { start?: number; end?: number; limit: number }) =>
    selectKlines(read, { interval: '1m', start: w.start, end: w.end, limit: w.limit }).map((k) => k[0]);

  it('latest `limit` oldest first; startTime counts forward; endTime alone counts back', () => {
    expect(opens({ limit: 3 })).toEqual([7 * MIN, 8 * MIN, 9 * MIN]);
    expect(opens({ start: 2 * MIN, limit: 3 })).toEqual([2 * MIN, 3 * MIN, 4 * MIN]);
    // an unaligned startTime: still `limit` candles, from the first opening after it
    expect(opens({ start: 2 * MIN + 10, limit: 3 })).toEqual([3 * MIN, 4 * MIN, 5 * MIN]);
    expect(opens({ end: 5 * MIN + 10, limit: 2 })).toEqual([4 * MIN, 5 * MIN]);
  });

  it("Binance's column order: closeTime at 6, a '0' last", () => {
    const k = selectKlines(read, { interval: '1m', start: undefined, end: undefined, limit: 1 })[0];
    expect(k).toEqual([9 * MIN, 'o', 'h', 'l', 'c', 'v', 10 * MIN - 1, 'q', 1, 'V', 'Q', '0']);
  });
});

describe('isolated position margin', () => {
  const refused = (fn: () => unknown): [number, string] => {
    try {
      fn();
    } catch (e) {
      if (e instanceof BinanceError) return [e.code, e.message];
      throw e;
    }
    throw new Error('not refused');
  };

  it('amounts are exact units: above 0 (-4055), at most 8 decimals (-1111)', () => {
    expect(marginAmount('100.5')).toBe(10_050_000_000n);
    expect(marginAmount('0.00000001')).toBe(1n);
    expect(refused(() => marginAmount('0'))).toEqual([-4055, 'Amount must be positive.']);
    expect(refused(() => marginAmount('0.000000000'))[0]).toBe(-4055);
    expect(refused(() => marginAmount('1.000000001'))[0]).toBe(-1111);
    expect(refused(() => marginAmount('1e3'))[0]).toBe(-1100);
  });

  it('positionSide: BOTH (or none) one-way, LONG / SHORT hedge, else -4061 naming the mode', () => {
    expect(marginPositionSide('one_way', undefined)).toBe(PositionSide.LONG);
    expect(marginPositionSide('one_way', 'BOTH')).toBe(PositionSide.LONG);
    expect(marginPositionSide('hedge', 'SHORT')).toBe(PositionSide.SHORT);
    expect(marginPositionSide('hedge', 'LONG')).toBe(PositionSide.LONG);
    expect(refused(() => marginPositionSide('hedge', undefined))).toEqual([-4061, expect.stringContaining('hedge')]);
    expect(refused(() => marginPositionSide('one_way', 'SHORT'))).toEqual([-4061, expect.stringContaining('one-way')]);
    expect(refused(() => marginPositionSide('hedge', 'UP'))[0]).toBe(-4060);
  });

  it("the request, Binance's answer and a history entry", () => {
    expect(marginRequest(params({ amount: '12.5', type: '2', positionSide: 'SHORT' }), 'hedge')).toEqual({
      positionSide: PositionSide.SHORT,
      type: 2,
      amount: 1_250_000_000n,
    });
    expect(marginAnswer('100.00000000', 1)).toStrictEqual({
      amount: 100,
      code: 200,
      msg: 'Successfully modify position margin.',
      type: 1,
    });
    const row = {
      id: 7,
      accountId: 1,
      symbol: 'BTCUSDT',
      positionSide: PositionSide.SHORT,
      positionId: 3,
      type: MarginChangeType.REDUCE,
      amount: 2_336_332_311n,
      margin: 10_000_000_000n,
      time: 1_578_047_897_183,
    };
    expect(marginHistoryEntry(row, 'hedge')).toStrictEqual({
      symbol: 'BTCUSDT',
      type: 2,
      deltaType: 'USER_ADJUST',
      amount: '23.36332311',
      asset: 'USDT',
      time: 1_578_047_897_183,
      positionSide: 'SHORT',
    });
    expect(marginHistoryEntry(row, 'one_way').positionSide).toBe('BOTH');
  });
});
