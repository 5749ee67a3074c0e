// A double click on a cached bot order's Cancel sends one cancel (bot-store.ts cancel): it sent
// two, and the second's refusal, 1102 "No open bot order 714319 on ETHUSDT", stood in the Response
// pane (and was said) as the answer of a cancel that had worked.
import { describe, expect, it } from 'vitest';
import { createBotStore } from '../../src-renderer/src/features/bot-panel/bot-store.ts';
import type { RawExchange, RestClient } from '../../src-shared/sdk/rest-client.ts';

/** A venue with one resting bot order, 714319: the first cancel of it works, any other is 1102. */
function venue(): { api: RestClient; deletes: () => number } {
  let open = true;
  let deletes = 0;
  const reply = (method: string, path: string, json: unknown, status = 200): RawExchange => ({
    method,
    url: `http://x${path}`,
    requestBody: undefined,
    status,
    text: JSON.stringify(json),
    json,
    elapsedMs: 1,
  });
  const api = {
    request: async (method: string, path: string): Promise<RawExchange> => {
      if (method !== 'DELETE') return reply(method, path, { code: 0, message: 'success', data: [] });
      deletes++;
      await new Promise((r) => setTimeout(r, 0)); // the answer comes after the second click
      if (!open)
        return reply(method, path, { code: 1102, message: 'No open bot order 714319 on ETHUSDT', data: null }, 400);
      open = false;
      return reply(method, path, { code: 0, message: 'success', data: { order_id: '714319', status: 4 } });
    },
    whitelistStatus: async () => ({ ip: '127.0.0.1', whitelisted: true }),
  };
  return { api: api as unknown as RestClient, deletes: () => deletes };
}

describe('cancelling a bot order twice at once', () => {
  it('sends one cancel, and its answer stays the one shown', async () => {
    const v = venue();
    const bots = createBotStore(v.api, 'ETHUSDT');
    const order = { symbol: 'ETHUSDT', id: '714319' };
    const first = bots.getState().actions.cancel(order);
    const second = bots.getState().actions.cancel(order);
    await Promise.all([first, second]);
    expect(v.deletes()).toBe(1);
    expect(await second).toBeNull();
    expect(bots.getState().last?.json).toMatchObject({ code: 0, data: { status: 4 } });
  });

  it("puts the order's Cancel off while its cancel runs, and back after", async () => {
    const bots = createBotStore(venue().api, 'ETHUSDT');
    const running = bots.getState().actions.cancel({ symbol: 'ETHUSDT', id: '714319' });
    expect([...bots.getState().canceling]).toEqual(['714319']);
    await running;
    expect(bots.getState().canceling.size).toBe(0);
  });
});
