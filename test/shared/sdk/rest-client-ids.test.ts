// How the REST client writes an order's or a conditional order's id: a NaN id is refused unsent
// on every route that names one (conditionals.get / cancel and cancelBotOrder sent `id=NaN`,
// answered 1001).
import { describe, expect, it } from 'vitest';
import { CLIENT_ERROR, NOT_SENT, PerpdeskApiError, RestClient } from '../../../src-shared/sdk/rest-client.ts';

function recording(): { api: RestClient; sent: Array<{ url: string; body: string | undefined }> } {
  const sent: Array<{ url: string; body: string | undefined }> = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(input), body: init?.body === undefined ? undefined : String(init.body) });
    return new Response(JSON.stringify({ code: 1001, msg: 'refused', data: null }), { status: 400 });
  }) as typeof fetch;
  return { api: new RestClient({ baseUrl: 'http://127.0.0.1:1', fetch: fetchFn, apiKey: 'k', apiSecret: 's' }), sent };
}

describe('RestClient ids', () => {
  it('refuses a NaN id unsent on conditionals.get, conditionals.cancel and cancelBotOrder, as getOrder does', async () => {
    const { api, sent } = recording();
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['GET /fapi/v1/conditional/order', () => api.conditionals.get({ id: Number.NaN })],
      ['DELETE /fapi/v1/conditional/order', () => api.conditionals.cancel({ id: Number.NaN }, 'BTCUSDT')],
      ['DELETE /fapi/v1/bot/order', () => api.cancelBotOrder('BTCUSDT', Number.NaN)],
      ['GET /fapi/v1/order', () => api.getOrder('BTCUSDT', Number.NaN)],
    ];
    for (const [route, call] of calls) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PerpdeskApiError);
      expect(err).toMatchObject({ code: CLIENT_ERROR, status: NOT_SENT });
      expect((err as Error).message).toMatch(
        new RegExp(`^${route} was not sent: query parameter \\w+ is not finite: NaN$`),
      );
    }
    expect(sent).toEqual([]);
    // ids as strings and numbers still go as they are
    await api.conditionals.get({ id: '9007199254740993' }).catch(() => undefined);
    await api.cancelBotOrder('BTCUSDT', '9007199254740993').catch(() => undefined);
    await api.cancelBotOrder('BTCUSDT', 12).catch(() => undefined);
    expect(sent.map((s) => new URL(s.url).search.replace(/&timestamp.*$/, ''))).toEqual([
      '?id=9007199254740993',
      '?symbol=BTCUSDT&order_id=9007199254740993',
      '?symbol=BTCUSDT&order_id=12',
    ]);
  });
});
