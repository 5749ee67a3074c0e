// The freqtrade settings of docs/binance.md section 4, taken from the page itself: ccxt.binance
// (the exchange class freqtrade uses, not binanceusdm) built as freqtrade builds it (its
// `ccxt_config` deep-merged with freqtrade's own `{options: {defaultType: 'swap'}}` for futures,
// the key and secret beside them), then the calls freqtrade makes at start-up and while it trades:
// its Binance futures checks (one-way mode, single-asset margin), markets, leverage tiers, margin
// mode and leverage, candles, book, balance, positions, a limit order looked up and cancelled, a
// market order and its fills, and the funding history its dry-run estimate reads.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { parseCli } from '../../../src-main/cli-args.ts';
import { startService, type ServiceHandle } from '../../../src-main/service.ts';

const PAGE = new URL('../../../docs/binance.md', import.meta.url);

/** The JSON fragment under "## 4. freqtrade", as a freqtrade config object, pointed at `base`. */
function docsConfig(base: string): {
  exchange: { name: string; key: string; secret: string; ccxt_config: Record<string, any>; pair_whitelist: string[] };
  trading_mode: string;
  margin_mode: string;
} {
  const md = readFileSync(PAGE, 'utf8');
  const section = md.slice(md.indexOf('## 4. freqtrade'));
  const block = /```json\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('docs/binance.md section 4 has no json block');
  return JSON.parse(`{${block[1].replaceAll('http://127.0.0.1:8787', base)}}`);
}

function deepMerge(a: Record<string, any>, b: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] =
      v !== null && typeof v === 'object' && !Array.isArray(v) && typeof out[k] === 'object' ? deepMerge(out[k], v) : v;
  }
  return out;
}

let svc: ServiceHandle;
let ex: any;
let pair: string;

beforeAll(async () => {
  // as a user runs it: the service with its simulated history, a one-way account from the CLI
  svc = await startService({
    dataDir: ':memory:',
    port: 0,
    rateLimit: false,
    accounts: parseCli(['--account', 'ftrade0001:ftsecret0001:100000:one_way']).accounts,
  });
  const conf = docsConfig(svc.url);
  expect(conf.trading_mode).toBe('futures');
  // what the page tells the user to put in: the key and secret of their perpdesk account
  expect([conf.exchange.key, conf.exchange.secret]).toEqual(['MYKEY123', 'MYSECRET123']);
  conf.exchange.key = 'ftrade0001';
  conf.exchange.secret = 'ftsecret0001';
  // freqtrade: _init_ccxt(exchange_config, ccxt_kwargs = deep_merge(_ccxt_config, ccxt_config))
  const kwargs = deepMerge({ options: { defaultType: 'swap' } }, conf.exchange.ccxt_config);
  ex = new (ccxt as any)[conf.exchange.name]({ apiKey: conf.exchange.key, secret: conf.exchange.secret, ...kwargs });
  pair = conf.exchange.pair_whitelist[0];
});
afterAll(async () => {
  await svc?.close();
});

describe('freqtrade settings from docs/binance.md, through ccxt.binance', () => {
  it('start-up: markets, the futures checks, leverage tiers, margin mode and leverage', async () => {
    const markets = await ex.loadMarkets();
    expect(markets[pair]).toMatchObject({ swap: true, linear: true, settle: 'USDT' });
    // freqtrade's Binance futures start-up refuses hedge mode and multi-asset margin
    expect(await ex.fapiPrivateGetPositionSideDual()).toEqual({ dualSidePosition: false });
    expect(await ex.fapiPrivateGetMultiAssetsMargin()).toEqual({ multiAssetsMargin: false });
    const tiers = await ex.fetchLeverageTiers([pair]);
    expect(tiers[pair].length).toBeGreaterThan(0);
    expect(tiers[pair][0]).toMatchObject({ minNotional: 0 });
    await ex.setMarginMode('isolated', pair);
    await ex.setLeverage(5, pair);
    const pos = await ex.fetchPositions([pair]);
    expect(pos.find((p: any) => p.symbol === pair)?.marginMode ?? 'isolated').toBe('isolated');
  });

  it('market data: candles oldest first, the book, a ticker, the funding history', async () => {
    const candles = await ex.fetchOHLCV(pair, '5m', undefined, 50);
    expect(candles.length).toBe(50);
    for (let i = 1; i < candles.length; i++) expect(candles[i][0] - candles[i - 1][0]).toBe(300_000);
    const book = await ex.fetchOrderBook(pair, 20);
    expect(book.bids.length).toBeGreaterThan(0);
    expect(book.asks[0][0]).toBeGreaterThan(book.bids[0][0]);
    expect((await ex.fetchTicker(pair)).last).toBeGreaterThan(0);
    expect(Array.isArray(await ex.fetchFundingRateHistory(pair))).toBe(true);
    const mark = await ex.fetchOHLCV(pair, '1h', undefined, 10, { price: 'mark' });
    expect(mark.length).toBeGreaterThan(0);
  });

  it('trading: a limit order fetched and cancelled, a market order, its fills, the position and balance', async () => {
    const book = await ex.fetchOrderBook(pair, 5);
    const price = Number(ex.priceToPrecision(pair, book.bids[0][0] * 0.97));
    const limit = await ex.createOrder(pair, 'limit', 'buy', 0.01, price, { timeInForce: 'GTC' });
    expect((await ex.fetchOrder(limit.id, pair)).status).toBe('open');
    expect((await ex.fetchOpenOrders(pair)).map((o: any) => o.id)).toContain(limit.id);
    expect((await ex.cancelOrder(limit.id, pair)).status).toBe('canceled');

    const bought = await ex.createOrder(pair, 'market', 'buy', 0.01);
    expect(bought.status).toBe('closed');
    const trades = await ex.fetchMyTrades(pair);
    expect(trades.filter((t: any) => t.order === bought.id).reduce((s: number, t: any) => s + t.amount, 0)).toBeCloseTo(
      0.01,
      9,
    );
    const pos = (await ex.fetchPositions([pair])).find((p: any) => p.symbol === pair && p.contracts > 0);
    // v3 positionRisk has no leverage field (as on Binance): the isolated margin says it is 5x
    expect(pos).toMatchObject({ side: 'long', contracts: 0.01, marginMode: 'isolated' });
    expect(pos.initialMargin).toBeCloseTo(pos.notional / 5, 0);
    // freqtrade's exit: reduce-only (one-way mode)
    const sold = await ex.createOrder(pair, 'market', 'sell', 0.01, undefined, { reduceOnly: true });
    expect(sold.status).toBe('closed');
    expect((await ex.fetchPositions([pair])).filter((p: any) => p.symbol === pair && p.contracts > 0)).toEqual([]);
    const balance = await ex.fetchBalance();
    expect(balance.USDT.total).toBeGreaterThan(99_000);
  });
});
