// ACCOUNT_UPDATE of a fill on a hedge-mode account: Binance pushes the symbol's BOTH entry beside
// its LONG / SHORT ones ("Only symbols of changed positions will be pushed"; its USD-M example of
// the event lists BTCUSDT's BOTH entry, pa "0", then LONG and SHORT), the BOTH one empty since a
// hedge account holds nothing on it. Before, the hedge account's update had no BOTH entry.
// Prices stand still (clock paused); liquidity is the house's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houseLimit, setPrices } from '../../helpers/exchange-commands.ts';
import { account, startService, until, userStream, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
const MARK = 96000;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  setPrices(svc.venue.exchange, 'BTCUSDT', { mark: MARK });
});
afterAll(async () => svc?.close());

describe('ACCOUNT_UPDATE of a hedge-mode fill', () => {
  it("lists the symbol's BOTH entry (pa 0) before its LONG one; a one-way fill has BOTH alone", async () => {
    const ex = svc.venue.exchange;
    const P = async (c: ReturnType<typeof account>, positionSide: string | undefined) => {
      const ws = await userStream(svc.base, c);
      try {
        houseLimit(ex, 2, MARK.toFixed(1), '0.010');
        const buy = await signedCall(svc.base, c, 'POST', '/fapi/v1/order', {
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'MARKET',
          quantity: '0.010',
          ...(positionSide === undefined ? {} : { positionSide }),
        });
        expect(buy.status, JSON.stringify(buy.body)).toBe(200);
        await until(() => ws.got.some((m) => m.e === 'ACCOUNT_UPDATE'));
        const update = ws.got.find((m) => m.e === 'ACCOUNT_UPDATE')!;
        expect(update.a.m).toBe('ORDER');
        return (update.a.P as Array<Record<string, string>>).map((p) => `${p.s} ${p.ps} pa=${p.pa} mt=${p.mt}`);
      } finally {
        await ws.close();
      }
    };
    const hedge = account(svc.venue, 'hedgeboth');
    expect(await P(hedge, 'LONG')).toEqual(['BTCUSDT BOTH pa=0 mt=cross', 'BTCUSDT LONG pa=0.010 mt=cross']);
    const oneWay = account(svc.venue, 'onewayboth', 100_000, 'one_way');
    expect(await P(oneWay, undefined)).toEqual(['BTCUSDT BOTH pa=0.010 mt=cross']);
  });
});
