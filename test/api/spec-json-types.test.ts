// Every record the routes answer, held against the spec's tables (names, order and JSON type of
// each field, test/helpers/spec-records.ts): real answers through inject, one of each kind,
// after a small trading session (a resting order, a maker fill, an open and a closed position).
import { setPrices } from '../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, getJson, type TestApp } from '../helpers/app.ts';
import { dataOf, makeAccount, orderBody, plain, signed, type Creds } from '../helpers/signed.ts';
import { SPEC_CANDLE_TYPES, jsonType, specMismatches } from '../helpers/spec-records.ts';

let t: TestApp;
let a: Creds;

const bot = (side: number, price: string, qty: string, needCache = false) =>
  plain(t.app, 'POST', '/fapi/v1/bot/orders', {
    json: orderBody({ side, position_side: side, price, qty, need_cache: needCache }),
  });

beforeAll(async () => {
  t = await makeApp();
  t.venue.clock.pause();
  a = makeAccount(t.venue, 'spec-types');
});
afterAll(() => t.close());

describe('answers carry the spec JSON types', () => {
  it('market data: price records, general and futures pair configuration, candles', async () => {
    const prices = dataOf(await plain(t.app, 'GET', '/fapi/v1/prices'));
    expect(prices.length).toBeGreaterThan(0);
    for (const p of prices) expect(specMismatches('PriceRecord', p)).toEqual([]);
    expect(
      specMismatches('PriceRecord', dataOf(await plain(t.app, 'GET', '/fapi/v1/complete_price?symbol=BTCUSDT'))),
    ).toEqual([]);

    const general = dataOf(await plain(t.app, 'GET', '/api/v1/symbols'));
    expect(general.length).toBeGreaterThan(0);
    for (const g of general) expect(specMismatches('GeneralSymbol', g)).toEqual([]);
    expect(specMismatches('GeneralSymbol', dataOf(await plain(t.app, 'GET', '/api/v1/symbols/BTCUSDT')))).toEqual([]);

    const futures = dataOf(await plain(t.app, 'GET', '/fapi/v1/symbols'));
    expect(futures.length).toBeGreaterThan(0);
    for (const f of futures) expect(specMismatches('FuturesSymbol', f)).toEqual([]);
  });

  it('trading: placement results, open orders, trades, current and closed positions', async () => {
    // a rests a bid; a bot sells into it (maker fill, position opens)
    const placed = dataOf(
      await signed(t.app, a, 'POST', '/fapi/v1/orders', { json: orderBody({ price: '95000.0', qty: '0.010' }) }),
    );
    expect(specMismatches('PlacementResult', placed)).toEqual([]);
    const open = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders'));
    expect(open).toHaveLength(1);
    expect(specMismatches('OrderRecord', open[0])).toEqual([]);
    expect(specMismatches('PlacementResult', dataOf(await bot(2, '95000.0', '0.004')))).toEqual([]);

    const trades = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/myTrades'));
    expect(trades.items).toHaveLength(1);
    expect(specMismatches('TradeRecord', trades.items[0])).toEqual([]);
    const partial = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders'));
    expect(specMismatches('OrderRecord', partial[0])).toEqual([]);

    setPrices(t.venue.exchange, 'BTCUSDT', { mark: 95_123.4 });
    const positions = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/position/list'));
    expect(positions).toHaveLength(1);
    expect(specMismatches('PositionRecord', positions[0])).toEqual([]);

    // cancel the rest, close at market against a resting bot bid: a closed-position record
    dataOf(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', order_id: placed.order_id } }),
    );
    dataOf(await bot(1, '95100.0', '0.004', true));
    const closed = dataOf(
      await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: orderBody({ side: 2, position_side: 1, position_action: 2, type: 2, price: undefined, qty: '0.004' }),
      }),
    );
    expect(closed.status).toBe(3);
    const history = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/position/history'));
    expect(history.list).toHaveLength(1);
    expect(specMismatches('ClosedPositionRecord', history.list[0])).toEqual([]);
    const detail = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/position/history/detail', {
        query: { position_id: history.list[0].position_id },
      }),
    );
    // the spec: position_id is a string in the detail endpoint, an integer in the list
    expect(detail.position_id).toBe(String(history.list[0].position_id));
    expect(specMismatches('ClosedPositionRecord', { ...detail, position_id: Number(detail.position_id) })).toEqual([]);
  });

  it('candles are the 12-element arrays of the spec', async () => {
    const r = await getJson(t.app, '/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=3');
    expect(r.status).toBe(200);
    expect(r.body.length).toBeGreaterThan(0);
    for (const c of r.body) expect((c as unknown[]).map(jsonType).join(' ')).toBe(SPEC_CANDLE_TYPES);
  });

  it('the checker itself notices a wrong type, a missing field and a wrong order', () => {
    const good = { order_id: '1', client_order_id: 'c', status: 1, filled_qty: '0', filled_quote: '0' };
    expect(specMismatches('PlacementResult', good)).toEqual([]);
    expect(specMismatches('PlacementResult', { ...good, status: '1' })).toEqual([
      'PlacementResult.status: s ("1") != spec i',
    ]);
    const { filled_quote: _q, ...missing } = good;
    expect(specMismatches('PlacementResult', missing).length).toBe(2);
    const reordered = { client_order_id: 'c', order_id: '1', status: 1, filled_qty: '0', filled_quote: '0' };
    expect(specMismatches('PlacementResult', reordered)).toHaveLength(1);
  });
});
