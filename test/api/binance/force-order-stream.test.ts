// The liquidation streams `<symbol>@forceOrder` and `!forceOrder@arr` (Binance's "Liquidation
// Order Streams"): a liquidation on the venue (adl-cast.ts: an isolated long 0.05 at 96,000,
// bankruptcy price 91,200, gapped to a mark of 88,000) is pushed as Binance's forceOrder event,
// its close order a LIMIT IOC at the bankruptcy price with its fills; at most the latest
// liquidation of a pair each second, as Binance's snapshot. ccxt's watchLiquidations reads it.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openingLimit, openingMarket, placeOrder, setMarginMode } from '../../helpers/exchange-commands.ts';
import { MarginMode } from '../../../src-shared/enums.ts';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';
import { adlCast, gapBelowBankruptcy } from './adl-cast.ts';
import { account, binanceusdm, collect, quiet, until, type Collected } from './helpers.ts';

const BTC = 'BTC/USDT:USDT';
let venue: LocalVenue;
let app: Awaited<ReturnType<typeof buildApp>>;
let base: string;
let ws: string;

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:', simulate: false });
  venue.clock.pause();
  app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  ws = base.replace(/^http/, 'ws');
});
afterAll(async () => {
  await app?.close();
  await venue?.close();
});

/** The liquidation close orders of the venue, newest last. */
const forced = (accountId: number) =>
  venue.trading.forcedOrders({
    accountId,
    kind: 'liquidation',
    startTime: 0,
    endTime: Number.MAX_SAFE_INTEGER,
    order: 'asc',
    limit: 10,
  });

/** SUBSCRIBE `params` on a raw /binance/ws connection, acknowledged. */
async function subscribed(params: string[]): Promise<Collected> {
  const c = await collect(`${ws}/binance/ws`);
  c.ws.send(JSON.stringify({ method: 'SUBSCRIBE', params, id: 1 }));
  await until(() => c.got.length > 0);
  expect(c.got.shift()).toEqual({ result: null, id: 1 });
  return c;
}

describe('forceOrder streams', () => {
  it('push the liquidation as Binance forceOrder, on the pair stream and the all-market one', async () => {
    const raw = await subscribed(['btcusdt@forceOrder']);
    const combined = await collect(`${ws}/binance/market/stream?streams=!forceOrder@arr/ethusdt@forceOrder`);
    const all = await subscribed(['!forceOrder@arr']);
    try {
      const cast = adlCast(venue, 'fo1');
      const at = venue.clock.now();
      gapBelowBankruptcy(venue);
      expect(venue.exchange.positions(cast.loser.id)).toEqual([]);
      await until(() => raw.got.length > 0 && combined.got.length > 0 && all.got.length > 0);
      await quiet();
      const [order] = forced(cast.loser.id);
      const event = {
        e: 'forceOrder',
        E: raw.got[0]?.E,
        o: {
          s: 'BTCUSDT',
          S: 'SELL',
          o: 'LIMIT',
          f: 'IOC',
          q: '0.050',
          p: '91200.0',
          ap: '91200.00000000',
          X: 'FILLED',
          l: '0.050', // its last fill: the whole close at the bankruptcy price (no bid, the fund takes it)
          z: '0.050',
          T: at,
        },
      };
      expect(order.id).toBeGreaterThan(0);
      expect(raw.got).toEqual([event]);
      expect(all.got).toEqual([event]);
      // combined: wrapped with its stream name; the ETH stream had nothing
      expect(combined.got).toEqual([{ stream: '!forceOrder@arr', data: event }]);
      expect(typeof event.E).toBe('number');
    } finally {
      await Promise.all([raw.close(), combined.close(), all.close()]);
    }
  });

  it('push at most the latest liquidation of a pair each second', async () => {
    const c = await subscribed(['btcusdt@forceOrder', '!forceOrder@arr']);
    try {
      const cast = adlCast(venue, 'fo2');
      // a second isolated long, 0.020 at 96,000, liquidated by the same gap
      const maker = account(venue, 'fo2maker', 10_000);
      const second = account(venue, 'fo2second', 10_000);
      placeOrder(venue.exchange, maker.id, openingLimit(2, '96000.0', '0.020'));
      setMarginMode(venue.exchange, second.id, 'BTCUSDT', MarginMode.ISOLATED);
      placeOrder(venue.exchange, second.id, openingMarket(1, '0.020'));
      gapBelowBankruptcy(venue);
      expect(venue.exchange.positions(cast.loser.id)).toEqual([]);
      expect(venue.exchange.positions(second.id)).toEqual([]);
      const orders = [...forced(cast.loser.id), ...forced(second.id)].sort((a, b) => a.id - b.id);
      expect(orders).toHaveLength(2);
      await until(() => c.got.length >= 2);
      await new Promise((r) => setTimeout(r, 1200)); // a second more: nothing else comes
      // one event per stream, the pair's latest liquidation (the higher order id)
      expect(c.got).toHaveLength(2);
      const latest = orders[1];
      const q = venue.exchange.pair('BTCUSDT')!.math.formatQty(latest.qtyLots);
      for (const ev of c.got) expect(ev.o).toMatchObject({ s: 'BTCUSDT', q, z: q, X: 'FILLED' });
    } finally {
      await c.close();
    }
  });

  it('ccxt watchLiquidations resolves with the liquidation', async () => {
    const ex = binanceusdm(base);
    await ex.loadHttpProxyAgent();
    await ex.loadMarkets();
    try {
      const watching = ex.watchLiquidations(BTC);
      await new Promise((r) => setTimeout(r, 300)); // subscribed before the liquidation
      const cast = adlCast(venue, 'fo3');
      const at = venue.clock.now();
      gapBelowBankruptcy(venue);
      const [liq] = await watching;
      expect(liq).toMatchObject({ symbol: BTC, contracts: 0.05, price: 91_200, side: 'sell', timestamp: at });
      expect(venue.exchange.positions(cast.loser.id)).toEqual([]);
    } finally {
      await ex.close();
    }
  });
});
