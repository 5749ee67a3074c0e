// POST /fapi/v1/order's answer is written by a serializer compiled from the route's response
// schema (schemas.ts ORDER_ANSWER), which writes the fields it lists, in its order, with its
// types. These tests hold its text to Binance's field list and order and to the JSON type of
// each field, for each kind of placement (ACK, RESULT resting, RESULT filled, one-way
// reduce-only), and to the same order's query answer (GET order, written without a schema): a
// field the schema dropped, moved or retyped fails them.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalVenue as Venue } from '../../../src-main/venue.ts';
import { Side } from '../../../src-shared/enums.ts';
import type { Creds } from '../../helpers/signed.ts';
import { ORDER_ANSWER_FIELDS, limit, midOf } from './book.ts';
import { account, injectService, type Injected } from './helpers.ts';
import { signedInject, signedInjectText } from './raw.ts';

let svc: Injected;
let venue: Venue;
let app: FastifyInstance;
let c: Creds;
let mid: number;

/** The JSON type of each field of the answer (Binance's: numbers for ids and times, text for every figure). */
const NOT_TEXT: Record<string, string> = {
  orderId: 'number',
  reduceOnly: 'boolean',
  closePosition: 'boolean',
  priceProtect: 'boolean',
  goodTillDate: 'number',
  updateTime: 'number',
};

/** POST /fapi/v1/order as sent over the wire: the status and the answer's raw text. */
async function place(params: Record<string, string>): Promise<{ status: number; text: string }> {
  const r = await signedInjectText(app, c, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', ...params });
  expect(r.status, r.text).toBe(200);
  return r;
}

/** The answer's fields in their order (the text's), each value's JSON type checked. */
function fieldsOf(text: string): Record<string, unknown> {
  const o = JSON.parse(text) as Record<string, unknown>;
  // nothing a parse would hide: no blank, no field twice
  expect(JSON.stringify(o)).toBe(text);
  expect(Object.keys(o)).toEqual(ORDER_ANSWER_FIELDS);
  for (const [k, v] of Object.entries(o)) expect(typeof v, `${k} of ${text}`).toBe(NOT_TEXT[k] ?? 'string');
  return o;
}

beforeAll(async () => {
  svc = await injectService();
  ({ venue, app } = svc);
  c = account(venue, 'answer', 100_000, 'one_way');
  const mm = account(venue, 'answermm');
  mid = midOf(venue);
  limit(venue, mm, { side: Side.SELL, price: (mid + 5).toFixed(1), qty: '1.000' });
  limit(venue, mm, { side: Side.BUY, price: (mid - 5).toFixed(1), qty: '1.000' });
});
afterAll(async () => svc?.close());

describe("POST /fapi/v1/order's answer (compiled from its response schema)", () => {
  it("a resting RESULT order: Binance's fields in order, the same values as the order's query answer", async () => {
    const { text } = await place({
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.01',
      price: String(mid - 50),
      newClientOrderId: 'answer-1',
      newOrderRespType: 'RESULT',
    });
    const o = fieldsOf(text);
    expect(o).toMatchObject({ status: 'NEW', clientOrderId: 'answer-1', executedQty: '0.000', avgPrice: '0' });
    // the query answer of the same order (no response schema): every field alike but its own
    // `time` (the placement's updateTime) and an updateTime the market clock may have moved on
    const q = await signedInject(app, c, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: Number(o.orderId) });
    expect(q.status).toBe(200);
    const { time, ...queried } = q.body as Record<string, unknown>;
    expect(time).toBe(o.updateTime);
    expect(JSON.stringify({ ...queried, updateTime: o.updateTime })).toBe(text);
  });

  it('a filled RESULT market order and a one-way reduce-only close: figures as text, reduceOnly a boolean', async () => {
    const open = fieldsOf(
      (await place({ side: 'BUY', type: 'MARKET', quantity: '0.010', newOrderRespType: 'RESULT' })).text,
    );
    expect(open).toMatchObject({ status: 'FILLED', price: '0', executedQty: '0.010', reduceOnly: false });
    expect(Number(open.avgPrice)).toBe(mid + 5);
    expect(Number(open.cumQuote)).toBeCloseTo((mid + 5) * 0.01, 6);
    const close = fieldsOf(
      (
        await place({
          side: 'SELL',
          type: 'MARKET',
          quantity: '0.010',
          reduceOnly: 'true',
          newOrderRespType: 'RESULT',
        })
      ).text,
    );
    expect(close).toMatchObject({ status: 'FILLED', side: 'SELL', reduceOnly: true, positionSide: 'BOTH' });
    expect(Number(close.avgPrice)).toBe(mid - 5);
  });

  it('an ACK answer (the default): the order as accepted, the same fields in the same order', async () => {
    const o = fieldsOf((await place({ side: 'SELL', type: 'MARKET', quantity: '0.010' })).text);
    expect(o).toMatchObject({ status: 'NEW', cumQuote: '0', avgPrice: '0', type: 'MARKET' });
    // nothing filled, "0" for each figure as Binance's ACK writes them (its New Order example:
    // executedQty, cumQty and cumQuote "0"); until 2026-12-07 the quantities said "0.000" beside
    // a cumQuote of "0"
    expect({ executedQty: o.executedQty, cumQty: o.cumQty }).toEqual({ executedQty: '0', cumQty: '0' });
    expect(o).toMatchObject({ timeInForce: 'GTC', origType: 'MARKET', goodTillDate: 0, stopPrice: '0' });
  });
});
