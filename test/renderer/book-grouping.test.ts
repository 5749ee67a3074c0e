// The ladder's grouping is kept per pair (book-store.ts): picked for a pair, a new store on the
// same storage (a reload) shows that pair at it, another pair at its finest, and a kept step the
// pair no longer offers falls back to its finest.
import { describe, expect, it } from 'vitest';
import { createBookStore, GROUPING_KEY } from '../../src-renderer/src/features/ladder/book-store.ts';

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

const MERGES = ['0.01', '0.1', '1', '10'];

describe('the ladder grouping kept per pair', () => {
  it('a pick is the pair’s grouping after a reload; other pairs keep their finest', () => {
    const storage = memory();
    const book = createBookStore(storage);
    book.setState({ symbol: 'ETHUSDT' });
    book.getState().actions.setStep('1');
    expect(book.getState().step).toBe('1');
    const again = createBookStore(storage);
    expect(again.getState().actions.stepFor('ETHUSDT', MERGES)).toBe('1');
    expect(again.getState().actions.stepFor('BTCUSDT', MERGES)).toBe('0.01');
    // a step the pair no longer offers: its finest
    expect(again.getState().actions.stepFor('ETHUSDT', ['0.05', '0.5'])).toBe('0.05');
  });

  it('an entry that is not JSON, or of another shape, keeps nothing', () => {
    for (const raw of ['{', '[1]', '{"ETHUSDT":5}']) {
      const storage = memory();
      storage.setItem(GROUPING_KEY, raw);
      expect(createBookStore(storage).getState().actions.stepFor('ETHUSDT', MERGES)).toBe('0.01');
    }
  });
});
