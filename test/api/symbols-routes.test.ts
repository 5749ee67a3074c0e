import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUTURES_SYMBOL_FIELDS, GENERAL_SYMBOL_FIELDS } from '../../src-shared/types.ts';
import { getJson, makeApp, type TestApp } from '../helpers/app.ts';

// JSON types exactly as the spec's tables state them.
const GENERAL_TYPES: Record<string, 'integer' | 'string' | 'boolean'> = {
  id: 'integer',
  symbol: 'string',
  base_asset: 'string',
  quote_asset: 'string',
  status: 'integer',
  allow_market: 'boolean',
  price_precision: 'integer',
  qty_precision: 'integer',
  quote_precision: 'integer',
  tick_size: 'string',
  step_size: 'string',
  min_qty: 'string',
  max_qty: 'string',
  min_quote: 'string',
  maker_fee_rate: 'string',
  taker_fee_rate: 'string',
  logo: 'string',
  sort_order: 'integer',
  is_default: 'boolean',
  is_hot: 'boolean',
  is_gainer: 'boolean',
  is_new: 'boolean',
  created_at: 'integer',
  updated_at: 'integer',
};
const FUTURES_TYPES: Record<string, 'integer' | 'string' | 'string[]'> = {
  symbol: 'string',
  base_asset: 'string',
  quote_asset: 'string',
  margin_asset: 'string',
  contract_type: 'integer',
  status: 'integer',
  max_leverage: 'integer',
  maintenance_margin_rate: 'string',
  maker_fee_rate: 'string',
  taker_fee_rate: 'string',
  price_precision: 'integer',
  price_step: 'string',
  qty_precision: 'integer',
  qty_step: 'string',
  min_qty: 'string',
  max_qty: 'string',
  min_notional: 'string',
  market_price_protect_ratio: 'string',
  price_merges: 'string[]',
  logo: 'string',
};
const DECIMAL = /^\d+(\.\d+)?$/;

function typeOf(v: unknown): string {
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? 'string[]' : 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/v1/symbols', () => {
  it('lists the default catalogue with every field of the spec, in order, with the spec types', async () => {
    const r = await getJson(t.app, '/api/v1/symbols');
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    expect(typeof r.body.message).toBe('string');
    const names = r.body.data.map((s: { symbol: string }) => s.symbol);
    for (const s of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT']) expect(names).toContain(s);
    for (const rec of r.body.data) {
      expect(Object.keys(rec)).toEqual([...GENERAL_SYMBOL_FIELDS]);
      for (const [k, ty] of Object.entries(GENERAL_TYPES)) expect(typeOf(rec[k]), `${rec.symbol}.${k}`).toBe(ty);
      for (const k of [
        'tick_size',
        'step_size',
        'min_qty',
        'max_qty',
        'min_quote',
        'maker_fee_rate',
        'taker_fee_rate',
      ]) {
        expect(rec[k]).toMatch(DECIMAL);
      }
      // precision agrees with the tick and step
      expect(rec.tick_size.split('.')[1]?.length ?? 0).toBe(rec.price_precision);
      expect(rec.step_size.split('.')[1]?.length ?? 0).toBe(rec.qty_precision);
    }
    // sorted by sort_order
    const orders = r.body.data.map((s: { sort_order: number }) => s.sort_order);
    expect([...orders].sort((a, b) => a - b)).toEqual(orders);
  });

  it('filters by status', async () => {
    const all = (await getJson(t.app, '/api/v1/symbols')).body.data as Array<{ symbol: string; status: number }>;
    for (const status of [1, 2, 3]) {
      const r = await getJson(t.app, `/api/v1/symbols?status=${status}`);
      expect(r.status).toBe(200);
      const expected = all.filter((s) => s.status === status).map((s) => s.symbol);
      expect(expected.length).toBeGreaterThan(0);
      expect(r.body.data.map((s: { symbol: string }) => s.symbol)).toEqual(expected);
    }
  });

  it('filters by tag', async () => {
    const meme = (await getJson(t.app, '/api/v1/symbols?tag=meme')).body.data.map((s: { symbol: string }) => s.symbol);
    expect(meme).toContain('DOGEUSDT');
    expect(meme).not.toContain('BTCUSDT');
    const fresh = (await getJson(t.app, '/api/v1/symbols?tag=new')).body.data as Array<{ is_new: boolean }>;
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.every((s) => s.is_new)).toBe(true);
    const inno = (await getJson(t.app, '/api/v1/symbols?tag=innovation&status=1')).body.data;
    expect(inno.length).toBeGreaterThan(0);
  });
});

describe('GET /api/v1/symbols/{symbol}', () => {
  it('answers one record, case-insensitively', async () => {
    const r = await getJson(t.app, '/api/v1/symbols/btcusdt');
    expect(r.status).toBe(200);
    expect(r.body.data.symbol).toBe('BTCUSDT');
    expect(Object.keys(r.body.data)).toEqual([...GENERAL_SYMBOL_FIELDS]);
    expect(r.body.data.tick_size).toBe('0.1');
    expect(r.body.data.logo).toBe('/logos/BTC.svg');
  });

  it('answers 404 / 1101 for an unknown pair', async () => {
    const r = await getJson(t.app, '/api/v1/symbols/NOPEUSDT');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 1101, message: "Unknown symbol 'NOPEUSDT'", data: null });
  });
});

describe('GET /fapi/v1/symbols', () => {
  it('lists futures records with every field and the spec types', async () => {
    const r = await getJson(t.app, '/fapi/v1/symbols');
    expect(r.status).toBe(200);
    for (const rec of r.body.data) {
      expect(Object.keys(rec)).toEqual([...FUTURES_SYMBOL_FIELDS]);
      for (const [k, ty] of Object.entries(FUTURES_TYPES)) expect(typeOf(rec[k]), `${rec.symbol}.${k}`).toBe(ty);
      expect([1, 2]).toContain(rec.status);
      expect(rec.price_merges.length).toBeGreaterThan(0);
      expect(rec.price_merges[0]).toBe(rec.price_step);
    }
  });

  it("carries BTCUSDT's first maintenance tier from the reference", async () => {
    const r = await getJson(t.app, '/fapi/v1/symbols?symbols=BTCUSDT');
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0].max_leverage).toBe(125);
    expect(Number(r.body.data[0].maintenance_margin_rate)).toBe(0.004);
  });

  it('filters by a comma-separated list and by tag', async () => {
    const r = await getJson(t.app, '/fapi/v1/symbols?symbols=ETHUSDT,btcusdt');
    expect(r.body.data.map((s: { symbol: string }) => s.symbol).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
    const m = await getJson(t.app, '/fapi/v1/symbols?symbols=BTCUSDT,DOGEUSDT&tag=meme');
    expect(m.body.data.map((s: { symbol: string }) => s.symbol)).toEqual(['DOGEUSDT']);
  });

  it('maps paused and delisted pairs to status 2 (disabled)', async () => {
    const g = (await getJson(t.app, '/api/v1/symbols')).body.data as Array<{ symbol: string; status: number }>;
    const f = (await getJson(t.app, '/fapi/v1/symbols')).body.data as Array<{ symbol: string; status: number }>;
    const fs = new Map(f.map((x) => [x.symbol, x.status]));
    for (const s of g) expect(fs.get(s.symbol)).toBe(s.status === 1 ? 1 : 2);
  });

  it('rejects unknown pairs in the list with 1101', async () => {
    const r = await getJson(t.app, '/fapi/v1/symbols?symbols=BTCUSDT,FOOUSDT');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(1101);
    expect(r.body.message).toContain('FOOUSDT');
  });
});

describe('GET /fapi/v1/time', () => {
  it('answers the wall clock and the market clock', async () => {
    const before = Date.now();
    const r = await getJson(t.app, '/fapi/v1/time');
    const after = Date.now();
    expect(r.status).toBe(200);
    expect(r.body.data.server_time).toBeGreaterThanOrEqual(before);
    expect(r.body.data.server_time).toBeLessThanOrEqual(after);
    expect(Number.isInteger(r.body.data.market_time)).toBe(true);
    expect(r.body.data.speed).toBe(1);
    expect(r.body.data.paused).toBe(false);
  });
});

describe('logos', () => {
  it('serves an SVG per base asset and 404s others', async () => {
    const ok = await t.app.inject({ url: '/logos/BTC.svg' });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toContain('image/svg+xml');
    expect(ok.body).toContain('<svg');
    const no = await getJson(t.app, '/logos/NOPE.svg');
    expect(no.status).toBe(404);
    expect(no.body.code).toBe(1101);
  });
});
