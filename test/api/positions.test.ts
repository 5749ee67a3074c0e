// Position routes through inject: the current position's numbers, the closed-position record
// a full close writes (list and detail, position_id integer vs string), history paging and
// filters, and isolation between accounts.
import { setPrices } from '../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { CLOSED_POSITION_RECORD_FIELDS, POSITION_RECORD_FIELDS } from '../../src-shared/types.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { dataOf, expectError, makeAccount, orderBody, plain, signed, type Creds } from '../helpers/signed.ts';

let t: TestApp;
let a: Creds;
let b: Creds;

const place = (who: Creds, over: Record<string, unknown>) =>
  signed(t.app, who, 'POST', '/fapi/v1/orders', { json: orderBody(over) });
const bot = (symbol: string, side: number, price: string, qty: string, needCache = false) =>
  plain(t.app, 'POST', '/fapi/v1/bot/orders', {
    json: { symbol, side, position_side: side, position_action: 1, type: 1, price, qty, need_cache: needCache },
  });

/** The user opens with a resting limit order a bot takes (maker fill). */
async function open(who: Creds, symbol: string, posSide: 1 | 2, price: string, qty: string): Promise<void> {
  const side = posSide === 1 ? 1 : 2;
  dataOf(await place(who, { symbol, side, position_side: posSide, position_action: 1, price, qty }));
  dataOf(await bot(symbol, side === 1 ? 2 : 1, price, qty));
}

/** The user closes with a market order against a resting bot order (taker fill). */
async function close(who: Creds, symbol: string, posSide: 1 | 2, price: string, qty: string): Promise<void> {
  const side = posSide === 1 ? 2 : 1;
  dataOf(await bot(symbol, side === 1 ? 2 : 1, price, qty, true));
  const r = dataOf(
    await place(who, { symbol, side, position_side: posSide, position_action: 2, type: 2, price: undefined, qty }),
  );
  expect(r.status).toBe(3);
}

beforeAll(async () => {
  t = await makeApp();
  t.venue.clock.pause();
  a = makeAccount(t.venue, 'pos-a');
  b = makeAccount(t.venue, 'pos-b');
});
afterAll(() => t.close());

describe('current position and its closed record', () => {
  let positionId: string;
  let openedAt: number;
  let closedAt: number;

  it('position/list shows the open long with the spec numbers', async () => {
    openedAt = t.venue.clock.now();
    await open(a, 'BTCUSDT', 1, '95000.0', '0.004');
    setPrices(t.venue.exchange, 'BTCUSDT', { mark: 97000 });
    const list = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/position/list'));
    expect(list).toHaveLength(1);
    const p = list[0];
    expect(Object.keys(p)).toEqual([...POSITION_RECORD_FIELDS]);
    positionId = p.id;
    expect(p).toMatchObject({
      user_id: a.id,
      symbol: 'BTCUSDT',
      position_side: 1,
      margin_mode: 2,
      leverage: 20,
      quantity: 0.004,
      entry_price: 95000,
      mark_price: 97000,
      margin: 19.4, // 0.004 x 97000 / 20
      unrealized_pnl: 8, // (97000 - 95000) x 0.004
      maintenance_margin_rate: 0.004,
      realized_pnl: 0,
      total_funding_fee: 0,
      open_fee: 0.076, // 380 x 0.0002 (maker)
      close_fee: 0,
      created_at: openedAt,
      updated_at: openedAt,
    });
    expect(typeof p.id).toBe('string');
    for (const k of POSITION_RECORD_FIELDS) if (k !== 'id' && k !== 'symbol') expect(typeof p[k], k).toBe('number');
    // break-even (reference/exchange.md): entry + s x (fees paid + the estimated closing taker fee) / |Q|
    // = 95,000 + (0.076 + 380 x 0.05 %) / 0.004 = 95,000 + 0.266 / 0.004 = 95,066.5
    expect(p.break_even_price).toBe(95_066.5);
  });

  it('a second open fill, a partial and a full close write one history record (close_type 1)', async () => {
    t.venue.clock.advance(1000);
    await open(a, 'BTCUSDT', 1, '95500.0', '0.006'); // entry now (380 + 573) / 0.010 = 95300
    const mid = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/position/list'));
    expect(mid.map((p: any) => [p.id, p.quantity, p.entry_price])).toEqual([[positionId, 0.01, 95300]]);

    t.venue.clock.advance(1000);
    await close(a, 'BTCUSDT', 1, '97000.0', '0.004'); // 388 - 381.2 = 6.8
    expect(dataOf(await signed(t.app, a, 'GET', '/fapi/v1/position/history')).list).toEqual([]);
    t.venue.clock.advance(1000);
    closedAt = t.venue.clock.now();
    await close(a, 'BTCUSDT', 1, '96000.0', '0.006'); // 576 - 571.8 = 4.2
    expect(dataOf(await signed(t.app, a, 'GET', '/fapi/v1/position/list'))).toEqual([]);

    const hist = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/position/history'));
    expect(Object.keys(hist)).toEqual(['limit', 'next_cursor', 'list']);
    expect(hist.limit).toBe(10);
    expect(hist.next_cursor).toBe('');
    expect(hist.list).toHaveLength(1);
    const rec = hist.list[0];
    expect(Object.keys(rec)).toEqual([...CLOSED_POSITION_RECORD_FIELDS]);
    const expected = {
      id: rec.id,
      position_id: Number(positionId),
      user_id: a.id,
      symbol: 'BTCUSDT',
      position_side: 1,
      margin_mode: 2,
      leverage: 20,
      open_quantity: 0.01,
      close_quantity: 0.01,
      entry_price: 95300,
      exit_price: 96400,
      open_amount: 953,
      close_amount: 964,
      open_fee: 0.1906, // (380 + 573) x 0.0002
      close_fee: 0.482, // (388 + 576) x 0.0005
      total_funding_fee: 0,
      realized_pnl: 11,
      close_type: 1,
      opened_at: openedAt,
      closed_at: closedAt,
      created_at: closedAt,
    };
    expect(rec).toStrictEqual(expected);
    expect(Number.isInteger(rec.id)).toBe(true);

    const detail = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/position/history/detail', { query: { position_id: Number(positionId) } }),
    );
    expect(Object.keys(detail)).toEqual([...CLOSED_POSITION_RECORD_FIELDS]);
    expect(detail).toStrictEqual({ ...expected, position_id: positionId });

    // the trades of the close carry the PnL the record sums up
    const trades = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/myTrades', { query: { side: 2 } })).items;
    expect(trades.map((x: any) => x.realized_pnl)).toEqual(['4.20000000', '6.80000000']);
  });

  it('quantities are exact decimals: 0.35 SOL is 0.35, and sending it back closes the position', async () => {
    const c = makeAccount(t.venue, 'pos-exact');
    await open(c, 'SOLUSDT', 1, '185.00', '0.35');
    const [p] = dataOf(await signed(t.app, c, 'GET', '/fapi/v1/position/list'));
    expect(p.quantity).toBe(0.35); // lots x step in floating point would give 0.35000000000000003
    await close(c, 'SOLUSDT', 1, '185.00', String(p.quantity));
    expect(dataOf(await signed(t.app, c, 'GET', '/fapi/v1/position/list'))).toEqual([]);
  });

  it("another user sees no position and no history of a's, and the detail answers 1103", async () => {
    await open(a, 'BTCUSDT', 2, '96500.0', '0.002'); // a live short for a
    expect(dataOf(await signed(t.app, a, 'GET', '/fapi/v1/position/list'))).toHaveLength(1);
    expect(dataOf(await signed(t.app, b, 'GET', '/fapi/v1/position/list'))).toEqual([]);
    expect(dataOf(await signed(t.app, b, 'GET', '/fapi/v1/position/history'))).toEqual({
      limit: 10,
      next_cursor: '',
      list: [],
    });
    expectError(
      await signed(t.app, b, 'GET', '/fapi/v1/position/history/detail', { query: { position_id: Number(positionId) } }),
      Errors.POSITION_NOT_FOUND,
    );
    expectError(
      await signed(t.app, a, 'GET', '/fapi/v1/position/history/detail', { query: { position_id: 999_999 } }),
      Errors.POSITION_NOT_FOUND,
    );
    await close(a, 'BTCUSDT', 2, '96500.0', '0.002');
  });
});

describe('history paging and filters', () => {
  let start: number;
  beforeAll(async () => {
    // a now has 2 closed BTC positions; add 4 more: ETH isolated long and short, SOL long, BTC short
    dataOf(await signed(t.app, a, 'POST', '/fapi/v1/marginType', { json: { symbol: 'ETHUSDT', margin_mode: 1 } }));
    t.venue.clock.advance(60_000);
    start = t.venue.clock.now();
    const trips: Array<[string, 1 | 2, string, string, string]> = [
      ['ETHUSDT', 1, '3400.00', '3410.00', '0.010'],
      ['ETHUSDT', 2, '3400.00', '3390.00', '0.010'],
      ['SOLUSDT', 1, '185.00', '186.00', '1.00'],
      ['BTCUSDT', 2, '96000.0', '95900.0', '0.002'],
    ];
    for (const [symbol, side, px, exit, qty] of trips) {
      await open(a, symbol, side, px, qty);
      await close(a, symbol, side, exit, qty);
      t.venue.clock.advance(1000);
    }
  });

  async function walk(query: Record<string, number | string>): Promise<{ pages: any[]; list: any[] }> {
    const pages: any[] = [];
    const list: any[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 20; guard++) {
      const p = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/position/history', { query: { ...query, cursor } }));
      pages.push(p);
      list.push(...p.list);
      if (p.next_cursor === '') break;
      cursor = p.next_cursor;
    }
    return { pages, list };
  }

  it('pages newest close first with no gap or duplicate; next_cursor is "" at the end', async () => {
    const all = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/position/history', { query: { limit: 100 } })).list;
    expect(all).toHaveLength(6);
    expect(all.map((r: any) => r.symbol)).toEqual(['BTCUSDT', 'SOLUSDT', 'ETHUSDT', 'ETHUSDT', 'BTCUSDT', 'BTCUSDT']);
    const closes = all.map((r: any) => r.closed_at);
    expect([...closes].sort((x, y) => y - x)).toEqual(closes);
    for (const limit of [1, 4, 6]) {
      const { pages, list } = await walk({ limit });
      expect(list.map((r: any) => r.id)).toEqual(all.map((r: any) => r.id));
      expect(pages.map((p) => p.list.length)).toEqual(
        Array.from({ length: Math.ceil(6 / limit) }, (_, i) => Math.min(limit, 6 - i * limit)),
      );
      expect(pages.every((p) => p.limit === limit)).toBe(true);
      expect(pages.slice(0, -1).every((p) => p.next_cursor !== '')).toBe(true);
    }
  });

  it('filters: symbol, positionSide, marginMode, closeType, close-time range', async () => {
    const q = async (query: Record<string, number | string>) =>
      dataOf(await signed(t.app, a, 'GET', '/fapi/v1/position/history', { query })).list.map((r: any) => [
        r.symbol,
        r.position_side,
        r.margin_mode,
      ]);
    expect(await q({ symbol: 'ETHUSDT' })).toEqual([
      ['ETHUSDT', 2, 1],
      ['ETHUSDT', 1, 1],
    ]);
    expect(await q({ positionSide: 2 })).toEqual([
      ['BTCUSDT', 2, 2],
      ['ETHUSDT', 2, 1],
      ['BTCUSDT', 2, 2],
    ]);
    expect(await q({ marginMode: 1, positionSide: 1 })).toEqual([['ETHUSDT', 1, 1]]);
    expect(await q({ closeType: 1 })).toHaveLength(6);
    expect(await q({ closeType: 4 })).toEqual([]);
    expect(await q({ startTime: start, endTime: start + 1000 })).toEqual([
      ['ETHUSDT', 2, 1],
      ['ETHUSDT', 1, 1],
    ]);
    const walked = await walk({ positionSide: 2, limit: 2 });
    expect(walked.pages.map((p) => p.list.length)).toEqual([2, 1]);
  });

  it('a record carries exact numbers: SOL long 1.00 at 185 closed at 186', async () => {
    const [sol] = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/position/history', { query: { symbol: 'SOLUSDT' } }),
    ).list;
    expect(sol).toMatchObject({
      open_quantity: 1,
      close_quantity: 1,
      entry_price: 185,
      exit_price: 186,
      open_amount: 185,
      close_amount: 186,
      open_fee: 0.037,
      close_fee: 0.093,
      realized_pnl: 1,
      margin_mode: 2,
      close_type: 1,
    });
  });

  it('a cursor of another list, or garbage, is 1001', async () => {
    const tradesCursor = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/myTrades', { query: { limit: 1 } }),
    ).next_cursor;
    for (const cursor of [tradesCursor, 'zz', Buffer.from('positions:-1').toString('base64url')]) {
      expectError(
        await signed(t.app, a, 'GET', '/fapi/v1/position/history', { query: { cursor } }),
        Errors.INVALID_PARAMETER,
      );
    }
  });
});

describe("a cross position's margin", () => {
  it("is the account's position_margin to the unit: value / leverage rounded up, as the account sums it", async () => {
    const c = makeAccount(t.venue, 'pos-margin');
    dataOf(await signed(t.app, c, 'POST', '/fapi/v1/leverage', { json: { symbol: 'ETHUSDT', leverage: 7 } }));
    dataOf(await signed(t.app, c, 'POST', '/fapi/v1/leverage', { json: { symbol: 'BTCUSDT', leverage: 3 } }));
    await open(c, 'ETHUSDT', 1, '3400.00', '0.013');
    await open(c, 'BTCUSDT', 2, '95000.0', '0.002');
    // values whose division by the leverage does not end within 8 decimals
    setPrices(t.venue.exchange, 'ETHUSDT', { mark: 3401.38 }); // 44.21794 / 7 = 6.316848571...
    setPrices(t.venue.exchange, 'BTCUSDT', { mark: 95000.2 }); // 190.0004 / 3 = 63.333466666...
    const list = dataOf(await signed(t.app, c, 'GET', '/fapi/v1/position/list'));
    const account = dataOf(await signed(t.app, c, 'GET', '/fapi/v1/account'));
    const units = (x: number | string) => BigInt(Math.round(Number(x) * 1e8));
    const sum = list.reduce((s: bigint, p: { margin: number }) => s + units(p.margin), 0n);
    expect(list.map((p: { symbol: string; margin: number }) => [p.symbol, p.margin])).toEqual([
      ['ETHUSDT', 6.31684858],
      ['BTCUSDT', 63.33346667],
    ]);
    expect(sum).toBe(units(account.position_margin));
  });
});
