import { describe, expect, it } from 'vitest';
import {
  chartItems,
  datasetSpan,
  datasetTitle,
  MAX_HOLE_SLOTS,
  readableIntervals,
  resultLine,
  uploadType,
  uploadUrl,
  type KlineRow,
} from '../../src-renderer/src/features/data/data-view.ts';

describe('Data dialog helpers', () => {
  it('the upload address names the file and the chosen market', () => {
    expect(uploadUrl('http://127.0.0.1:8787/', 'BTCUSDT-1m-2025-01-06.zip', 'um')).toBe(
      'http://127.0.0.1:8787/api/v1/datasets/import?name=BTCUSDT-1m-2025-01-06.zip&market=um',
    );
    expect(uploadUrl('http://h:1', 'a b&c.csv', 'nonsense')).toBe('http://h:1/api/v1/datasets/import?name=a+b%26c.csv');
    expect([uploadType('x.CSV'), uploadType('x.zip')]).toEqual(['text/csv', 'application/zip']);
  });

  it('datasets and results in words', () => {
    expect(datasetTitle({ market: 'um', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' })).toBe(
      'BTCUSDT · USD-M · klines 1m',
    );
    expect(datasetTitle({ market: 'spot', symbol: 'ETHUSDT', kind: 'aggTrades', interval: '' })).toBe(
      'ETHUSDT · Spot · aggTrades',
    );
    expect(
      datasetSpan({ first_time: Date.parse('2021-05-16T00:00:00Z'), last_time: Date.parse('2021-05-18T23:59:00Z') }),
    ).toBe('2021-05-16 00:00 → 2021-05-18 23:59 UTC');
    expect(datasetSpan({ first_time: null, last_time: null })).toBe('empty');
    const base = {
      file: 'f.zip',
      dataset_id: 1,
      rows: 1440,
      added: 1440,
      gaps: 1,
      checksum: 'verified' as const,
      error: null,
      error_row: null,
    };
    expect(resultLine({ ...base, ok: true, status: 'imported' })).toBe(
      'f.zip: 1,440 rows (1,440 new), 1 gap, checksum verified',
    );
    expect(resultLine({ ...base, ok: true, status: 'unchanged' })).toBe('f.zip: already imported, nothing changed');
    expect(resultLine({ ...base, ok: false, status: 'refused', error: 'row 5: bad' })).toBe(
      'f.zip: refused — row 5: bad',
    );
    expect(resultLine({ ...base, ok: false, status: 'refused', error: 'f.zip: row 5: bad' })).toBe(
      'f.zip: refused — row 5: bad',
    );
  });
});

describe('a dataset in the chart', () => {
  const H = 3_600_000;
  const noon = Date.parse('2023-03-24T12:00:00Z');
  const row = (t: number, o: string): KlineRow => [t, t + H - 1, o, o, o, o, '0', '0', 0, '0', '0', true];

  it('a missing hour is one empty slot between the bars; rows come newest first', () => {
    const { items, holes } = chartItems([row(noon + 3 * H, '4'), row(noon + 2 * H, '3'), row(noon, '1')], '1h');
    expect(items).toEqual([
      { time: noon / 1000, open: 1, high: 1, low: 1, close: 1 },
      { time: (noon + H) / 1000 },
      { time: (noon + 2 * H) / 1000, open: 3, high: 3, low: 3, close: 3 },
      { time: (noon + 3 * H) / 1000, open: 4, high: 4, low: 4, close: 4 },
    ]);
    expect(holes).toBe(1);
    expect(chartItems([row(noon, '1'), row(noon + H, '2')], '1h')).toEqual({ items: expect.any(Array), holes: 0 });
  });

  it('a very long gap is drawn with a bounded number of slots', () => {
    const { items } = chartItems([row(0, '1'), row(10_000 * H, '2')], '1h');
    expect(items).toHaveLength(MAX_HOLE_SLOTS + 2);
  });

  it('the intervals a dataset can be read at', () => {
    expect(readableIntervals('1h')).toEqual(['1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M']);
    expect(readableIntervals('1d')).toEqual(['1d', '3d', '1w', '1M']);
    expect(readableIntervals('')).toEqual([]);
  });
});
