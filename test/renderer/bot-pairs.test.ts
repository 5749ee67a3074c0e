// The bot form's pair picker (bot-pairs.ts): it listed every pair of the catalogue, FTTUSDT
// (paused) and LUNA2USDT (delisted) too, on which a bot order is refused 3001. It lists the
// trading pairs; the form's pair when it is not one is kept, marked and off, and Send refused with
// the reason.
import { describe, expect, it } from 'vitest';
import { botPairOptions, botPairRefusal } from '../../src-renderer/src/features/bot-panel/bot-pairs.ts';
import type { SymbolEntry } from '../../src-renderer/src/features/symbols/symbols-store.ts';
import { SymbolStatus } from '../../src-shared/enums.ts';

const entry = (symbol: string, status: SymbolStatus): SymbolEntry =>
  ({
    general: { symbol, status },
    futures: { symbol },
    tags: [],
    priceDecimals: 1,
    qtyDecimals: 3,
  }) as unknown as SymbolEntry;

const catalogue = [
  entry('BTCUSDT', SymbolStatus.TRADING),
  entry('FTTUSDT', SymbolStatus.PAUSED),
  entry('ETHUSDT', SymbolStatus.TRADING),
  entry('LUNA2USDT', SymbolStatus.DELISTED),
];

describe('bot pair picker', () => {
  it('lists only the trading pairs', () => {
    expect(botPairOptions(catalogue, 'BTCUSDT')).toEqual([
      { symbol: 'BTCUSDT', label: 'BTCUSDT', disabled: false },
      { symbol: 'ETHUSDT', label: 'ETHUSDT', disabled: false },
    ]);
    expect(botPairRefusal(catalogue, 'BTCUSDT')).toBeNull();
  });

  it("keeps the form's pair when it is paused or delisted, marked and off, and says why Send is refused", () => {
    expect(botPairOptions(catalogue, 'FTTUSDT').map((o) => [o.label, o.disabled])).toEqual([
      ['BTCUSDT', false],
      ['FTTUSDT (paused)', true],
      ['ETHUSDT', false],
    ]);
    expect(botPairRefusal(catalogue, 'FTTUSDT')).toBe(
      'FTTUSDT is paused: it takes no new orders (the venue answers 3001); pick a trading pair',
    );
    expect(botPairOptions(catalogue, 'LUNA2USDT').find((o) => o.symbol === 'LUNA2USDT')).toEqual({
      symbol: 'LUNA2USDT',
      label: 'LUNA2USDT (delisted)',
      disabled: true,
    });
    expect(botPairRefusal(catalogue, 'LUNA2USDT')).toMatch(/^LUNA2USDT is delisted: it takes no new orders/);
    // a pair the catalogue does not know (yet) is the venue's to judge
    expect(botPairRefusal([], 'BTCUSDT')).toBeNull();
  });
});
