import { btc, venueKit } from './venues.ts';
import {
  cancelOrder,
  placeBotOrder,
  placeOrder,
  setLeverage,
  setMarginMode,
  setPositionMode,
  setPrices,
  setTpSl,
  settleFunding,
} from '../helpers/exchange-commands.ts';

import { describe, expect, it } from 'vitest';
import { ApiError, Errors } from '../../src-shared/errors.ts';
import { HOUSE_ACCOUNT, INITIAL_INSURANCE_FUND, type OrderInput } from '../../src-main/trading/exchange.ts';
import { type LocalVenue as Venue } from '../../src-main/venue.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const { venue, user, dataDir, fundedVenue } = venueKit({ wall: T0, balance: 10_000n * USDT });

/** A bot (house) limit order resting or crossing at `price`. */
function bot(v: Venue, side: 1 | 2, price: string, qty: string, account = HOUSE_ACCOUNT) {
  return placeBotOrder(
    v.exchange,
    { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: 1, price, qty, time_in_force: 1 },
    account,
  );
}

function expectApiError(fn: () => unknown, def: { code: number }): ApiError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(def.code);
    return err as ApiError;
  }
  throw new Error(`expected error ${def.code}`);
}

/** deposits = wallet + fees paid + liquidation fees - realized PnL + funding paid, exactly, per account. */
function checkIdentity(v: Venue, accountId: number): void {
  const acct = v.accounts.byId(accountId)!;
  const totals = v.trading.accountTotals(accountId);
  const funding = v.db.prepare('SELECT COALESCE(SUM(funding_fee), 0) AS f FROM positions WHERE account_id = ?');
  funding.setReadBigInts(true);
  const closedFunding = v.db.prepare(
    'SELECT COALESCE(SUM(total_funding_fee), 0) AS f FROM closed_positions WHERE account_id = ?',
  );
  closedFunding.setReadBigInts(true);
  const paid = (funding.get(accountId) as { f: bigint }).f + (closedFunding.get(accountId) as { f: bigint }).f;
  expect(v.exchange.walletOf(accountId)).toBe(acct.walletBalance);
  expect(acct.totalDeposits).toBe(acct.walletBalance + totals.fees + totals.liquidationFees - totals.realized + paid);
}

describe('placing and filling', () => {
  it('a resting user bid filled by a bot sell opens a long with the maker fee, exactly', () => {
    const v = venue();
    const u = user(v, 'alice0001');
    const r = placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, price: '95000.0' }));
    expect(r).toEqual({
      order_id: r.order_id,
      client_order_id: `api.${r.order_id}`,
      status: 1,
      filled_qty: '0.000',
      filled_quote: '0.00000000',
    });
    // 0.010 BTC at 95,000 = 950 USDT notional; 20x -> 47.5 margin + 0.475 taker fee estimate frozen
    expect(v.exchange.summary(u).frozen_margin).toBe('47.97500000');
    bot(v, 2, '95000.0', '0.004');
    const open = v.exchange.openOrders(u);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      status: 2,
      filled_qty: '0.004',
      filled_quote: '380.00000000',
      avg_price: '95000.0',
      total_fee: '0.07600000',
    });
    const [pos] = v.exchange.positions(u);
    expect(pos).toMatchObject({
      symbol: 'BTCUSDT',
      position_side: 1,
      quantity: 0.004,
      entry_price: 95000,
      open_fee: 0.076,
    });
    // 380 x 0.0002 maker fee
    expect(v.exchange.walletOf(u)).toBe(10_000n * USDT - 7_600_000n);
    // frozen shrinks in proportion: 6/10 of 47.975
    expect(v.exchange.summary(u).frozen_margin).toBe('28.78500000');
    checkIdentity(v, u);
  });

  it('a market order takes liquidity with the taker fee and closes with realized PnL and a history record', () => {
    const v = venue();
    const u = user(v, 'bob000001');
    bot(v, 2, '96000.0', '0.100');
    const r = placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' }));
    expect(r).toMatchObject({ status: 3, filled_qty: '0.100', filled_quote: '9600.00000000' });
    // 9600 x 0.0005 = 4.8 taker fee
    expect(v.exchange.walletOf(u)).toBe(10_000n * USDT - 480_000_000n);
    bot(v, 1, '97000.0', '1.000');
    setPrices(v.exchange, 'BTCUSDT', { mark: 97000 });
    const c = placeOrder(v.exchange, u, btc({ side: 2, position_side: 1, position_action: 2, type: 2, qty: '0.100' }));
    expect(c.status).toBe(3);
    expect(v.exchange.positions(u)).toEqual([]);
    // +100 PnL, -4.85 close fee
    expect(v.exchange.walletOf(u)).toBe(10_000n * USDT - 480_000_000n + 100n * USDT - 485_000_000n);
    const [closed] = v.trading.closedPositions({ accountId: u, limit: 10 });
    expect(closed).toMatchObject({
      closeType: 1,
      openQuantity: 100,
      closeQuantity: 100,
      realizedPnl: 100n * USDT,
      openFee: 480_000_000n,
      closeFee: 485_000_000n,
    });
    const trades = v.trading.trades({ accountId: u, limit: 10 });
    expect(trades.map((t) => [t.role, t.isClose, t.realizedPnl])).toEqual([
      [2, true, 100n * USDT],
      [2, false, 0n],
    ]);
    checkIdentity(v, u);
  });

  it('two users trading with each other both get a position, a fill each, and one shared trade id', () => {
    const v = venue();
    const a = user(v, 'carol0001');
    const b = user(v, 'dave00001');
    placeOrder(v.exchange, a, btc({ side: 2, position_side: 2, position_action: 1, price: '96000.0' }));
    placeOrder(v.exchange, b, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' }));
    const ta = v.trading.trades({ accountId: a, limit: 5 });
    const tb = v.trading.trades({ accountId: b, limit: 5 });
    expect(ta).toHaveLength(1);
    expect(tb).toHaveLength(1);
    expect(ta[0].id).toBe(tb[0].id);
    expect([ta[0].role, tb[0].role]).toEqual([1, 2]);
    expect(v.exchange.positions(a)[0].position_side).toBe(2);
    expect(v.exchange.positions(b)[0].position_side).toBe(1);
    checkIdentity(v, a);
    checkIdentity(v, b);
  });
});

describe('account pushes', () => {
  it('a resting order, its cancel and a leverage change each push a balance with the new margins', async () => {
    const v = venue();
    const u = user(v, 'push00001');
    const pushes: Array<{ kind: string; data: any }> = [];
    const off = v.exchange.events.on('account', (e) => {
      if (e.accountId === u) pushes.push({ kind: e.kind, data: e.data });
    });
    const balances = (): any[] => pushes.filter((p) => p.kind === 'balance').map((p) => p.data);

    // a bid of 0.010 at 95,000 at 20x freezes 950 / 20 = 47.5 margin plus 950 x 0.0005 = 0.475,
    // the fee reserved at the taker rate
    const o = placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, price: '95000.0' }));
    await v.trading.group.durable();
    expect(balances().at(-1)).toMatchObject({ frozen_margin: '47.97500000', wallet_balance: '10000.00000000' });
    cancelOrder(v.exchange, u, { orderId: Number(o.order_id) });
    await v.trading.group.durable();
    expect(balances().at(-1)).toMatchObject({ frozen_margin: '0.00000000', available_balance: '10000.00000000' });

    // a taker buy opens a cross long; raising the leverage lowers its margin: both pushed at once
    bot(v, 2, '96000.0', '1.000');
    placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' }));
    await v.trading.group.durable();
    const before = Number(balances().at(-1).position_margin);
    pushes.length = 0;
    setLeverage(v.exchange, u, 'BTCUSDT', 40);
    await v.trading.group.durable();
    expect(pushes.find((p) => p.kind === 'position')?.data[0]).toMatchObject({ leverage: 40 });
    expect(Number(balances().at(-1).position_margin)).toBeCloseTo(before / 2, 6);
    off();
  });
});

describe('rejections change nothing', () => {
  it.each([
    ['off tick', btc({ side: 1, position_side: 1, position_action: 1, price: '95000.05' }), Errors.PRICE_OFF_TICK],
    [
      'off step',
      btc({ side: 1, position_side: 1, position_action: 1, price: '95000.0', qty: '0.0105' }),
      Errors.QTY_OFF_STEP,
    ],
    [
      'below min qty',
      btc({ side: 1, position_side: 1, position_action: 1, price: '95000.0', qty: '0.000' }),
      Errors.INVALID_PARAMETER,
    ],
    [
      'above max qty',
      btc({ side: 1, position_side: 1, position_action: 1, price: '95000.0', qty: '1001' }),
      Errors.QTY_ABOVE_MAX,
    ],
    [
      'below min notional',
      btc({ side: 1, position_side: 1, position_action: 1, price: '95000.0', qty: '0.001' }),
      Errors.NOTIONAL_BELOW_MIN,
    ],
    [
      'outside band',
      btc({ side: 1, position_side: 1, position_action: 1, price: '110000.0' }),
      Errors.PRICE_OUTSIDE_BAND,
    ],
    [
      'side mismatch',
      btc({ side: 2, position_side: 1, position_action: 1, price: '95000.0' }),
      Errors.POSITION_SIDE_MISMATCH,
    ],
    [
      'close without position',
      btc({ side: 2, position_side: 1, position_action: 2, price: '97000.0' }),
      Errors.NO_POSITION_TO_CLOSE,
    ],
    ['price missing', btc({ side: 1, position_side: 1, position_action: 1 }), Errors.PRICE_REQUIRED],
    [
      'insufficient margin',
      btc({ side: 1, position_side: 1, position_action: 1, price: '95000.0', qty: '5.000' }),
      Errors.INSUFFICIENT_MARGIN,
    ],
    [
      'not trading',
      { ...btc({ side: 1, position_side: 1, position_action: 1, price: '2.5000' }), symbol: 'FTTUSDT' },
      Errors.SYMBOL_NOT_TRADING,
    ],
  ])('%s', (_name, input, def) => {
    const v = venue();
    const u = user(v, 'erin00001');
    const before = v.exchange.summary(u);
    const depth = v.exchange.pair('BTCUSDT')!.book.snapshot();
    const err = expectApiError(() => placeOrder(v.exchange, u, input as OrderInput), def);
    expect(err.message.length).toBeGreaterThan(5);
    expect(v.exchange.summary(u)).toEqual(before);
    expect(v.exchange.openOrders(u)).toEqual([]);
    expect(v.exchange.pair('BTCUSDT')!.book.snapshot()).toEqual(depth);
    expect((v.db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n).toBe(0);
  });

  it('a duplicate client_order_id of a live order is refused; after cancel it may be reused', () => {
    const v = venue();
    const u = user(v, 'fred00001');
    const o = btc({ side: 1, position_side: 1, position_action: 1, price: '95000.0', client_order_id: 'my-1' });
    placeOrder(v.exchange, u, o);
    expectApiError(() => placeOrder(v.exchange, u, o), Errors.DUPLICATE_CLIENT_ORDER_ID);
    const c = cancelOrder(v.exchange, u, { clientOrderId: 'my-1' });
    expect(c.status).toBe(4);
    expect(v.exchange.summary(u).frozen_margin).toBe('0.00000000');
    expect(placeOrder(v.exchange, u, o).status).toBe(1);
  });
});

describe('reduce-only and position modes', () => {
  it('a resting close order is trimmed when the position shrinks and cancelled when it is gone', () => {
    const v = venue();
    const u = user(v, 'gina00001');
    bot(v, 2, '96000.0', '0.050');
    placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.050' }));
    const resting = placeOrder(
      v.exchange,
      u,
      btc({ side: 2, position_side: 1, position_action: 2, price: '99000.0', qty: '0.050' }),
    );
    bot(v, 1, '96000.0', '1.000');
    placeOrder(v.exchange, u, btc({ side: 2, position_side: 1, position_action: 2, type: 2, qty: '0.030' }));
    const [o] = v.exchange.openOrders(u);
    expect(o.id).toBe(resting.order_id);
    expect(o.qty).toBe('0.020');
    placeOrder(v.exchange, u, btc({ side: 2, position_side: 1, position_action: 2, type: 2, qty: '0.020' }));
    expect(v.exchange.openOrders(u)).toEqual([]);
    expect(v.trading.order(Number(resting.order_id))!.status).toBe(4);
    checkIdentity(v, u);
  });

  it('one-way mode nets: a sell larger than the long closes it and opens a short', () => {
    const v = venue();
    const u = user(v, 'hank00001');
    setPositionMode(v.exchange, u, 'one_way');
    bot(v, 2, '96000.0', '0.030');
    placeOrder(v.exchange, u, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 2,
      qty: '0.030',
    });
    bot(v, 1, '96500.0', '1.000');
    placeOrder(v.exchange, u, {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 1,
      position_action: 1,
      type: 2,
      qty: '0.050',
    });
    const ps = v.exchange.positions(u);
    expect(ps).toHaveLength(1);
    expect(ps[0]).toMatchObject({ position_side: 2, quantity: 0.02, entry_price: 96500 });
    const [closed] = v.trading.closedPositions({ accountId: u, limit: 5 });
    expect(closed.realizedPnl).toBe(15n * USDT); // 0.03 x 500
    checkIdentity(v, u);
  });

  it('position mode and margin mode cannot change while something is open', () => {
    const v = venue();
    const u = user(v, 'ivan00001');
    placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, price: '95000.0' }));
    expectApiError(() => setPositionMode(v.exchange, u, 'one_way'), Errors.POSITION_MODE_CHANGE_REFUSED);
    expectApiError(() => setMarginMode(v.exchange, u, 'BTCUSDT', 1), Errors.MARGIN_MODE_CHANGE_REFUSED);
    expect(setMarginMode(v.exchange, u, 'ETHUSDT', 1)).toEqual({ symbol: 'ETHUSDT', margin_mode: 1 });
    expectApiError(() => setLeverage(v.exchange, u, 'BTCUSDT', 126), Errors.LEVERAGE_INVALID);
  });
});

describe('close orders swept together by one taker', () => {
  // D holds a long of 0.008 (bought from E's short at 96,000) and rests close orders that are
  // each within the position but together above it; E's one buy sweeps them. A close order whose
  // position earlier fills of the same sweep already closed is cancelled, or trimmed to what is
  // left, before it trades: the taker goes on to F's ask behind them, and every trade moves a
  // position on both sides (users' longs = users' shorts).
  type Mode = 'one_way' | 'hedge';

  function longD(mode: Mode, tag: string) {
    const v = venue();
    const d = user(v, `swd${tag}${mode.length}`);
    const e = user(v, `swe${tag}${mode.length}`);
    const f = user(v, `swf${tag}${mode.length}`);
    if (mode === 'one_way') setPositionMode(v.exchange, d, 'one_way');
    placeOrder(v.exchange, e, btc({ side: 2, position_side: 2, position_action: 1, price: '96000.0', qty: '0.008' }));
    placeOrder(v.exchange, d, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.008' }));
    expect(v.exchange.positions(d)).toMatchObject([{ position_side: 1, quantity: 0.008 }]);
    /** A resting sell of D that reduces its long: reduce_only in one-way mode, close long in hedge mode. */
    const close = (price: string, qty: string) =>
      placeOrder(
        v.exchange,
        d,
        mode === 'hedge'
          ? btc({ side: 2, position_side: 1, position_action: 2, price, qty })
          : btc({ side: 2, position_side: 1, position_action: 1, reduce_only: true, price, qty }),
      );
    /** F's ask behind D's orders, opening a short. */
    const askF = () =>
      placeOrder(v.exchange, f, btc({ side: 2, position_side: 2, position_action: 1, price: '96700.0', qty: '0.005' }));
    /** E's buy (opening a long), IOC unless told. */
    const buyE = (price: string, qty: string, tif = 2) =>
      placeOrder(
        v.exchange,
        e,
        btc({ side: 1, position_side: 1, position_action: 1, price, qty, time_in_force: tif as 1 | 2 | 3 | 4 }),
      );
    const order = (r: { order_id: string }) => v.trading.order(Number(r.order_id))!;
    /** Users' longs equal users' shorts (the house took no part), and each account's books balance. */
    const balanced = () => {
      const oi = v.exchange.openInterest('BTCUSDT');
      expect(oi.longLots).toBe(oi.shortLots);
      for (const id of [d, e, f]) checkIdentity(v, id);
    };
    return { v, d, e, f, close, askF, buyE, order, balanced };
  }

  it.each(['one_way', 'hedge'] as const)(
    '%s: the second close order is cancelled, not traded, and the taker fills from the next ask',
    (mode) => {
      const { v, d, e, f, close, askF, buyE, order, balanced } = longD(mode, 'ca');
      const c1 = close('96500.0', '0.008');
      const c2 = close('96600.0', '0.002');
      const ask = askF();
      const t = buyE('96700.0', '0.010');
      // 0.008 x 96,500 + 0.002 x 96,700
      expect(t).toMatchObject({ status: 3, filled_qty: '0.010', filled_quote: '965.40000000' });
      expect(order(c1)).toMatchObject({ status: 3, qtyLots: 8, filledLots: 8 });
      expect(order(c2)).toMatchObject({ status: 4, qtyLots: 2, filledLots: 0 });
      expect(order(ask)).toMatchObject({ status: 2, filledLots: 2 });
      expect(v.exchange.positions(d)).toEqual([]);
      const dTrades = v.trading.trades({ accountId: d, limit: 10 });
      expect(dTrades.map((x) => [x.orderId, x.side, x.qtyLots, x.priceTicks, x.isClose, x.realizedPnl])).toEqual([
        [Number(c1.order_id), 2, 8, 965_000, true, 4n * USDT], // 0.008 x 500
        [expect.any(Number), 1, 8, 960_000, false, 0n], // the opening buy
      ]);
      expect(v.exchange.positions(f)).toMatchObject([{ position_side: 2, quantity: 0.002, entry_price: 96700 }]);
      expect(v.exchange.positions(e).map((p) => [p.position_side, p.quantity])).toEqual(
        expect.arrayContaining([
          [1, 0.01],
          [2, 0.008],
        ]),
      );
      expect(v.exchange.openInterest('BTCUSDT')).toEqual({ longLots: 10, shortLots: 10, lots: 10 });
      expect(v.exchange.openOrders(d)).toEqual([]);
      expect(v.exchange.pair('BTCUSDT')!.book.snapshot().asks[0]).toEqual([967_000, 3]);
      balanced();
    },
  );

  it.each(['one_way', 'hedge'] as const)(
    '%s: a close order left with part of the position is trimmed to it, then fills that part',
    (mode) => {
      const { v, d, close, askF, buyE, order, balanced } = longD(mode, 'tr');
      const c1 = close('96500.0', '0.005');
      const c2 = close('96600.0', '0.005');
      const ask = askF();
      const t = buyE('96700.0', '0.010');
      // 0.005 x 96,500 + 0.003 x 96,600 + 0.002 x 96,700
      expect(t).toMatchObject({ status: 3, filled_qty: '0.010', filled_quote: '965.70000000' });
      expect(order(c1)).toMatchObject({ status: 3, qtyLots: 5, filledLots: 5 });
      // trimmed from 0.005 to the 0.003 left, then filled
      expect(order(c2)).toMatchObject({ status: 3, qtyLots: 3, filledLots: 3 });
      expect(order(ask)).toMatchObject({ status: 2, filledLots: 2 });
      expect(v.exchange.positions(d)).toEqual([]);
      const closes = v.trading.trades({ accountId: d, limit: 10 }).filter((x) => x.side === 2);
      expect(closes.map((x) => [x.qtyLots, x.isClose, x.realizedPnl])).toEqual([
        [3, true, (18n * 100_000_000n) / 10n], // 0.003 x 600 = 1.8
        [5, true, (25n * 100_000_000n) / 10n], // 0.005 x 500 = 2.5
      ]);
      balanced();
    },
  );

  it('one-way: a plain sell ahead of the reduce-only order reduces the long first, so the reduce-only order is trimmed', () => {
    const { v, d, e, close, askF, buyE, order, balanced } = longD('one_way', 'pl');
    const plain = placeOrder(
      v.exchange,
      d,
      btc({ side: 2, position_side: 1, position_action: 1, price: '96400.0', qty: '0.005' }),
    );
    const ro = close('96500.0', '0.008');
    const ask = askF();
    buyE('96700.0', '0.010');
    expect(order(plain)).toMatchObject({ status: 3, filledLots: 5 });
    expect(order(ro)).toMatchObject({ status: 3, qtyLots: 3, filledLots: 3 });
    expect(order(ask)).toMatchObject({ status: 2, filledLots: 2 });
    expect(v.exchange.positions(d)).toEqual([]);
    expect(v.exchange.positions(e)).toHaveLength(2);
    balanced();
  });

  it('hedge: an open-short sell ahead of the close order leaves the long to close, so nothing is trimmed', () => {
    const { v, d, close, askF, buyE, order, balanced } = longD('hedge', 'op');
    const openShort = placeOrder(
      v.exchange,
      d,
      btc({ side: 2, position_side: 2, position_action: 1, price: '96400.0', qty: '0.005' }),
    );
    const c = close('96500.0', '0.008');
    const ask = askF();
    buyE('96700.0', '0.010');
    expect(order(openShort)).toMatchObject({ status: 3, filledLots: 5 });
    expect(order(c)).toMatchObject({ status: 2, qtyLots: 8, filledLots: 5 });
    expect(order(ask)).toMatchObject({ status: 1, filledLots: 0 });
    expect(v.exchange.positions(d).map((p) => [p.position_side, p.quantity])).toEqual(
      expect.arrayContaining([
        [1, 0.003],
        [2, 0.005],
      ]),
    );
    balanced();
  });

  it.each(['one_way', 'hedge'] as const)(
    '%s: a fill-or-kill buy counts only what the close orders may fill',
    (mode) => {
      const { v, d, close, askF, buyE, order, balanced } = longD(mode, 'fk');
      const c1 = close('96500.0', '0.008');
      const c2 = close('96600.0', '0.002');
      // 0.010 up to 96,600 would need both close orders whole: 0.002 more than the position
      expectApiError(() => buyE('96600.0', '0.010', 3), Errors.FOK_NOT_FILLABLE);
      expect([order(c1).status, order(c2).status]).toEqual([1, 1]);
      askF();
      expect(buyE('96700.0', '0.010', 3)).toMatchObject({ status: 3, filled_qty: '0.010' });
      expect(order(c2)).toMatchObject({ status: 4, filledLots: 0 });
      expect(v.exchange.positions(d)).toEqual([]);
      balanced();
    },
  );

  it.each(['one_way', 'hedge'] as const)(
    '%s: a reduce-only taker sweeping several bids fills no more than the position',
    (mode) => {
      const { v, d, e, f, order, balanced } = longD(mode, 'tk');
      placeOrder(v.exchange, e, btc({ side: 1, position_side: 1, position_action: 1, price: '95900.0', qty: '0.005' }));
      placeOrder(v.exchange, f, btc({ side: 1, position_side: 1, position_action: 1, price: '95800.0', qty: '0.005' }));
      const t = placeOrder(
        v.exchange,
        d,
        mode === 'hedge'
          ? btc({ side: 2, position_side: 1, position_action: 2, price: '95800.0', qty: '0.010', time_in_force: 2 })
          : btc({
              side: 2,
              position_side: 1,
              position_action: 1,
              reduce_only: true,
              price: '95800.0',
              qty: '0.010',
              time_in_force: 2,
            }),
      );
      // trimmed to the position on entry
      expect(t).toMatchObject({ status: 3, filled_qty: '0.008' });
      expect(order(t)).toMatchObject({ qtyLots: 8, filledLots: 8 });
      expect(v.exchange.positions(d)).toEqual([]);
      expect(v.exchange.positions(f)).toMatchObject([{ position_side: 1, quantity: 0.003 }]);
      balanced();
    },
  );
});

describe('funding, liquidation, take-profit / stop-loss', () => {
  it('funding: longs pay shorts when the rate is positive, on wallet and position', () => {
    const v = venue();
    const l = user(v, 'long00001');
    const s = user(v, 'short0001');
    placeOrder(v.exchange, s, btc({ side: 2, position_side: 2, position_action: 1, price: '96000.0', qty: '0.100' }));
    placeOrder(v.exchange, l, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' }));
    const wl = v.exchange.walletOf(l);
    const ws = v.exchange.walletOf(s);
    const notes: unknown[] = [];
    const off = v.exchange.events.on('account', (e) => {
      if (e.accountId === l && e.kind === 'funding') notes.push(e.data);
    });
    expect(settleFunding(v.exchange, 'BTCUSDT', 0.0001, 96000, T0)).toBe(2);
    v.trading.group.commitNow();
    off();
    // the user push: rate and mark as decimal strings, like the price record and the amount
    expect(notes).toEqual([
      {
        symbol: 'BTCUSDT',
        position_side: 1,
        funding_rate: '0.00010000',
        mark_price: '96000.00000000',
        amount: '-0.96000000',
        time: T0,
      },
    ]);
    // 96000 x 0.1 x 0.0001 = 0.96
    expect(v.exchange.walletOf(l)).toBe(wl - 96_000_000n);
    expect(v.exchange.walletOf(s)).toBe(ws + 96_000_000n);
    expect(v.exchange.positions(l)[0].total_funding_fee).toBe(0.96);
    expect(v.exchange.positions(s)[0].total_funding_fee).toBe(-0.96);
    checkIdentity(v, l);
    checkIdentity(v, s);
  });

  it("each settlement stores the pair rate and one payment per position, summing to the positions' totals", () => {
    const v = venue();
    const l = user(v, 'fund00001');
    const s = user(v, 'fund00002');
    // a settlement with no position is still the pair's rate history
    expect(settleFunding(v.exchange, 'BTCUSDT', 0.0002, 95000, T0 - 8 * 3_600_000)).toBe(0);
    placeOrder(v.exchange, s, btc({ side: 2, position_side: 2, position_action: 1, price: '96000.0', qty: '0.100' }));
    placeOrder(v.exchange, l, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' }));
    settleFunding(v.exchange, 'BTCUSDT', 0.0001, 96000, T0);
    settleFunding(v.exchange, 'BTCUSDT', -0.00005, 97000, T0 + 8 * 3_600_000);
    settleFunding(v.exchange, 'ETHUSDT', 0.0003, 3500, T0 + 8 * 3_600_000);
    const rates = v.trading.fundingRates({ symbol: 'BTCUSDT', limit: 10, order: 'asc' });
    expect(rates).toEqual([
      { symbol: 'BTCUSDT', time: T0 - 8 * 3_600_000, rate: 0.0002, mark: 95000 },
      { symbol: 'BTCUSDT', time: T0, rate: 0.0001, mark: 96000 },
      { symbol: 'BTCUSDT', time: T0 + 8 * 3_600_000, rate: -0.00005, mark: 97000 },
    ]);
    // newest first by default, a time window, every pair without a symbol
    expect(v.trading.fundingRates({ symbol: 'BTCUSDT', limit: 1 }).map((r) => r.time)).toEqual([T0 + 8 * 3_600_000]);
    expect(
      v.trading.fundingRates({ symbol: 'BTCUSDT', startTime: T0, endTime: T0, limit: 10 }).map((r) => r.rate),
    ).toEqual([0.0001]);
    expect(v.trading.fundingRates({ limit: 10 })).toHaveLength(4);
    const long = v.trading.fundingPayments({ accountId: l, limit: 10, order: 'asc' });
    // 96000 x 0.1 x 0.0001 = 0.96 paid; 97000 x 0.1 x 0.00005 = 0.485 received
    expect(long.map((p) => [p.time, p.positionSide, p.rate, p.mark, p.amount])).toEqual([
      [T0, 1, 0.0001, 96000, -96_000_000n],
      [T0 + 8 * 3_600_000, 1, -0.00005, 97000, 48_500_000n],
    ]);
    const short = v.trading.fundingPayments({ accountId: s, symbol: 'BTCUSDT', limit: 10 });
    expect(short.map((p) => p.amount)).toEqual([-48_500_000n, 96_000_000n]);
    expect(v.trading.fundingPayments({ accountId: s, symbol: 'ETHUSDT', limit: 10 })).toEqual([]);
    // the records and the position's running total tell the same story
    const paid = -long.reduce((a, p) => a + p.amount, 0n);
    expect(v.exchange.positions(l)[0].total_funding_fee).toBe(Number(paid) / 1e8);
    checkIdentity(v, l);
  });

  it('an isolated 20x long is liquidated when the mark reaches its liquidation price (close type 4)', () => {
    const v = venue();
    const u = user(v, 'liqd00001');
    setMarginMode(v.exchange, u, 'BTCUSDT', 1);
    bot(v, 2, '96000.0', '1.000');
    placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' }));
    const [pos] = v.exchange.positions(u);
    expect(pos.margin).toBe(480); // 9600 / 20
    // worked by hand (reference/exchange.md, isolated long, MMR 0.4%, cum 0):
    // LP = (margin - qty x entry) / (qty x MMR - qty) = (480 - 9,600) / (0.1 x 0.004 - 0.1) = 91,566.27,
    // shown on the 0.1 tick
    expect(pos.liquidation_price).toBe(91_566.3);
    // the house bids under the liquidation price
    bot(v, 1, '91500.0', '1.000');
    setPrices(v.exchange, 'BTCUSDT', { mark: 91_570 });
    expect(v.exchange.positions(u)).toHaveLength(1);
    setPrices(v.exchange, 'BTCUSDT', { mark: 91_560 });
    expect(v.exchange.positions(u)).toEqual([]);
    const [closed] = v.trading.closedPositions({ accountId: u, limit: 5 });
    expect(closed.closeType).toBe(4);
    expect(v.trading.closedPositions({ accountId: u, closeType: 4, limit: 5 })).toHaveLength(1);
    expect(v.exchange.walletOf(u)).toBeGreaterThanOrEqual(0n);
    checkIdentity(v, u);
  });

  it('with no bids the liquidated remainder closes at the bankruptcy price against the insurance fund (close type 6)', () => {
    const v = venue();
    const u = user(v, 'bank00001');
    setMarginMode(v.exchange, u, 'BTCUSDT', 1);
    bot(v, 2, '96000.0', '1.000');
    placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' }));
    const fund = v.exchange.insuranceFund();
    expect(fund).toBe(INITIAL_INSURANCE_FUND);
    setPrices(v.exchange, 'BTCUSDT', { mark: 90_000 });
    expect(v.exchange.positions(u)).toEqual([]);
    const [closed] = v.trading.closedPositions({ accountId: u, limit: 5 });
    expect(closed.closeType).toBe(6);
    // the whole isolated margin is lost at the bankruptcy price 91,200 (96,000 - 480/0.1)
    expect(closed.realizedPnl).toBe(-480n * USDT);
    // the fund took the long over at 91,200 and marked it at 90,000
    expect(v.exchange.insuranceFund()).toBe(fund - 120n * USDT);
    checkIdentity(v, u);
  });

  it('a stop-loss on the mark closes the position with close type 3', () => {
    const v = venue();
    const u = user(v, 'stop00001');
    bot(v, 2, '96000.0', '1.000');
    placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' }));
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000 });
    expectApiError(
      () => setTpSl(v.exchange, u, 'BTCUSDT', 1, undefined, { price: '97000.0', trigger: 1 }),
      Errors.INVALID_PARAMETER,
    );
    setTpSl(v.exchange, u, 'BTCUSDT', 1, { price: '99000.0', trigger: 1 }, { price: '95000.0', trigger: 1 });
    expect(v.exchange.tpsl(u, 'BTCUSDT', 1)).toEqual({
      take_profit_price: '99000.0',
      stop_loss_price: '95000.0',
      take_profit_working_type: 1,
      stop_loss_working_type: 1,
    });
    bot(v, 1, '94900.0', '1.000');
    setPrices(v.exchange, 'BTCUSDT', { mark: 95500 });
    expect(v.exchange.positions(u)).toHaveLength(1);
    setPrices(v.exchange, 'BTCUSDT', { mark: 94990 });
    expect(v.exchange.positions(u)).toEqual([]);
    expect(v.trading.closedPositions({ accountId: u, limit: 5 })[0].closeType).toBe(3);
    checkIdentity(v, u);
  });
});

describe('durability', () => {
  it('a restart restores open orders into the book, positions and wallets', () => {
    const dir = dataDir('perpdesk-ex-');
    const v1 = venue(dir);
    const u = user(v1, 'rest00001');
    bot(v1, 2, '96000.0', '1.000');
    placeOrder(v1.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.020' }));
    const resting = placeOrder(
      v1.exchange,
      u,
      btc({ side: 1, position_side: 1, position_action: 1, price: '95500.0', qty: '0.030' }),
    );
    const before = {
      orders: v1.exchange.openOrders(u),
      positions: v1.exchange.positions(u),
      wallet: v1.exchange.walletOf(u),
      frozen: v1.exchange.summary(u).frozen_margin,
    };
    v1.close(); // stays listed: afterEach awaits its worker before the folder goes

    const v2 = venue(dir);
    expect(v2.exchange.openOrders(u)).toEqual(before.orders);
    expect(v2.exchange.positions(u)).toEqual(before.positions);
    expect(v2.exchange.walletOf(u)).toBe(before.wallet);
    expect(v2.exchange.summary(u).frozen_margin).toBe(before.frozen);
    const book = v2.exchange.pair('BTCUSDT')!.book;
    expect(book.getOrder(Number(resting.order_id))?.remainingLots).toBe(30);
    // ids continue without reuse
    const next = placeOrder(v2.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, price: '95400.0' }));
    expect(Number(next.order_id)).toBeGreaterThan(Number(resting.order_id));
    // and the restored order still trades
    bot(v2, 2, '95500.0', '0.030');
    expect(v2.exchange.positions(u)[0].quantity).toBeCloseTo(0.05, 10);
    checkIdentity(v2, u);
  });

  it('funding rates and payments survive a restart', () => {
    const dir = dataDir('perpdesk-ex-');
    const v1 = venue(dir);
    const u = user(v1, 'rest00002');
    bot(v1, 2, '96000.0', '1.000');
    placeOrder(v1.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.020' }));
    settleFunding(v1.exchange, 'BTCUSDT', 0.0001, 96000, T0);
    const rates = v1.trading.fundingRates({ symbol: 'BTCUSDT', limit: 10 });
    const payments = v1.trading.fundingPayments({ accountId: u, limit: 10 });
    expect(payments).toHaveLength(1);
    v1.close();

    const v2 = venue(dir);
    expect(v2.trading.fundingRates({ symbol: 'BTCUSDT', limit: 10 })).toEqual(rates);
    expect(v2.trading.fundingPayments({ accountId: u, limit: 10 })).toEqual(payments);
    // ids continue: a later settlement adds, never replaces
    settleFunding(v2.exchange, 'BTCUSDT', 0.0001, 96000, T0 + 8 * 3_600_000);
    const after = v2.trading.fundingPayments({ accountId: u, limit: 10 });
    expect(after).toHaveLength(2);
    expect(after[0].id).toBeGreaterThan(payments[0].id);
  });
});

describe('auto-deleveraging', () => {
  it('when the insurance fund cannot cover, the most profitable opposite position is reduced at the bankruptcy price (close type 5)', async () => {
    const { v } = await fundedVenue('perpdesk-adl-', 0n); // an empty fund
    const loser = user(v, 'adlloser1');
    const big = user(v, 'adlbig001');
    const small = user(v, 'adlsmall1');
    setMarginMode(v.exchange, loser, 'BTCUSDT', 1);
    // two shorts opened against the house at 96,000, then the loser's long against the shorts
    placeOrder(v.exchange, big, btc({ side: 2, position_side: 2, position_action: 1, price: '96000.0', qty: '0.060' }));
    placeOrder(
      v.exchange,
      small,
      btc({ side: 2, position_side: 2, position_action: 1, price: '96000.0', qty: '0.040' }),
    );
    // same wallets: the larger short is nearer its (cross) bankruptcy price, so it ranks first;
    // its leverage setting plays no part in the ranking
    setLeverage(v.exchange, big, 'BTCUSDT', 50);
    placeOrder(v.exchange, loser, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.050' }));
    expect(v.exchange.positions(loser)[0].quantity).toBeCloseTo(0.05, 10);

    // a second buyer takes the rest, so both shorts are fully open
    const other = user(v, 'adlother1');
    placeOrder(v.exchange, other, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.050' }));
    expect(v.exchange.positions(big)[0].quantity).toBeCloseTo(0.06, 10);
    expect(v.exchange.positions(small)[0].quantity).toBeCloseTo(0.04, 10);
    // the mark gaps far below the bankruptcy price (91,200) with no bids: the fund would lose
    setPrices(v.exchange, 'BTCUSDT', { mark: 88_000 });
    expect(v.exchange.positions(loser)).toEqual([]);
    expect(v.trading.closedPositions({ accountId: loser, limit: 5 })[0].closeType).toBe(6);
    // only the more levered short (ranked first) was reduced, by the loser's 0.050, at 91,200
    const adl = v.trading.trades({ accountId: big, limit: 5 })[0];
    expect(adl).toMatchObject({ priceTicks: 912_000, qtyLots: 50, isClose: true, fee: 0n });
    expect(v.exchange.positions(big)[0].quantity).toBeCloseTo(0.01, 10);
    expect(v.exchange.positions(small)[0].quantity).toBeCloseTo(0.04, 10);
    expect(v.trading.trades({ accountId: small, limit: 5 }).filter((x) => x.isClose)).toEqual([]);
    // the fund was not touched
    expect(v.exchange.insuranceFund()).toBe(0n);
    for (const id of [loser, big, small, other]) checkIdentity(v, id);
  });
});
