// The account answers of an account with a cross position (BTCUSDT long) and an isolated one
// (ETHUSDT short): positions[] in Binance's account layout (v3 short, v2 with isolated and
// maxNotional; unrealizedProfit, not positionRisk's unRealizedProfit), which ccxt's
// fetchAccountPositions reads; and the cross figures (crossWalletBalance, crossUnPnl, their
// totals, /fapi/v2|v3/balance and the user stream's `cw`) of the cross positions alone: the wallet
// less the isolated wallet, the cross position's unrealized PnL. Prices stand still (clock paused,
// marks set by the test).
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarginMode, OrderType, PositionAction, PositionSide, Side } from '../../../src-shared/enums.ts';
import { placeBotOrder, placeOrder, setMarginMode, setPrices } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, binanceusdm, startService, until, userStream, type Collected, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
let c: Creds;
/** The ACCOUNT_UPDATE events of c's user stream, opened before its positions. */
let stream: Collected;
/** The user stream's ACCOUNT_UPDATE events. */
const updates = () => stream.got.filter((m) => m.e === 'ACCOUNT_UPDATE');

/** A position of `qty` on `symbol` at `price` for c: its resting order, taken by a bot order. */
function open(side: Side, symbol: string, price: string, qty: string): void {
  const at = { symbol, type: OrderType.LIMIT, price, qty };
  // (a one-way account's orders are all position side 1)
  placeOrder(svc.venue.exchange, c.id, {
    ...at,
    side,
    position_side: PositionSide.LONG,
    position_action: PositionAction.OPEN,
  });
  placeBotOrder(svc.venue.exchange, {
    ...at,
    side: side === Side.BUY ? Side.SELL : Side.BUY,
    position_side: side === Side.BUY ? PositionSide.SHORT : PositionSide.LONG,
    position_action: PositionAction.OPEN,
  });
}

beforeAll(async () => {
  svc = await startService();
  const ex = svc.venue.exchange;
  svc.venue.clock.pause();
  setPrices(ex, 'BTCUSDT', { mark: 96000 });
  setPrices(ex, 'ETHUSDT', { mark: 3400 });
  c = account(svc.venue, 'acctpos', 100_000, 'one_way');
  setMarginMode(ex, c.id, 'ETHUSDT', MarginMode.ISOLATED);
  stream = await userStream(svc.base, c);
  open(Side.BUY, 'BTCUSDT', '96000.0', '0.500');
  open(Side.SELL, 'ETHUSDT', '3400.00', '2.000');
  // the BTC long loses, the ETH short gains
  setPrices(ex, 'BTCUSDT', { mark: 95990 });
  setPrices(ex, 'ETHUSDT', { mark: 3397 });
  await until(() => updates().length >= 2);
});
afterAll(async () => {
  await stream?.close();
  await svc?.close();
});

/** The native positions of c by pair, and the figures Binance's cross fields must hold. */
function expected() {
  const ps = svc.venue.exchange.positions(c.id);
  const btc = ps.find((p) => p.symbol === 'BTCUSDT')!;
  const eth = ps.find((p) => p.symbol === 'ETHUSDT')!;
  const sum = svc.venue.exchange.summary(c.id);
  return {
    btc,
    eth,
    sum,
    crossWallet: new Decimal(sum.wallet_balance).minus(eth.margin).toFixed(8),
    crossUpnl: new Decimal(btc.unrealized_pnl).toFixed(8),
  };
}

describe('the positions: one cross, one isolated', () => {
  it('are what the test set up', () => {
    const { btc, eth, sum } = expected();
    expect(btc.margin_mode).toBe(MarginMode.CROSS);
    expect(eth.margin_mode).toBe(MarginMode.ISOLATED);
    expect(btc.unrealized_pnl).toBe(-5);
    expect(eth.unrealized_pnl).toBe(6);
    expect(eth.margin).toBeGreaterThan(0);
    expect(sum.unrealized_pnl).toBe('1.00000000');
  });
});

describe('GET fapi/v3/account and fapi/v2/account', () => {
  it("v3 positions[]: Binance's v3 layout, unrealizedProfit", async () => {
    const { btc, eth } = expected();
    const a = (await signedCall(svc.base, c, 'GET', '/fapi/v3/account')).body;
    expect(a.positions.map((p: any) => p.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    const [b, e] = a.positions;
    expect(Object.keys(b)).toEqual([
      'symbol',
      'positionSide',
      'positionAmt',
      'unrealizedProfit',
      'isolatedMargin',
      'notional',
      'isolatedWallet',
      'initialMargin',
      'maintMargin',
      'updateTime',
    ]);
    expect(b).toMatchObject({ positionSide: 'BOTH', positionAmt: '0.500', unrealizedProfit: '-5.00000000' });
    expect(b.isolatedWallet).toBe('0');
    expect(e).toMatchObject({ positionAmt: '-2.000', unrealizedProfit: '6.00000000' });
    expect(e.isolatedWallet).toBe(new Decimal(eth.margin).toFixed(8));
    expect(e.isolatedMargin).toBe(new Decimal(eth.margin).plus(6).toFixed(8));
    expect(b.updateTime).toBe(btc.updated_at);
  });

  it("v2 positions[]: every pair, Binance's v2 layout with isolated and maxNotional", async () => {
    const a = (await signedCall(svc.base, c, 'GET', '/fapi/v2/account')).body;
    const b = a.positions.find((p: any) => p.symbol === 'BTCUSDT');
    const e = a.positions.find((p: any) => p.symbol === 'ETHUSDT');
    expect(Object.keys(b)).toEqual([
      'symbol',
      'initialMargin',
      'maintMargin',
      'unrealizedProfit',
      'positionInitialMargin',
      'openOrderInitialMargin',
      'leverage',
      'isolated',
      'entryPrice',
      'breakEvenPrice',
      'maxNotional',
      'bidNotional',
      'askNotional',
      'positionSide',
      'positionAmt',
      'notional',
      'isolatedWallet',
      'updateTime',
    ]);
    expect(b).toMatchObject({ isolated: false, unrealizedProfit: '-5.00000000', entryPrice: '96000.00000000' });
    expect(e).toMatchObject({ isolated: true, unrealizedProfit: '6.00000000', positionAmt: '-2.000' });
    const risk = (await signedCall(svc.base, c, 'GET', '/fapi/v2/positionRisk', { symbol: 'BTCUSDT' })).body[0];
    // v2 positionRisk is Binance's v2 entry: none of v3's margins, order notionals or adl
    expect(Object.keys(risk)).toEqual([
      'entryPrice',
      'breakEvenPrice',
      'marginType',
      'isAutoAddMargin',
      'isolatedMargin',
      'leverage',
      'liquidationPrice',
      'markPrice',
      'maxNotionalValue',
      'positionAmt',
      'notional',
      'isolatedWallet',
      'symbol',
      'unRealizedProfit',
      'positionSide',
      'updateTime',
    ]);
    expect(risk).toMatchObject({ marginType: 'cross', positionAmt: '0.500', entryPrice: b.entryPrice });
    expect(b.maxNotional).toBe(risk.maxNotionalValue);
    expect(b.leverage).toBe(risk.leverage);
    // an empty entry too
    const sol = a.positions.find((p: any) => p.symbol !== 'BTCUSDT' && p.symbol !== 'ETHUSDT');
    expect(sol).toMatchObject({ positionAmt: expect.stringMatching(/^0\.?0*$/), unrealizedProfit: '0.00000000' });
  });

  it('the cross figures cover the cross position only: the wallet less the isolated wallet, its uPnL', async () => {
    const { crossWallet, crossUpnl, sum } = expected();
    expect(crossUpnl).toBe('-5.00000000');
    expect(crossWallet).not.toBe(sum.wallet_balance);
    for (const path of ['/fapi/v3/account', '/fapi/v2/account']) {
      const a = (await signedCall(svc.base, c, 'GET', path)).body;
      expect(a.totalWalletBalance).toBe(sum.wallet_balance);
      expect(a.totalUnrealizedProfit).toBe('1.00000000');
      expect(a.totalCrossWalletBalance, path).toBe(crossWallet);
      expect(a.totalCrossUnPnl, path).toBe(crossUpnl);
      expect(a.assets[0]).toMatchObject({ crossWalletBalance: crossWallet, crossUnPnl: crossUpnl });
    }
    for (const path of ['/fapi/v3/balance', '/fapi/v2/balance']) {
      const [usdt] = (await signedCall(svc.base, c, 'GET', path)).body;
      expect(usdt, path).toMatchObject({
        balance: sum.wallet_balance,
        crossWalletBalance: crossWallet,
        crossUnPnl: crossUpnl,
      });
    }
  });
});

describe('the user stream', () => {
  it("ACCOUNT_UPDATE cw is the cross wallet: wb less the isolated position's iw", () => {
    const last = updates().at(-1);
    expect(last, JSON.stringify(updates())).toBeDefined();
    const [B] = last.a.B;
    const iw = last.a.P.find((p: any) => p.s === 'ETHUSDT').iw;
    expect(Number(iw)).toBeGreaterThan(0);
    expect(B.cw).toBe(new Decimal(B.wb).minus(iw).toFixed(8));
    expect(B.cw).toBe(expected().crossWallet);
  });
});

describe('ccxt', () => {
  it('fetchAccountPositions (v3 and v2): unrealizedPnl, margin mode and side from the account answer', async () => {
    const ex = binanceusdm(svc.base, c);
    for (const params of [{}, { useV2: true }]) {
      const ps = await ex.fetchAccountPositions(['BTC/USDT:USDT', 'ETH/USDT:USDT'], params);
      const btc = ps.find((p: any) => p.symbol === 'BTC/USDT:USDT');
      const eth = ps.find((p: any) => p.symbol === 'ETH/USDT:USDT');
      expect(btc, JSON.stringify(params)).toMatchObject({
        unrealizedPnl: -5,
        marginMode: 'cross',
        side: 'long',
        contracts: 0.5,
      });
      expect(eth, JSON.stringify(params)).toMatchObject({
        unrealizedPnl: 6,
        marginMode: 'isolated',
        side: 'short',
        contracts: 2,
      });
    }
  });
});

describe('GET fapi/v1/symbolConfig', () => {
  it("each pair's margin type and leverage in Binance's layout; one symbol is an array of one", async () => {
    const ex = svc.venue.exchange;
    const one = (await signedCall(svc.base, c, 'GET', '/fapi/v1/symbolConfig', { symbol: 'ETHUSDT' })).body;
    const risk = (await signedCall(svc.base, c, 'GET', '/fapi/v2/positionRisk', { symbol: 'ETHUSDT' })).body[0];
    expect(one).toEqual([
      {
        symbol: 'ETHUSDT',
        marginType: 'ISOLATED',
        isAutoAddMargin: 'false',
        leverage: ex.pairSetting(c.id, 'ETHUSDT').leverage,
        maxNotionalValue: risk.maxNotionalValue,
      },
    ]);
    const all = (await signedCall(svc.base, c, 'GET', '/fapi/v1/symbolConfig')).body;
    const listed = svc.venue.symbols.all().filter((s) => s.status !== 3);
    expect(all.map((x: any) => x.symbol)).toEqual(listed.map((s) => s.symbol));
    expect(all.find((x: any) => x.symbol === 'BTCUSDT').marginType).toBe('CROSSED');
  });

  it('ccxt fetchLeverage and fetchMarginMode read it', async () => {
    const ccxt = binanceusdm(svc.base, c);
    const lev = svc.venue.exchange.pairSetting(c.id, 'ETHUSDT').leverage;
    expect(await ccxt.fetchLeverage('ETH/USDT:USDT')).toMatchObject({
      symbol: 'ETH/USDT:USDT',
      marginMode: 'isolated',
      longLeverage: lev,
      shortLeverage: lev,
    });
    expect((await ccxt.fetchMarginMode('BTC/USDT:USDT')).marginMode).toBe('cross');
    expect((await ccxt.fetchMarginMode('ETH/USDT:USDT')).marginMode).toBe('isolated');
  });
});

describe("the open orders' margin", () => {
  it('positionRisk says what the account holds for them, one-way netting included', async () => {
    // five sells of 0.2 over the 0.5 long: the first 0.5 would close it and holds nothing, the
    // other 0.5 would open a short and holds its margin and taker fee (what the venue freezes)
    for (let i = 0; i < 5; i++) {
      const r = await signedCall(svc.base, c, 'POST', '/fapi/v1/order', {
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'LIMIT',
        timeInForce: 'GTC',
        quantity: '0.200',
        price: '97000.0',
      });
      expect(r.status).toBe(200);
    }
    try {
      const frozen = svc.venue.exchange.summary(c.id).frozen_margin;
      expect(Number(frozen)).toBeGreaterThan(0);
      const risk = (await signedCall(svc.base, c, 'GET', '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' })).body[0];
      const acct = (await signedCall(svc.base, c, 'GET', '/fapi/v2/account')).body;
      // summed from the orders' notionals it said 1.0 x 97000 / leverage, the gross figure
      expect(new Decimal(risk.openOrderInitialMargin).eq(frozen)).toBe(true);
      expect(new Decimal(acct.totalOpenOrderInitialMargin).eq(frozen)).toBe(true);
      expect(acct.positions.find((p: { symbol: string }) => p.symbol === 'BTCUSDT').openOrderInitialMargin).toBe(
        risk.openOrderInitialMargin,
      );
      expect(Number(risk.askNotional)).toBeCloseTo(97_000, 6);
    } finally {
      await signedCall(svc.base, c, 'DELETE', '/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' });
    }
  });
});
