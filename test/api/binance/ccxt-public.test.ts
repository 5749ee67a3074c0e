// Real ccxt (npm, pinned) against the facade's public routes: markets, book, candles,
// tickers, funding; each figure checked against the native service that backs it.
import { openingLimit, openingMarket, placeOrder } from '../../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, binanceusdm, startService, type Service } from './helpers.ts';

let svc: Service;
let maker: ReturnType<typeof account>;

beforeAll(async () => {
  svc = await startService();
  maker = account(svc.venue, 'maker');
  const ex = svc.venue.exchange;
  const mark = ex.pair('BTCUSDT')!.markPrice;
  const tick = 0.1;
  const px = (k: number) => (Math.round(mark / tick) * tick + k).toFixed(1);
  // a book of 3 bids and 3 asks, then a cross: one trade
  for (let i = 1; i <= 3; i++) {
    placeOrder(ex, maker.id, openingLimit(1, px(-i * 10), '0.010'));
    placeOrder(ex, maker.id, openingLimit(2, px(i * 10), '0.020'));
  }
  const taker = account(svc.venue, 'taker');
  placeOrder(ex, taker.id, openingMarket(1, '0.005'));
});
afterAll(async () => svc?.close());

describe('ccxt binanceusdm, public REST', () => {
  it('loadMarkets: linear perpetuals with tick and step precision from the filters', async () => {
    const ex = binanceusdm(svc.base);
    const markets = await ex.loadMarkets();
    const m = markets['BTC/USDT:USDT'];
    expect(m).toBeDefined();
    expect(m.active).toBe(true);
    expect(m.linear).toBe(true);
    expect(m.swap).toBe(true);
    const row = svc.venue.symbols.get('BTCUSDT')!;
    expect(m.precision.price).toBe(Number(row.tickSize));
    expect(m.precision.amount).toBe(Number(row.stepSize));
    expect(m.limits.amount.min).toBe(Number(row.minQty));
    expect(m.limits.cost.min).toBe(Number(row.minNotional));
    expect(Object.keys(markets).length).toBe(svc.venue.symbols.all().filter((r) => r.status !== 3).length);
  });

  it('fetchOrderBook: the engine book, best first, nonce = native update id', async () => {
    const ex = binanceusdm(svc.base);
    const book = await ex.fetchOrderBook('BTC/USDT:USDT');
    const view = svc.venue.exchange.pair('BTCUSDT')!.book.depth(500);
    expect(book.nonce).toBe(view.updateId);
    expect(book.bids.length).toBe(3);
    expect(book.asks.length).toBe(3);
    expect(book.bids[0][0]).toBeGreaterThan(book.bids[1][0]);
    expect(book.asks[0][0]).toBeLessThan(book.asks[1][0]);
    expect(book.asks[0][1]).toBeCloseTo(0.015, 10); // 0.020 less the 0.005 taken
  });

  it('fetchOHLCV: oldest first, the trade in the current candle; since + limit honoured', async () => {
    const ex = binanceusdm(svc.base);
    const candles = await ex.fetchOHLCV('BTC/USDT:USDT', '1m', undefined, 5);
    expect(candles.length).toBeGreaterThan(0);
    const last = candles[candles.length - 1];
    const k = svc.venue.klines.currentKline('BTCUSDT', '1m')!;
    expect(last[0]).toBe(k[0]);
    expect(last[4]).toBe(Number(k[5]));
    expect(last[5]).toBe(Number(k[6]));
    for (let i = 1; i < candles.length; i++) expect(candles[i][0]).toBeGreaterThan(candles[i - 1][0]);
    const since = await ex.fetchOHLCV('BTC/USDT:USDT', '1m', last[0], 3);
    expect(since[0][0]).toBe(last[0]);
  });

  it('fetchTicker / fetchTickers: last trade and 24 h volume', async () => {
    const ex = binanceusdm(svc.base);
    const t = await ex.fetchTicker('BTC/USDT:USDT');
    const pair = svc.venue.exchange.pair('BTCUSDT')!;
    expect(t.last).toBe(Number(pair.math.formatPrice(pair.lastPriceTicks)));
    expect(t.baseVolume).toBeCloseTo(0.005, 10);
    const all = await ex.fetchTickers();
    expect(all['BTC/USDT:USDT'].last).toBe(t.last);
  });

  it('fetchFundingRate / fetchMarkPrice: the pair state', async () => {
    const ex = binanceusdm(svc.base);
    const f = await ex.fetchFundingRate('BTC/USDT:USDT');
    const pair = svc.venue.exchange.pair('BTCUSDT')!;
    expect(f.fundingRate).toBeCloseTo(pair.fundingRate, 8);
    expect(f.markPrice).toBeCloseTo(pair.markPrice, 1);
    // this venue has no market source: nothing settles funding, so no next funding time (0, as
    // Binance's premiumIndex for a contract without funding; before 2026-12-07 a made-up 8 h boundary)
    expect(f.fundingTimestamp).toBe(0);
  });

  it('fetchTrades: the recent trade with its side', async () => {
    const ex = binanceusdm(svc.base);
    const trades = await ex.fetchTrades('BTC/USDT:USDT');
    expect(trades.length).toBe(1);
    expect(trades[0].side).toBe('buy');
    expect(trades[0].amount).toBeCloseTo(0.005, 10);
  });

  it('fetchTime is the wall clock', async () => {
    const ex = binanceusdm(svc.base);
    const t = await ex.fetchTime();
    expect(Math.abs(t - Date.now())).toBeLessThan(5000);
  });

  it('an unknown symbol is BadSymbol, an unknown path Binance-shaped', async () => {
    const ex = binanceusdm(svc.base);
    await expect(ex.fapiPublicGetDepth({ symbol: 'NOPEUSDT' })).rejects.toThrow(/-1121/);
    const r = await fetch(`${svc.base}/binance/fapi/v1/nothing`);
    expect(r.status).toBe(404);
    const body: any = await r.json();
    expect(typeof body.code).toBe('number');
    expect(typeof body.msg).toBe('string');
    expect(body.data).toBeUndefined();
  });
});
