import { describe, expect, it } from 'vitest';
import { parseArchivePath, resolveKey } from '../../src-main/data/archive-path.ts';

describe('what an archive path says', () => {
  it.each([
    [
      'data/spot/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2025-01-06.zip',
      { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' },
    ],
    [
      '/x/futures/um/monthly/klines/ETHUSDT/1h/ETHUSDT-1h-2024-12.zip',
      { market: 'um', symbol: 'ETHUSDT', kind: 'klines', interval: '1h' },
    ],
    [
      'futures/cm/daily/markPriceKlines/BTCUSD_PERP/1m/BTCUSD_PERP-1m-2025-01-06.zip',
      { market: 'cm', symbol: 'BTCUSD_PERP', kind: 'markPriceKlines', interval: '1m' },
    ],
    [
      'futures/um/daily/aggTrades/BTCUSDT/BTCUSDT-aggTrades-2025-01-06.zip',
      { market: 'um', symbol: 'BTCUSDT', kind: 'aggTrades', interval: '' },
    ],
    [
      'futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2025-01.zip',
      { market: 'um', symbol: 'BTCUSDT', kind: 'fundingRate', interval: '' },
    ],
    [
      'futures/um/daily/bookDepth/BTCUSDT/BTCUSDT-bookDepth-2025-01-06.zip',
      { market: 'um', symbol: 'BTCUSDT', kind: 'bookDepth', interval: '' },
    ],
    [
      'C:\\dl\\spot\\daily\\trades\\BTCUSDT\\BTCUSDT-trades-2025-01-06.zip',
      { market: 'spot', symbol: 'BTCUSDT', kind: 'trades', interval: '' },
    ],
  ])('%s', (path, key) => {
    expect(resolveKey(path)).toEqual(key);
  });

  it('a bare archive file name tells symbol and kind or interval, not the market', () => {
    expect(parseArchivePath('BTCUSDT-1m-2025-01-06.zip')).toEqual({
      symbol: 'BTCUSDT',
      interval: '1m',
      kind: 'klines',
      date: '2025-01-06',
    });
    expect(parseArchivePath('BTCUSDT-aggTrades-2025-01.zip')).toEqual({
      symbol: 'BTCUSDT',
      kind: 'aggTrades',
      date: '2025-01',
    });
    expect(() => resolveKey('BTCUSDT-1m-2025-01-06.zip')).toThrow(/its market; give --market/);
    expect(resolveKey('BTCUSDT-1m-2025-01-06.zip', { market: 'um' })).toEqual({
      market: 'um',
      symbol: 'BTCUSDT',
      kind: 'klines',
      interval: '1m',
    });
  });

  it('options win over the path, and say what is missing or wrong', () => {
    expect(resolveKey('spot/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2025-01-06.zip', { symbol: 'ETHUSDT' }).symbol).toBe(
      'ETHUSDT',
    );
    expect(() => resolveKey('prices.csv')).toThrow(/give --market \(spot, um or cm\), --symbol, --kind/);
    expect(resolveKey('prices.csv', { market: 'spot', symbol: 'BTCUSDT', interval: '5m' })).toEqual({
      market: 'spot',
      symbol: 'BTCUSDT',
      kind: 'klines',
      interval: '5m',
    });
    expect(() => resolveKey('prices.csv', { market: 'spot', symbol: 'BTCUSDT', kind: 'fundingRate' })).toThrow(
      /spot archive has no fundingRate/,
    );
    expect(() => resolveKey('prices.csv', { market: 'um', symbol: 'BTCUSDT', kind: 'klines', interval: '7m' })).toThrow(
      /: interval must be one of 1s, 1m, 3m, .*, 1M \(got "7m"\)$/,
    );
    expect(() => resolveKey('prices.csv', { market: 'um', symbol: 'BTCUSDT', kind: 'klines' })).toThrow(
      /klines needs an interval \(1s, 1m, /,
    );
    expect(() =>
      resolveKey('prices.csv', { market: 'um', symbol: 'BTCUSDT', kind: 'aggTrades', interval: '1m' }),
    ).toThrow(/has no interval/);
    expect(() => resolveKey('prices.csv', { market: 'eu', symbol: 'BTCUSDT', kind: 'trades' })).toThrow(
      /market must be one of/,
    );
  });
});
