// The order form's error lines: a request that never reached the service, or an order kept back
// while the market connection is lost, is "Not sent" (not "refused") and clears when the
// connection is back; a refused leverage / margin-mode change
// clears on Esc, on the next action or on its timer.
import { describe, expect, it } from 'vitest';
import { PerpdeskApiError, RestClient } from '../../src-shared/sdk/rest-client.ts';
import type { OrderRequest } from '../../src-shared/types.ts';
import { createOrderFormStore } from '../../src-renderer/src/features/order-entry/order-form-store.ts';
import {
  isNetworkFailure,
  MARKET_LOST_TEXT,
  NO_ANSWER_TEXT,
  NOT_SENT_TEXT,
} from '../../src-renderer/src/lib/network-failure.ts';

const order: OrderRequest = { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '1' };

function setup(fail: unknown) {
  const timers: Array<{ fn: () => void; ms: number; cancelled: boolean }> = [];
  const api = {
    placeOrder: async () => {
      throw fail;
    },
  } as unknown as RestClient;
  const store = createOrderFormStore(api, {
    schedule: (fn, ms) => {
      const t = { fn, ms, cancelled: false };
      timers.push(t);
      return () => void (t.cancelled = true);
    },
  });
  return { store, a: store.getState().actions, timers };
}

describe('a request that never reached the service', () => {
  it('is recognised from the SDK error (code -1, status 0) and a fetch TypeError, not from a refusal', () => {
    expect(isNetworkFailure(new PerpdeskApiError(-1, 'Cannot reach the service: Failed to fetch', 0))).toBe(true);
    expect(isNetworkFailure(new TypeError('Failed to fetch'))).toBe(true);
    expect(isNetworkFailure(new PerpdeskApiError(-1, 'The service is unavailable (HTTP 502)', 502))).toBe(false);
    expect(isNetworkFailure(new PerpdeskApiError(3013, 'At 125x ...', 400))).toBe(false);
  });

  it('is not a signed call the client never sent for want of an API key (that is "log in first")', async () => {
    const rest = new RestClient({
      baseUrl: 'http://127.0.0.1:9',
      fetch: () => Promise.reject(new TypeError('unused')),
    });
    const err = await rest.account().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PerpdeskApiError);
    expect((err as PerpdeskApiError).message).toBe('No API key: log in first');
    expect(isNetworkFailure(err)).toBe(false);
  });

  it('says "Not sent", with no refusal code, and clears once the connection is back', async () => {
    const { store, a } = setup(new PerpdeskApiError(-1, 'Cannot reach the service: Failed to fetch', 0));
    await a.submit(order);
    expect(store.getState()).toMatchObject({ error: NOT_SENT_TEXT, errorCode: null, notSent: true });
    expect(store.getState().error).toMatch(/^Not sent: the service cannot be reached/);
    a.connectionRestored();
    expect(store.getState()).toMatchObject({ error: null, notSent: false });
  });

  it('a time-out is not "Not sent": the order may have been placed, and the words stay after a reconnect', async () => {
    const { store, a } = setup(
      new PerpdeskApiError(
        -1,
        'POST /fapi/v1/orders: the service gave no answer (no answer in 30000 ms)',
        0,
        undefined,
        true,
      ),
    );
    await a.submit(order);
    expect(store.getState()).toMatchObject({ error: NO_ANSWER_TEXT, errorCode: null, notSent: false });
    expect(store.getState().error).toMatch(/may have been applied\. Check Open orders and Positions/);
    a.connectionRestored();
    expect(store.getState().error).toBe(NO_ANSWER_TEXT);
  });

  it('an order kept back while the market connection is lost says so, and clears once it is back', () => {
    const { store, a } = setup(new Error('unused'));
    a.focusSide(1);
    a.marketLost();
    expect(store.getState()).toMatchObject({ error: MARKET_LOST_TEXT, errorCode: null, notSent: true });
    expect(store.getState().focus?.side).toBe(1);
    a.connectionRestored();
    expect(store.getState()).toMatchObject({ error: null, notSent: false });
  });

  it('a real refusal keeps its code and survives a reconnect', async () => {
    const { store, a } = setup(
      new PerpdeskApiError(3013, 'At 125x the position may hold at most 50000 USDT notional', 400),
    );
    await a.submit(order);
    a.connectionRestored();
    expect(store.getState()).toMatchObject({ errorCode: 3013, notSent: false });
    expect(store.getState().error).toContain('50000');
  });
});

describe('a refused margin-mode or leverage change', () => {
  const msg = 'Margin mode of BTCUSDT cannot change while a position or open order exists';
  it('clears on Esc (reset)', () => {
    const { store, a } = setup(null);
    a.settingFailed(msg);
    expect(store.getState().settingError).toBe(msg);
    a.reset();
    expect(store.getState().settingError).toBeNull();
  });
  it('clears on the next action (typing a size)', () => {
    const { store, a } = setup(null);
    a.settingFailed(msg);
    a.set({ qty: '1' });
    expect(store.getState().settingError).toBeNull();
  });
  it('clears when its timer fires, and a newer one is not cleared by the older timer', () => {
    const { store, a, timers } = setup(null);
    a.settingFailed(msg);
    a.settingFailed('second');
    expect(timers[0].cancelled).toBe(true);
    expect(timers[1].ms).toBe(8000);
    timers[1].fn();
    expect(store.getState().settingError).toBeNull();
  });
});
