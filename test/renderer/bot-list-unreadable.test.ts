// The bot panel shows no cached orders nor whitelist status it can no longer read (bot-store.ts
// refreshCached, refreshWhitelist): with the service stopped, it went on listing the orders last
// read as New, each with a Cancel, and saying "is on the bot whitelist", though a restart takes
// every bot order out of the book; only a line above the table said the service was unreachable.
import { describe, expect, it } from 'vitest';
import { createBotStore } from '../../src-renderer/src/features/bot-panel/bot-store.ts';
import type { RawExchange, RestClient } from '../../src-shared/sdk/rest-client.ts';

const order = { id: '42934', symbol: 'BTCUSDT', side: 1, type: 1, status: 1, price: '95000.0', qty: '1000.000' };
const DOWN = 'Cannot reach the service at http://x: Failed to fetch';

/** A venue that answers while `up.value`, else fails as a stopped service does (no answer). */
function venue(up: { value: boolean }): RestClient {
  const fake = {
    request: async (method: string, path: string): Promise<RawExchange> => {
      if (!up.value)
        return {
          method,
          url: `http://x${path}`,
          requestBody: undefined,
          status: 0,
          text: '',
          json: undefined,
          elapsedMs: 1,
          networkError: DOWN,
        };
      const json = { code: 0, message: 'success', data: [order] };
      return {
        method,
        url: `http://x${path}`,
        requestBody: undefined,
        status: 200,
        text: JSON.stringify(json),
        json,
        elapsedMs: 1,
      };
    },
    whitelistStatus: async () => {
      if (!up.value) throw new Error(DOWN);
      return { ip: '127.0.0.1', whitelisted: true };
    },
  };
  return fake as unknown as RestClient;
}

describe('bot panel, a list it cannot read', () => {
  it('shows the reason and neither the orders nor the whitelist status last read', async () => {
    const up = { value: true };
    const bots = createBotStore(venue(up), 'BTCUSDT');
    await bots.getState().actions.refresh();
    expect(bots.getState().cached.map((o) => o.id)).toEqual(['42934']);
    expect(bots.getState().whitelist?.whitelisted).toBe(true);
    up.value = false;
    await bots.getState().actions.refresh();
    expect(bots.getState().cachedError).toContain('Cannot reach the service');
    expect(bots.getState().cached).toEqual([]);
    expect(bots.getState().whitelist).toBeNull();
    expect(bots.getState().whitelistError).toContain('Cannot reach the service');
    up.value = true;
    await bots.getState().actions.refresh();
    expect(bots.getState().cachedError).toBeNull();
    expect(bots.getState().whitelist?.whitelisted).toBe(true);
  });
});
