// The Stops tab's list (stops-store.ts) from the user channel's `conditional` events and its REST
// refresh, and what a fired stop toasts (stop-labels.ts): placed and kept, fired or cancelled and
// gone, an event during a refresh not undone by its answer, a modify's answer applied unless the
// stop fired meanwhile; the order it placed, or the refusal.
import { describe, expect, it } from 'vitest';
import type { ConditionalOrderRecord } from '../../src-shared/types.ts';
import { createStopsStore } from '../../src-renderer/src/features/stops/stops-store.ts';
import { stopToast, triggerText } from '../../src-renderer/src/features/stops/stop-labels.ts';
import type { StopChange } from '../../src-renderer/src/features/stops/stop-amend.ts';
import { conditionalRecord } from './conditional-record.ts';

const stop = (
  id: string,
  status: 1 | 2 | 3 | 4,
  change: Partial<ConditionalOrderRecord> = {},
): ConditionalOrderRecord =>
  conditionalRecord({
    id,
    client_order_id: `c${id}`,
    leverage: 20,
    margin_mode: 2,
    status,
    created_at: Number(id),
    updated_at: Number(id),
    ...change,
  });

function deferred<T>(): { promise: Promise<T>; resolve(v: T): void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function setup(
  open: () => Promise<ConditionalOrderRecord[]> = async () => [],
  amended: (id: string, change: StopChange) => Promise<ConditionalOrderRecord> = async (id, change) =>
    stop(id, 1, change),
) {
  const cancelled: string[] = [];
  const amends: Array<[string, StopChange]> = [];
  const store = createStopsStore({
    conditionals: {
      open,
      cancel: async (ref) => {
        const id = String('id' in ref ? ref.id : ref.clientOrderId);
        cancelled.push(id);
        return stop(id, 3);
      },
      cancelAll: async () => ({ symbol: null, cancelled: 2 }),
      amend: async (ref, change) => {
        const id = String('id' in ref ? ref.id : ref.clientOrderId);
        amends.push([id, change]);
        return amended(id, change);
      },
    },
  });
  return { store, a: store.getState().actions, cancelled, amends };
}

const ids = (s: { getState(): { stops: readonly ConditionalOrderRecord[] } }): string[] =>
  s.getState().stops.map((c) => c.id);

describe('the waiting stops from the conditional events', () => {
  it('placed: listed, newest first; a later record of one replaces it', () => {
    const { store, a } = setup();
    a.apply(stop('1', 1));
    a.apply(stop('2', 1));
    expect(ids(store)).toEqual(['2', '1']);
    a.apply(stop('1', 1, { trigger_price: '97100.0' }));
    expect(ids(store)).toEqual(['2', '1']);
    expect(store.getState().stops[1].trigger_price).toBe('97100.0');
  });

  it('fired (triggered or refused) or cancelled: gone', () => {
    const { store, a } = setup();
    for (const id of ['1', '2', '3', '4']) a.apply(stop(id, 1));
    a.apply(stop('1', 2, { order_id: '55' }));
    a.apply(stop('2', 4, { reject_code: 3009, reject_reason: 'Insufficient margin' }));
    a.apply(stop('3', 3));
    expect(ids(store)).toEqual(['4']);
  });

  it("Cancel applies the venue's answer: the row goes", async () => {
    const { store, a, cancelled } = setup();
    a.apply(stop('5', 1));
    await a.cancel(store.getState().stops[0]);
    expect(cancelled).toEqual(['5']);
    expect(ids(store)).toEqual([]);
  });

  it("Modify sends the change by the stop's id and applies the venue's answer: the row is the modified stop", async () => {
    const { store, a, amends } = setup();
    a.apply(stop('5', 1));
    a.apply(stop('6', 1));
    const r = await a.amend(store.getState().stops[1], { trigger_price: '97500.0', qty: '0.020' });
    expect(amends).toEqual([['5', { trigger_price: '97500.0', qty: '0.020' }]]);
    expect(r).toMatchObject({ id: '5', trigger_price: '97500.0', qty: '0.020' });
    expect(ids(store)).toEqual(['6', '5']);
    expect(store.getState().stops[1]).toMatchObject({ trigger_price: '97500.0', qty: '0.020' });
  });

  it('a Modify answered after the stop fired (the channel took it away meanwhile) does not bring it back', async () => {
    const answer = deferred<ConditionalOrderRecord>();
    const { store, a } = setup(undefined, () => answer.promise);
    a.apply(stop('5', 1));
    const sent = a.amend(store.getState().stops[0], { trigger_price: '97500.0' });
    a.apply(stop('5', 2, { order_id: '9' }));
    answer.resolve(stop('5', 1, { trigger_price: '97500.0' }));
    await sent;
    expect(ids(store)).toEqual([]);
  });

  it('a refresh read before a stop fired does not bring it back; one placed meanwhile stays', async () => {
    const answer = deferred<ConditionalOrderRecord[]>();
    const { store, a } = setup(() => answer.promise);
    const loading = a.refresh();
    a.apply(stop('1', 2, { order_id: '9' }));
    a.apply(stop('2', 1));
    answer.resolve([stop('1', 1), stop('3', 1)]);
    await loading;
    expect(ids(store)).toEqual(['3', '2']);
    expect(store.getState().loaded).toBe(true);
  });
});

describe('what a stop toasts', () => {
  const d = { pd: 1, qd: 3, base: 'BTC' };

  it('nothing when placed or cancelled: the trader did that', () => {
    expect(stopToast(stop('1', 1), d, 'hedge')).toBeNull();
    expect(stopToast(stop('1', 3), d, 'hedge')).toBeNull();
  });

  it('triggered: the price that moved, the order it placed and what that order does', () => {
    expect(stopToast(stop('1', 2, { order_id: '55' }), d, 'hedge')).toEqual({
      kind: 'info',
      title: 'Stop triggered: BTCUSDT Open long',
      body: 'The mark price rose to 97,000.0: order #55 placed, buy 0.010 BTC at market.',
    });
  });

  it("refused when it fired: the venue's code and message", () => {
    const t = stopToast(
      stop('1', 4, {
        side: 2,
        position_action: 2,
        trigger_direction: 2,
        working_type: 2,
        trigger_price: '93000.0',
        reject_code: 3018,
        reject_reason: 'No position to reduce',
      }),
      d,
      'hedge',
    );
    expect(t).toEqual({
      kind: 'error',
      title: 'Stop fired, order refused (3018): BTCUSDT Close long',
      body: 'The last price fell to 93,000.0; the venue refused to sell 0.010 BTC at market (reduce-only): No position to reduce',
    });
  });

  it('the trigger as the table shows it', () => {
    expect(triggerText(stop('1', 1), 1)).toBe('≥ 97,000.0');
    expect(triggerText(stop('1', 1, { trigger_direction: 2, trigger_price: '93000.0' }), 1)).toBe('≤ 93,000.0');
  });
});
