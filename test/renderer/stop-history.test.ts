// The Stop history tab's words (stop-labels.ts) and its list (history-stores.ts `stops`): each
// conditional order's status as the tab says it (a refused one with the venue's code and message),
// the order a fired one placed, what it places and its amount; the list read from
// GET /fapi/v1/conditional/allOrders with the tab's filters, paged by its cursor.
import { describe, expect, it } from 'vitest';
import type { ConditionalHistoryQuery, ConditionalOrderRecord } from '../../src-shared/types.ts';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import { createHistoryStores } from '../../src-renderer/src/features/history/history-stores.ts';
import {
  stopOutcome,
  stopPlacedOrder,
  stopPlaces,
  stopSize,
  watchedText,
} from '../../src-renderer/src/features/stops/stop-labels.ts';
import { conditionalRecord } from './conditional-record.ts';

const stop = (id: string, change: Partial<ConditionalOrderRecord> = {}): ConditionalOrderRecord =>
  conditionalRecord({
    id,
    client_order_id: `c${id}`,
    side: 2,
    position_action: 2,
    trigger_price: '95000.0',
    trigger_direction: 2,
    ...change,
  });

describe('stop history words', () => {
  it('says how each stop ended, a refused one with the venue code and message', () => {
    expect(stopOutcome(stop('1'))).toEqual({ text: 'Waiting', reason: null });
    expect(stopOutcome(stop('2', { status: 2, order_id: '100035', triggered_at: 5 }))).toEqual({
      text: 'Fired',
      reason: null,
    });
    expect(stopOutcome(stop('3', { status: 3 }))).toEqual({ text: 'Canceled', reason: null });
    expect(
      stopOutcome(
        stop('4', {
          status: 4,
          reject_code: 3018,
          reject_reason: 'No position on BTCUSDT for this close-position stop to reduce',
        }),
      ),
    ).toEqual({ text: 'Refused (3018)', reason: 'No position on BTCUSDT for this close-position stop to reduce' });
    expect(stopOutcome(stop('5', { status: 4 }))).toEqual({ text: 'Refused', reason: 'no reason given' });
  });

  it('names the order a fired stop placed, "—" for one that placed none', () => {
    expect(stopPlacedOrder(stop('2', { status: 2, order_id: '100035' }))).toBe('#100035');
    expect(stopPlacedOrder(stop('4', { status: 4, reject_code: 3018 }))).toBe('—');
    expect(stopPlacedOrder(stop('1'))).toBe('—');
  });

  it('says what a stop places, its amount and the price it watches', () => {
    expect(stopPlaces(stop('1'), 1)).toBe('Market');
    expect(stopPlaces(stop('1', { type: 1, price: '94990' }), 1)).toBe('Limit 94,990.0');
    expect(stopSize(stop('1'), 3)).toBe('0.010');
    expect(stopSize(stop('1', { close_position: true, qty: null }), 3)).toBe('Close position');
    expect(watchedText(stop('1'))).toBe('Mark');
    expect(watchedText(stop('1', { working_type: 2, callback_rate: '1.0' }))).toBe('Last · trailing 1.0%');
    expect(watchedText(stop('1', { price_protect: true }))).toBe('Mark · protected');
    // a trailing stop waiting for its activation price: its trigger is not armed yet
    const waiting = { working_type: 2, callback_rate: '2.0', activation_price: '97000.0', peak_price: null } as const;
    expect(watchedText(stop('1', waiting), 1)).toBe('Last · trailing 2.0% · activates at ≥ 97,000.0');
    expect(watchedText(stop('1', { ...waiting, side: 1, activation_price: '95000.0' }), 1)).toBe(
      'Last · trailing 2.0% · activates at ≤ 95,000.0',
    );
    expect(watchedText(stop('1', { ...waiting, peak_price: '97010.0' }), 1)).toBe('Last · trailing 2.0%');
  });
});

describe('stop history list', () => {
  it('reads the conditional history with the filters, paged by its cursor', async () => {
    const asked: ConditionalHistoryQuery[] = [];
    const api = {
      conditionals: {
        history: async (q: ConditionalHistoryQuery) => {
          asked.push(q);
          return q.cursor === undefined
            ? { has_more: true, next_cursor: 'p2', items: [stop('9', { status: 4, reject_code: 3018 })] }
            : { has_more: false, next_cursor: '', items: [stop('3', { status: 2, order_id: '77' })] };
        },
      },
    } as unknown as RestClient;
    const { stops } = createHistoryStores(api);
    await stops.getState().actions.load({ symbol: 'BTCUSDT', status: 4 });
    expect(stops.getState().items.map((c) => c.id)).toEqual(['9']);
    expect(stops.getState().hasMore).toBe(true);
    await stops.getState().actions.next();
    expect(stops.getState().items.map((c) => c.id)).toEqual(['3']);
    expect(stops.getState().page).toBe(1);
    expect(asked).toEqual([
      { symbol: 'BTCUSDT', status: 4, cursor: undefined, limit: 20 },
      { symbol: 'BTCUSDT', status: 4, cursor: 'p2', limit: 20 },
    ]);
    // All: no status sent
    await stops.getState().actions.load({ status: 0 });
    expect(asked[2]).toEqual({ symbol: 'BTCUSDT', status: undefined, cursor: undefined, limit: 20 });
  });
});

describe('the Stops tab view', () => {
  it('keeps Waiting or History, and a stop Modify opens shows the waiting stops that host its dialog', async () => {
    const { createWorkspaceStore } = await import('../../src-renderer/src/lib/workspace-store.ts');
    const w = createWorkspaceStore({ symbol: 'BTCUSDT' });
    expect(w.getState().stopsView).toBe('waiting');
    w.getState().actions.setStopsView('history');
    w.getState().actions.setTab('positions');
    expect(w.getState().stopsView).toBe('history');
    // a double-click on a stop's line on the chart: its dialog is hosted by the waiting view
    w.getState().actions.openStopAmend(stop('1'));
    expect(w.getState()).toMatchObject({ tab: 'stops', stopsView: 'waiting', overlay: 'amend-stop' });
  });
});
