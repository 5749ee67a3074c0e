// A candles-only replay where a print fills the user's resting limit order at the order's better
// price (docs/replay.md "Candles"): the candle still equals the source on every column, its quote
// volume and taker-buy quote volume included (the print's trades are booked at their makers' prices).
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
    const row = readFileSync(FILE, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(','))
      .find((f) => Number(f[0]) === MINUTE)!;
    const [k] = v.klines.klines('BTCUSDT', '1m', { startTime: MINUTE, endTime: MINUTE });
    const norm = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
    const source = [row[0], row[6], row[1], row[2], row[3], row[4], row[5], row[7], row[8], row[9], row[10]].map(norm);
    expect(k.slice(0, 11).map((x) => norm(String(x)))).toEqual(source);
  });
});
