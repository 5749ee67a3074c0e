// Binance's long/short and taker statistics (GET /futures/data/globalLongShortAccountRatio,
// topLongShortAccountRatio, topLongShortPositionRatio, takerlongshortRatio; ccxt
// fetchLongShortRatioHistory), sampled with the open interest (market/open-interest-history.ts).
// Four accounts with known balances and positions, and known taker trades, give figures worked
// out by hand below; the same answers after a restart, with the taker volume not yet sampled kept.
import { houseLimit, placeBotOrder, placeOrder, setPrices } from '../../helpers/exchange-commands.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src-main/store/migrations.ts';
import type { LocalVenue } from '../../../src-main/venue.ts';
import { account, binanceusdm, servicesOnFolder, startService, type Service } from './helpers.ts';

const BTC = 'BTC/USDT:USDT';
const M5 = 5 * 60_000;
const ROUTES = [
  'globalLongShortAccountRatio',
  'topLongShortAccountRatio',
  'topLongShortPositionRatio',
  'takerlongshortRatio',
] as const;
const folder = servicesOnFolder('perpdesk-lsr-');

const raw = async (svc: Service, route: string, query: string) => {
  const r = await fetch(`${svc.base}/binance/futures/data/${route}?${query}`);
  return (await r.json()) as any;
};
/** A market order of an account opening its long (side 1) or short (side 2) position: a taker trade on the tape. */
const take = (v: LocalVenue, id: number, side: 1 | 2, qty: string) =>
  placeOrder(v.exchange, id, { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: 2, qty });
/** Resting house orders on both sides for the takers to meet (bot orders: they hold no position). */
const book = (v: LocalVenue, mid: number) => {
  for (const side of [1, 2] as const)
    placeBotOrder(v.exchange, {
      symbol: 'BTCUSDT',
      side,
      position_side: side,
      position_action: 1,
      type: 1,
      price: (side === 1 ? mid - 10 : mid + 10).toFixed(1),
      qty: '5.000',
      time_in_force: 1,
    });
};

describe('long/short and taker ratios', () => {
  it('counts accounts, the top fifth by margin balance and the tape per sample, per period, across a restart', async () => {
    let svc = await folder.start();
    let v = svc.venue;
    const mark = v.exchange.pair('BTCUSDT')!.markPrice;
    const price = () => setPrices(v.exchange, 'BTCUSDT', { mark, index: mark });
    book(v, Math.round(mark));
    const h = Math.floor(v.clock.now() / 3_600_000) * 3_600_000 + 3_600_000;
    v.clock.advance(h + 1_000 - v.clock.now());
    price(); // sample h: nobody holds a position, no trade: no row anywhere
    const a = account(v, 'lsra', 100_000);
    const b = account(v, 'lsrb', 50_000);
    const c = account(v, 'lsrc', 200_000);
    const d = account(v, 'lsrd', 300_000);
    take(v, a.id, 1, '0.300');
    take(v, b.id, 1, '0.100');
    take(v, c.id, 2, '0.200');
    v.clock.advance(M5);
    price();
    // h+5m: A and B long, C short: 2 / 1. Three holders: the top fifth is one, C (200k, the largest
    // balance), short: 0 / 1 accounts, 0 / 0.2 lots. Takers bought 0.3 + 0.1, sold 0.2.
    v.clock.advance(M5);
    take(v, d.id, 1, '0.500'); // at h+10m+1s, before the price update that samples h+10m
    take(v, d.id, 2, '0.100'); // D hedged: long 0.5, short 0.1, net long
    price();
    // h+10m: A, B, D long, C short: 3 / 1. Four holders: top one is D (300k), long only: no row of
    // topLongShortAccountRatio; its lots 0.5 / 0.1. D's trades came after the boundary: no taker row.
    v.clock.advance(M5);
    price(); // h+15m: the same holders; the takers' 0.5 / 0.1 of D since h+10m

    const q = 'symbol=BTCUSDT&period=5m';
    const global = await raw(svc, 'globalLongShortAccountRatio', q);
    expect(global).toEqual([
      { symbol: 'BTCUSDT', longShortRatio: '2.0000', longAccount: '0.6667', shortAccount: '0.3333', timestamp: h + M5 },
      {
        symbol: 'BTCUSDT',
        longShortRatio: '3.0000',
        longAccount: '0.7500',
        shortAccount: '0.2500',
        timestamp: h + 2 * M5,
      },
      {
        symbol: 'BTCUSDT',
        longShortRatio: '3.0000',
        longAccount: '0.7500',
        shortAccount: '0.2500',
        timestamp: h + 3 * M5,
      },
    ]);
    expect(await raw(svc, 'topLongShortAccountRatio', q)).toEqual([
      { symbol: 'BTCUSDT', longShortRatio: '0.0000', longAccount: '0.0000', shortAccount: '1.0000', timestamp: h + M5 },
    ]);
    const top = { symbol: 'BTCUSDT', longShortRatio: '5.0000', longAccount: '0.8333', shortAccount: '0.1667' };
    expect(await raw(svc, 'topLongShortPositionRatio', q)).toEqual([
      { symbol: 'BTCUSDT', longShortRatio: '0.0000', longAccount: '0.0000', shortAccount: '1.0000', timestamp: h + M5 },
      { ...top, timestamp: h + 2 * M5 },
      { ...top, timestamp: h + 3 * M5 },
    ]);
    const taker = await raw(svc, 'takerlongshortRatio', q);
    expect(taker).toEqual([
      { buySellRatio: '2.0000', buyVol: '0.400', sellVol: '0.200', timestamp: h + M5 },
      { buySellRatio: '5.0000', buyVol: '0.500', sellVol: '0.100', timestamp: h + 3 * M5 },
    ]);
    // 15m: the samples at h and h+15m; the taker volume of (h, h+15m] is 0.9 bought, 0.3 sold
    expect(await raw(svc, 'takerlongshortRatio', 'symbol=BTCUSDT&period=15m')).toEqual([
      { buySellRatio: '3.0000', buyVol: '0.900', sellVol: '0.300', timestamp: h + 3 * M5 },
    ]);
    expect(
      (await raw(svc, 'globalLongShortAccountRatio', 'symbol=BTCUSDT&period=15m')).map((r: any) => r.timestamp),
    ).toEqual([h + 3 * M5]);
    // Binance's selection: the newest `limit`, or the first from startTime
    expect((await raw(svc, 'globalLongShortAccountRatio', `${q}&limit=1`)).map((r: any) => r.timestamp)).toEqual([
      h + 3 * M5,
    ]);
    expect(
      (await raw(svc, 'globalLongShortAccountRatio', `${q}&limit=1&startTime=${h + 1}`)).map((r: any) => r.timestamp),
    ).toEqual([h + M5]);
    // `limit` counts the rows answered, as Binance's, past samples without one: before, sample h
    // (no row) used up `limit=1` from startTime=h and the answer was [], which a client paging by
    // startTime took for the end of the data
    const times = async (route: string, query: string) =>
      (await raw(svc, route, `${q}&${query}`)).map((r: any) => r.timestamp);
    expect(await times('globalLongShortAccountRatio', `limit=1&startTime=${h}`)).toEqual([h + M5]);
    expect(await times('takerlongshortRatio', `limit=1&startTime=${h + M5 + 1}`)).toEqual([h + 3 * M5]);
    expect(await times('takerlongshortRatio', `limit=1&endTime=${h + 2 * M5}`)).toEqual([h + M5]);
    expect(await times('topLongShortAccountRatio', 'limit=1')).toEqual([h + M5]);
    expect(await times('topLongShortAccountRatio', `limit=2&startTime=${h + M5 + 1}`)).toEqual([]);
    // refusals, as openInterestHist's
    for (const route of ROUTES) {
      expect((await raw(svc, route, 'symbol=BTCUSDT&period=3m')).code).toBe(-1130);
      expect((await raw(svc, route, 'symbol=BTCUSDT')).code).toBe(-1102);
      expect((await raw(svc, route, 'period=5m')).code).toBe(-1102);
      expect((await raw(svc, route, 'symbol=NOPEUSDT&period=5m')).code).toBe(-1121);
      expect((await raw(svc, route, 'symbol=BTCUSDT&period=5m&limit=501')).code).toBe(-1130);
    }
    // ccxt: fetchLongShortRatioHistory reads globalLongShortAccountRatio
    const ratios = await binanceusdm(svc.base).fetchLongShortRatioHistory(BTC, '5m', h);
    expect(ratios.map((r: any) => [r.symbol, r.timestamp, r.longShortRatio])).toEqual([
      [BTC, h + M5, 2],
      [BTC, h + 2 * M5, 3],
      [BTC, h + 3 * M5, 3],
    ]);

    // taker trades not yet sampled, then a restart: the answers are the same, and the trades count
    // in the next sample
    take(v, a.id, 1, '0.100');
    take(v, c.id, 2, '0.050');
    const before = await Promise.all(ROUTES.map((r) => raw(svc, r, q)));
    svc = await folder.restart();
    v = svc.venue;
    expect(await Promise.all(ROUTES.map((r) => raw(svc, r, q)))).toEqual(before);
    v.clock.advance(h + 4 * M5 + 1_000 - v.clock.now());
    setPrices(v.exchange, 'BTCUSDT', { mark, index: mark });
    expect((await raw(svc, 'takerlongshortRatio', q)).at(-1)).toEqual({
      buySellRatio: '2.0000',
      buyVol: '0.100',
      sellVol: '0.050',
      timestamp: h + 4 * M5,
    });
    expect((await raw(svc, 'globalLongShortAccountRatio', q)).at(-1)).toMatchObject({
      longShortRatio: '3.0000',
      timestamp: h + 4 * M5,
    });
  });

  it('edge cases: nobody holding, only longs, a tie of accounts and of balances', async () => {
    const svc = await startService();
    try {
      const v = svc.venue;
      v.clock.pause();
      // every trade at the mark P, a taker against a house order: each holder pays the same fee and
      // has no unrealized PnL, so every margin balance is 100,000 - 0.1 x P x 0.05 %, the same
      const p = Math.round(v.exchange.pair('BTCUSDT')!.markPrice);
      const price = () => setPrices(v.exchange, 'BTCUSDT', { mark: p, index: p });
      const at = (id: number, side: 1 | 2) => {
        houseLimit(v.exchange, side === 1 ? 2 : 1, p.toFixed(1), '0.100');
        take(v, id, side, '0.100');
      };
      const h = Math.floor(v.clock.now() / 3_600_000) * 3_600_000 + 3_600_000;
      v.clock.advance(h + 1_000 - v.clock.now());
      price(); // h: nobody holds a position
      // the accounts' order is their age: S1 is the oldest
      const s1 = account(v, 'lsre_s1');
      const l1 = account(v, 'lsre_l1');
      const l2 = account(v, 'lsre_l2');
      const s2 = account(v, 'lsre_s2');
      at(l1.id, 1);
      v.clock.advance(M5);
      price(); // h+5m: only longs (L1)
      at(s1.id, 2);
      v.clock.advance(M5);
      price(); // h+10m: one long (L1), one short (S1), equal balances
      at(l2.id, 1);
      at(s2.id, 2);
      v.clock.advance(M5);
      price(); // h+15m: two and two, all four balances equal
      const q = `symbol=BTCUSDT&period=5m&startTime=${h}`;
      const even = { symbol: 'BTCUSDT', longShortRatio: '1.0000', longAccount: '0.5000', shortAccount: '0.5000' };
      // h and h+5m have no short side: no row (a ratio with no shorts is undefined), never a NaN,
      // an Infinity or a division by zero; the open interest is there for both
      expect(await raw(svc, 'globalLongShortAccountRatio', q)).toEqual([
        { ...even, timestamp: h + 2 * M5 },
        { ...even, timestamp: h + 3 * M5 },
      ]);
      expect((await raw(svc, 'openInterestHist', q)).map((r: any) => r.sumOpenInterest)).toEqual([
        '0.000',
        '0.100',
        '0.100',
        '0.200',
      ]);
      // the top fifth, rounded up, of two or four holders is one: with every balance equal, the
      // oldest account, S1, short: 0 / 1 accounts, 0 / 0.1 lots
      const topShort = { symbol: 'BTCUSDT', longShortRatio: '0.0000', longAccount: '0.0000', shortAccount: '1.0000' };
      for (const route of ['topLongShortAccountRatio', 'topLongShortPositionRatio'])
        expect(await raw(svc, route, q), route).toEqual([
          { ...topShort, timestamp: h + 2 * M5 },
          { ...topShort, timestamp: h + 3 * M5 },
        ]);
      // the takers: h+5m bought 0.1, sold none (no row); h+10m sold 0.1 only; h+15m 0.1 and 0.1
      expect(await raw(svc, 'takerlongshortRatio', q)).toEqual([
        { buySellRatio: '0.0000', buyVol: '0.000', sellVol: '0.100', timestamp: h + 2 * M5 },
        { buySellRatio: '1.0000', buyVol: '0.100', sellVol: '0.100', timestamp: h + 3 * M5 },
      ]);
    } finally {
      await svc.close();
    }
  });

  it('keeps the open interest of a folder sampled before the statistics, with no ratio row for it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpdesk-lsr-old-'));
    try {
      const db = new DatabaseSync(join(dir, 'perpdesk.db'));
      db.exec('PRAGMA journal_mode = WAL');
      for (let v = 0; v < 13; v++) db.exec(MIGRATIONS[v]);
      db.exec('PRAGMA user_version = 13');
      db.prepare('INSERT INTO open_interest (symbol, time, lots, value) VALUES (?, ?, ?, ?)').run(
        'BTCUSDT',
        300_000,
        500,
        48_000,
      );
      db.close();
      const svc = await startService(dir);
      try {
        svc.venue.clock.pause();
        const q = 'symbol=BTCUSDT&period=5m&startTime=0&endTime=600000';
        expect(await raw(svc, 'openInterestHist', q)).toEqual([
          { symbol: 'BTCUSDT', sumOpenInterest: '0.500', sumOpenInterestValue: '48000.00000000', timestamp: 300_000 },
        ]);
        for (const route of ROUTES) expect(await raw(svc, route, q), route).toEqual([]);
      } finally {
        await svc.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
