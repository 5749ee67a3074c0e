// Order entry latency (docs/replay.md "Latency"): an order sent at historical time t reaches the
// matching engine at t + L, after the history up to then, so it meets the book of t + L, not the
// book it was sent against. The cases are found in the TRXUSDT L2 recording read straight from
// the CSV files (harness.ts trxBooks): a best ask that moves within L.
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/errors.ts';
import type { PlacementResult } from '../../src-shared/types.ts';
import { replayVenue, TRX_DEPTH_IMPORT, trxBooks, type HistBook, type ReplayVenue } from './harness.ts';

const UNIT = 100_000_000n;
const L = 100;
const books = trxBooks();
/** The recorded book at market time t: the last event at or before it. */
function bookAt(t: number): HistBook {
  let b = books[0];
  for (const x of books) if (x.time <= t) b = x;
  return b;
}
const bestAsk = (b: HistBook): number => Math.min(...[...b.asks.keys()].map(Number));

/** The first time t (5 s into the recording or later, L / 2 before an event) where the best ask at t + L is above / below the one at t. */
function findMove(dir: 1 | -1): { t: number; askNow: number; askThen: number } {
  for (const b of books) {
    const t = b.time - L / 2;
    if (t < books[0].time + 5_000) continue;
    const askNow = bestAsk(bookAt(t));
    const askThen = bestAsk(bookAt(t + L));
    if (Math.sign(askThen - askNow) === dir) return { t, askNow, askThen };
  }
  throw new Error('the recording has no such move');
}

let venues: ReplayVenue[] = [];
afterEach(() => {
  for (const v of venues) v.close();
  venues = [];
});

/** A replay of the recording with order latency `latency` (and response latency `back`), at time t, with one funded account. */
async function at(t: number, latency: number, back = 0): Promise<{ v: ReplayVenue; acct: number }> {
  const v = await replayVenue([TRX_DEPTH_IMPORT], {
    symbols: ['TRXUSDT'],
    start: books[0].time,
    orderLatency: latency,
    responseLatency: back,
  });
  venues.push(v);
  v.market.seek(t);
  const acct = upsertAccount(
    v.exchange,
    { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT },
    0,
  ).id;
  return { v, acct };
}

/** An IOC buy of 100 TRX at `price`, sent through the market's order entry. */
function buy(v: ReplayVenue, acct: number, price: number): Promise<PlacementResult> {
  return v.market.submit(() =>
    placeOrder(v.exchange, acct, {
      symbol: 'TRXUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      time_in_force: 2,
      price: price.toFixed(5),
      qty: '100',
      leverage: 1,
    }),
  );
}

describe('order entry latency on the TRXUSDT recording', () => {
  it('an IOC buy at the best ask of t fills without latency, and not with L when the ask rose by t + L', async () => {
    const m = findMove(1);
    const now = await at(m.t, 0);
    const r0 = await buy(now.v, now.acct, m.askNow);
    expect(Number(r0.filled_qty)).toBeGreaterThan(0);
    expect(now.v.market.time).toBe(m.t);

    const late = await at(m.t, L);
    const r1 = await buy(late.v, late.acct, m.askNow);
    expect(Number(r1.filled_qty)).toBe(0);
    // the replay (not following a clock here) moved itself to the arrival time
    expect(late.v.market.time).toBe(m.t + L);
    expect(late.v.market.ordersInFlight).toBe(0);
  });

  it('an IOC buy at the lower ask of t + L does not fill without latency and fills with L, at t + L', async () => {
    const m = findMove(-1);
    const now = await at(m.t, 0);
    expect(Number((await buy(now.v, now.acct, m.askThen)).filled_qty)).toBe(0);

    const late = await at(m.t, L);
    const fills: number[] = [];
    // depth only: no historical prints, so every trade is this order's
    late.v.exchange.events.on('trade', (e) => fills.push(e.time));
    const r = await buy(late.v, late.acct, m.askThen);
    expect(Number(r.filled_qty)).toBeGreaterThan(0);
    expect(fills.length).toBeGreaterThan(0);
    expect(fills.every((t) => t === m.t + L)).toBe(true);
  });

  it('with a response latency R the answer comes at t + L + R, the order having met the book of t + L', async () => {
    const m = findMove(-1);
    const R = 70;
    const late = await at(m.t, L, R);
    const fills: number[] = [];
    late.v.exchange.events.on('trade', (e) => fills.push(e.time));
    const r = await buy(late.v, late.acct, m.askThen);
    expect(Number(r.filled_qty)).toBeGreaterThan(0);
    expect(fills.length).toBeGreaterThan(0);
    expect(fills.every((t) => t === m.t + L)).toBe(true);
    expect(late.v.market.time).toBe(m.t + L + R);
    // a refusal takes the same way back
    const t1 = late.v.market.time;
    await expect(
      late.v.market.submit(() =>
        late.v.exchange.execute({ kind: 'cancel', accountId: late.acct, symbol: 'TRXUSDT', orderId: 999_999 }),
      ),
    ).rejects.toBeInstanceOf(ApiError);
    expect(late.v.market.time).toBe(t1 + L + R);
    expect(late.v.market.status()).toMatchObject({ order_latency: L, response_latency: R, data_latency: 0 });
  });

  it('while the replay follows the clock, the order waits for the clock to reach t + L', async () => {
    let wall = 0;
    const v = await replayVenue(
      [TRX_DEPTH_IMPORT],
      { symbols: ['TRXUSDT'], start: books[0].time, orderLatency: L },
      () => wall,
    );
    venues.push(v);
    const acct = upsertAccount(
      v.exchange,
      { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT },
      0,
    ).id;
    v.market.seek(books[0].time + 5_000);
    v.market.start();
    const t = v.market.time;
    let answer: PlacementResult | null = null;
    void buy(v, acct, bestAsk(bookAt(t)) / 2).then((r) => (answer = r));
    await Promise.resolve();
    expect(v.market.ordersInFlight).toBe(1);
    wall += L / 2;
    v.market.tick();
    await Promise.resolve();
    expect(v.market.time).toBe(t + L / 2);
    expect(answer).toBeNull();
    wall += L / 2;
    v.market.tick();
    await new Promise((r) => setImmediate(r));
    expect(answer).not.toBeNull();
    expect(v.market.ordersInFlight).toBe(0);
    // a resting bid far below the book, placed at t + L
    expect(v.exchange.liveOrder(acct, Number(answer!.order_id))!.createdAt).toBe(t + L);
  });

  it('orders still in flight when the replay stops are refused, not lost silently', async () => {
    const wall = 0;
    const v = await replayVenue(
      [TRX_DEPTH_IMPORT],
      { symbols: ['TRXUSDT'], start: books[0].time, orderLatency: L },
      () => wall,
    );
    venues.push(v);
    const acct = upsertAccount(
      v.exchange,
      { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT },
      0,
    ).id;
    v.market.start();
    const p = buy(v, acct, 0.1);
    v.market.stop();
    await expect(p).rejects.toBeInstanceOf(ApiError);
    expect(v.exchange.openOrders(acct).length).toBe(0);
  });

  it('refuses a latency that is not an integer from 0 to 60000 ms', async () => {
    for (const bad of [-1, 1.5, 60_001]) {
      await expect(
        replayVenue([TRX_DEPTH_IMPORT], { symbols: ['TRXUSDT'], start: books[0].time, orderLatency: bad }),
      ).rejects.toThrow(/order latency must be an integer/);
      await expect(
        replayVenue([TRX_DEPTH_IMPORT], { symbols: ['TRXUSDT'], start: books[0].time, dataLatency: bad }),
      ).rejects.toThrow(/data latency must be an integer/);
      await expect(
        replayVenue([TRX_DEPTH_IMPORT], { symbols: ['TRXUSDT'], start: books[0].time, responseLatency: bad }),
      ).rejects.toThrow(/response latency must be an integer/);
    }
  });
});
