// The ADL quantile, Binance's 0 to 4 (trading/adl-queue.ts): GET /fapi/v1/adlQuantile and the
// `adl` of positionRisk give each position its place in its side's ADL queue, the queue in fifths
// (4: deleveraged first). Three isolated shorts of 0.1 BTC opened at 96,000 at 10x, 20x and 50x,
// mark 90,000 (each 6.25 % in profit, PnL% = (96,000 - 90,000) / 96,000). Isolated margin = 0.1 x
// 96,000 / leverage = 960 / 480 / 192, so the bankruptcy price BP = 96,000 + margin / 0.1 =
// 105,600 / 100,800 / 97,920 and the effective leverage 90,000 / (BP - 90,000) = 5.77 / 8.33 /
// 11.36: score = 0.0625 x that, so the order is 50x, 20x, 10x; with 3 in the queue the quantile is
// 4 - floor(5 x rank / 3): 4, 3, 1. The one long (one-way) is alone on its side: 4.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarginMode, OrderType, PositionAction, PositionSide, Side } from '../../../src-shared/enums.ts';
import { placeBotOrder, placeOrder, setLeverage, setMarginMode, setPrices } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, startService, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
const shorts: Record<number, Creds> = {};
let long: Creds;
let flat: Creds;

/** `c` sells 0.1 BTC at 96,000 (its resting order, taken by a bot buy). */
function openAt96k(c: Creds, side: 'long' | 'short', oneWay: boolean): void {
  const at = { symbol: 'BTCUSDT', type: OrderType.LIMIT, price: '96000.0', qty: '0.100' };
  const sell = side === 'short';
  placeOrder(svc.venue.exchange, c.id, {
    ...at,
    side: sell ? Side.SELL : Side.BUY,
    position_side: oneWay ? PositionSide.LONG : sell ? PositionSide.SHORT : PositionSide.LONG,
    position_action: PositionAction.OPEN,
  });
  placeBotOrder(svc.venue.exchange, {
    ...at,
    side: sell ? Side.BUY : Side.SELL,
    position_side: sell ? PositionSide.LONG : PositionSide.SHORT,
    position_action: PositionAction.OPEN,
  });
}

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  const ex = svc.venue.exchange;
  setPrices(ex, 'BTCUSDT', { mark: 96000, index: 96000 });
  for (const lev of [10, 20, 50]) {
    const c = account(svc.venue, `adlq${lev}`);
    setMarginMode(ex, c.id, 'BTCUSDT', MarginMode.ISOLATED);
    setLeverage(ex, c.id, 'BTCUSDT', lev);
    openAt96k(c, 'short', false);
    shorts[lev] = c;
  }
  long = account(svc.venue, 'adlqlong', 100_000, 'one_way');
  openAt96k(long, 'long', true);
  flat = account(svc.venue, 'adlqflat');
  setPrices(ex, 'BTCUSDT', { mark: 90000, index: 90000 });
});
afterAll(async () => svc?.close());

const get = (c: Creds, path: string, params: Record<string, string> = {}) =>
  signedCall(svc.base, c, 'GET', path, params);

describe('GET /fapi/v1/adlQuantile', () => {
  it('ranks the three shorts 4, 3, 1 (most levered first); a hedge isolated pair says BOTH 0', async () => {
    const want: Record<number, number> = { 50: 4, 20: 3, 10: 1 };
    for (const lev of [10, 20, 50]) {
      const r = await get(shorts[lev], '/fapi/v1/adlQuantile');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body, `${lev}x`).toEqual([{ symbol: 'BTCUSDT', adlQuantile: { LONG: 0, SHORT: want[lev], BOTH: 0 } }]);
    }
  });

  it('a one-way long alone on its side: LONG and BOTH 4', async () => {
    const r = await get(long, '/fapi/v1/adlQuantile', { symbol: 'BTCUSDT' });
    expect(r.body).toEqual([{ symbol: 'BTCUSDT', adlQuantile: { LONG: 4, SHORT: 0, BOTH: 4 } }]);
  });

  it('no position: an empty list; another pair asked for: empty; an unknown pair -1121', async () => {
    expect((await get(flat, '/fapi/v1/adlQuantile')).body).toEqual([]);
    expect((await get(long, '/fapi/v1/adlQuantile', { symbol: 'ETHUSDT' })).body).toEqual([]);
    const bad = await get(long, '/fapi/v1/adlQuantile', { symbol: 'NOPEUSDT' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(-1121);
  });
});

describe('positionRisk adl', () => {
  it("each position's entry carries its quantile; the empty side 0", async () => {
    // v3 carries it (v2, as Binance's, has no adl field); a hedge account's empty side is not listed
    const r = await get(shorts[20], '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' });
    expect(r.body.map((p: any) => [p.positionSide, p.adl])).toEqual([['SHORT', 3]]);
    const one = await get(long, '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' });
    expect(one.body.map((p: any) => [p.positionSide, p.adl])).toEqual([['BOTH', 4]]);
  });

  it('a fourth short (5x) joins the queue last: with 4 in it the quantiles are 4, 3, 2, 1', async () => {
    // 5x: margin 1,920, BP 115,200, effective leverage 90,000 / 25,200 = 3.57, the lowest score;
    // 4 - floor(5 x rank / 4) for ranks 0 to 3
    const c = account(svc.venue, 'adlq5');
    setMarginMode(svc.venue.exchange, c.id, 'BTCUSDT', MarginMode.ISOLATED);
    setLeverage(svc.venue.exchange, c.id, 'BTCUSDT', 5);
    setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96000, index: 96000 });
    openAt96k(c, 'short', false);
    setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 90000, index: 90000 });
    const q = async (who: Creds) => (await get(who, '/fapi/v1/adlQuantile')).body[0].adlQuantile.SHORT;
    expect([await q(shorts[50]), await q(shorts[20]), await q(shorts[10]), await q(c)]).toEqual([4, 3, 2, 1]);
  });

  it('a cross hedge account holding both sides: HEDGE as the sign beside LONG and SHORT, each side its own place', async () => {
    // long 0.1 and short 0.1 at 96,000 on a 100,000 wallet, mark 90,000. Each side is backed by the
    // cross wallet and the other side's uPnL, so its bankruptcy price is about 1,000,000 away and
    // its effective leverage about 0.09: the short (6.25 % in profit, score about 0.0056) comes
    // after the four isolated shorts, 4 - floor(5 x 4 / 5) = 0; the long (in loss, -0.0625 / 0.0900)
    // after the one-way long (-0.0625 / 0.0905), 4 - floor(5 x 1 / 2) = 2. Binance shows the sign
    // HEDGE instead of BOTH for a cross hedge pair; the venue ranks each side in the queue ADL takes
    // it from (docs/binance.md, ADL quantile)
    const c = account(svc.venue, 'adlqhedge');
    setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96000, index: 96000 });
    openAt96k(c, 'long', false);
    openAt96k(c, 'short', false);
    setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 90000, index: 90000 });
    const r = await get(c, '/fapi/v1/adlQuantile', { symbol: 'BTCUSDT' });
    expect(r.body).toEqual([{ symbol: 'BTCUSDT', adlQuantile: { LONG: 2, SHORT: 0, HEDGE: 0 } }]);
    expect(Object.keys(r.body[0].adlQuantile)).toEqual(['LONG', 'SHORT', 'HEDGE']);
    const risk = await get(c, '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' });
    expect(risk.body.map((p: any) => [p.positionSide, p.adl])).toEqual([
      ['LONG', 2],
      ['SHORT', 0],
    ]);
  });
});
