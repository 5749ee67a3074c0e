// Real ccxt pro (npm, pinned) on the facade's WebSocket streams: the order book kept by
// watchOrderBook equals the REST snapshot at equal update ids; trades, candles, tickers and the
// user stream (orders, fills, positions incl. the close, balance) see what happens, an order
// partly filled before the user stream opened included.
import { openingLimit, openingMarket, placeOrder } from '../../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ladder, midOf } from './book.ts';
import { account, binanceusdm, startService, type Service } from './helpers.ts';

const BTC = 'BTC/USDT:USDT';
let svc: Service;
let mid: number;
let mm: ReturnType<typeof account>;
const px = (k: number) => (mid + k).toFixed(1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  svc = await startService();
  mm = ladder(svc.venue, 'wsmm');
  mid = midOf(svc.venue);
});
afterAll(async () => svc?.close());

async function client(creds?: ReturnType<typeof account>) {
  const ex = binanceusdm(svc.base, creds);
  await ex.loadHttpProxyAgent();
  await ex.loadMarkets();
  return ex;
}

describe('ccxt pro, market streams', () => {
  it('watchOrderBook follows the book; at equal nonce it equals the REST snapshot', async () => {
    const ex = await client();
    try {
      let book = await ex.watchOrderBook(BTC);
      const ids = [] as number[];
      for (let i = 0; i < 3; i++) {
        placeOrder(svc.venue.exchange, mm.id, openingLimit(1, px(-5 - i), '0.050'));
        book = await ex.watchOrderBook(BTC);
        ids.push(book.nonce);
      }
      // wait until the stream has caught up with the engine
      const target = svc.venue.exchange.pair('BTCUSDT')!.book.depth(0).updateId;
      for (let i = 0; i < 20 && book.nonce < target; i++) book = await ex.watchOrderBook(BTC);
      const rest: any = await (await fetch(`${svc.base}/binance/fapi/v1/depth?symbol=BTCUSDT&limit=1000`)).json();
      expect(book.nonce).toBe(rest.lastUpdateId);
      expect(book.bids.map((l: number[]) => [l[0], l[1]])).toEqual(
        rest.bids.map((l: string[]) => [Number(l[0]), Number(l[1])]),
      );
      expect(book.asks.map((l: number[]) => [l[0], l[1]])).toEqual(
        rest.asks.map((l: string[]) => [Number(l[0]), Number(l[1])]),
      );
      expect(book.bids[0][0]).toBe(Number(px(-5)));
    } finally {
      await ex.close();
    }
  });

  it('watchTrades, watchOHLCV and watchTicker see a trade', async () => {
    const ex = await client();
    const taker = account(svc.venue, 'wstaker');
    try {
      const trades = ex.watchTrades(BTC);
      const ohlcv = ex.watchOHLCV(BTC, '1m');
      const ticker = ex.watchTicker(BTC);
      await sleep(300);
      placeOrder(svc.venue.exchange, taker.id, openingMarket(1, '0.010'));
      const t = await trades;
      expect(t[t.length - 1].price).toBe(Number(px(10)));
      expect(t[t.length - 1].side).toBe('buy');
      // candles and tickers are also pushed without trades (time moves, every second): the trade
      // shows in one of the next few pushes
      let c = await ohlcv;
      for (let i = 0; i < 10 && c[c.length - 1][4] !== Number(px(10)); i++) c = await ex.watchOHLCV(BTC, '1m');
      expect(c[c.length - 1][4]).toBe(Number(px(10)));
      let tk = await ticker;
      for (let i = 0; i < 5 && tk.last !== Number(px(10)); i++) tk = await ex.watchTicker(BTC);
      expect(tk.symbol).toBe(BTC);
      expect(tk.last).toBe(Number(px(10)));
    } finally {
      await ex.close();
    }
  });
});

describe('ccxt pro, every pair', () => {
  // ccxt subscribes !bookTicker when no symbol is given; it was refused (code 2, "unknown stream
  // \"!bookTicker\"") and watchBidsAsks() threw ExchangeError
  it('watchBidsAsks() with no symbols (!bookTicker): a changed top of any pair comes', async () => {
    const ex = await client();
    try {
      const first = ex.watchBidsAsks();
      await sleep(300);
      placeOrder(svc.venue.exchange, mm.id, openingLimit(1, px(-1), '0.020'));
      let quotes = await first;
      for (let i = 0; i < 10 && quotes[BTC]?.bid !== Number(px(-1)); i++) quotes = await ex.watchBidsAsks();
      expect(quotes[BTC]).toMatchObject({ symbol: BTC, bid: Number(px(-1)) });
      const rest: any = await (await fetch(`${svc.base}/binance/fapi/v1/ticker/bookTicker?symbol=BTCUSDT`)).json();
      expect(quotes[BTC].ask).toBe(Number(rest.askPrice));
    } finally {
      await ex.close();
    }
  });
});

describe('ccxt pro, user stream', () => {
  it('watchOrders, watchMyTrades, watchPositions (with the close) and watchBalance', async () => {
    const c = account(svc.venue, 'wsuser', 100_000, 'one_way');
    const ex = await client(c);
    try {
      const orders = ex.watchOrders(BTC);
      const balance = ex.watchBalance();
      await sleep(300);
      const placed = await ex.createOrder(BTC, 'limit', 'buy', 0.02, Number(px(-40)));
      const o = await orders;
      expect(o[o.length - 1].id).toBe(placed.id);
      expect(o[o.length - 1].status).toBe('open');
      await ex.cancelOrder(placed.id, BTC);
      const cancelled = await ex.watchOrders(BTC);
      expect(cancelled[cancelled.length - 1].status).toBe('canceled');

      const fills = ex.watchMyTrades(BTC);
      const pos = ex.watchPositions([BTC]);
      await sleep(200);
      const m = await ex.createOrder(BTC, 'market', 'buy', 0.03);
      const f = await fills;
      expect(f[f.length - 1].order).toBe(m.id);
      expect(f[f.length - 1].amount).toBe(0.03);
      const p = await pos;
      const long = p.find((x: any) => x.symbol === BTC);
      expect(long.contracts).toBe(0.03);
      const b = await balance;
      expect(b.USDT.total).toBeGreaterThan(0);

      const closing = ex.watchPositions([BTC]);
      await sleep(100);
      await ex.createOrder(BTC, 'market', 'sell', 0.03, undefined, { reduceOnly: true });
      const after = await closing;
      const closed = after.find((x: any) => x.symbol === BTC);
      expect(closed.contracts).toBe(0);
    } finally {
      await ex.close();
    }
  });

  it('watchOrders of an order partly filled before the stream: the next fill closes it', async () => {
    const c = account(svc.venue, 'wspre', 100_000, 'one_way');
    const taker = account(svc.venue, 'wspretaker');
    const ex = await client(c);
    const take = (qty: string) =>
      placeOrder(svc.venue.exchange, taker.id, {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        time_in_force: 2, // IOC
        price: px(5),
        qty,
      });
    try {
      // below the ladder's asks: the takers meet this order alone
      const placed = await ex.createOrder(BTC, 'limit', 'sell', 0.01, Number(px(5)));
      take('0.004'); // no user stream open yet
      const orders = ex.watchOrders(BTC);
      await sleep(300);
      take('0.006');
      const o = (await orders).find((x: any) => x.id === placed.id);
      expect([o.status, o.filled, o.remaining]).toEqual(['closed', 0.01, 0]);
      const rest = await ex.fetchOrder(placed.id, BTC);
      expect([rest.status, rest.filled]).toEqual(['closed', 0.01]);
    } finally {
      await ex.close();
    }
  });

  it('raw protocol: SUBSCRIBE ack with the id, LIST_SUBSCRIPTIONS, combined wrapping, bad stream and params errors', async () => {
    const ws = new WebSocket(`${svc.base.replace('http', 'ws')}/binance/stream?streams=btcusdt@trade`);
    const msgs: any[] = [];
    await new Promise((r) => ws.once('open', r));
    ws.on('message', (d) => msgs.push(JSON.parse(String(d))));
    ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['btcusdt@bookTicker'], id: 42 }));
    ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 43 }));
    ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['btcusdt@nothing'], id: 44 }));
    ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: 'btcusdt@aggTrade', id: 45 }));
    ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 46 }));
    await sleep(200);
    const taker = account(svc.venue, 'wsraw');
    placeOrder(svc.venue.exchange, taker.id, openingMarket(2, '0.010'));
    await sleep(300);
    ws.close();
    expect(msgs).toContainEqual({ result: null, id: 42 });
    expect(msgs).toContainEqual({ result: ['btcusdt@trade', 'btcusdt@bookTicker'], id: 43 });
    expect(msgs.find((m) => m.id === 44).error.code).toBe(2);
    // params that is no list is an invalid request, not an ack that subscribed nothing
    expect(msgs.find((m) => m.id === 45)).toEqual({
      error: { code: 2, msg: expect.stringMatching(/^Invalid request: /) },
      id: 45,
    });
    expect(msgs).toContainEqual({ result: ['btcusdt@trade', 'btcusdt@bookTicker'], id: 46 });
    const trade = msgs.find((m) => m.stream === 'btcusdt@trade');
    expect(trade.data).toMatchObject({ e: 'trade', s: 'BTCUSDT', X: 'MARKET', m: true });
    expect(msgs.some((m) => m.stream === 'btcusdt@bookTicker' && m.data.e === 'bookTicker')).toBe(true);
  });
});
