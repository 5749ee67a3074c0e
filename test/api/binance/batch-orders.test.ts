// Batches (POST / DELETE /fapi/v1/batchOrders; ccxt createOrders, cancelOrders): up to 5 new
// orders or 10 cancels, each run through the same exchange command as a single order and
// answered in its place with the order or Binance's {code, msg}; a refused entry leaves the
// others as they ran. Raw HTTP checks the wire (ccxt's raw JSON body, Binance's field list,
// the request-level refusals); real ccxt checks the unified methods.
import { createHmac } from 'node:crypto';
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Creds } from '../../helpers/signed.ts';
import { Side } from '../../../src-shared/enums.ts';
import { ORDER_ANSWER_FIELDS as ORDER_FIELDS, limit, pausedWithAsk } from './book.ts';
import { account, binanceusdm, type Service } from './helpers.ts';

const BTC = 'BTC/USDT:USDT';
let svc: Service;
let mid: number;
const px = (k: number) => (mid + k).toFixed(1);

beforeAll(async () => {
  ({ svc, mid } = await pausedWithAsk('batchmm', '1.000'));
});
afterAll(async () => svc?.close());

/** A signed request with its parameters as written (ccxt puts batchOrders' JSON raw, not percent-encoded). */
async function signedRaw(c: Creds, method: 'POST' | 'DELETE', path: string, params: string) {
  const text = `${params}&timestamp=${Date.now()}`;
  const sig = createHmac('sha256', c.apiSecret).update(text).digest('hex');
  const body = method === 'POST' ? `${text}&signature=${sig}` : undefined;
  const url = `${svc.base}/binance${path}${method === 'POST' ? '' : `?${text}&signature=${sig}`}`;
  const r = await fetch(url, {
    method,
    headers: { 'x-mbx-apikey': c.apiKey, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body,
  });
  return { status: r.status, body: (await r.json()) as any };
}

describe('POST batchOrders', () => {
  it('answers each order in its place; a refused one is {code, msg} and the others stand', async () => {
    const c = account(svc.venue, 'batch1', 100_000, 'one_way');
    const orders = [
      {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: '0.010',
        price: px(-50),
        timeInForce: 'GTC',
        newClientOrderId: 'b.1',
      },
      { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.010', price: `${px(-50)}3`, timeInForce: 'GTC' }, // off tick
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: 0.02, newOrderRespType: 'RESULT' }, // a number, as JSON allows
      {
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'LIMIT',
        quantity: '0.010',
        price: px(60),
        timeInForce: 'GTC',
        reduceOnly: true,
        newClientOrderId: 'b.4',
      },
      {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: '0.010',
        price: px(-50),
        timeInForce: 'GTC',
        newClientOrderId: 'b.1',
      }, // duplicate client id
    ];
    const r = await signedRaw(c, 'POST', '/fapi/v1/batchOrders', `batchOrders=${JSON.stringify(orders)}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toHaveLength(5);
    expect(Object.keys(r.body[0]).sort()).toEqual([...ORDER_FIELDS].sort());
    expect(r.body[0]).toMatchObject({
      status: 'NEW',
      clientOrderId: 'b.1',
      price: px(-50),
      origQty: '0.010',
      positionSide: 'BOTH',
    });
    expect(r.body[1]).toEqual({
      code: -4014,
      msg: `Price not increased by tick size. price ${px(-50)}3 is not a multiple of the tick 0.1`,
    });
    expect(r.body[2]).toMatchObject({ status: 'FILLED', executedQty: '0.020', avgPrice: (mid + 5).toFixed(8) });
    // the reduce-only sell ran after the market buy it reduces
    expect(r.body[3]).toMatchObject({ status: 'NEW', reduceOnly: true, clientOrderId: 'b.4' });
    expect(r.body[4]).toEqual({ code: -4116, msg: 'ClientOrderId is duplicated.' });
    // the native views hold exactly the accepted ones
    const open = svc.venue.exchange.openOrders(c.id, 'BTCUSDT');
    expect(open.map((o) => o.client_order_id)).toEqual(['b.1', 'b.4']);
    expect(svc.venue.exchange.positions(c.id).map((p) => p.quantity)).toEqual([0.02]);
  });

  it('refuses the whole request only when the list itself is bad', async () => {
    const c = account(svc.venue, 'batch2', 100_000, 'one_way');
    const one = {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.010',
      price: px(-50),
      timeInForce: 'GTC',
    };
    expect((await signedRaw(c, 'POST', '/fapi/v1/batchOrders', 'x=1')).body.code).toBe(-1102);
    expect((await signedRaw(c, 'POST', '/fapi/v1/batchOrders', 'batchOrders=[{')).body.code).toBe(-1130);
    expect((await signedRaw(c, 'POST', '/fapi/v1/batchOrders', 'batchOrders=[]')).body.code).toBe(-1130);
    expect(
      (await signedRaw(c, 'POST', '/fapi/v1/batchOrders', `batchOrders=${JSON.stringify(Array(6).fill(one))}`)).body
        .code,
    ).toBe(-1130);
    expect((await signedRaw(c, 'POST', '/fapi/v1/batchOrders', 'batchOrders=[1]')).body.code).toBe(-1130);
    // nothing of a refused request ran
    expect(svc.venue.exchange.openOrders(c.id)).toHaveLength(0);
  });

  it("checks an entry as POST order's schema does: an empty parameter is -1102, a bad goodTillDate -1100 / -1130", async () => {
    // Found by a fuzzer: each of these was placed as a resting order (an empty value read as
    // absent, goodTillDate not looked at) while POST order refused it.
    const c = account(svc.venue, 'batch4', 100_000, 'one_way');
    const one = {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.010',
      price: px(-50),
      timeInForce: 'GTC',
    };
    const cases: [Record<string, string>, number][] = [
      [{ newClientOrderId: '' }, -1102],
      [{ positionSide: '' }, -1102],
      [{ reduceOnly: '' }, -1102],
      [{ newOrderRespType: '' }, -1102],
      [{ goodTillDate: 'x' }, -1100],
      [{ goodTillDate: '-1' }, -1130],
      [{ symbol: 'BTC USDT' }, -1100],
    ];
    for (const [extra, code] of cases) {
      const order = { ...one, ...extra };
      const single = await signedRaw(c, 'POST', '/fapi/v1/order', new URLSearchParams(order).toString());
      expect(single.body.code, JSON.stringify(extra)).toBe(code);
      const r = await signedRaw(c, 'POST', '/fapi/v1/batchOrders', `batchOrders=${JSON.stringify([order])}`);
      expect(r.status).toBe(200);
      expect(r.body[0].code, JSON.stringify(extra)).toBe(code);
      expect(r.body[0]).toEqual(single.body);
    }
    expect(svc.venue.exchange.openOrders(c.id)).toHaveLength(0);
  });

  it("an entry's -1130 has the single order's text, word for word (range, true / false, priceMatch)", async () => {
    // until 2026-12-08 an entry said "It must be from 0 to ...", "Send 'true' or 'false'." and
    // "priceMatch is not supported by this venue yet." where POST order said the schema's words
    const c = account(svc.venue, 'batch4b', 100_000, 'one_way');
    const one = {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.010',
      price: px(-50),
      timeInForce: 'GTC',
    };
    const cases: [Record<string, string>, string][] = [
      [{ goodTillDate: '-1' }, "goodTillDate' is not valid. Legal range is '0 to 9007199254740991'."],
      [{ reduceOnly: 'yes' }, "reduceOnly' is not valid. It must be one of true, false, TRUE, FALSE, True, False."],
      [
        { priceProtect: 'maybe' },
        "priceProtect' is not valid. It must be one of true, false, TRUE, FALSE, True, False.",
      ],
      [{ closePosition: '1' }, "closePosition' is not valid. It must be one of true, false, TRUE, FALSE, True, False."],
      [
        { priceMatch: 'OPPONENT' },
        "priceMatch' is not valid. It must be one of NONE. OPPONENT is not supported by this venue yet.",
      ],
      [{ priceMatch: 'XX' }, "priceMatch' is not valid. It must be one of NONE."],
    ];
    for (const [extra, text] of cases) {
      const order = { ...one, ...extra };
      const single = await signedRaw(c, 'POST', '/fapi/v1/order', new URLSearchParams(order).toString());
      expect(single.body, JSON.stringify(extra)).toEqual({ code: -1130, msg: `Data sent for parameter '${text}` });
      const r = await signedRaw(c, 'POST', '/fapi/v1/batchOrders', `batchOrders=${JSON.stringify([order])}`);
      expect(r.body[0], JSON.stringify(extra)).toEqual(single.body);
    }
    expect(svc.venue.exchange.openOrders(c.id)).toHaveLength(0);
  });

  it('a hedge-mode account gets -4061 per entry without positionSide, with the way out', async () => {
    const c = account(svc.venue, 'batch3');
    const r = await signedRaw(
      c,
      'POST',
      '/fapi/v1/batchOrders',
      `batchOrders=${JSON.stringify([
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.010', price: px(-50), timeInForce: 'GTC' },
        {
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          quantity: '0.010',
          price: px(-50),
          timeInForce: 'GTC',
          positionSide: 'LONG',
        },
      ])}`,
    );
    expect(r.body[0].code).toBe(-4061);
    expect(r.body[0].msg).toMatch(/hedge mode/);
    expect(r.body[1]).toMatchObject({ status: 'NEW', positionSide: 'LONG' });
  });
});

describe('DELETE batchOrders', () => {
  it('cancels by id list or client id list, each answered in place', async () => {
    const c = account(svc.venue, 'batch4', 100_000, 'one_way');
    const ex = svc.venue.exchange;
    const ids = [1, 2, 3].map((i) =>
      Number(
        limit(svc.venue, c, { side: Side.BUY, price: px(-10 * i - 40), qty: '0.010', clientId: `d.${i}` }).order_id,
      ),
    );
    const r = await signedRaw(
      c,
      'DELETE',
      '/fapi/v1/batchOrders',
      `symbol=BTCUSDT&orderIdList=${encodeURIComponent(JSON.stringify([ids[0], 999999]))}`,
    );
    expect(r.status).toBe(200);
    expect(r.body[0]).toMatchObject({ orderId: ids[0], status: 'CANCELED' });
    expect(r.body[1]).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    const byCid = await signedRaw(
      c,
      'DELETE',
      '/fapi/v1/batchOrders',
      `symbol=BTCUSDT&origClientOrderIdList=${encodeURIComponent(JSON.stringify(['d.2', 'd.1']))}`,
    );
    expect(byCid.body[0]).toMatchObject({ orderId: ids[1], status: 'CANCELED', clientOrderId: 'd.2' });
    expect(byCid.body[1]).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    expect(ex.openOrders(c.id).map((o) => Number(o.id))).toEqual([ids[2]]);
    expect((await signedRaw(c, 'DELETE', '/fapi/v1/batchOrders', 'symbol=BTCUSDT')).body.code).toBe(-1102);
    expect(
      (
        await signedRaw(
          c,
          'DELETE',
          '/fapi/v1/batchOrders',
          `symbol=BTCUSDT&orderIdList=${encodeURIComponent(JSON.stringify(Array(11).fill(ids[2])))}`,
        )
      ).body.code,
    ).toBe(-1130);
  });
});

describe('DELETE batchOrders with both lists', () => {
  it('is refused (-1128, both named) and cancels nothing, whichever spelling of the names', async () => {
    const c = account(svc.venue, 'batch5', 100_000, 'one_way');
    const ex = svc.venue.exchange;
    const ids = [1, 2].map((i) =>
      Number(
        limit(svc.venue, c, { side: Side.BUY, price: px(-10 * i - 40), qty: '0.010', clientId: `both.${i}` }).order_id,
      ),
    );
    const refusal = {
      status: 400,
      body: {
        code: -1128,
        msg: 'Combination of optional parameters invalid. Send orderIdList or origClientOrderIdList, not both.',
      },
    };
    const idList = encodeURIComponent(JSON.stringify([ids[0]]));
    const cidList = encodeURIComponent(JSON.stringify(['both.2']));
    for (const [a, b] of [
      ['orderIdList', 'origClientOrderIdList'],
      ['orderidlist', 'origclientorderidlist'],
      ['orderIdList', 'origclientorderidlist'],
    ]) {
      const r = await signedRaw(c, 'DELETE', '/fapi/v1/batchOrders', `symbol=BTCUSDT&${a}=${idList}&${b}=${cidList}`);
      expect(r).toEqual(refusal);
    }
    expect(ex.openOrders(c.id).map((o) => Number(o.id))).toEqual(ids);
  });
});

describe('DELETE batchOrders with one list in both spellings', () => {
  it('is refused (-1101, naming it) and cancels nothing, rather than one of the two lists dropped', async () => {
    const c = account(svc.venue, 'batch6', 100_000, 'one_way');
    const ex = svc.venue.exchange;
    const ids = [1, 2].map((i) =>
      Number(
        limit(svc.venue, c, { side: Side.BUY, price: px(-10 * i - 40), qty: '0.010', clientId: `twice.${i}` }).order_id,
      ),
    );
    const list = (v: unknown[]) => encodeURIComponent(JSON.stringify(v));
    for (const [name, lower, a, b] of [
      ['orderIdList', 'orderidlist', list([ids[0]]), list([ids[1]])],
      ['origClientOrderIdList', 'origclientorderidlist', list(['twice.1']), list(['twice.2'])],
    ]) {
      const r = await signedRaw(c, 'DELETE', '/fapi/v1/batchOrders', `symbol=BTCUSDT&${name}=${a}&${lower}=${b}`);
      expect(r).toEqual({
        status: 400,
        body: {
          code: -1101,
          msg: `Duplicate values for a parameter detected. Parameter '${name}' was sent more than once (as ${name} and ${lower}); send it once.`,
        },
      });
    }
    expect(ex.openOrders(c.id).map((o) => Number(o.id))).toEqual(ids);
  });
});

describe('through ccxt', () => {
  it('createOrders and cancelOrders', async () => {
    const c = account(svc.venue, 'batchccxt', 100_000, 'one_way');
    const ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    const made = await ex.createOrders([
      { symbol: BTC, type: 'limit', side: 'buy', amount: 0.01, price: Number(px(-60)) },
      { symbol: BTC, type: 'limit', side: 'buy', amount: 0.01, price: Number(px(-70)), params: { postOnly: true } },
      { symbol: BTC, type: 'limit', side: 'buy', amount: 900, price: Number(px(-70)) }, // more than the account's margin
    ]);
    expect(made).toHaveLength(3);
    expect(made[0].status).toBe('open');
    expect(made[1].postOnly).toBe(true);
    expect(made[2].status).toBe('rejected');
    expect(made[2].info).toEqual({ code: -2019, msg: 'Margin is insufficient.' });
    const native = svc.venue.exchange.openOrders(c.id, 'BTCUSDT').map((o) => o.id);
    expect(native).toEqual([made[0].id, made[1].id]);
    const cancelled = await ex.cancelOrders([made[0].id, made[1].id], BTC);
    expect(cancelled.map((o: any) => o.status)).toEqual(['canceled', 'canceled']);
    expect(svc.venue.exchange.openOrders(c.id, 'BTCUSDT')).toHaveLength(0);
    // by client id: ccxt's lower-case list name
    const again = await ex.createOrders([
      {
        symbol: BTC,
        type: 'limit',
        side: 'buy',
        amount: 0.01,
        price: Number(px(-60)),
        params: { clientOrderId: 'mine-1' },
      },
    ]);
    const byCid = await ex.cancelOrders([], BTC, { clientOrderIds: ['mine-1'] });
    expect(byCid[0].id).toBe(again[0].id);
    expect(byCid[0].status).toBe('canceled');
    // a one-entry answer that is an error: ccxt raises its class (OrderNotFound for -2011)
    await expect(ex.cancelOrders([again[0].id], BTC)).rejects.toBeInstanceOf(ccxt.OrderNotFound);
  });

  it('a request-level refusal is the ccxt class of its code', async () => {
    const c = account(svc.venue, 'batchccxt2', 100_000, 'one_way');
    const ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    await expect(ex.fapiPrivatePostBatchOrders({ batchOrders: '[{' })).rejects.toBeInstanceOf(ccxt.BadRequest);
  });
});
