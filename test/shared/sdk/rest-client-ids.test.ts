// How the REST client writes an order's or a conditional order's id: a NaN id is refused unsent
// on every route that names one (conditionals.get / cancel and cancelBotOrder sent `id=NaN`,
// answered 1001), and an id a JSON body takes as an integer (amendOrder, conditionals.amend) is
// sent exactly or refused unsent, never rounded to another id.
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

  it('amendOrder and conditionals.amend send the id as the JSON integer written, or refuse it unsent', async () => {
    const { api, sent } = recording();
    await api.amendOrder('BTCUSDT', '14766', '100.0', '1').catch(() => undefined);
    await api.amendOrder('BTCUSDT', { orderId: 9007199254740991 }, '100.0', '1').catch(() => undefined);
    await api.conditionals.amend({ id: '77' }, { qty: '1' }).catch(() => undefined);
    expect(sent.map((s) => s.body)).toEqual([
      '{"symbol":"BTCUSDT","order_id":14766,"price":"100.0","qty":"1"}',
      '{"symbol":"BTCUSDT","order_id":9007199254740991,"price":"100.0","qty":"1"}',
      '{"id":77,"qty":"1"}',
    ]);
    sent.length = 0;
    // Number() rounded the first to 9007199254740992 and read the others as other ids (31, 12, 1000)
    for (const id of ['9007199254740993', '0x1f', ' 12', '1e3', '12.0', 'abc']) {
      const err = await api.amendOrder('BTCUSDT', id, '100.0', '1').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PerpdeskApiError);
      expect(err).toMatchObject({
        code: CLIENT_ERROR,
        status: NOT_SENT,
        message:
          `PUT /fapi/v1/order was not sent: body field order_id '${id}' is not written as a whole number of ` +
          'at most 2^53 - 1 (9007199254740991), which the route takes as a JSON integer',
      });
      const cond = await api.conditionals.amend({ id }, { qty: '1' }).catch((e: unknown) => e);
      expect(cond).toMatchObject({ code: CLIENT_ERROR, status: NOT_SENT });
    }
    const nan = await api.amendOrder('BTCUSDT', Number.NaN, '100.0', '1').catch((e: unknown) => e);
    expect(nan).toMatchObject({
      status: NOT_SENT,
      message: 'PUT /fapi/v1/order was not sent: body field order_id is not finite: NaN',
    });
    expect(sent).toEqual([]);
  });
});
