// The insurance fund's balance on both dialects: native GET /fapi/v1/insuranceBalance (envelope,
// public) and Binance's GET /binance/fapi/v1/insuranceBalance ("Query Insurance Fund Balance
// Snapshot": {symbols, assets[{asset, marginBalance, updateTime}]} with a symbol, an array of such
// groups without). Both read the exchange's fund, so they follow a liquidation that moves it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeBotOrder, placeOrder, setMarginMode, setPrices, upsertAccount } from '../helpers/exchange-commands.ts';
import { getJson, makeApp, type TestApp } from '../helpers/app.ts';
import { SymbolStatus } from '../../src-shared/enums.ts';
import { HOUSE_ACCOUNT, INITIAL_INSURANCE_FUND } from '../../src-main/trading/exchange.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
let t: TestApp;
let listed: string[];
beforeAll(async () => {
  t = await makeApp({ simulate: false, wall: () => T0 });
  t.venue.clock.pause();
  listed = t.venue.symbols
    .all()
    .filter((r) => r.status !== SymbolStatus.DELISTED)
    .map((r) => r.symbol);
});
afterAll(async () => t?.close());

describe('insurance fund balance', () => {
  it('native: the fund, the pairs it backs and the reading time, in the envelope; any parameter is 1003', async () => {
    const r = await getJson(t.app, '/fapi/v1/insuranceBalance');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      code: 0,
      message: 'success',
      data: { asset: 'USDT', balance: '1000000.00000000', house_backstop: '0.00000000', symbols: listed, time: T0 },
    });
    expect(listed).toContain('BTCUSDT');
    const bad = await getJson(t.app, '/fapi/v1/insuranceBalance?symbol=BTCUSDT');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(1003);
  });

  it('Binance: one group with a symbol, an array of groups without; an unknown pair is -1121', async () => {
    const one = await getJson(t.app, '/binance/fapi/v1/insuranceBalance?symbol=btcusdt');
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      symbols: listed,
      assets: [{ asset: 'USDT', marginBalance: '1000000.00000000', updateTime: T0 }],
    });
    const all = await getJson(t.app, '/binance/fapi/v1/insuranceBalance');
    expect(all.status).toBe(200);
    expect(all.body).toEqual([one.body]);
    const unknown = await getJson(t.app, '/binance/fapi/v1/insuranceBalance?symbol=NOPEUSDT');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    const malformed = await getJson(t.app, '/binance/fapi/v1/insuranceBalance?symbol=BTC%20USDT');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBeLessThan(0);
  });

  it('both follow the fund: a bankrupt close it takes over at a loss lowers it', async () => {
    const ex = t.venue.exchange;
    const u = upsertAccount(
      ex,
      { apiKey: 'insbal001', apiSecret: 'insbal001-secret', kind: 'user', balance: 10_000n * 100_000_000n },
      T0,
    ).id;
    setMarginMode(ex, u, 'BTCUSDT', 1);
    setPrices(ex, 'BTCUSDT', { mark: 96_000 });
    placeBotOrder(
      ex,
      { symbol: 'BTCUSDT', side: 2, position_side: 2, position_action: 1, type: 1, price: '96000.0', qty: '0.100' },
      HOUSE_ACCOUNT,
    );
    placeOrder(ex, u, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' });
    // isolated 20x long 0.1 at 96,000: bankruptcy price 91,200; no bid, mark 90,000: the fund takes
    // it over at 91,200 and marks it at 90,000, losing 120
    setPrices(ex, 'BTCUSDT', { mark: 90_000 });
    expect(ex.insuranceFund()).toBe(INITIAL_INSURANCE_FUND - 120n * 100_000_000n);
    const native = await getJson(t.app, '/fapi/v1/insuranceBalance');
    expect(native.body.data.balance).toBe('999880.00000000');
    const binance = await getJson(t.app, '/binance/fapi/v1/insuranceBalance?symbol=BTCUSDT');
    expect(binance.body.assets[0].marginBalance).toBe('999880.00000000');
  });
});
