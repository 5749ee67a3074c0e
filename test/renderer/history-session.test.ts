// The history tabs' lists follow the login (history-stores.ts): a log-out forgets the records, and
// a login with another key reads them afresh. Before, a tab open on the order history kept the
// records of the account before after another account logged in (another tab's login, a login
// link pasted), until the new account's next order event, and a login after a log-out showed the
// old account's records until its first page came.
import { describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { createHistoryStores } from '../../src-renderer/src/features/history/history-stores.ts';

interface Session {
  status: string;
  apiKey: string | null;
}

/** allOrders as the venue answers it for the key the screen signs with now: one order named by it. */
function venue(session: { getState(): Session }) {
  let hold: Promise<void> | null = null;
  const api = {
    allOrders: async () => {
      const key = session.getState().apiKey;
      if (hold !== null) await hold;
      return { items: [{ id: `order-of-${key}` }], next_cursor: '', has_more: false };
    },
  };
  return {
    api,
    /** The next answers wait until the returned release is called. */
    holdAnswers(): () => void {
      let release: () => void = () => {};
      hold = new Promise((r) => (release = r));
      return () => {
        hold = null;
        release();
      };
    },
  };
}

const ids = (items: readonly unknown[]) => items.map((o) => (o as { id: string }).id);

describe('history lists and the login', () => {
  it('forgets the records at a log-out and reads the next account’s at its login', async () => {
    const session = createStore<Session>(() => ({ status: 'ready', apiKey: 'keyA' }));
    const v = venue(session);
    const h = createHistoryStores(v.api as never, session);
    await h.orders.getState().actions.reload();
    expect(ids(h.orders.getState().items)).toEqual(['order-of-keyA']);

    session.setState({ status: 'anonymous', apiKey: null });
    expect(h.orders.getState().items).toEqual([]);
    expect(h.orders.getState().loaded).toBe(false);
  });

  it('switched straight to another account, shows its records, not the ones before', async () => {
    const session = createStore<Session>(() => ({ status: 'ready', apiKey: 'keyA' }));
    const v = venue(session);
    const h = createHistoryStores(v.api as never, session);
    await h.orders.getState().actions.reload();
    // keyA's own reload on its way at the switch
    const release = v.holdAnswers();
    const stale = h.orders.getState().actions.reload();
    session.setState({ status: 'ready', apiKey: 'keyB' });
    release();
    await stale;
    await vi.waitFor(() => expect(ids(h.orders.getState().items)).toEqual(['order-of-keyB']));
  });
});
