// The order form's store: the size goes back to a base quantity on every reset, a side armed
// with B / S sends once, Enter with nothing armed gets a hint, and a notice goes away on the
// next action or when its (injected) timer fires.
import { describe, expect, it } from 'vitest';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import { PerpdeskApiError } from '../../src-shared/sdk/rest-client.ts';
import type { OrderRequest, PlacementResult } from '../../src-shared/types.ts';
import { createOrderFormStore, ENTER_HINT } from '../../src-renderer/src/features/order-entry/order-form-store.ts';

const order: OrderRequest = { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.050' };

function setup(
  answer: (o: OrderRequest) => Promise<PlacementResult> = async () => ({
    order_id: '1',
    client_order_id: 'c',
    status: 3,
    filled_qty: '0.050',
    filled_quote: '4790.5',
  }),
) {
  const sent: OrderRequest[] = [];
  const timers: Array<{ fn: () => void; ms: number; cancelled: boolean }> = [];
  const api = { placeOrder: (o: OrderRequest) => (sent.push(o), answer(o)) } as unknown as RestClient;
  const store = createOrderFormStore(api, {
    schedule: (fn, ms) => {
      const t = { fn, ms, cancelled: false };
      timers.push(t);
      return () => void (t.cancelled = true);
    },
  });
  return { store, a: store.getState().actions, sent, timers };
}

describe('size mode', () => {
  it('Esc (reset) puts a % size back to the base quantity', () => {
    const { store, a } = setup();
    a.set({ sizeMode: 'pct', pct: 25 });
    a.reset();
    expect(store.getState()).toMatchObject({ sizeMode: 'qty', pct: 0 });
  });

  it('the Open / Close switch does too', () => {
    const { store, a } = setup();
    a.set({ sizeMode: 'pct', pct: 50 });
    a.setAction('close');
    expect(store.getState()).toMatchObject({ action: 'close', sizeMode: 'qty', pct: 0 });
    a.set({ sizeMode: 'pct', pct: 75 });
    a.setAction('open');
    expect(store.getState()).toMatchObject({ action: 'open', sizeMode: 'qty', pct: 0 });
  });
});

describe('keyboard arming', () => {
  it('a send disarms the side armed with B / S, so the next Enter has nothing to send', async () => {
    const { store, a } = setup();
    a.focusSide(1);
    expect(store.getState().focus?.side).toBe(1);
    await a.submit(order, { pd: 1, qd: 3 });
    expect(store.getState().focus).toBeNull();
  });

  it('disarms as the order goes out: a side armed before the answer stays armed after it', async () => {
    let answer!: (r: PlacementResult) => void;
    const { store, a } = setup(() => new Promise<PlacementResult>((r) => (answer = r)));
    a.focusSide(1);
    const sending = a.submit(order, { pd: 1, qd: 3 });
    expect(store.getState()).toMatchObject({ focus: null, submitting: 1 });
    a.focusSide(2);
    a.set({ qty: '0.04' });
    answer({ order_id: '1', client_order_id: 'c', status: 1, filled_qty: '0', filled_quote: '0' });
    await sending;
    expect(store.getState()).toMatchObject({ focus: { side: 2 }, qty: '0.04', submitting: null });
    expect(store.getState().notice).not.toBeNull();
  });

  it('a refused request disarms too; a side armed while it was on its way stays, under the refusal', async () => {
    let refuse!: (e: unknown) => void;
    const { store, a } = setup(() => new Promise<PlacementResult>((_, r) => (refuse = r)));
    a.focusSide(2);
    const sending = a.submit(order);
    expect(store.getState().focus).toBeNull();
    a.focusSide(1);
    refuse(new PerpdeskApiError(3006, 'qty above max', 400));
    await sending;
    expect(store.getState()).toMatchObject({ focus: { side: 1 }, errorCode: 3006, error: 'qty above max' });
  });

  it('a hint for Enter with nothing armed, cleared by the next action', () => {
    const { store, a } = setup();
    a.showHint();
    expect(store.getState().hint).toBe(ENTER_HINT);
    a.focusSide(1);
    expect(store.getState().hint).toBeNull();
    a.fail('Enter a size.');
    expect(store.getState()).toMatchObject({ error: 'Enter a size.', focus: { side: 1 } });
  });

  it('a side armed that cannot send (nothing to close) is refused: the reason said, nothing left armed', () => {
    const { store, a } = setup();
    a.focusSide(2);
    a.refuseSide('No long to close.');
    expect(store.getState()).toMatchObject({ error: 'No long to close.', focus: null });
  });

  it('Enter just after that refusal keeps its reason, not the help line to press B / S', () => {
    const { store, a } = setup();
    a.focusSide(1);
    a.refuseSide('No short to close.');
    a.showHint();
    expect(store.getState()).toMatchObject({ error: 'No short to close.', hint: null, focus: null });
    // the next action clears it, and Enter with nothing armed says how again
    a.set({ qty: '0.002' });
    a.showHint();
    expect(store.getState()).toMatchObject({ error: null, hint: ENTER_HINT });
  });
});

describe('notice', () => {
  it('reads naturally, and clears when its timer fires (8 s by default)', async () => {
    const { store, a, timers } = setup();
    await a.submit(order, { pd: 1, qd: 3 });
    expect(store.getState()).toMatchObject({
      notice: 'Open long 0.050 BTCUSDT: filled 0.050 at 95,810.0',
      noticeKind: 'ok',
    });
    expect(timers.map((t) => t.ms)).toEqual([8000]);
    timers[0].fn();
    expect(store.getState().notice).toBeNull();
  });

  it('names the quantity a reduce-only order was trimmed to, not the one typed', async () => {
    const { store, a, sent } = setup(async () => ({
      order_id: '1',
      client_order_id: 'c',
      status: 1,
      filled_qty: '0',
      filled_quote: '0',
    }));
    const reduce: OrderRequest = { ...order, side: 2, type: 1, price: '182.00', qty: '10.00', reduce_only: true };
    await a.submit(reduce, { pd: 2, qd: 2, oneWay: true, trimmedTo: 5 });
    expect(store.getState().notice).toBe('Sell 5.00 BTCUSDT at 182.00 (reduce-only): placed');
    // the request itself goes as typed: the venue trims it
    expect(sent[0].qty).toBe('10.00');
    // not trimmed (NaN, as the preview says when the order fits the position): as typed
    await a.submit(reduce, { pd: 2, qd: 2, oneWay: true, trimmedTo: NaN });
    expect(store.getState().notice).toBe('Sell 10.00 BTCUSDT at 182.00 (reduce-only): placed');
  });

  it('an expired post-only order is a warning', async () => {
    const { store, a } = setup(async () => ({
      order_id: '1',
      client_order_id: 'c',
      status: 6,
      filled_qty: '0',
      filled_quote: '0',
    }));
    await a.submit({ ...order, type: 1, price: '95000.0', time_in_force: 4 });
    expect(store.getState().noticeKind).toBe('warn');
    expect(store.getState().notice).toContain('Post-only order expired: it would have taken liquidity');
  });

  it('clears on the next action, and that action stops its timer', async () => {
    const { store, a, timers } = setup();
    await a.submit(order);
    a.set({ qty: '0.1' });
    expect(store.getState().notice).toBeNull();
    expect(timers[0].cancelled).toBe(true);
  });
});
