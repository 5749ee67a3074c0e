// The answer's "Cancel order N" in the bot panel (bot-store.ts restingOrder): it went on showing
// after that order filled or was cancelled from elsewhere (its cancel then 1102). A cached order
// (need_cache: true) is gone once a read of the cached orders begun after the answer lists it no
// more; one sent without need_cache is listed nowhere, and the panel says it cannot tell.
import { describe, expect, it } from 'vitest';
import { createBotStore, restingOrder } from '../../src-renderer/src/features/bot-panel/bot-store.ts';
import type { RawExchange, RestClient } from '../../src-shared/sdk/rest-client.ts';

const record = { id: '501', symbol: 'ETHUSDT', status: 1 };

/** A venue whose bot order 501 rests until `fill()`; `hold()` keeps the next cached read's answer until `release()`. */
function venue() {
  let resting = false;
  let held: (() => void) | null = null;
  let holdNext = false;
  const reply = (method: string, path: string, json: unknown, body?: string): RawExchange => ({
    method,
    url: `http://x${path}`,
    requestBody: body,
    status: 200,
    text: JSON.stringify(json),
    json,
    elapsedMs: 1,
  });
  const api = {
    request: async (method: string, path: string, opts?: { body?: unknown }): Promise<RawExchange> => {
      if (method === 'POST') {
        resting = true;
        const data = { order_id: '501', client_order_id: 'c', status: 1, filled_qty: '0', filled_quote: '0' };
        return reply(method, path, { code: 0, message: 'success', data }, JSON.stringify(opts?.body));
      }
      // the list as it is when the read starts
      const list = resting ? [record] : [];
      if (holdNext) {
        holdNext = false;
        await new Promise<void>((r) => (held = r));
      }
      return reply(method, path, { code: 0, message: 'success', data: list });
    },
    whitelistStatus: async () => ({ ip: '127.0.0.1', whitelisted: true }),
  };
  return {
    api: api as unknown as RestClient,
    fill: () => (resting = false),
    hold: () => (holdNext = true),
    release: () => held?.(),
  };
}

const place = async (bots: ReturnType<typeof createBotStore>, needCache: boolean): Promise<void> => {
  bots.getState().actions.set({ symbol: 'ETHUSDT', price: '2000', qty: '1', need_cache: needCache });
  await bots.getState().actions.submit();
  await bots.getState().actions.refresh();
};

describe("the answer's Cancel order N", () => {
  it('goes once the cached order is no longer listed open (filled or cancelled elsewhere)', async () => {
    const v = venue();
    const bots = createBotStore(v.api, 'ETHUSDT');
    await place(bots, true);
    expect(restingOrder(bots.getState())).toEqual({ symbol: 'ETHUSDT', orderId: '501', state: 'open' });
    v.fill();
    await bots.getState().actions.refreshCached();
    expect(restingOrder(bots.getState())).toEqual({ symbol: 'ETHUSDT', orderId: '501', state: 'gone' });
  });

  it('stays while no read begun after the answer has come: a poll from before it does not list the order yet', async () => {
    const v = venue();
    const bots = createBotStore(v.api, 'ETHUSDT');
    v.hold();
    const poll = bots.getState().actions.refreshCached(); // begun before the placement, its list empty
    bots.getState().actions.set({ symbol: 'ETHUSDT', price: '2000', qty: '1', need_cache: true });
    await bots.getState().actions.submit();
    v.release();
    await poll;
    expect(restingOrder(bots.getState())?.state).toBe('open');
    await bots.getState().actions.refreshCached();
    expect(restingOrder(bots.getState())?.state).toBe('open');
  });

  it('an order sent without need_cache keeps its Cancel, marked as not tracked', async () => {
    const v = venue();
    const bots = createBotStore(v.api, 'ETHUSDT');
    await place(bots, false);
    v.fill();
    await bots.getState().actions.refreshCached();
    expect(restingOrder(bots.getState())?.state).toBe('untracked');
  });
});
