// A candles-only replay where a print fills the user's resting limit order at the order's better
// price (docs/replay.md "Candles"): the candle still equals the source on every column, its quote
// volume and taker-buy quote volume included (the print's trades are booked at their makers' prices).
// Both ways: a sell filled by a print above it, and a bid filled by a print below it, which the
// print's sell part fills (its buy part first put the level it bought from across the bid: a trade
// of the bid's size that history never had, the candle's volume 58.759047 where history has
// 58.739047).
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KLINES, replayVenue, type ReplayVenue } from './harness.ts';

const FILE = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');
const START = Date.UTC(2021, 4, 16);
const UNIT = 100_000_000n;
/** The 01:46 candle: open 47985.51, low 47980.38 at +15 s, high 48144.61 at +30 s. */
const MINUTE = START + 106 * 60_000;
const norm = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

/** The source's row of the minute at `t`, in the venue's column order (open time, close time, ...). */
function sourceRow(t: number): string[] {
  const row = readFileSync(FILE, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','))
    .find((f) => Number(f[0]) === t)!;
  return [row[0], row[6], row[1], row[2], row[3], row[4], row[5], row[7], row[8], row[9], row[10]].map(norm);
}

describe('a print filling a resting order at a better price', () => {
  let v: ReplayVenue;
  beforeAll(async () => {
    v = await replayVenue(
      [{ paths: [FILE], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } }],
      { symbols: ['BTCUSDT'], start: START, until: START + 2 * 3_600_000 },
    );
  }, 60_000);
  afterAll(() => v?.close());

  it("leaves the candle equal to history's on every column", () => {
    const acct = upsertAccount(
      v.exchange,
      { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 100_000n * UNIT },
      0,
    ).id;
    v.market.seek(START + 3_600_000);
    const open = { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100000' };
    expect(placeOrder(v.exchange, acct, open).status).toBe(3);
    v.market.seek(START + 90 * 60_000);
    const close = {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 1,
      position_action: 2,
      type: 1,
      price: '48000.00',
      qty: '0.060000',
    };
    const r = placeOrder(v.exchange, acct, close);
    expect(r.status).toBe(1); // resting: the market is under 48000
    const fills: Array<{ time: number; price: number; lots: number }> = [];
    v.exchange.events.on('trade', (e) => {
      if (e.priceTicks === 4_800_000) fills.push({ time: e.time, price: e.priceTicks, lots: e.qtyLots });
    });
    v.market.seek(MINUTE + 60_000);
    v.klines.advanceTo(v.market.time);
    // filled at its own price by the 01:46:30 print at 48144.61
    expect(fills).toEqual([{ time: MINUTE + 30_000, price: 4_800_000, lots: 60_000 }]);
    const [k] = v.klines.klines('BTCUSDT', '1m', { startTime: MINUTE, endTime: MINUTE });
    expect(k.slice(0, 11).map((x) => norm(String(x)))).toEqual(sourceRow(MINUTE));
  });
});

/** The 07:05 candle: open 48927.22, high 48940 at +15 s, low 48875 at +30 s, close 48898.19. */
const LOW_MINUTE = START + (7 * 60 + 5) * 60_000;

describe('a print below a resting bid', () => {
  let v: ReplayVenue;
  beforeAll(async () => {
    v = await replayVenue(
      [{ paths: [FILE], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } }],
      { symbols: ['BTCUSDT'], start: START + 7 * 3_600_000, until: START + 8 * 3_600_000 },
    );
  }, 60_000);
  afterAll(() => v?.close());

  it("fills the bid at its price by the print's sellers, the candle equal to history's", () => {
    const acct = upsertAccount(
      v.exchange,
      { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 100_000n * UNIT },
      0,
    ).id;
    v.market.seek(START + 7 * 3_600_000 + 60_000);
    const bid = {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '48892.71',
      qty: '0.020000',
    };
    expect(placeOrder(v.exchange, acct, bid).status).toBe(1); // resting: the market is above it
    const low: Array<{ price: number; lots: number; takerSide: number }> = [];
    v.exchange.events.on('trade', (e) => {
      if (e.time === LOW_MINUTE + 30_000) low.push({ price: e.priceTicks, lots: e.qtyLots, takerSide: e.takerSide });
    });
    v.market.seek(LOW_MINUTE + 60_000);
    v.klines.advanceTo(v.market.time);
    // the 07:05:30 print at 48875 (a quarter of 58.739047, 14.684761, of it 6.127598 bought):
    // its sellers meet the bid first, at the bid's price, then the level at 48875; then its buyers
    expect(low).toEqual([
      { price: 4_889_271, lots: 20_000, takerSide: 2 },
      { price: 4_887_500, lots: 8_557_163 - 20_000, takerSide: 2 },
      { price: 4_887_500, lots: 6_127_598, takerSide: 1 },
    ]);
    const [k] = v.klines.klines('BTCUSDT', '1m', { startTime: LOW_MINUTE, endTime: LOW_MINUTE });
    expect(k.slice(0, 11).map((x) => norm(String(x)))).toEqual(sourceRow(LOW_MINUTE));
  });
});
