// Settings' "Reset balance" closes every open position at the mark, fee 0, with a close order of the
// venue's own, client id `reset-<order id>` (docs/api.md), as a liquidation's is `autoclose-<id>` and
// an ADL's `adl_autoclose`. The trade record carries no client id, so its fill toast and Trade
// history called the close "taker", a trade of the trader's own. The toast now names the close from
// the order pushed before its fill, and Trade history from the order of each close trade it lists.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { startUserFeed } from '../../src-renderer/src/lib/user-feed.ts';
import { createToastsStore } from '../../src-renderer/src/features/toasts/toasts-store.ts';
import { createHistoryStores } from '../../src-renderer/src/features/history/history-stores.ts';
import type { OrderRecord, TradeRecord } from '../../src-shared/types.ts';
import { OpenSocket } from './open-socket.ts';
import { feedDeps } from './user-feed-deps.dom.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  OpenSocket.made.length = 0;
});

const order = (id: number, clientId: string): OrderRecord => ({
  id: String(id),
  client_order_id: clientId,
  symbol: 'BTCUSDT',
  side: 2,
  type: 2,
  status: 3,
  price: '0',
  qty: '0.010',
  filled_qty: '0.010',
  filled_quote: '959.758',
  avg_price: '95975.8',
  total_fee: '0',
  fee_asset: 'USDT',
  leverage: 20,
  margin_mode: 2,
  position_action: 2,
  position_side: 1,
  created_at: 1,
  updated_at: 1,
  user_id: '1',
});

const closeTrade = (id: number, orderId: number, fee = '0'): TradeRecord => ({
  id: String(id),
  order_id: String(orderId),
  symbol: 'BTCUSDT',
  side: 2,
  position_side: 1,
  price: '95975.8',
  qty: '0.010',
  quote_qty: '959.758',
  fee,
  fee_asset: 'USDT',
  fee_rate: fee === '0' ? '0' : '0.0005',
  role: 2,
  is_close: true,
  realized_pnl: '-0.04',
  created_at: 2,
});

describe('a paper reset’s close', () => {
  it('is toasted as the reset’s, not as a taker trade', async () => {
    vi.stubGlobal('WebSocket', OpenSocket);
    const lists = () =>
      createStore(() => ({
        positions: [],
        actions: {
          refresh: async () => {},
          reloadSettings: async () => {},
          clear: () => {},
          apply: () => {},
          applyOrder: () => {},
        },
      }));
    const toasts = createToastsStore();
    const feed = startUserFeed(feedDeps(lists, { toasts }));
    await vi.waitFor(() => expect(feed.state.getState().status).toBe('live'));
    const push = (kind: string, data: unknown) => OpenSocket.made[0].push({ stream: 'user', data: { kind, data } });
    // the venue pushes the reset's close order, then its fill (docs/api.md, POST /fapi/v1/account/reset)
    push('order', order(113304, 'reset-113304'));
    push('fill', closeTrade(900, 113304));
    await vi.waitFor(() =>
      expect(toasts.getState().toasts.map((t) => t.title)).toEqual(['Sold 0.010 BTCUSDT @ 95,975.80']),
    );
    const body = toasts.getState().toasts[0].body ?? '';
    expect(body).toContain('reset close');
    expect(body).not.toContain('taker');
    // a close of the trader's own stays a taker trade
    push('order', order(113400, 'api.113400'));
    push('fill', closeTrade(901, 113400, '0.48'));
    await vi.waitFor(() => expect(toasts.getState().toasts).toHaveLength(2));
    expect(toasts.getState().toasts[1].body).toContain('taker');
    feed.stop();
  });

  it('is named by Trade history from its order, as a liquidation’s and an ADL’s are', async () => {
    const orders = new Map([
      ['113304', order(113304, 'reset-113304')],
      ['113305', order(113305, 'autoclose-113305')],
      ['113306', order(113306, 'adl_autoclose')],
      ['113307', order(113307, 'api.113307')],
    ]);
    const asked: string[] = [];
    const api = {
      myTrades: async () => ({
        has_more: false,
        next_cursor: '',
        items: [
          closeTrade(904, 113307, '0.48'),
          closeTrade(903, 113306),
          closeTrade(902, 113305, '0.48'),
          closeTrade(901, 113304),
        ],
      }),
      getOrder: async (_symbol: string, id: string) => {
        asked.push(id);
        return orders.get(id)!;
      },
    };
    const history = createHistoryStores(api as never);
    await history.trades.getState().actions.load();
    const rows = history.trades.getState().items as (TradeRecord & { closed_by?: string | null })[];
    expect(rows.map((t) => [t.id, t.closed_by])).toEqual([
      ['904', null],
      ['903', 'ADL'],
      ['902', 'Liquidation'],
      ['901', 'Reset'],
    ]);
    // an order's client id never changes: the next load asks for none of them again
    await history.trades.getState().actions.load();
    expect(asked.sort()).toEqual(['113304', '113305', '113306', '113307']);
  });
});
