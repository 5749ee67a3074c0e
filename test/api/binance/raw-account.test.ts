// Raw HTTP on the routes only ccxt covered before: fundingInfo (every listed pair's cap, floor and
// interval), GET fapi/v2/account (v2's extra fields, every pair's position entry, totals that add
// up) and the sapi lists ccxt.binance reads at start-up (empty, signed or not).
import { placeOrder } from '../../helpers/exchange-commands.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { Side } from '../../../src-shared/enums.ts';
import { limit, midOf } from './book.ts';
import { account, injectedWithAccount } from './helpers.ts';
import { signedInject } from './raw.ts';

const t = injectedWithAccount('rawacct');

beforeAll(async () => {
  const mm = account(t.venue, 'rawacctmm');
  // a resting ask the account buys from: a one-way long of 0.050
  limit(t.venue, mm, { side: Side.SELL, price: (midOf(t.venue) + 5).toFixed(1), qty: '1.000' });
  placeOrder(t.venue.exchange, t.c.id, {
    symbol: 'BTCUSDT',
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 2,
    qty: '0.050',
  });
});

const pub = async (url: string) => {
  const r = await t.app.inject({ url: `/binance${url}` });
  return { status: r.statusCode, body: JSON.parse(r.body) };
};

describe('fundingInfo', () => {
  it("every listed pair: cap 0.75 x the top tier's maintenance rate, floor its negative, 8 h", async () => {
    const r = await pub('/fapi/v1/fundingInfo');
    expect(r.status).toBe(200);
    const listed = t.venue.symbols.all().filter((s) => s.status !== 3);
    expect(r.body.map((x: any) => x.symbol)).toEqual(listed.map((s) => s.symbol));
    const btc = r.body.find((x: any) => x.symbol === 'BTCUSDT');
    const top = t.venue.symbols.get('BTCUSDT')!.brackets[0].mmr;
    expect(Object.keys(btc).sort()).toEqual(
      ['adjustedFundingRateCap', 'adjustedFundingRateFloor', 'disclaimer', 'fundingIntervalHours', 'symbol'].sort(),
    );
    expect(btc.adjustedFundingRateCap).toBe((0.75 * top).toFixed(8));
    expect(btc.adjustedFundingRateFloor).toBe((-0.75 * top).toFixed(8));
    // a cap past the rate's 6 decimals is published as settlements apply it, truncated
    // (BNBUSDT: 0.75 x 0.6667% = 0.00500025 was published, 0.005 the most a settlement reached)
    for (const x of r.body) {
      const cap = Number(x.adjustedFundingRateCap);
      expect(Math.round(cap * 1e6) / 1e6, x.symbol).toBe(cap);
      const mmr = t.venue.symbols.get(x.symbol)!.brackets[0].mmr;
      expect(cap, x.symbol).toBeLessThanOrEqual(0.75 * mmr);
      expect(cap, x.symbol).toBeGreaterThan(0.75 * mmr - 1e-6);
    }
    expect(btc.fundingIntervalHours).toBe(8);
    expect(btc.disclaimer).toBe(false);
  });
});

describe('GET fapi/v2/account', () => {
  it("v2's fields, one entry per listed pair, the position, totals from the summary and the entries", async () => {
    const r = await signedInject(t.app, t.c, 'GET', '/fapi/v2/account');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const a = r.body;
    for (const k of [
      'feeTier',
      'canTrade',
      'canDeposit',
      'canWithdraw',
      'updateTime',
      'multiAssetsMargin',
      'tradeGroupId',
    ])
      expect(a, k).toHaveProperty(k);
    expect(a.multiAssetsMargin).toBe(false);
    const sum = t.venue.exchange.summary(t.c.id);
    expect(a.totalWalletBalance).toBe(sum.wallet_balance);
    expect(a.availableBalance).toBe(sum.available_balance);
    expect(a.assets).toHaveLength(1);
    expect(a.assets[0]).toMatchObject({ asset: 'USDT', walletBalance: sum.wallet_balance });
    const listed = t.venue.symbols.all().filter((s) => s.status !== 3);
    expect(a.positions.map((p: any) => p.symbol)).toEqual(listed.map((s) => s.symbol));
    const btc = a.positions.find((p: any) => p.symbol === 'BTCUSDT');
    expect(btc).toMatchObject({ positionSide: 'BOTH', positionAmt: '0.050', isolated: false });
    expect(btc.leverage).toBe(String(t.venue.exchange.pairSetting(t.c.id, 'BTCUSDT').leverage));
    expect(Number(btc.maxNotional)).toBeGreaterThan(0);
    const maint = a.positions.reduce((s: number, p: any) => s + Number(p.maintMargin), 0);
    expect(Number(a.totalMaintMargin)).toBeCloseTo(maint, 8);
    expect(Number(btc.maintMargin)).toBeGreaterThan(0);
    // v3 has neither the v2 flags nor the empty entries
    const v3 = (await signedInject(t.app, t.c, 'GET', '/fapi/v3/account')).body;
    expect(v3).not.toHaveProperty('feeTier');
    expect(v3.positions.map((p: any) => p.symbol)).toEqual(['BTCUSDT']);
  });

  it('unsigned or badly signed: Binance refusals, no account data', async () => {
    const r = await t.app.inject({ url: '/binance/fapi/v2/account', headers: { 'x-mbx-apikey': t.c.apiKey } });
    expect(r.statusCode).toBe(400);
    expect(JSON.parse(r.body)).toEqual({
      code: -1102,
      msg: "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed; legal range is '0 to 999999999999999'.",
    });
    const bad = await signedInject(t.app, { ...t.c, apiSecret: 'wrong' }, 'GET', '/fapi/v2/account');
    expect(bad.body).toEqual({ code: -1022, msg: 'Signature for this request is not valid.' });
  });
});

describe('sapi lists (ccxt.binance start-up)', () => {
  it.each(['/sapi/v1/margin/allPairs', '/sapi/v1/margin/isolated/allPairs', '/sapi/v1/capital/config/getall'])(
    '%s answers [] with or without a signature',
    async (path) => {
      expect(await pub(path)).toEqual({ status: 200, body: [] });
      const signed = await signedInject(t.app, t.c, 'GET', path);
      expect(signed).toEqual({ status: 200, body: [] });
    },
  );
});
