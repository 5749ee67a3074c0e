import { placeBotOrder } from '../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseType, OrderStatus, WorkingType } from '../../src-shared/enums.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { dataOf, makeAccount, signed } from '../helpers/signed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

describe('take-profit / stop-loss routes', () => {
  it('set, list, change, remove; another account sees nothing', async () => {
    const u = makeAccount(t.venue, 'tpsl-a');
    const other = makeAccount(t.venue, 'tpsl-b');
    placeBotOrder(
      t.venue.exchange,
      { symbol: 'BTCUSDT', side: 2, position_side: 2, position_action: 1, type: 1, price: '96000.0', qty: '0.010' },
      HOUSE_ACCOUNT,
    );
    dataOf(
      await signed(t.app, u, 'POST', '/fapi/v1/orders', {
        json: { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' },
      }),
    );
    expect(dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/tpsl'))).toEqual([
      {
        symbol: 'BTCUSDT',
        position_side: 1,
        take_profit_price: null,
        stop_loss_price: null,
        working_type: 1,
        take_profit_working_type: null,
        stop_loss_working_type: null,
      },
    ]);
    const set = dataOf(
      await signed(t.app, u, 'POST', '/fapi/v1/position/tpsl', {
        json: {
          symbol: 'BTCUSDT',
          position_side: 1,
          take_profit_price: '99000.0',
          stop_loss_price: '93000.0',
          working_type: 2,
        },
      }),
    );
    expect(set).toMatchObject({
      symbol: 'BTCUSDT',
      take_profit_price: '99000.0',
      stop_loss_price: '93000.0',
      working_type: 2,
    });
    // the answer is the position as position/list has it (its fields, in its order; numbers as
    // numbers), then its triggers (OpenAPI: PositionRecord and the five)
    const [listed] = dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/list')) as Array<Record<string, unknown>>;
    expect(Object.keys(set as object)).toEqual([
      ...Object.keys(listed),
      'take_profit_price',
      'stop_loss_price',
      'working_type',
      'take_profit_working_type',
      'stop_loss_working_type',
    ]);
    expect(typeof (set as Record<string, unknown>).entry_price).toBe('number');
    dataOf(
      await signed(t.app, u, 'POST', '/fapi/v1/position/tpsl', {
        json: { symbol: 'BTCUSDT', position_side: 1, take_profit_price: null },
      }),
    );
    expect(dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/tpsl'))).toEqual([
      {
        symbol: 'BTCUSDT',
        position_side: 1,
        take_profit_price: null,
        stop_loss_price: '93000.0',
        working_type: 2,
        take_profit_working_type: null,
        stop_loss_working_type: 2,
      },
    ]);
    expect(dataOf(await signed(t.app, other, 'GET', '/fapi/v1/position/tpsl'))).toEqual([]);
    const r = await signed(t.app, other, 'POST', '/fapi/v1/position/tpsl', {
      json: { symbol: 'BTCUSDT', position_side: 1, stop_loss_price: '93000.0' },
    });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(1103);
  });

  it.each([
    [{ symbol: 'BTCUSDT', position_side: 3 }, 1001],
    [{ symbol: 'BTCUSDT' }, 1002],
    [{ symbol: 'BTCUSDT', position_side: 1, take_profit_price: 'abc' }, 1001],
    [{ symbol: 'BTCUSDT', position_side: 1, extra: 1 }, 1003],
  ])('bad body %j -> %i', async (body, code) => {
    const u = makeAccount(t.venue, `tpsl-bad-${code}-${Object.keys(body).length}`);
    const r = await signed(t.app, u, 'POST', '/fapi/v1/position/tpsl', { json: body });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(code);
  });

  it('a price sent as a JSON number or boolean is refused, not converted (string or null only)', async () => {
    const u = makeAccount(t.venue, 'tpsl-types');
    for (const value of [200000, true]) {
      const r = await signed(t.app, u, 'POST', '/fapi/v1/position/tpsl', {
        json: { symbol: 'BTCUSDT', position_side: 1, take_profit_price: value },
      });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        code: 1001,
        message:
          "Invalid body parameter 'take_profit_price': must be a JSON string or null" +
          (value === true ? '' : ': send "200000", not 200000'),
      });
    }
    expect(dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/tpsl'))).toEqual([]); // nothing stored
  });
});

describe('a take-profit and a stop-loss set apart watch their own prices', () => {
  // Before, GET /fapi/v1/position/tpsl gave one working_type (the take-profit's): a stop-loss on the
  // last price beside a take-profit on the mark read as a mark stop, and the screen, which sends
  // that value back when a trigger's line is dragged, moved the stop-loss onto the mark.
  it('each trigger says its own: the take-profit on the mark, the stop-loss on the last price', async () => {
    const u = makeAccount(t.venue, 'tpsl-apart');
    placeBotOrder(
      t.venue.exchange,
      { symbol: 'BTCUSDT', side: 2, position_side: 2, position_action: 1, type: 1, price: '96000.0', qty: '0.010' },
      HOUSE_ACCOUNT,
    );
    dataOf(
      await signed(t.app, u, 'POST', '/fapi/v1/orders', {
        json: { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' },
      }),
    );
    const tpsl = (json: object) => signed(t.app, u, 'POST', '/fapi/v1/position/tpsl', { json });
    dataOf(await tpsl({ symbol: 'BTCUSDT', position_side: 1, take_profit_price: '99000.0', working_type: 1 }));
    const set = dataOf(
      await tpsl({ symbol: 'BTCUSDT', position_side: 1, stop_loss_price: '93000.0', working_type: 2 }),
    ) as Record<string, unknown>;
    expect(set).toMatchObject({ working_type: 2, take_profit_working_type: 1, stop_loss_working_type: 2 });
    expect(dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/tpsl'))).toEqual([
      {
        symbol: 'BTCUSDT',
        position_side: 1,
        take_profit_price: '99000.0',
        stop_loss_price: '93000.0',
        working_type: 1,
        take_profit_working_type: 1,
        stop_loss_working_type: 2,
      },
    ]);
  });

  // The trading screen's dialog saves both triggers at once: with one working_type per request, a
  // take-profit on the mark and a stop-loss on the last price could not both be kept in one Save.
  it('one request sets each its own: take_profit_working_type / stop_loss_working_type over working_type', async () => {
    const u = makeAccount(t.venue, 'tpsl-own');
    placeBotOrder(
      t.venue.exchange,
      { symbol: 'BTCUSDT', side: 2, position_side: 2, position_action: 1, type: 1, price: '96000.0', qty: '0.010' },
      HOUSE_ACCOUNT,
    );
    dataOf(
      await signed(t.app, u, 'POST', '/fapi/v1/orders', {
        json: { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' },
      }),
    );
    const tpsl = (json: object) => signed(t.app, u, 'POST', '/fapi/v1/position/tpsl', { json });
    const set = dataOf(
      await tpsl({
        symbol: 'BTCUSDT',
        position_side: 1,
        take_profit_price: '99000.0',
        stop_loss_price: '93000.0',
        working_type: 1,
        take_profit_working_type: 1,
        stop_loss_working_type: 2,
      }),
    ) as Record<string, unknown>;
    expect(set).toMatchObject({ take_profit_working_type: 1, stop_loss_working_type: 2 });
    // one of them alone; the other trigger keeps its own
    dataOf(
      await tpsl({ symbol: 'BTCUSDT', position_side: 1, take_profit_price: '99500.0', take_profit_working_type: 2 }),
    );
    expect(dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/tpsl'))).toMatchObject([
      {
        take_profit_price: '99500.0',
        stop_loss_price: '93000.0',
        take_profit_working_type: 2,
        stop_loss_working_type: 2,
      },
    ]);
    const bad = await tpsl({
      symbol: 'BTCUSDT',
      position_side: 1,
      stop_loss_price: '93000.0',
      stop_loss_working_type: 3,
    });
    expect(bad.status).toBe(400);
  });
});

describe('a take-profit on the last price over HTTP', () => {
  let h: TestApp;
  beforeAll(async () => {
    h = await makeApp(); // no simulated market: only the orders below trade
  });
  afterAll(() => h.close());

  const units = (x: string | number) => BigInt(Math.round(Number(x) * 1e8));

  it('fires on a trade at its price between two other accounts: closed whole (close type 2), the books add up', async () => {
    const a = makeAccount(h.venue, 'tplast-a');
    const b = makeAccount(h.venue, 'tplast-b');
    const c = makeAccount(h.venue, 'tplast-c');
    const order = (body: Record<string, unknown>) => ({ symbol: 'BTCUSDT', ...body });
    placeBotOrder(
      h.venue.exchange,
      { symbol: 'BTCUSDT', side: 2, position_side: 2, position_action: 1, type: 1, price: '96000.0', qty: '0.680' },
      HOUSE_ACCOUNT,
    );
    dataOf(
      await signed(h.app, a, 'POST', '/fapi/v1/orders', {
        json: order({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.680' }),
      }),
    );
    dataOf(
      await signed(h.app, a, 'POST', '/fapi/v1/position/tpsl', {
        json: {
          symbol: 'BTCUSDT',
          position_side: 1,
          take_profit_price: '96500.0',
          working_type: WorkingType.LAST_PRICE,
        },
      }),
    );
    placeBotOrder(
      h.venue.exchange,
      { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 1, price: '96400.0', qty: '1.000' },
      HOUSE_ACCOUNT,
    );
    // b and c trade 0.002 at 96500.0: the last price reaches the take-profit, no mark comes
    dataOf(
      await signed(h.app, b, 'POST', '/fapi/v1/orders', {
        json: order({ side: 2, position_side: 2, position_action: 1, type: 1, price: '96500.0', qty: '0.002' }),
      }),
    );
    const taken = dataOf(
      await signed(h.app, c, 'POST', '/fapi/v1/orders', {
        json: order({
          side: 1,
          position_side: 1,
          position_action: 1,
          type: 1,
          price: '96500.0',
          qty: '0.002',
          time_in_force: 2,
        }),
      }),
    );
    expect(taken.filled_qty).toBe('0.002');
    expect(dataOf(await signed(h.app, a, 'GET', '/fapi/v1/position/list'))).toEqual([]);
    expect(dataOf(await signed(h.app, a, 'GET', '/fapi/v1/position/tpsl'))).toEqual([]);
    const [closed] = dataOf(await signed(h.app, a, 'GET', '/fapi/v1/position/history')).list;
    expect(closed).toMatchObject({
      close_type: CloseType.TAKE_PROFIT,
      open_quantity: 0.68,
      close_quantity: 0.68,
      entry_price: 96000,
      exit_price: 96400, // the whole position sold at market into the bid
      realized_pnl: 272, // 0.68 x 400
      open_fee: 32.64, // 65,280 x 0.0005 (taker)
      close_fee: 32.776, // 65,552 x 0.0005
    });
    const acct = dataOf(await signed(h.app, a, 'GET', '/fapi/v1/account'));
    expect(acct.wallet_balance).toBe('100206.58400000');
    // deposits = wallet + fees - realized PnL (no funding)
    expect(units(acct.total_deposits)).toBe(
      units(acct.wallet_balance) + units(closed.open_fee) + units(closed.close_fee) - units(closed.realized_pnl),
    );
    // the close is the venue's market order, newest in the account's order history
    const { items } = dataOf(await signed(h.app, a, 'GET', '/fapi/v1/allOrders', { query: { symbol: 'BTCUSDT' } }));
    expect(items[0]).toMatchObject({
      client_order_id: expect.stringMatching(/^tp-/),
      status: OrderStatus.FILLED,
      filled_qty: '0.680',
    });
  });
});
