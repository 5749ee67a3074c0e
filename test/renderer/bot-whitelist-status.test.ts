// The bot panel's whitelist status follows the list while the panel is open: an IP put on or
// taken off it (PUT /admin/v1/whitelist, from this machine's loopback) shows at the next answer
// or poll, not only at the panel's next opening.
import { describe, expect, it } from 'vitest';
import { createBotStore } from '../../src-renderer/src/features/bot-panel/bot-store.ts';
import type { RawExchange, RestClient } from '../../src-shared/sdk/rest-client.ts';

/** A venue whose whitelist is `on.value`, answering the bot routes as the service does. */
function venue(on: { value: boolean }): RestClient {
  const answer = (method: string, path: string, body: unknown): RawExchange => {
    const json = on.value
      ? { code: 0, message: 'success', data: body }
      : { code: 2101, message: 'Caller IP 192.0.2.2 is not on the bot whitelist', data: null };
    const text = JSON.stringify(json);
    return {
      method,
      url: `http://x${path}`,
      requestBody: undefined,
      status: on.value ? 200 : 403,
      text,
      json,
      elapsedMs: 1,
    };
  };
  const fake = {
    request: async (method: string, path: string) =>
      answer(method, path, path === '/fapi/v1/bot/openOrders' ? [] : { order_id: '7', status: 1 }),
    whitelistStatus: async () => ({ ip: '192.0.2.2', whitelisted: on.value }),
  };
  return fake as unknown as RestClient;
}

describe('bot panel whitelist status', () => {
  it('reads "on" after the IP is put on the list, at the next order', async () => {
    const on = { value: false };
    const bots = createBotStore(venue(on), 'BTCUSDT');
    await bots.getState().actions.refreshWhitelist();
    expect(bots.getState().whitelist?.whitelisted).toBe(false);
    on.value = true;
    await bots.getState().actions.submit();
    // submit's refresh runs after its answer: let it settle
    await new Promise((r) => setTimeout(r, 0));
    expect(bots.getState().whitelist).toEqual({ ip: '192.0.2.2', whitelisted: true });
  });

  it('reads "not on" after the IP is taken off, at the next cancel', async () => {
    const on = { value: true };
    const bots = createBotStore(venue(on), 'BTCUSDT');
    await bots.getState().actions.refreshWhitelist();
    on.value = false;
    await bots.getState().actions.cancel({ symbol: 'BTCUSDT', id: '7' });
    expect(bots.getState().whitelist?.whitelisted).toBe(false);
    expect(bots.getState().cachedError).toContain('not on the bot whitelist');
  });
});
