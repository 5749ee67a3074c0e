// Real ccxt (npm, pinned) trading through the facade: settings, orders of every time in force
// in hedge and one-way accounts, lists, cancels, fills, positions, balance, income, and the
// ccxt exception class each bad input maps to. Expected values come from the native views.
import { openingLimit, placeOrder } from '../../helpers/exchange-commands.ts';
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, binanceusdm, startService, type Service } from './helpers.ts';

const BTC = 'BTC/USDT:USDT';
let svc: Service;
let mid: number;
const px = (k: number) => Number((mid + k).toFixed(1));

beforeAll(async () => {
  svc = await startService();
  const maker = account(svc.venue, 'mm');
  const ex = svc.venue.exchange;
  mid = Math.round(ex.pair('BTCUSDT')!.markPrice);
  for (let i = 1; i <= 3; i++) {
    placeOrder(ex, maker.id, openingLimit(1, px(-i * 10).toFixed(1), '0.100'));
    placeOrder(ex, maker.id, openingLimit(2, px(i * 10).toFixed(1), '0.100'));
  }
});
afterAll(async () => svc?.close());

describe('settings', () => {
  it('setLeverage answers the raw Binance object and changes the native setting', async () => {
    const c = account(svc.venue, 'lev');
    const ex = binanceusdm(svc.base, c);
    const r = await ex.setLeverage(7, BTC);
    expect(r.leverage).toBe(7);
    expect(r.symbol).toBe('BTCUSDT');
    expect(Number(r.maxNotionalValue)).toBeGreaterThan(0);
    expect(svc.venue.exchange.pairSetting(c.id, 'BTCUSDT').leverage).toBe(7);
    await expect(ex.setLeverage(5000, BTC)).rejects.toBeInstanceOf(ccxt.BadRequest);
  });

  it('setMarginMode: isolated, then the same again is MarginModeAlreadySet', async () => {
    const c = account(svc.venue, 'mm2');
    const ex = binanceusdm(svc.base, c);
    await ex.setMarginMode('isolated', BTC);
    expect(svc.venue.exchange.pairSetting(c.id, 'BTCUSDT').marginMode).toBe(1);
    await expect(ex.setMarginMode('isolated', BTC)).rejects.toBeInstanceOf(ccxt.MarginModeAlreadySet);
    await ex.setMarginMode('cross', BTC);
    expect(svc.venue.exchange.pairSetting(c.id, 'BTCUSDT').marginMode).toBe(2);
  });

  it('position mode: hedge by default; one-way and back; a no-op is -4059', async () => {
    const c = account(svc.venue, 'pm');
    const ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    expect((await ex.fetchPositionMode(BTC)).hedged).toBe(true);
    await ex.setPositionMode(false);
    expect(svc.venue.exchange.summary(c.id).position_mode).toBe('one_way');
    expect((await ex.fetchPositionMode(BTC)).hedged).toBe(false);
    await expect(ex.setPositionMode(false)).rejects.toThrow(/-4059/);
    await ex.setPositionMode(true);
    expect(svc.venue.exchange.summary(c.id).position_mode).toBe('hedge');
  });

  it("fetchTradingFees reads accountConfig's fee tier: every pair at its commission rates", async () => {
    const c = account(svc.venue, 'fees', 1_000, 'one_way');
    const ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    const config = await ex.fapiPrivateGetAccountConfig();
    expect(config).toEqual({
      feeTier: 0,
      canTrade: true,
      canDeposit: true,
      canWithdraw: true,
      dualSidePosition: false,
      updateTime: 0,
      multiAssetsMargin: false,
      tradeGroupId: -1,
    });
    const fees = await ex.fetchTradingFees();
    const listed = svc.venue.symbols.all().filter((s) => s.status !== 3);
    expect(Object.keys(fees).length).toBe(listed.length);
    for (const row of listed) {
      const f = fees[ex.safeSymbol(row.symbol, undefined, undefined, 'swap')];
      expect(f?.info, row.symbol).toEqual({ feeTier: 0 });
      // ccxt takes both rates of tier 0 from its own table (maker 0.02 %, taker 0.04 %, older
      // than Binance's 0.05 %); the exact rates are fetchTradingFee's (commissionRate)
      expect(f.maker, row.symbol).toBe(Number(row.makerFeeRate));
      const one = await ex.fetchTradingFee(f.symbol);
      expect([one.maker, one.taker], row.symbol).toEqual([Number(row.makerFeeRate), Number(row.takerFeeRate)]);
    }
  });
});

describe('orders, one-way account', () => {
  let c: ReturnType<typeof account>;
  let ex: any;
  beforeAll(async () => {
    c = account(svc.venue, 'ow', 100_000, 'one_way');
    ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
  });

  it('a GTC limit rests: open orders list it with its time in force, then cancel', async () => {
    const o = await ex.createOrder(BTC, 'limit', 'buy', 0.01, px(-50));
    expect(o.status).toBe('open');
    expect(o.timeInForce).toBe('GTC');
    const open = await ex.fetchOpenOrders(BTC);
    expect(open.map((x: any) => x.id)).toContain(o.id);
    const native = svc.venue.exchange.openOrders(c.id, 'BTCUSDT');
    expect(native.map((x) => x.id)).toContain(o.id);
    const got = await ex.fetchOrder(o.id, BTC);
    expect(got.price).toBe(px(-50));
    expect(got.amount).toBe(0.01);
    const cancelled = await ex.cancelOrder(o.id, BTC);
    expect(cancelled.status).toBe('canceled');
    expect(svc.venue.exchange.openOrders(c.id, 'BTCUSDT')).toHaveLength(0);
  });

  it('a market buy fills; the position is BOTH with a signed amount; fills and balance agree', async () => {
    const o = await ex.createOrder(BTC, 'market', 'buy', 0.02);
    expect(o.status).toBe('closed');
    expect(o.filled).toBe(0.02);
    expect(o.average).toBe(px(10));
    const trades = await ex.fetchMyTrades(BTC);
    expect(trades).toHaveLength(1);
    expect(trades[0].order).toBe(o.id);
    expect(trades[0].takerOrMaker).toBe('taker');
    const positions = await ex.fetchPositions([BTC]);
    expect(positions).toHaveLength(1);
    expect(positions[0].side).toBe('long');
    expect(positions[0].contracts).toBe(0.02);
    expect(positions[0].hedged).toBe(false);
    const bal = await ex.fetchBalance();
    const sum = svc.venue.exchange.summary(c.id);
    expect(bal.USDT.free).toBe(Number(sum.available_balance));
    expect(bal.USDT.total).toBe(Number(sum.margin_balance));
  });

  it('reduce-only sell closes the long; a second reduce-only is refused (InvalidOrder)', async () => {
    const o = await ex.createOrder(BTC, 'market', 'sell', 0.02, undefined, { reduceOnly: true });
    expect(o.filled).toBe(0.02);
    expect(o.reduceOnly).toBe(true);
    expect(svc.venue.exchange.positions(c.id)).toHaveLength(0);
    await expect(ex.createOrder(BTC, 'market', 'sell', 0.02, undefined, { reduceOnly: true })).rejects.toBeInstanceOf(
      ccxt.InvalidOrder,
    );
  });

  it('IOC leftovers expire; FOK that cannot fill and post-only that would take are refused', async () => {
    const ioc = await ex.createOrder(BTC, 'limit', 'buy', 0.5, px(10), { timeInForce: 'IOC' });
    expect(ioc.status).toBe('expired');
    expect(ioc.filled).toBeGreaterThan(0);
    await expect(ex.createOrder(BTC, 'limit', 'buy', 5, px(30), { timeInForce: 'FOK' })).rejects.toBeInstanceOf(
      ccxt.OrderNotFillable,
    );
    await expect(ex.createOrder(BTC, 'limit', 'buy', 0.01, px(30), { postOnly: true })).rejects.toBeInstanceOf(
      ccxt.OrderNotFillable,
    );
    const po = await ex.createOrder(BTC, 'limit', 'buy', 0.01, px(-40), { postOnly: true });
    expect(po.postOnly).toBe(true);
    expect(po.status).toBe('open');
    await ex.cancelAllOrders(BTC);
    expect(svc.venue.exchange.openOrders(c.id, 'BTCUSDT')).toHaveLength(0);
    // close what the IOC bought
    await ex.createOrder(BTC, 'market', 'sell', ioc.filled, undefined, { reduceOnly: true });
  });

  it('orders history and income follow the fills', async () => {
    const all = await ex.fetchOrders(BTC);
    expect(all.length).toBeGreaterThanOrEqual(6);
    for (let i = 1; i < all.length; i++) expect(all[i].timestamp).toBeGreaterThanOrEqual(all[i - 1].timestamp);
    const income = await ex.fapiPrivateGetIncome({ incomeType: 'COMMISSION' });
    expect(income.length).toBeGreaterThan(0);
    const totals = svc.venue.trading.accountTotals(c.id);
    const sum = income.reduce((a: number, x: any) => a + Number(x.income), 0);
    expect(sum).toBeCloseTo(-Number(totals.fees) / 1e8, 8);
  });

  it("fetchMyTrades with orderId: that order's fills, whatever came after them and whatever the limit", async () => {
    const first = await ex.createOrder(BTC, 'market', 'buy', 0.01);
    await ex.createOrder(BTC, 'market', 'buy', 0.01);
    await ex.createOrder(BTC, 'market', 'sell', 0.02, undefined, { reduceOnly: true });
    const native = svc.venue.trading
      .trades({ accountId: c.id, symbol: 'BTCUSDT', limit: 500 })
      .filter((t) => t.orderId === Number(first.id))
      .sort((x, y) => x.id - y.id);
    expect(native.length).toBeGreaterThan(0);
    for (const limit of [1, undefined]) {
      const mine = await ex.fetchMyTrades(BTC, undefined, limit, { orderId: first.id });
      expect(mine.map((t: any) => t.id)).toEqual(native.map((t) => String(t.id)).slice(0, limit));
      expect(mine.every((t: any) => t.order === first.id)).toBe(true);
    }
    expect(await ex.fetchMyTrades(BTC, undefined, undefined, { orderId: '99999999' })).toEqual([]);
    expect(await ex.fetchMyTrades('ETH/USDT:USDT', undefined, undefined, { orderId: first.id })).toEqual([]);
  });
});

describe('orders, hedge account', () => {
  it('positionSide LONG / SHORT open and close; without it the order is refused with the way out', async () => {
    const c = account(svc.venue, 'hedge');
    const ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    const err = await ex.createOrder(BTC, 'market', 'buy', 0.01).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ccxt.ExchangeError);
    expect(String(err.message)).toMatch(/-4061.*hedge mode.*dualSidePosition=false/);
    await ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { positionSide: 'LONG' });
    await ex.createOrder(BTC, 'market', 'sell', 0.01, undefined, { positionSide: 'SHORT' });
    const positions = await ex.fetchPositions([BTC]);
    expect(positions.map((p: any) => p.side).sort()).toEqual(['long', 'short']);
    expect(positions.every((p: any) => p.hedged === true)).toBe(true);
    const short = positions.find((p: any) => p.side === 'short');
    expect(Number(short.info.positionAmt)).toBe(-0.01);
    // hedged:true lets ccxt pick the side and flip it for reduceOnly
    await ex.createOrder(BTC, 'market', 'sell', 0.01, undefined, { hedged: true, reduceOnly: true });
    expect(svc.venue.exchange.positions(c.id).map((p) => p.position_side)).toEqual([2]);
    await expect(
      ex.fapiPrivatePostOrder({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'MARKET',
        quantity: '0.01',
        positionSide: 'SHORT',
        reduceOnly: 'true',
      }),
    ).rejects.toThrow(/-1106/);
    // sent at all, false too, as Binance refuses it: ccxt passes reduceOnly: false through with
    // hedged: true, so a bot that works here would not on Binance
    const sent = await ex
      .createOrder(BTC, 'market', 'sell', 0.01, undefined, { hedged: true, reduceOnly: false })
      .catch((e: Error) => e);
    expect(sent).toBeInstanceOf(ccxt.BadRequest);
    expect(String(sent.message)).toContain(`{"code":-1106,"msg":"Parameter 'reduceOnly' sent when not required."}`);
    expect(svc.venue.exchange.positions(c.id).map((p) => [p.position_side, p.quantity])).toEqual([[2, 0.01]]);
  });

  it("Close-All (closePosition=true) on a MARKET order without quantity: Binance's -4136 for the type, not a missing quantity", async () => {
    const c = account(svc.venue, 'closeall');
    const ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    await ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { positionSide: 'LONG' });
    const closeAll = { symbol: 'BTCUSDT', side: 'SELL', positionSide: 'LONG', closePosition: 'true' };
    const err = await ex.fapiPrivatePostOrder({ ...closeAll, type: 'MARKET' }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ccxt.InvalidOrder);
    expect(String(err.message)).toContain(
      '{"code":-4136,"msg":"Target strategy invalid for orderType MARKET,closePosition true"}',
    );
    // the Close-All types are algo orders: POST order refuses them with Binance's -4120, closePosition or not
    const stop = await ex
      .fapiPrivatePostOrder({ ...closeAll, type: 'STOP_MARKET', stopPrice: String(px(-500)) })
      .catch((e: Error) => e);
    expect(stop).toBeInstanceOf(ccxt.ExchangeError);
    expect(String(stop.message)).toMatch(/-4120.*Please use the Algo Order API endpoints instead/);
    // a MARKET order without quantity and without closePosition still lacks its quantity
    const { closePosition: _, ...plain } = closeAll;
    await expect(ex.fapiPrivatePostOrder({ ...plain, type: 'MARKET' })).rejects.toThrow(/-1102.*'quantity'/);
    // nothing was placed: the long is as it was, no order is open
    expect(svc.venue.exchange.positions(c.id).map((p) => [p.position_side, p.quantity])).toEqual([[1, 0.01]]);
    expect(await ex.fetchOpenOrders(BTC)).toEqual([]);
  });
});

describe('bad input -> the exception a bot author expects', () => {
  it('maps each rejection', async () => {
    const c = account(svc.venue, 'bad', 10, 'one_way');
    const ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    await expect(ex.createOrder(BTC, 'limit', 'buy', 1, px(-10))).rejects.toBeInstanceOf(ccxt.InsufficientFunds);
    await expect(ex.createOrder(BTC, 'limit', 'buy', 0.001, px(-10))).rejects.toBeInstanceOf(ccxt.InvalidOrder); // notional below min
    await expect(ex.cancelOrder('999999', BTC)).rejects.toBeInstanceOf(ccxt.OrderNotFound);
    await expect(ex.fetchOrder('999999', BTC)).rejects.toBeInstanceOf(ccxt.OrderNotFound);
    await expect(
      ex.fapiPrivatePostOrder({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: '0.01',
        price: String(px(-10)),
        timeInForce: 'GTC',
        newClientOrderId: 'bad id!',
      }),
    ).rejects.toBeInstanceOf(ccxt.BadRequest);
    await expect(ex.fapiPrivateGetOpenOrders({ symbol: 'NOPEUSDT' })).rejects.toBeInstanceOf(ccxt.BadSymbol);
    const wrong = binanceusdm(svc.base, { ...c, apiSecret: 'not-the-secret' });
    await expect(wrong.fetchBalance()).rejects.toBeInstanceOf(ccxt.AuthenticationError);
    const unknown = binanceusdm(svc.base, { ...c, apiKey: 'nobody_0000' });
    await expect(unknown.fetchBalance()).rejects.toBeInstanceOf(ccxt.AuthenticationError);
    const late = binanceusdm(svc.base, c);
    late.options.timeDifference = 120_000; // its clock 2 minutes behind
    await expect(late.fetchBalance()).rejects.toBeInstanceOf(ccxt.InvalidNonce);
  });
});
