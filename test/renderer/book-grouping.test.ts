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

  it("two tabs on one address: neither tab's pick drops the other's, and each shows a pair at the other's pick", () => {
    const storage = memory();
    const a = createBookStore(storage);
    const b = createBookStore(storage);
    a.setState({ symbol: 'BTCUSDT' });
    a.getState().actions.setStep('10');
    b.setState({ symbol: 'ETHUSDT' });
    b.getState().actions.setStep('0.1');
    // the next visit (a reload of either tab) keeps both picks
    const next = createBookStore(storage);
    expect(next.getState().actions.stepFor('BTCUSDT', MERGES)).toBe('10');
    expect(next.getState().actions.stepFor('ETHUSDT', MERGES)).toBe('0.1');
    // tab B going to BTCUSDT shows it at tab A's pick
    expect(b.getState().actions.stepFor('BTCUSDT', MERGES)).toBe('10');
    // a pick kept when the storage refuses the write holds for the visit
    const full = {
      getItem: storage.getItem,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const c = createBookStore(full);
    c.setState({ symbol: 'SOLUSDT' });
    c.getState().actions.setStep('1');
    expect(c.getState().actions.stepFor('SOLUSDT', MERGES)).toBe('1');
  });
});
