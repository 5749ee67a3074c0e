// A reversed window (startTime after endTime) is Binance's -1023 "Start time is greater than end
// time." on every facade route that takes startTime / endTime, public and signed alike (the
// signed histories answered [] before); a forward window is answered.
import { describe, expect, it } from 'vitest';
import { signedInject } from './raw.ts';
import { injectedWithAccount } from './helpers.ts';

const t = injectedWithAccount('window');

const PUBLIC: [string, Record<string, string>][] = [
  ['/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '1m' }],
  ['/fapi/v1/markPriceKlines', { symbol: 'BTCUSDT', interval: '1m' }],
  ['/fapi/v1/aggTrades', { symbol: 'BTCUSDT' }],
  ['/fapi/v1/fundingRate', { symbol: 'BTCUSDT' }],
  ['/futures/data/openInterestHist', { symbol: 'BTCUSDT', period: '5m' }],
  ['/futures/data/globalLongShortAccountRatio', { symbol: 'BTCUSDT', period: '5m' }],
  ['/futures/data/topLongShortAccountRatio', { symbol: 'BTCUSDT', period: '5m' }],
  ['/futures/data/topLongShortPositionRatio', { symbol: 'BTCUSDT', period: '5m' }],
  ['/futures/data/takerlongshortRatio', { symbol: 'BTCUSDT', period: '1h' }],
];
const SIGNED: [string, Record<string, string>][] = [
  ['/fapi/v1/userTrades', { symbol: 'BTCUSDT' }],
  ['/fapi/v1/allOrders', { symbol: 'BTCUSDT' }],
  ['/fapi/v1/income', {}],
  ['/fapi/v1/positionMargin/history', { symbol: 'BTCUSDT' }],
];
const REVERSED = { startTime: '1764417000000', endTime: '1764416000000' };
const FORWARD = { startTime: '1764416000000', endTime: '1764417000000' };
const REFUSAL = { code: -1023, msg: 'Start time is greater than end time.' };

const pub = async (path: string, p: Record<string, string>) => {
  const r = await t.app.inject({ url: `/binance${path}?${new URLSearchParams(p)}` });
  return { status: r.statusCode, body: JSON.parse(r.body) };
};

describe('startTime after endTime', () => {
  it.each(PUBLIC)('%s: -1023', async (path, p) => {
    expect(await pub(path, { ...p, ...REVERSED })).toEqual({ status: 400, body: REFUSAL });
    expect((await pub(path, { ...p, ...FORWARD })).status).toBe(200);
  });

  it.each(SIGNED)('%s (signed): -1023', async (path, p) => {
    expect(await signedInject(t.app, t.c, 'GET', path, { ...p, ...REVERSED })).toEqual({ status: 400, body: REFUSAL });
    expect((await signedInject(t.app, t.c, 'GET', path, { ...p, ...FORWARD })).status).toBe(200);
  });
});
