import { placeBotOrder, setPrices } from '../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_RECORD_FIELDS } from '../../src-shared/types.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { pricePayload } from '../../src-main/api/ws/payloads.ts';
import { getJson, makeApp, type TestApp } from '../helpers/app.ts';

const T0 = Date.UTC(2026, 2, 3, 5, 30, 0);
let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ wall: () => T0 });
  setPrices(t.venue.exchange, 'BTCUSDT', {
    mark: 96123.456,
    index: 96100.04,
    fundingRate: 0.000125,
    nextFundingTime: Date.UTC(2026, 2, 3, 8),
  });
  // one trade so that last price is a traded price
  for (const [side, acct] of [
    [2, HOUSE_ACCOUNT],
    [1, HOUSE_ACCOUNT + 1],
  ] as const) {
    placeBotOrder(
      t.venue.exchange,
      { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: 1, price: '96050.5', qty: '0.010' },
      acct,
    );
  }
});
afterAll(() => t.close());

describe('GET /fapi/v1/complete_price', () => {
  it('answers one price record with every field and the spec types', async () => {
    const r = await getJson(t.app, '/fapi/v1/complete_price?symbol=btcusdt');
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    const p = r.body.data;
    expect(Object.keys(p)).toEqual([...PRICE_RECORD_FIELDS]);
    expect(p).toEqual({
      symbol: 'BTCUSDT',
      // the mark the risk figures use, to 8 decimals (not rounded to the 0.1 tick: 96123.5)
      index_price: '96100.04000000',
      mark_price: '96123.45600000',
      last_price: '96050.5',
      funding_rate: '0.000125',
      next_funding_time: Date.UTC(2026, 2, 3, 8),
      price_precision: 1,
      qty_precision: 3,
      timestamp: T0,
    });
  });

  it.each([
    ['/fapi/v1/complete_price', 400, 7000],
    ['/fapi/v1/complete_price?symbol=', 400, 7000],
    ['/fapi/v1/complete_price?symbol=BTC-USDT', 400, 7000],
    ['/fapi/v1/complete_price?symbol=BTCUSDT&x=1', 400, 7000],
    ['/fapi/v1/complete_price?symbol=NOPEUSDT', 404, 7001],
    ['/fapi/v1/complete_price?symbol=LUNA2USDT', 404, 7001],
  ])('%s -> %i / %i', async (url, status, code) => {
    const r = await getJson(t.app, url);
    expect(r.status).toBe(status);
    expect(r.body.code).toBe(code);
    expect(r.body.data).toBeNull();
  });

  it("a URL over 8192 characters is the spec's 7000, with the HTTP status that names the cause (414)", async () => {
    const r = await getJson(t.app, `/fapi/v1/complete_price?symbol=${'1'.repeat(9000)}`);
    expect(r.status).toBe(414);
    expect(r.body).toEqual({ code: 7000, message: expect.stringContaining('8192'), data: null });
  });
});

describe('GET /fapi/v1/prices', () => {
  it('lists every listed pair, delisted ones left out', async () => {
    const r = await getJson(t.app, '/fapi/v1/prices');
    expect(r.status).toBe(200);
    const names = r.body.data.map((p: { symbol: string }) => p.symbol);
    expect(names).toContain('BTCUSDT');
    expect(names).toContain('FTTUSDT');
    expect(names).not.toContain('LUNA2USDT');
    for (const p of r.body.data) {
      expect(Object.keys(p)).toEqual([...PRICE_RECORD_FIELDS]);
      expect(p.funding_rate).toMatch(/^-?\d+\.\d{6}$/);
      expect(Number.isInteger(p.next_funding_time)).toBe(true);
      // the next settlement is at 00:00, 08:00 or 16:00 UTC, as the market scheduled it (BTCUSDT's,
      // set above); 0 for a pair nothing settles (the paused FTTUSDT, and on this venue without a
      // market every pair the test did not schedule: below)
      expect(p.next_funding_time % (8 * 3600_000)).toBe(0);
      expect(p.next_funding_time).toBe(p.symbol === 'BTCUSDT' ? Date.UTC(2026, 2, 3, 8) : 0);
    }
    const eth = r.body.data.find((p: { symbol: string }) => p.symbol === 'ETHUSDT');
    expect(eth.mark_price).toBe('3400.00000000');
  });
});

describe('next funding time of a pair not trading', () => {
  it('the paused FTTUSDT settles no funding: 0 in the price records, on price@ and in premiumIndex alike', async () => {
    const pair = t.venue.exchange.pairs.get('FTTUSDT')!;
    const btc = t.venue.exchange.pairs.get('BTCUSDT')!;
    const now = t.venue.clock.now();
    const rest = (await getJson(t.app, '/fapi/v1/complete_price?symbol=FTTUSDT')).body.data;
    const binance = (await getJson(t.app, '/binance/fapi/v1/premiumIndex?symbol=FTTUSDT')).body;
    expect(rest.next_funding_time).toBe(0);
    expect(binance.nextFundingTime).toBe(0);
    expect(pricePayload(pair, now)).toMatchObject({ s: 'FTTUSDT', T: 0 });
    // a trading pair shows its settlement on every surface alike
    const btcRest = (await getJson(t.app, '/fapi/v1/complete_price?symbol=BTCUSDT')).body.data;
    const btcBinance = (await getJson(t.app, '/binance/fapi/v1/premiumIndex?symbol=BTCUSDT')).body;
    expect(btcRest.next_funding_time).toBe(Date.UTC(2026, 2, 3, 8));
    expect(btcBinance.nextFundingTime).toBe(Date.UTC(2026, 2, 3, 8));
    expect(pricePayload(btc, now)).toMatchObject({ s: 'BTCUSDT', T: Date.UTC(2026, 2, 3, 8) });
  });
});

describe('next funding time on a venue without a market (--no-sim)', () => {
  it('nothing settles funding there, so no pair announces a settlement: 0 in the price records, on price@ and in premiumIndex', async () => {
    // ETHUSDT trades, but no market source schedules (or settles) its funding; before, every surface
    // showed the next 8 h boundary (Date.UTC(2026, 2, 3, 8)) and the time passed with no payment
    const eth = t.venue.exchange.pairs.get('ETHUSDT')!;
    const now = t.venue.clock.now();
    const rest = (await getJson(t.app, '/fapi/v1/complete_price?symbol=ETHUSDT')).body.data;
    const binance = (await getJson(t.app, '/binance/fapi/v1/premiumIndex?symbol=ETHUSDT')).body;
    expect(rest.next_funding_time).toBe(0);
    expect(binance.nextFundingTime).toBe(0);
    expect(pricePayload(eth, now)).toMatchObject({ s: 'ETHUSDT', T: 0 });
  });
});
