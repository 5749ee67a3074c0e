// The order form's store with the Stop kind: a stop goes through client.conditionals.place and
// its notice says it in words; a refusal shows the venue's code and message as for an order; a
// price picked on the book or the chart is a stop's trigger; Esc clears the trigger.
import { describe, expect, it } from 'vitest';
import { PerpdeskApiError, type RestClient } from '../../src-shared/sdk/rest-client.ts';
import type { ConditionalOrderRecord, ConditionalOrderRequest } from '../../src-shared/types.ts';
import { createOrderFormStore } from '../../src-renderer/src/features/order-entry/order-form-store.ts';

const request: ConditionalOrderRequest = {
  symbol: 'BTCUSDT',
  side: 1,
  position_side: 1,
  position_action: 1,
  type: 2,
  qty: '0.010',
  trigger_price: '97000',
  trigger_direction: 1,
  working_type: 1,
};

function setup(place: (r: ConditionalOrderRequest) => Promise<ConditionalOrderRecord>) {
  const placed: ConditionalOrderRequest[] = [];
  const orders: unknown[] = [];
  const api = {
    placeOrder: async (o: unknown) => void orders.push(o),
    conditionals: { place: (r: ConditionalOrderRequest) => (placed.push(r), place(r)) },
  } as unknown as RestClient;
  const store = createOrderFormStore(api, { schedule: () => () => undefined });
  return { store, a: store.getState().actions, placed, orders };
}

const record = (r: ConditionalOrderRequest): ConditionalOrderRecord =>
  ({
    ...r,
    id: '41',
    price: '0.0',
    qty: r.qty ?? null,
    close_position: false,
    status: 1,
    trigger_price: '97000.0',
  }) as ConditionalOrderRecord;

describe('a stop from the form', () => {
  it('goes to the conditional route, not the order route; the notice says what will happen', async () => {
    const { store, a, placed, orders } = setup(async (r) => record(r));
    a.set({ stop: true, trigger: '97000', qty: '0.010' });
    a.focusSide(1);
    await a.submitStop(request, { pd: 1, qd: 3, base: 'BTC' });
    expect(placed).toEqual([request]);
    expect(orders).toEqual([]);
    expect(store.getState()).toMatchObject({
      notice: 'Stop BTCUSDT #41 placed. When the mark price rises to 97,000.0: buy 0.010 BTC at market.',
      noticeKind: 'ok',
      submitting: null,
      focus: null,
    });
  });

  it("a refusal shows the venue's code and message (3026: already reached)", async () => {
    const { store, a } = setup(async () => {
      throw new PerpdeskApiError(3026, 'The mark price 97,010.0 is already at or above the trigger 97,000.0', 400);
    });
    await a.submitStop(request, { pd: 1, qd: 3, base: 'BTC' });
    expect(store.getState()).toMatchObject({
      errorCode: 3026,
      error: 'The mark price 97,010.0 is already at or above the trigger 97,000.0',
      notice: null,
    });
  });

  it('a price picked on the book goes to the trigger in Stop, to a limit price otherwise; Esc clears both', () => {
    const { store, a } = setup(async (r) => record(r));
    a.set({ stop: true });
    a.pickPrice('96500.0');
    expect(store.getState()).toMatchObject({ trigger: '96500.0', price: '', stop: true });
    a.set({ stop: false, type: 2 });
    a.pickPrice('96400.0');
    expect(store.getState()).toMatchObject({ trigger: '96500.0', price: '96400.0', type: 1, stop: false });
    a.reset();
    expect(store.getState()).toMatchObject({ trigger: '', price: '' });
  });

  it('into the Stop kind it starts as a stop-market: a limit price typed before is not kept as its own', () => {
    const { store, a } = setup(async (r) => record(r));
    a.set({ type: 1, price: '95000.0' });
    a.set({ stop: true });
    expect(store.getState()).toMatchObject({ stop: true, price: '' });
    // a stop-limit's price typed in the Stop kind stays while it is the Stop kind
    a.set({ price: '96100.0' });
    a.set({ stop: true, trigger: '96000.0' });
    expect(store.getState()).toMatchObject({ stop: true, price: '96100.0', trigger: '96000.0' });
  });
});
