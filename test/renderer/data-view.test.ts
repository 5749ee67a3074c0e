import { describe, expect, it } from 'vitest';
import { datasetSpan, datasetTitle, resultLine, uploadType, uploadUrl } from '../../src-renderer/src/features/data/data-view.ts';

describe('Data dialog helpers', () => {
  it('the upload address names the file and the chosen market', () => {
    expect(uploadUrl('http://127.0.0.1:8787/', 'BTCUSDT-1m-2025-01-06.zip', 'um')).toBe(
      'http://127.0.0.1:8787/api/v1/datasets/import?name=BTCUSDT-1m-2025-01-06.zip&market=um',
    );
    expect(uploadUrl('http://h:1', 'a b&c.csv', 'nonsense')).toBe('http://h:1/api/v1/datasets/import?name=a+b%26c.csv');
    expect([uploadType('x.CSV'), uploadType('x.zip')]).toEqual(['text/csv', 'application/zip']);
  });

  it('datasets and results in words', () => {
    expect(datasetTitle({ market: 'um', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' })).toBe('BTCUSDT · USD-M · klines 1m');
    expect(datasetTitle({ market: 'spot', symbol: 'ETHUSDT', kind: 'aggTrades', interval: '' })).toBe('ETHUSDT · Spot · aggTrades');
    expect(datasetSpan({ first_time: Date.parse('2021-05-16T00:00:00Z'), last_time: Date.parse('2021-05-18T23:59:00Z') })).toBe('2021-05-16 00:00 → 2021-05-18 23:59 UTC');
    expect(datasetSpan({ first_time: null, last_time: null })).toBe('empty');
    const base = { file: 'f.zip', dataset_id: 1, rows: 1440, added: 1440, gaps: 1, checksum: 'verified' as const, error: null };
    expect(resultLine({ ...base, ok: true, status: 'imported' })).toBe('f.zip: 1,440 rows (1,440 new), 1 gap, checksum verified');
    expect(resultLine({ ...base, ok: true, status: 'unchanged' })).toBe('f.zip: already imported, nothing changed');
    expect(resultLine({ ...base, ok: false, status: 'refused', error: 'row 5: bad' })).toBe('f.zip: refused — row 5: bad');
    expect(resultLine({ ...base, ok: false, status: 'refused', error: 'f.zip: row 5: bad' })).toBe('f.zip: refused — row 5: bad');
  });
});
