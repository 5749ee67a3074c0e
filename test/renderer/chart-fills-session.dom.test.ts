// The chart's fill marks follow the session (chart-fills.ts): a log-out (or a login that ended)
// takes the account's marks off the chart, and a login as another account reads that one's. Before,
// they were read again only with a fill or another pair: "B 0.010" of the account logged out stayed
// on a view-only screen, and on the screen of the next account logged in.
import { describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { FillsReader } from '../../src-renderer/src/features/chart/chart-fills.ts';
import type { FillMark } from '../../src-renderer/src/features/chart/fill-marks.ts';

/** The session store's fields the reader follows (session-store.ts, which needs a window). */
interface Session {
  status: 'checking' | 'anonymous' | 'ready';
  apiKey: string | null;
  apiSecret: string | null;
  source: string | null;
}

const session = (apiKey: string | null) =>
  createStore<Session>(() => ({
    status: apiKey === null ? 'anonymous' : 'ready',
    apiKey,
    apiSecret: apiKey,
    source: 'session',
  }));

/** myTrades as the venue answers it for the key the client is signed with now. */
function venue(current: () => string | null) {
  const asked: Array<string | null> = [];
  const fillsOf: Record<string, number> = { keyA: 1, keyB: 2 };
  return {
    asked,
    api: {
      myTrades: async () => {
        const key = current();
        asked.push(key);
        if (key === null) throw new Error('2001 missing X-API-KEY');
        const id = fillsOf[key];
        return {
          items: [{ id, created_at: 1000, side: 1, qty: String(id / 100), price: '95000' }],
          next_cursor: '',
          has_more: false,
        };
      },
    },
  };
}

describe('chart fill marks and the session', () => {
  it('goes at a log-out, and shows the next account’s fills at its login', async () => {
    const s = session('keyA');
    const v = venue(() => s.getState().apiKey);
    let marks: FillMark[] = [];
    const reader = new FillsReader(v.api as never, s as never, (f) => (marks = f));
    reader.read('BTCUSDT', 1);
    await vi.waitFor(() => expect(marks.map((m) => m.qty)).toEqual([0.01]));

    s.setState({ status: 'anonymous', apiKey: null, apiSecret: null, source: null });
    expect(marks).toEqual([]);

    s.setState({ status: 'ready', apiKey: 'keyB', apiSecret: 'keyB', source: 'token' });
    await vi.waitFor(() => expect(marks.map((m) => m.qty)).toEqual([0.02]), { timeout: 5000 });
    // never asked without a key
    expect(v.asked).not.toContain(null);
    reader.close();
  });

  it('switched straight to another account, drops the answer of the one before', async () => {
    const s = session('keyA');
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const v = venue(() => s.getState().apiKey);
    const api = {
      myTrades: async () => {
        const key = s.getState().apiKey;
        if (key === 'keyA') await gate; // keyA's answer is still on its way at the switch
        const r = await v.api.myTrades();
        return key === 'keyA' ? { ...r, items: [{ ...r.items[0], id: 1, qty: '0.01' }] } : r;
      },
    };
    let marks: FillMark[] = [];
    const reader = new FillsReader(api as never, s as never, (f) => (marks = f));
    reader.read('BTCUSDT', 1);
    s.setState({ apiKey: 'keyB', apiSecret: 'keyB', source: 'token' });
    release();
    await vi.waitFor(() => expect(marks.map((m) => m.qty)).toEqual([0.02]), { timeout: 5000 });
    reader.close();
  });
});
