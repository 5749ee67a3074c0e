// GET /fapi/v1/depth: shape, wire types, ordering, the update id and its errors, on the real
// app with bot orders placed through the exchange.
import { cancelBotOrder, placeBotOrder } from '../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSE_ACCOUNT, type BotOrderInput } from '../../src-main/trading/exchange.ts';
import { getJson, makeApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;

function bot(side: 1 | 2, price: string, qty: string, symbol = 'BTCUSDT'): string {
  const input: BotOrderInput = { symbol, side, position_side: side, position_action: 1, type: 1, price, qty };
  return placeBotOrder(t.venue.exchange, input).order_id;
}

beforeAll(async () => {
  t = await makeApp();
  // BTCUSDT: tick 0.1, step 0.001, mark 96000 (band 5%). Two orders share 95990.0.
  bot(1, '95990', '0.2');
  bot(1, '95990.0', '0.3');
  bot(1, '95980.5', '1');
  bot(1, '95000', '0.01');
  bot(2, '96020', '2');
  bot(2, '96010', '0.25');
});

afterAll(async () => {
  await t.close();
});

describe('GET /fapi/v1/depth', () => {
  it('answers the envelope with decimal-string pairs, best first, and the book update id', async () => {
    const r = await getJson(t.app, '/fapi/v1/depth?symbol=BTCUSDT&with_id=true');
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    expect(Object.keys(r.body.data).sort()).toEqual(['asks', 'bids', 'id']);
    expect(r.body.data.bids).toEqual([
      ['95990.0', '0.500'],
      ['95980.5', '1.000'],
      ['95000.0', '0.010'],
    ]);
    expect(r.body.data.asks).toEqual([
      ['96010.0', '0.250'],
      ['96020.0', '2.000'],
    ]);
    // six commands, each changing one level once: ids 1..6
    expect(r.body.data.id).toBe(6);
    expect(r.body.data.id).toBe(t.venue.exchange.pairs.get('BTCUSDT')!.book.updateId);
  });

  it('moves the id by exactly one per level change, including trades and cancels', async () => {
    const before = (await getJson(t.app, '/fapi/v1/depth?symbol=BTCUSDT&with_id=true')).body.data.id as number;
    const id = bot(1, '95500', '0.1'); // new level: +1
    cancelBotOrder(t.venue.exchange, 'BTCUSDT', Number(id)); // level gone: +1
    // another bot account's IOC sell takes 0.5 at 95990.0 and 0.2 at 95980.5: two bid levels
    // change, nothing rests (the house's own orders would not trade: self-trade prevention)
    const taker: BotOrderInput = {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 2,
      position_action: 1,
      type: 1,
      price: '95980.5',
      qty: '0.7',
      time_in_force: 2,
    };
    expect(placeBotOrder(t.venue.exchange, taker, HOUSE_ACCOUNT + 1).filled_qty).toBe('0.700');
    const r = await getJson(t.app, '/fapi/v1/depth?symbol=BTCUSDT&with_id=true');
    expect(r.body.data.id).toBe(before + 4);
    expect(r.body.data.bids).toEqual([
      ['95980.5', '0.800'],
      ['95000.0', '0.010'],
    ]);
    // restore the first level for the following tests
    bot(1, '95990', '0.5');
  });

  it('leaves id out unless with_id=true', async () => {
    for (const url of ['/fapi/v1/depth?symbol=BTCUSDT', '/fapi/v1/depth?symbol=BTCUSDT&with_id=false']) {
      const r = await getJson(t.app, url);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body.data).sort()).toEqual(['asks', 'bids']);
      expect(r.body.data.bids[0]).toEqual(['95990.0', '0.500']);
    }
  });

  it('accepts a lower-case symbol and answers an empty book with empty sides', async () => {
    const r = await getJson(t.app, '/fapi/v1/depth?symbol=ethusdt&with_id=true');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ bids: [], asks: [], id: 0 });
  });

  it('limits the levels per side (default 100)', async () => {
    for (let i = 0; i < 8; i++) bot(2, String(96100 + i * 10), '0.002', 'BTCUSDT');
    const all = await getJson(t.app, '/fapi/v1/depth?symbol=BTCUSDT');
    expect(all.body.data.asks).toHaveLength(10);
    expect(all.body.data.bids).toHaveLength(3);
    const five = await getJson(t.app, '/fapi/v1/depth?symbol=BTCUSDT&limit=5');
    expect(five.body.data.asks).toEqual(all.body.data.asks.slice(0, 5));
    expect(five.body.data.bids).toEqual(all.body.data.bids);
    const asks = all.body.data.asks.map((l: string[]) => Number(l[0]));
    expect(asks).toEqual([...asks].sort((a, b) => a - b));
    const big = await getJson(t.app, '/fapi/v1/depth?symbol=BTCUSDT&limit=1000');
    expect(big.body.data.asks).toHaveLength(10);
  });

  it.each([
    ['/fapi/v1/depth?symbol=NOPEUSDT', 404, 1101],
    ['/fapi/v1/depth?symbol=BTCUSDT&limit=7', 400, 1001],
    ['/fapi/v1/depth?symbol=BTCUSDT&limit=0', 400, 1001],
    ['/fapi/v1/depth?symbol=BTCUSDT&limit=5000', 400, 1001],
    ['/fapi/v1/depth?symbol=BTCUSDT&limit=ten', 400, 1001],
    ['/fapi/v1/depth?symbol=BTCUSDT&with_id=maybe', 400, 1001],
    ['/fapi/v1/depth?symbol=BTC-USDT', 400, 1001],
    ['/fapi/v1/depth', 400, 1002],
    ['/fapi/v1/depth?symbol=BTCUSDT&depth=5', 400, 1003],
  ])('%s -> HTTP %i, code %i', async (url, status, code) => {
    const r = await getJson(t.app, url);
    expect(r.status).toBe(status);
    expect(r.body).toEqual({ code, message: expect.any(String), data: null });
  });
});
