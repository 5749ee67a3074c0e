// The names a screen reader gives the indicators' checkboxes: a moving average by its period ("MA 7"), not its slot ("MA 1").
import { describe, expect, it } from 'vitest';
import { spokenName } from '../../src-renderer/src/features/chart/indicator-settings.ts';

describe('spokenName', () => {
  it('names a numbered slot by its period, the others by their kind', () => {
    expect(spokenName({ id: 'ma1', kind: 'ma', params: [7] } as never)).toBe('MA 7');
    expect(spokenName({ id: 'ema3', kind: 'ema', params: [200] } as never)).toBe('EMA 200');
    expect(spokenName({ id: 'rsi', kind: 'rsi', params: [14] } as never)).toBe('RSI');
  });
});
