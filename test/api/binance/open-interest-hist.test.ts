// Open interest over time (GET /futures/data/openInterestHist, ccxt fetchOpenInterestHistory):
// the exchange's open interest sampled at the first price update of each 5-minute boundary of
// market time, stored, answered per Binance period (the samples on its boundaries), the same
// after a restart, kept 30 days.
import { houseLimit, placeOrder, setPrices } from '../../helpers/exchange-commands.ts';
import { describe, expect, it } from 'vitest';
import { account, binanceusdm, servicesOnFolder, type Service } from './helpers.ts';

const BTC = 'BTC/USDT:USDT';
const M5 = 5 * 60_000;
/** Services on a data folder of this file's, their clocks paused. */
const folder = servicesOnFolder('perpdesk-oih-');

const raw = async (svc: Service, query: string) => {
  const r = await fetch(`${svc.base}/binance/futures/data/openInterestHist?${query}`);
  return (await r.json()) as any;
};

describe('openInterestHist', () => {
  it('samples each 5-minute boundary, answers Binance periods, survives a restart, keeps 30 days', async () => {
    let svc = await folder.start();
    let v = svc.venue;
    const ex = v.exchange;
    const mark = ex.pair('BTCUSDT')!.markPrice;
    const mid = Math.round(mark);
    // start just after an hour boundary, so 15m / 1h boundaries are known
    const h = Math.floor(v.clock.now() / 3_600_000) * 3_600_000 + 3_600_000;
    v.clock.advance(h + 1_000 - v.clock.now());
    const price = () => setPrices(ex, 'BTCUSDT', { mark, index: mark });
    price(); // sample at h: nothing open
    const u = account(v, 'oih');
    houseLimit(ex, 2, (mid + 10).toFixed(1), '5.000');
    placeOrder(ex, u.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.300' });
    v.clock.advance(M5);
    price(); // h + 5m: 0.3
    price(); // the same boundary again: no second sample
    placeOrder(ex, u.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.200' });
    v.clock.advance(2 * M5); // h + 10m passes without an update: a hole
    price(); // h + 15m: 0.5
    const all = await raw(svc, 'symbol=BTCUSDT&period=5m');
    expect(all.map((r: any) => [r.timestamp, r.sumOpenInterest])).toEqual([
      [h, '0.000'],
      [h + M5, '0.300'],
      [h + 3 * M5, '0.500'],
    ]);
    expect(Object.keys(all[2]).sort()).toEqual(['sumOpenInterest', 'sumOpenInterestValue', 'symbol', 'timestamp']);
    expect(Number(all[2].sumOpenInterestValue)).toBeCloseTo(0.5 * mark, 6);
    // 15m: the samples on 15-minute boundaries; limit keeps the newest, startTime counts forward
    expect((await raw(svc, 'symbol=BTCUSDT&period=15m')).map((r: any) => r.timestamp)).toEqual([h, h + 3 * M5]);
    expect((await raw(svc, 'symbol=BTCUSDT&period=5m&limit=1')).map((r: any) => r.timestamp)).toEqual([h + 3 * M5]);
    expect(
      (await raw(svc, `symbol=BTCUSDT&period=5m&limit=1&startTime=${h + 1}`)).map((r: any) => r.timestamp),
    ).toEqual([h + M5]);
    expect((await raw(svc, `symbol=BTCUSDT&period=5m&endTime=${h + M5}`)).map((r: any) => r.timestamp)).toEqual([
      h,
      h + M5,
    ]);
    // refusals
    expect((await raw(svc, 'symbol=BTCUSDT&period=3m')).code).toBe(-1130);
    expect((await raw(svc, 'symbol=BTCUSDT')).code).toBe(-1102);
    expect((await raw(svc, 'symbol=NOPEUSDT&period=5m')).code).toBe(-1121);
    expect((await raw(svc, 'symbol=BTCUSDT&period=5m&limit=501')).code).toBe(-1130);
    // ccxt
    const c = binanceusdm(svc.base);
    const hist = await c.fetchOpenInterestHistory(BTC, '5m', h);
    expect(hist.map((r: any) => [r.timestamp, r.openInterestAmount])).toEqual([
      [h, 0],
      [h + M5, 0.3],
      [h + 3 * M5, 0.5],
    ]);

    // a restart: the same answer (written at close), and sampling goes on from there
    svc = await folder.restart();
    v = svc.venue;
    expect(await raw(svc, 'symbol=BTCUSDT&period=5m')).toEqual(all);
    v.clock.advance(h + 3 * M5 + 30_000 - v.clock.now());
    setPrices(v.exchange, 'BTCUSDT', { mark, index: mark }); // a boundary already sampled: nothing new
    expect(await raw(svc, 'symbol=BTCUSDT&period=5m')).toEqual(all);

    // 30 days later, a sample there drops what is older than 30 days before it
    v.clock.advance(30 * 86_400_000);
    setPrices(v.exchange, 'BTCUSDT', { mark, index: mark });
    v.openInterestHistory.flush();
    const left = await raw(svc, 'symbol=BTCUSDT&period=5m&limit=500');
    expect(left.map((r: any) => r.timestamp)).toEqual([h + 3 * M5, h + 3 * M5 + 30 * 86_400_000]);
    expect(left[1].sumOpenInterest).toBe('0.500');
  });
});
