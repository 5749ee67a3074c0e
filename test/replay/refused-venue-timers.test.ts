// A replay venue refused as its market opens (an until not after the start, an unknown queue model) leaves
// nothing running: the price-candle and open-interest listeners' timers end with the refused start,
// so no timer writes into the closed database afterwards ('writing price klines failed: database
// is not open' every 5 s, for as long as the process lived).
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src-main/store/database.ts';
import { openVenue } from '../../src-main/venue.ts';
import { importInto, KLINES, replayDataOf } from './harness.ts';

const M1 = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');
const START = Date.UTC(2021, 4, 16);

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

it.each([
  ['an until not after the start', { until: START }],
  ['a queue model it does not know', { queueModel: 'fifo' as never }],
])('%s: refused, and no timer of it runs on', async (_name, change) => {
  const db = openDatabase({ dataDir: ':memory:' });
  const data = replayDataOf(
    await importInto(db, [
      { paths: [M1], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } },
    ]),
  );
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.useFakeTimers();
  expect(() =>
    openVenue({
      dataDir: ':memory:',
      wall: () => 0,
      replay: {
        options: { symbols: ['BTCUSDT'], start: START, until: START + 3_600_000, ...change },
        data,
        lockstep: false,
      },
    }),
  ).toThrow();
  vi.advanceTimersByTime(60_000);
  expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([]);
  db.close();
});
