// A fill made while the account's user stream was down (the service restarting, the network gone)
// comes as no push: the screen read the position over REST and showed it, but said nothing, no
// toast and so nothing in the screen reader's live region. Now the fills a REST read finds past
// the newest the screen knew are announced as a push's are, each once; those before the login are not.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { startUserFeed } from '../../src-renderer/src/lib/user-feed.ts';
import { createServiceBack } from '../../src-renderer/src/lib/service-back.ts';
import { createToastsStore } from '../../src-renderer/src/features/toasts/toasts-store.ts';
import type { TradeRecord } from '../../src-shared/types.ts';
import { ManualSocket as Socket } from './open-socket.ts';
import { feedDeps } from './user-feed-deps.dom.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  Socket.made.length = 0;
});

const trade = (id: number, orderId: number, qty: string, price: string): TradeRecord => ({
  id: String(id),
  order_id: String(orderId),
  symbol: 'BTCUSDT',
  side: 1,
  position_side: 1,
  price,
  qty,
  quote_qty: String(Number(qty) * Number(price)),
  fee: '0.48',
  fee_asset: 'USDT',
  fee_rate: '0.0005',
  role: 2,
  is_close: false,
  realized_pnl: '0',
  created_at: Date.UTC(2026, 11, 7, 18, 0),
});

describe('a fill made while the user stream was down', () => {
  it('is announced once the screen reads it over REST, and only once', async () => {
    vi.stubGlobal('WebSocket', Socket);
    // the account's fills as GET /fapi/v1/myTrades answers them, newest first: one from before the login
    const fills: TradeRecord[] = [trade(10, 5, '0.005', '95000')];
    let reads = 0;
    const lists = () =>
      createStore(() => ({
        positions: [],
        actions: { refresh: async () => {}, reloadSettings: async () => {}, clear: () => {} },
      }));
    const serviceBack = createServiceBack();
    const toasts = createToastsStore();
    const feed = startUserFeed(
      feedDeps(lists, {
        api: {
          timestamp: () => Date.now(),
          myTrades: async () => {
            reads++;
            return { has_more: false, next_cursor: '', items: [...fills] };
          },
        } as never,
        toasts,
        serviceBack,
      }),
    );
    const titles = (): string[] => toasts.getState().toasts.map((t) => t.title);
    Socket.made[0].open();
    await vi.waitFor(() => expect(feed.state.getState().status).toBe('live'), { timeout: 20_000 });
    await vi.waitFor(() => expect(reads).toBeGreaterThan(0), { timeout: 20_000 });
    expect(titles()).toEqual([]); // the fill before the login is no news

    Socket.made[0].drop(); // the service restarts; meanwhile a resting order of the account fills
    await vi.waitFor(() => expect(feed.state.getState().status).toBe('connecting'), { timeout: 20_000 });
    fills.unshift(trade(11, 7, '0.010', '96000'));
    serviceBack.seen();
    Socket.made[1].open();
    await vi.waitFor(() => expect(titles()).toEqual(['Bought 0.010 BTCUSDT @ 96,000.00']), { timeout: 20_000 });
    expect(toasts.getState().toasts[0].kind).toBe('fill');
    const fillsBumped = feed.state.getState().fills;

    // the same fill pushed after all is not counted twice; the next order's fill is its own toast
    Socket.made[1].push({ stream: 'user', data: { kind: 'fill', data: trade(11, 7, '0.010', '96000') } });
    Socket.made[1].push({ stream: 'user', data: { kind: 'fill', data: trade(12, 8, '0.002', '96100') } });
    await vi.waitFor(
      () => expect(titles()).toEqual(['Bought 0.010 BTCUSDT @ 96,000.00', 'Bought 0.002 BTCUSDT @ 96,100.00']),
      { timeout: 20_000 },
    );
    expect(feed.state.getState().fills).toBeGreaterThanOrEqual(fillsBumped);
    feed.stop();
  });
});
