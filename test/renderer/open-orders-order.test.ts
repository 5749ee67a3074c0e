// The open orders tab lists the newest first, orders placed in the same millisecond too: a paused
// simulator's clock stands still, so every order placed meanwhile has one created_at, and the
// service lists open orders oldest first. Before, they kept that order after a refresh.
import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '../../src-shared/types.ts';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import { OrderStatus } from '../../src-shared/enums.ts';
import { createOpenOrdersStore } from '../../src-renderer/src/features/orders/open-orders-store.ts';

const order = (id: string, created: number): OrderRecord =>
  ({ id, symbol: 'BTCUSDT', status: OrderStatus.NEW, created_at: created, updated_at: created }) as OrderRecord;

describe('open orders: newest first within one millisecond', () => {
  it('a refresh lists orders of one created_at by id, the later first', async () => {
    // as GET /fapi/v1/openOrders answers: oldest first
    const answer = [order('9', 1000), order('4533283', 2000), order('4533284', 2000), order('4533285', 2000)];
    const store = createOpenOrdersStore({ openOrders: () => Promise.resolve(answer) } as unknown as RestClient);
    await store.getState().actions.refresh();
    expect(store.getState().orders.map((o) => o.id)).toEqual(['4533285', '4533284', '4533283', '9']);
  });

  it('an order event keeps the same order (ids compared as numbers, not text)', async () => {
    const store = createOpenOrdersStore({ openOrders: () => Promise.resolve([]) } as unknown as RestClient);
    await store.getState().actions.refresh();
    for (const id of ['99', '100', '98']) store.getState().actions.apply(order(id, 5000));
    expect(store.getState().orders.map((o) => o.id)).toEqual(['100', '99', '98']);
  });
});
