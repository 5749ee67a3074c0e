// A replay as a venue for unmodified Binance bots (docs/replay.md "Binance bots"): the real ccxt
// (binanceusdm, pointed at /binance only by its URLs, as docs/binance.md says) trades a replay of
// the 1m BTCUSDT klines playing at speed 10 through REST and watch* streams (order book, trades,
// and the listenKey user stream: orders and fills), and its fills equal those the native API
// gets for the same orders at the same historical times on a second replay of the same data.
// Loopback only; bounded in wall time (a few seconds of play).
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { RestClient } from '../../src-shared/sdk/rest-client.ts';
import { binanceusdm } from '../api/binance/helpers.ts';
import { importInto, KLINES, replayDataOf } from './harness.ts';

const START = Date.UTC(2021, 4, 16);
const BTC = 'BTC/USDT:USDT';
const KEY = 'ccxt_replay_key_0000';
const SECRET = 'ccxt_replay_secret_0000';
const LATENCY = 10; // ms of history: an order meets the book of its send time + 10 ms, in both runs
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let db: DatabaseSync;
let played: ServiceHandle;
let stepped: ServiceHandle;

beforeAll(async () => {
  db = openDatabase({ dataDir: ':memory:' });
  const ds = await importInto(db, [
    {
      paths: [path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv')],
      opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' },
    },
  ]);
  const service = (lockstep: boolean) =>
    startService({
      dataDir: ':memory:',
      rateLimit: false,
      speed: 10,
      accounts: [{ apiKey: KEY, apiSecret: SECRET, balance: 100_000n * 100_000_000n, positionMode: 'one_way' }],
      replay: {
        options: { symbols: ['BTCUSDT'], start: START, orderLatency: LATENCY },
        data: replayDataOf(ds),
        lockstep,
      },
    });
  played = await service(false);
  stepped = await service(true);
}, 60_000);
afterAll(async () => {
  await played?.close();
  await stepped?.close();
  db?.close();
});

interface Fill {
  time: number;
  side: string;
  price: number;
  qty: number;
  fee: number;
}

describe('ccxt on a replay at speed 10', () => {
  it('REST, watch* and the user stream work unchanged; its fills equal the native API for the same orders', async () => {
    expect(played.venue.replay!.status()).toMatchObject({ speed: 10, paused: false, lockstep: false });
    const ex = binanceusdm(played.url, { id: 0, apiKey: KEY, apiSecret: SECRET });
    const orders: Array<{ side: 'buy' | 'sell'; qty: number; reduceOnly: boolean }> = [];
    try {
      await ex.loadHttpProxyAgent(); // ccxt's own first step for ws:// urls
      await ex.loadMarkets();
      expect(ex.markets[BTC]).toBeDefined();
      // market data through the streams: the book (snapshot + diffs) and the prints
      const book = await ex.watchOrderBook(BTC);
      expect(book.bids.length).toBeGreaterThan(0);
      expect(book.asks[0][0]).toBeGreaterThan(book.bids[0][0]);
      const trades = await ex.watchTrades(BTC);
      expect(trades.length).toBeGreaterThan(0);
      // the user stream (listenKey) sees the bot's orders and fills
      const myTrades = ex.watchMyTrades(BTC);
      const myOrders = ex.watchOrders(BTC);
      await sleep(300);
      for (const o of [
        { side: 'buy', qty: 0.05, reduceOnly: false },
        { side: 'buy', qty: 0.02, reduceOnly: false },
        { side: 'sell', qty: 0.07, reduceOnly: true },
      ] as const) {
        const placed = await ex.createOrder(
          BTC,
          'market',
          o.side,
          o.qty,
          undefined,
          o.reduceOnly ? { reduceOnly: true } : {},
        );
        expect(placed.id).toBeDefined();
        orders.push(o);
        await sleep(400); // history goes on between the orders (4 s of it at speed 10)
      }
      const seenFill = (await myTrades).at(-1);
      expect(seenFill.symbol).toBe(BTC);
      expect((await myOrders).at(-1).symbol).toBe(BTC);
      const fills: Fill[] = (await ex.fetchMyTrades(BTC)).map((t: any) => ({
        time: t.timestamp,
        side: t.side,
        price: t.price,
        qty: t.amount,
        fee: t.fee.cost,
      }));
      expect(fills.length).toBeGreaterThanOrEqual(3);
      const positions = await ex.fetchPositions([BTC]);
      expect(positions.find((p: any) => p.symbol === BTC)?.contracts ?? 0).toBe(0);

      // the same orders through the native API at the same historical times, on a replay moved
      // by seeks: each order is sent at its fill time - LATENCY and meets the book of its fill time
      const rest = new RestClient({ baseUrl: stepped.url, apiKey: KEY, apiSecret: SECRET });
      const times = [...new Set(fills.map((f) => f.time))].sort((a, b) => a - b);
      expect(times).toHaveLength(orders.length);
      for (let i = 0; i < orders.length; i++) {
        await rest.replayControl({ action: 'seek', time: times[i] - LATENCY });
        const o = orders[i];
        await rest.placeOrder({
          symbol: 'BTCUSDT',
          side: o.side === 'buy' ? 1 : 2,
          position_side: 1,
          position_action: o.reduceOnly ? 2 : 1,
          type: 2,
          qty: o.qty.toFixed(3),
        });
      }
      const native = (await rest.myTrades({ symbol: 'BTCUSDT', limit: 100 })).items
        .map((t) => ({
          time: t.created_at,
          side: t.side === 1 ? 'buy' : 'sell',
          price: Number(t.price),
          qty: Number(t.qty),
          fee: Number(t.fee),
        }))
        .sort((a, b) => a.time - b.time || a.price - b.price);
      const viaCcxt = [...fills].sort((a, b) => a.time - b.time || a.price - b.price);
      expect(native).toEqual(viaCcxt);
    } finally {
      await ex.close();
    }
  }, 60_000);
});
