// On a replay an order's answer waits for the replay's clock (docs/replay.md, Latency): with order
// or response latency a paused replay holds it until it moves on, and 60 s of latency at 1x take a
// minute of wall time. The screen's client gave up after its 30 s time-out and the order form said
// "Not sent: the service cannot be reached" of an order the replay then placed and filled (the
// trader, told it was not sent, would send it again). On a replay the screen's changes now wait
// for their answer (replay-view.ts replayRequestTimeout); its reads, and the live venue's
// requests, keep the time-out. Fake timers: the 30 s pass at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TIMEOUT_MS } from '../../src-shared/sdk/rest-request.ts';
import type { OrderRequest } from '../../src-shared/types.ts';
import { createOrderFormStore } from '../../src-renderer/src/features/order-entry/order-form-store.ts';
import { replayRequestTimeout } from '../../src-renderer/src/features/replay/replay-view.ts';
import { NO_ANSWER_TEXT } from '../../src-renderer/src/lib/network-failure.ts';
import { watchedRestClient } from '../../src-renderer/src/lib/store-status.ts';

const order: OrderRequest = { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.01' };
const PLACED = {
  order_id: '68',
  client_order_id: 'api.68',
  status: 3,
  filled_qty: '0.010000',
  filled_quote: '493.0157',
};

/** The screen's client on a venue of `mode` whose answers come when the test releases them. */
function venue(mode: 'live' | 'replay') {
  const held: Array<{ method: string; answer: (body: unknown) => void }> = [];
  const fetch = ((_url: string, init: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      held.push({
        method: String(init.method),
        answer: (data) => resolve(new Response(JSON.stringify({ code: 0, message: 'success', data }))),
      });
    })) as typeof globalThis.fetch;
  const api = watchedRestClient(
    { baseUrl: 'http://127.0.0.1:8950', apiKey: 'k', apiSecret: 's', fetch },
    () => {},
    (method) => replayRequestTimeout(mode, method),
  );
  const form = createOrderFormStore(api, { schedule: () => () => {} });
  return { api, form, held };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the screen's requests on a replay", () => {
  it('an order waits for its answer past the time-out, and the form says it was placed, not "Not sent"', async () => {
    const { form, held } = venue('replay');
    const sent = form.getState().actions.submit(order, { pd: 2, qd: 6 });
    await vi.advanceTimersByTimeAsync(2 * DEFAULT_TIMEOUT_MS);
    expect(form.getState()).toMatchObject({ submitting: 1, error: null });
    expect(held.map((h) => h.method)).toEqual(['POST']);
    held[0].answer(PLACED);
    expect(await sent).toEqual(PLACED);
    expect(form.getState()).toMatchObject({ submitting: null, error: null });
    expect(form.getState().notice).toMatch(/0\.01/);
  });

  it('a read keeps the time-out there, and so does an order on the live venue', async () => {
    const replay = venue('replay');
    const read = replay.api.account().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS + 1);
    expect(await read).toMatchObject({ status: 0 });

    const live = venue('live');
    const sent = live.form.getState().actions.submit(order, { pd: 2, qd: 6 });
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS + 1);
    expect(await sent).toBeNull();
    // (the order may have reached the live venue: not 'Not sent')
    expect(live.form.getState()).toMatchObject({ submitting: null, error: NO_ANSWER_TEXT });
  });
});
