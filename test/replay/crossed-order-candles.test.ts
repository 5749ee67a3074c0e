// A user's resting order that the level placed for a print crosses (a bid at a buy print's price:
// the print's seller rests at that price, so the replay places its ask there, which sells to the
// bid first) trades with the replay, not with the print: a trade history never had. Its candle
// counts it as a trade of the user's own, as a depth event's level crossing the bid does and as
// the user's marketable orders do: volume, quote volume and count each one trade over history's
// (docs/replay.md "Candles"). Until 2026-12-06 the print's trade count (a trades replay) and a
// klines candle's count and quote volumes were brought to history's with the crossed trade in
// them, so the candle showed the user's lots in its volume but not its trade in its count: the
// 00:00:06 1s candle of the TRXUSDT trades, 60,889 lots (history 60,789 and the bid's 100) in 70
// trades, history's count.
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KLINES, LASOTA, TRX_TRADES_IMPORT, replayVenue, type ReplayVenue } from './harness.ts';

const UNIT = 100_000_000n;
const T0 = Date.UTC(2025, 3, 14);

/** A candle's columns as numbers: volume, quote volume, count, taker-buy volume, taker-buy quote. */
const cols = (k: ReadonlyArray<unknown>): number[] => [6, 7, 8, 9, 10].map((i) => Number(k[i]));

describe("a user's order crossed by the level placed for a print", () => {
  let v: ReplayVenue | undefined;
  afterEach(() => v?.close());

  it('counts as a trade of its own in a replay of trades', async () => {
    v = await replayVenue([TRX_TRADES_IMPORT], { symbols: ['TRXUSDT'], start: T0 });
    const acct = upsertAccount(
      v.exchange,
      { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 10_000n * UNIT },
      0,
    ).id;
    // after the sell print at 0.25453 of 00:00:06.376 the bid is 0.25453: a bid under it rests
    v.market.seek(T0 + 6_380);
    const bid = {
      symbol: 'TRXUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '0.25452',
      qty: '100',
    };
    expect(placeOrder(v.exchange, acct, bid).status).toBe(1);
    const trades: Array<[number, number, number]> = [];
    v.exchange.events.on('trade', (e) => {
      if (e.time === T0 + 6_485) trades.push([e.priceTicks, e.qtyLots, e.takerSide]);
    });
    v.market.seek(T0 + 6_999);
    v.klines.advanceTo(v.market.time);
    // the buy print of 444 at 0.25452 (00:00:06.485): the ask placed for it sells 100 to the bid
    // first, then the print buys its 444
    expect(trades).toEqual([
      [25_452, 100, 2],
      [25_452, 444, 1],
    ]);
    // history's 00:00:06 second, from the recording, and the bid's trade beside it
    const rows = readFileSync(path.join(LASOTA, 'trade_stream.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
      .filter((f) => Number(f[4]) >= T0 + 6_000 && Number(f[4]) < T0 + 7_000);
    let volume = 0;
    let quote = 0;
    let buyVolume = 0;
    let buyQuote = 0;
    for (const f of rows) {
      volume += Number(f[8]);
      quote += Number(f[7]) * Number(f[8]);
      if (f[9] === '0') {
        buyVolume += Number(f[8]);
        buyQuote += Number(f[7]) * Number(f[8]);
      }
    }
    const [k] = v.klines.klines('TRXUSDT', '1s', { startTime: T0 + 6_000, endTime: T0 + 6_000 });
    const got = cols(k);
    expect(got[0]).toBe(volume + 100);
    expect(got[1]).toBeCloseTo(quote + 0.25452 * 100, 8);
    expect(got[2]).toBe(rows.length + 1);
    expect(got[3]).toBe(buyVolume);
    expect(got[4]).toBeCloseTo(buyQuote, 8);
  });

  it("counts as a trade of its own in a klines replay, beside the source's figures", async () => {
    const FILE = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');
    const start = Date.UTC(2021, 4, 16, 7);
    v = await replayVenue(
      [{ paths: [FILE], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } }],
      {
        symbols: ['BTCUSDT'],
        start,
        until: start + 3_600_000,
      },
    );
    const acct = upsertAccount(
      v.exchange,
      { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT },
      0,
    ).id;
    v.market.seek(start + 60_000);
    // the 07:05:30 print at 48875 sells 8.557163 and buys 6.127598: a bid of 10 above it takes the
    // whole sell part, and the ask placed for the buy part sells it the other 1.442837
    const bid = {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '48892.71',
      qty: '10.000000',
      leverage: 1,
    };
    expect(placeOrder(v.exchange, acct, bid).status).toBe(1);
    const minute = start + 5 * 60_000;
    v.market.seek(minute + 60_000);
    v.klines.advanceTo(v.market.time);
    const row = readFileSync(FILE, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(String(minute)))!
      .split(',');
    const [k] = v.klines.klines('BTCUSDT', '1m', { startTime: minute, endTime: minute });
    const got = cols(k);
    expect(got[0]).toBeCloseTo(Number(row[5]) + 1.442837, 6);
    expect(got[1]).toBeCloseTo(Number(row[7]) + 48892.71 * 1.442837, 6);
    expect(got[2]).toBe(Number(row[8]) + 1);
    expect(got[3]).toBeCloseTo(Number(row[9]), 6);
    expect(got[4]).toBeCloseTo(Number(row[10]), 6);
  });
});
