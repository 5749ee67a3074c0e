// Where a replayed pair's mark and index come from when their datasets do not cover the span
// (docs/replay.md "Prices and funding"): a mark dataset that ends (or begins) inside the span
// gives way to the mark derived from the prints, never a mark frozen at its last candle; without
// index data the index is the mark, whatever the mark's source; with index data the index is
// its candles' close, never the last print.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../data/archive-fixtures.ts';
import { KLINES, replayVenue, type ReplayVenue } from './harness.ts';

const START = Date.UTC(2021, 4, 16);
const MIN = 60_000;
const M1 = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');
const lines = readFileSync(M1, 'utf8').trim().split('\n');
const rows = lines.slice(1).map((l) => l.split(','));
/** The close of the 1m candle opening at START + i minutes: the print at its +45 s. */
const close = (i: number): number => Number(rows[i][4]);

/** A 1m price-klines file of the first `n` minutes whose closes are 50,000 + i (i the minute), as a CSV. */
function priceFile(name: string, n: number, from = 0): string {
  const body = rows.slice(from, from + n).map((r, k) => {
    const c = String(50_000 + from + k);
    return [r[0], c, c, c, c, ...r.slice(5)].join(',');
  });
  const f = path.join(tempDir(), name);
  writeFileSync(f, `${lines[0]}\n${body.join('\n')}\n`);
  return f;
}

const venues: ReplayVenue[] = [];
afterEach(() => {
  for (const v of venues.splice(0)) v.close();
});

async function venue(
  extra: Array<{ file: string; kind: 'markPriceKlines' | 'indexPriceKlines' }>,
): Promise<ReplayVenue> {
  const v = await replayVenue(
    [
      { paths: [M1], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } },
      ...extra.map((x) => ({
        paths: [x.file],
        opts: { market: 'um' as const, symbol: 'BTCUSDT', kind: x.kind, interval: '1m' },
      })),
    ],
    { symbols: ['BTCUSDT'], start: START, until: START + 6 * 60 * MIN },
  );
  venues.push(v);
  return v;
}

describe("a replay's mark and index sources", () => {
  it('a mark dataset that ends inside the span: the mark follows the prints from its last candle on', async () => {
    const v = await venue([{ file: priceFile('BTCUSDT-markPriceKlines-1m-end.csv', 120), kind: 'markPriceKlines' }]);
    const pair = v.exchange.pair('BTCUSDT')!;
    v.market.seek(START + 90 * MIN);
    // the mark candle of 01:29 closed at 01:29:59.999
    expect(pair.markPrice).toBe(50_089);
    v.market.seek(START + 150 * MIN + 46_000); // 02:30:46, a second after the 02:30 candle's close print
    expect(pair.markPrice).toBe(close(150));
    expect(pair.indexPrice).toBe(close(150));
    v.market.seek(START + 300 * MIN + 46_000);
    expect(pair.markPrice).toBe(close(300));
  });

  it('a mark dataset that begins inside the span: the prints give the mark until its first candle', async () => {
    const v = await venue([
      { file: priceFile('BTCUSDT-markPriceKlines-1m-late.csv', 60, 120), kind: 'markPriceKlines' },
    ]);
    const pair = v.exchange.pair('BTCUSDT')!;
    v.market.seek(START + 30 * MIN + 46_000);
    expect(pair.markPrice).toBe(close(30));
    v.market.seek(START + 150 * MIN);
    expect(pair.markPrice).toBe(50_149);
    v.market.seek(START + 200 * MIN + 46_000); // past the dataset's end (02:00 to 02:59): the prints again
    expect(pair.markPrice).toBe(close(200));
  });

  it('mark data without index data: the index is the mark', async () => {
    const v = await venue([{ file: priceFile('BTCUSDT-markPriceKlines-1m.csv', 360), kind: 'markPriceKlines' }]);
    const pair = v.exchange.pair('BTCUSDT')!;
    // the status names what it reads
    expect(v.market.status().datasets.BTCUSDT).toEqual([
      { role: 'klines', id: 1, market: 'spot', kind: 'klines', interval: '1m' },
      { role: 'mark', id: 2, market: 'um', kind: 'markPriceKlines', interval: '1m' },
    ]);
    v.market.seek(START + 5 * MIN - 1);
    expect([pair.markPrice, pair.indexPrice]).toEqual([50_004, 50_004]);
    v.market.seek(START + 100 * MIN + 50_000);
    expect([pair.markPrice, pair.indexPrice]).toEqual([50_099, 50_099]);
  });

  it('index data without mark data: the index is its candles close, the mark the prints', async () => {
    const v = await venue([{ file: priceFile('BTCUSDT-indexPriceKlines-1m.csv', 360), kind: 'indexPriceKlines' }]);
    const pair = v.exchange.pair('BTCUSDT')!;
    v.market.seek(START + 30 * MIN + 46_000);
    expect(pair.markPrice).toBe(close(30));
    expect(pair.indexPrice).toBe(50_029);
  });
});

describe('specs the venue cannot list', () => {
  it('a dataset whose stored specs exceed 8 decimals together refuses the replay naming it, no internal error', async () => {
    // specs stored before the specs route checked them (it now refuses them: test/data/dataset-routes.test.ts)
    await expect(
      replayVenue(
        [{ paths: [M1], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } }],
        { symbols: ['BTCUSDT'], start: START, until: START + 60 * MIN },
        () => 0,
        (ds) => {
          const d = ds.list()[0];
          ds.store.setSpecs(d.id, { ...d.specs, tickSize: '0.00000001', stepSize: '0.00000001' }, 'edited', 0);
        },
      ),
    ).rejects.toThrow(
      'BTCUSDT cannot be listed with the specs of dataset 1: tick_size 0.00000001 and step_size 0.00000001 have 16 ' +
        'decimals together; money is kept to 8 decimals, so the two may have at most 8 together (tick 0.0001 with ' +
        'step 0.0001, say); edit them (PUT /api/v1/datasets/1/specs, or the Data dialog)',
    );
  });
  // Until 2026-12-07 a tick above every price of the pair (PUT /api/v1/datasets/{id}/specs took
  // "1000000" for BTCUSDT at ~46,000) started a replay with an empty book, no candles, last price 0
  it('a tick above the price at the start refuses the replay naming tick_size and the price', async () => {
    await expect(
      replayVenue(
        [{ paths: [M1], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } }],
        { symbols: ['BTCUSDT'], start: START, until: START + 60 * MIN },
        () => 0,
        (ds) => {
          const d = ds.list()[0];
          ds.store.setSpecs(d.id, { ...d.specs, tickSize: '1000000', stepSize: '0.001' }, 'edited', 0);
        },
      ),
    ).rejects.toThrow(
      `BTCUSDT cannot be listed with the specs of dataset 1: tick_size 1000000 is above its price at the start ` +
        `(${rows[0][1]}), which is no whole number of ticks (it rounds to 0); every price of a replay is a ` +
        `multiple of the tick, so it must be at most the pair's prices; edit them (PUT /api/v1/datasets/1/specs, or ` +
        `the Data dialog)`,
    );
  });
});
