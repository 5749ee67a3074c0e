// The houseOrder command (the replay's fast house path): a house order in ticks and
// lots does to the book, the tape and a user's order exactly what the same order sent as a bot
// order ('placeBot', decimal strings) does, answers the lots it took, and is refused with the
// codes a bot order of that price and size gets, having changed nothing (no order id used).
import { openLimit, placeBotOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { describe, expect, it } from 'vitest';
import { ApiError, Errors } from '../../src-shared/errors.ts';
import type { Command } from '../../src-main/trading/commands.ts';
import { HOUSE_ACCOUNT, type Exchange } from '../../src-main/trading/exchange.ts';
import { paperVenues } from './venues.ts';

const UNIT = 100_000_000n;
const venue = paperVenues(() => 1_700_000_000_000);

/** The book and taker engine accounts of the house orders below (a replay's two). */
const BOOK = HOUSE_ACCOUNT + 11;
const TAKER = HOUSE_ACCOUNT + 12;

/** A house order on BTCUSDT through the exchange's door. */
type HouseOrder = Omit<Extract<Command, { kind: 'houseOrder' }>, 'kind' | 'symbol'>;
const house = (ex: Exchange, o: HouseOrder) => ex.execute({ kind: 'houseOrder', symbol: 'BTCUSDT', ...o });

/** A fresh venue's BTCUSDT, P its mark in ticks, a funded user, and the tape as 'id price lots side time'. */
function scene() {
  const ex = venue().exchange;
  const pair = ex.pair('BTCUSDT')!;
  const trades: string[] = [];
  ex.events.on('trade', (e) => trades.push(`${e.tradeId} ${e.priceTicks} ${e.qtyLots} ${e.takerSide} ${e.time}`));
  const user = upsertAccount(ex, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT }, 0).id;
  return { ex, pair, P: pair.math.ticksRound(pair.markPrice), trades, user };
}

/** A tape line's price, lots and side. */
const print = (line: string): string => line.split(' ').slice(1, 4).join(' ');

/** One scenario, with the house's orders sent one way or the other; everything observed, as lines. */
function scenario(via: 'houseOrder' | 'placeBot'): { lines: string[]; answers: unknown[] } {
  const v = venue();
  const ex = v.exchange;
  const pair = ex.pair('BTCUSDT')!;
  const lines: string[] = [];
  ex.events.on('trade', (e) => lines.push(`T ${e.tradeId} ${e.priceTicks} ${e.qtyLots} ${e.takerSide} ${e.time}`));
  ex.events.on('level', (e) => lines.push(`L ${e.updateId} ${e.side} ${e.priceTicks} ${e.totalLots}`));
  ex.events.on('account', (e) => lines.push(`A ${e.accountId} ${e.kind} ${JSON.stringify(e.data)}`));
  const user = upsertAccount(ex, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT }, 0).id;
  const P = pair.math.ticksRound(95_000);
  const answers: unknown[] = [];
  const send = (account: number, side: 1 | 2, price: number, lots: number, tif: 1 | 2): void => {
    if (via === 'houseOrder') {
      const r = house(ex, { account, side, priceTicks: price, lots, tif });
      answers.push([r.orderId, r.filledLots]);
    } else {
      const r = ex.execute({
        kind: 'placeBot',
        engineAccount: account,
        input: {
          symbol: 'BTCUSDT',
          side,
          position_side: side,
          position_action: 1,
          type: 1,
          price: pair.math.formatPrice(price),
          qty: pair.math.formatQty(lots),
          time_in_force: tif,
          need_cache: false,
        },
      });
      answers.push([Number(r.order_id), Math.round(Number(r.filled_qty) / Number(pair.row.stepSize))]);
    }
  };
  const trim = (orderId: number, lots: number): void => {
    if (via === 'houseOrder') answers.push(ex.execute({ kind: 'houseTrim', symbol: 'BTCUSDT', orderId, lots }));
    else if (lots === 0) answers.push(ex.execute({ kind: 'cancelBot', symbol: 'BTCUSDT', orderId }).order_id);
    else answers.push(ex.execute({ kind: 'trimBot', symbol: 'BTCUSDT', orderId, lots }).remaining_lots);
  };
  // houseTrim: a house bid of 1.000 two ticks down trimmed to 0.400 (still ahead of the user's
  // bid queued behind it), then to 0.150, then cancelled; the user's order is then alone there
  send(BOOK, 1, P - 2, 1000, 1);
  const deep = (answers.at(-1) as number[])[0];
  openLimit(ex, user, { side: 1, price: pair.math.formatPrice(P - 2), qty: '0.100' });
  trim(deep, 400);
  lines.push(`Q ${JSON.stringify(pair.book.levelOrderIds(1, P - 2))}`);
  trim(deep, 150);
  trim(deep, 0);
  lines.push(`Q ${JSON.stringify(pair.book.levelOrderIds(1, P - 2))}`);
  // the house bids 1.000 at P, a user bids 0.500 behind it, the house adds 0.700 behind the user
  send(BOOK, 1, P, 1000, 1);
  openLimit(ex, user, { side: 1, price: pair.math.formatPrice(P), qty: '0.500' });
  send(BOOK, 1, P, 700, 1);
  // a house IOC sell of 1.200 at P: the house's 1.000 first, then 0.200 of the user's order
  send(TAKER, 2, P, 1200, 2);
  // a house IOC sell through the level and one tick below, where nothing rests: the user's 0.300
  // and the house's 0.700 fill, the rest expires
  send(TAKER, 2, P - 1, 5000, 2);
  // an IOC that crosses nothing
  send(TAKER, 1, P - 5, 100, 2);
  v.trading.group.commitNow(); // private events go out after their commit
  return { lines, answers };
}

describe('houseOrder', () => {
  it("does what the same bot order does: book, tape, update ids, the user's fills", () => {
    const a = scenario('houseOrder');
    const b = scenario('placeBot');
    expect(a.lines).toEqual(b.lines);
    // the answers are numbers here, strings and objects there
    expect(a.answers.map((x) => JSON.stringify(x))).toEqual(
      b.answers.map((x) => JSON.stringify(typeof x === 'string' ? 0 : x)),
    );
    // and what it did is the queue's order: the user filled 0.200 then 0.300, at P
    const fills = a.lines.filter((l) => l.startsWith('A ') && l.includes(' fill '));
    expect(fills.map((l) => (JSON.parse(l.slice(l.indexOf('{'))) as { qty: string }).qty)).toEqual(['0.200', '0.300']);
    expect(a.answers.map((x) => (Array.isArray(x) ? x[1] : x))).toEqual([0, 400, 150, 0, 0, 0, 1200, 1000, 0]);
    const queues = a.lines.filter((l) => l.startsWith('Q '));
    expect(queues.map((q) => (JSON.parse(q.slice(2)) as number[]).length)).toEqual([2, 1]); // trimmed in place, then gone
  });

  it('refuses what a bot order of that price and size is refused, changing nothing', () => {
    const v = venue();
    const ex = v.exchange;
    const pair = ex.pair('BTCUSDT')!;
    const mark = pair.markPrice;
    const P = pair.math.ticksRound(mark);
    const base: Extract<Command, { kind: 'houseOrder' }> = {
      kind: 'houseOrder',
      symbol: 'BTCUSDT',
      account: HOUSE_ACCOUNT + 11,
      side: 1,
      priceTicks: P,
      lots: 10,
      tif: 1,
    };
    const cases: Array<[Partial<typeof base>, number]> = [
      [{ priceTicks: pair.math.ticksRound(mark * 1.2) }, Errors.PRICE_OUTSIDE_BAND.code],
      [{ side: 2, priceTicks: pair.math.ticksRound(mark * 0.8) }, Errors.PRICE_OUTSIDE_BAND.code],
      [{ lots: 0 }, Errors.INVALID_PARAMETER.code],
      [{ lots: 1.5 }, Errors.INVALID_PARAMETER.code],
      [{ priceTicks: 0 }, Errors.INVALID_PARAMETER.code],
      [{ account: 5 }, Errors.INVALID_PARAMETER.code],
      [{ side: 3 as 1 }, Errors.INVALID_PARAMETER.code],
      [{ tif: 3 as 1 }, Errors.INVALID_PARAMETER.code],
      [{ symbol: 'NOPEUSDT' }, Errors.SYMBOL_NOT_FOUND.code],
      [{ expireOwn: 1 as unknown as boolean }, Errors.INVALID_PARAMETER.code],
    ];
    const before = pair.book.updateId;
    for (const [change, code] of cases) {
      try {
        ex.execute({ ...base, ...change });
        expect.unreachable(JSON.stringify(change));
      } catch (err) {
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).code, JSON.stringify(change)).toBe(code);
      }
    }
    // the same band refusal as a bot order
    expect(() =>
      placeBotOrder(ex, {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: pair.math.formatPrice(pair.math.ticksRound(mark * 1.2)),
        qty: '0.010',
      }),
    ).toThrow(expect.objectContaining({ code: Errors.PRICE_OUTSIDE_BAND.code }));
    expect(pair.book.updateId).toBe(before);
    expect(pair.book.orderCount).toBe(0);
    // no order id was used by the refusals: the next order gets the one after the bot order's
    const r = ex.execute(base);
    const bot = placeBotOrder(ex, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: pair.math.formatPrice(P),
      qty: '0.010',
    });
    expect(Number(bot.order_id)).toBe(r.orderId + 1);
    expect(r.filledLots).toBe(0);
    expect(pair.book.getOrder(r.orderId)).toMatchObject({
      account: HOUSE_ACCOUNT + 11,
      priceTicks: P,
      remainingLots: 10,
    });
    // houseTrim refuses unknown and non-house orders and sizes that are not a reduction
    const user = upsertAccount(ex, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT }, 0).id;
    const mine = Number(openLimit(ex, user, { side: 1, price: pair.math.formatPrice(P - 10), qty: '0.010' }).order_id);
    const trims: Array<[number, number, number]> = [
      [999_999, 0, Errors.ORDER_NOT_FOUND.code],
      [mine, 0, Errors.ORDER_NOT_FOUND.code],
      [r.orderId, 10, Errors.INVALID_PARAMETER.code],
      [r.orderId, 11, Errors.INVALID_PARAMETER.code],
      [r.orderId, -1, Errors.INVALID_PARAMETER.code],
      [r.orderId, 2.5, Errors.INVALID_PARAMETER.code],
    ];
    const id0 = pair.book.updateId;
    for (const [orderId, lots, code] of trims) {
      expect(() => ex.execute({ kind: 'houseTrim', symbol: 'BTCUSDT', orderId, lots })).toThrow(
        expect.objectContaining({ code }),
      );
    }
    expect(pair.book.updateId).toBe(id0);
    expect(pair.book.getOrder(mine)!.remainingLots).toBe(10);
    expect(pair.book.getOrder(r.orderId)!.remainingLots).toBe(10);
  });

  it("expireOwn: the account's own orders it meets are cancelled and it goes on (else meeting one ends it); others' orders trade", () => {
    const run = (expireOwn: boolean) => {
      const { ex, pair, P, trades, user } = scene();
      // the book's asks at P (two orders) and P + 1, a user's ask at P + 1 behind the book's
      const a1 = house(ex, { account: BOOK, side: 2, priceTicks: P, lots: 4, tif: 1 }).orderId;
      const a2 = house(ex, { account: BOOK, side: 2, priceTicks: P, lots: 6, tif: 1 }).orderId;
      const a3 = house(ex, { account: BOOK, side: 2, priceTicks: P + 1, lots: 5, tif: 1 }).orderId;
      const mine = Number(openLimit(ex, user, { side: 2, price: pair.math.formatPrice(P + 1), qty: '0.003' }).order_id);
      // the book bids 20 at P + 1: its own asks at P and P + 1 are in the way, the user's too
      const r = house(ex, { account: BOOK, side: 1, priceTicks: P + 1, lots: 20, tif: 1, expireOwn });
      return {
        r,
        trades,
        bid: pair.book.bestBid(),
        ask: pair.book.bestAsk(),
        gone: [a1, a2, a3, mine].map((id) => pair.book.getOrder(id) === null),
        rest: pair.book.getOrder(r.orderId)?.remainingLots ?? 0,
        orders: pair.book.orderCount,
        P,
      };
    };
    const on = run(true);
    // the own asks cancelled as met, the user's 3 lots traded (after the own ask queued ahead of
    // them), the rest of the bid resting at P + 1
    expect(on.gone).toEqual([true, true, true, true]);
    expect(on.trades.map(print)).toEqual([`${on.P + 1} 3 1`]);
    expect(on.r.filledLots).toBe(3);
    expect(on.rest).toBe(17);
    expect([on.bid, on.ask]).toEqual([on.P + 1, 0]);
    expect(on.orders).toBe(1);
    // without it the first own ask ends the order (self-trade prevention's default, expire taker): nothing changes
    const off = run(false);
    expect(off.gone).toEqual([false, false, false, false]);
    expect(off.trades).toEqual([]);
    expect(off.r.filledLots).toBe(0);
    expect([off.bid, off.ask]).toEqual([0, off.P]);
    expect(off.orders).toBe(4);
  });

  it("housePrint: the same book, tape and last price as the maker's order and an IOC taker, in one command", () => {
    const run = (merged: boolean) => {
      const { ex, pair, P, trades, user } = scene();
      // the book's ask at P (two orders) and P + 1; a user's bid below and ask above, untouched
      for (const [price, lots] of [
        [P, 4],
        [P, 6],
        [P + 1, 5],
      ])
        house(ex, { account: BOOK, side: 2, priceTicks: price, lots, tif: 1 });
      openLimit(ex, user, { side: 1, price: pair.math.formatPrice(P - 3), qty: '0.002' });
      openLimit(ex, user, { side: 2, price: pair.math.formatPrice(P + 2), qty: '0.002' });
      // a sell printed at P: the book's bid at P takes its ask at P away, 7 lots trade, 12 stay
      if (merged) {
        const r = ex.execute({
          kind: 'housePrint',
          symbol: 'BTCUSDT',
          maker: BOOK,
          taker: TAKER,
          takerSide: 2,
          priceTicks: P,
          lots: 7,
          rest: 12,
          expireOwn: true,
        });
        expect(r.filledLots).toBe(7);
        expect(pair.book.getOrder(r.orderId)).toMatchObject({
          account: BOOK,
          side: 1,
          priceTicks: P,
          remainingLots: 12,
        });
      } else {
        house(ex, { account: BOOK, side: 1, priceTicks: P, lots: 19, tif: 1, expireOwn: true });
        expect(house(ex, { account: TAKER, side: 2, priceTicks: P, lots: 7, tif: 2 }).filledLots).toBe(7);
      }
      // the book's bid at P goes; then a sell printed at P - 1, between the user's bid and the
      // asks, where nothing shows (rest 0: only the trade)
      const bid = pair.book.levelOrderIds(1, P)[0];
      ex.execute({ kind: 'houseTrim', symbol: 'BTCUSDT', orderId: bid, lots: 0 });
      if (merged)
        ex.execute({
          kind: 'housePrint',
          symbol: 'BTCUSDT',
          maker: BOOK,
          taker: TAKER,
          takerSide: 2,
          priceTicks: P - 1,
          lots: 3,
          rest: 0,
          expireOwn: false,
        });
      else {
        house(ex, { account: BOOK, side: 1, priceTicks: P - 1, lots: 3, tif: 1 });
        house(ex, { account: TAKER, side: 2, priceTicks: P - 1, lots: 3, tif: 2 });
      }
      return { trades, depth: pair.book.depth(), last: pair.lastPriceTicks, orders: pair.book.orderCount, P };
    };
    const one = run(true);
    const two = run(false);
    expect(one.trades).toEqual(two.trades);
    expect(one.trades.map(print)).toEqual([`${one.P} 7 2`, `${one.P - 1} 3 2`]);
    expect({ bids: one.depth.bids, asks: one.depth.asks }).toEqual({ bids: two.depth.bids, asks: two.depth.asks });
    expect(one.depth.bids[0][0]).toBe(one.P - 3);
    expect(one.depth.asks[0][0]).toBe(one.P + 1);
    expect(one.last).toBe(two.last);
    expect(one.orders).toBe(two.orders);
  });

  it('housePrint refuses a print that could meet another order, or a bad one, changing nothing', () => {
    const { ex, pair, P, trades, user } = scene();
    // the user's bid at P - 2 and ask at P + 2; the book's own ask at P + 1
    openLimit(ex, user, { side: 1, price: pair.math.formatPrice(P - 2), qty: '0.002' });
    openLimit(ex, user, { side: 2, price: pair.math.formatPrice(P + 2), qty: '0.002' });
    house(ex, { account: BOOK, side: 2, priceTicks: P + 1, lots: 5, tif: 1 });
    const base: Extract<Command, { kind: 'housePrint' }> = {
      kind: 'housePrint',
      symbol: 'BTCUSDT',
      maker: BOOK,
      taker: TAKER,
      takerSide: 2,
      priceTicks: P,
      lots: 7,
      rest: 3,
      expireOwn: false,
    };
    const cases: Array<[Partial<typeof base>, number]> = [
      [{ priceTicks: P - 2 }, Errors.INVALID_PARAMETER.code], // the user's bid is at the price (a sell would meet it)
      [{ priceTicks: P - 3 }, Errors.INVALID_PARAMETER.code], // and better than it
      [{ takerSide: 1, priceTicks: P + 2 }, Errors.INVALID_PARAMETER.code], // the user's ask (and the book's) at or below a buy's level across
      [{ takerSide: 1, priceTicks: P - 2, expireOwn: true }, Errors.INVALID_PARAMETER.code], // the user's bid across: expireOwn cancels only the maker's own
      [{ priceTicks: P + 1 }, Errors.INVALID_PARAMETER.code], // the book's own ask across, without expireOwn
      [{ priceTicks: P + 1, expireOwn: true, rest: 0 }, Errors.INVALID_PARAMETER.code], // and with nothing to place that would cancel it
      [{ taker: BOOK }, Errors.INVALID_PARAMETER.code],
      [{ taker: 5 }, Errors.INVALID_PARAMETER.code],
      [{ rest: -1 }, Errors.INVALID_PARAMETER.code],
      [{ rest: 1.5 }, Errors.INVALID_PARAMETER.code],
      [{ lots: 0 }, Errors.INVALID_PARAMETER.code],
      [{ takerSide: 3 as 1 }, Errors.INVALID_PARAMETER.code],
      [{ expireOwn: 'yes' as unknown as boolean }, Errors.INVALID_PARAMETER.code],
      [{ priceTicks: pair.math.ticksRound(pair.markPrice * 0.8) }, Errors.PRICE_OUTSIDE_BAND.code],
      [{ symbol: 'NOPEUSDT' }, Errors.SYMBOL_NOT_FOUND.code],
    ];
    const before = pair.book.updateId;
    const orders = pair.book.orderCount;
    for (const [change, code] of cases) {
      expect(() => ex.execute({ ...base, ...change }), JSON.stringify(change)).toThrow(
        expect.objectContaining({ code }),
      );
    }
    expect(pair.book.updateId).toBe(before);
    expect(pair.book.orderCount).toBe(orders);
    expect(trades).toEqual([]);
    // the book's own ask across goes with expireOwn and a level to place: the print is booked
    expect(ex.execute({ ...base, priceTicks: P + 1, expireOwn: true }).filledLots).toBe(7);
    expect([pair.book.bestBid(), pair.book.bestAsk(), trades.map(print)]).toEqual([P + 1, P + 2, [`${P + 1} 7 2`]]);
  });

  it('houseGrow: growing the last order of a level is the queue an added order makes, one order fewer', () => {
    // the same level built twice: a house bid of 0.010, a user bid behind it, a house bid of 0.005
    // last; then 0.007 more at the back, once as a new house order and once as houseGrow of the
    // last one; sells of 0.010, 0.010, 0.012 then take from the level: the user's fills, the tape
    // and the level must agree
    const run = (grow: boolean): { lines: string[]; orders: number } => {
      const v = venue();
      const ex = v.exchange;
      const pair = ex.pair('BTCUSDT')!;
      const P = pair.math.ticksRound(pair.markPrice) - 5;
      const lines: string[] = [];
      ex.events.on('trade', (e) => lines.push(`T ${e.priceTicks} ${e.qtyLots} ${e.takerSide}`));
      ex.events.on('level', (e) => lines.push(`L ${e.side} ${e.priceTicks} ${e.totalLots}`));
      const user = upsertAccount(ex, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT }, 0).id;
      const bid = (lots: number): number => house(ex, { account: BOOK, side: 1, priceTicks: P, lots, tif: 1 }).orderId;
      bid(10);
      const mine = Number(openLimit(ex, user, { side: 1, price: pair.math.formatPrice(P), qty: '0.010' }).order_id);
      const last = bid(5);
      if (grow) expect(ex.execute({ kind: 'houseGrow', symbol: 'BTCUSDT', orderId: last, lots: 12 })).toBe(12);
      else bid(7);
      for (const lots of [10, 10, 12]) {
        house(ex, { account: TAKER, side: 2, priceTicks: P, lots, tif: 2 });
        // the user's order after each sell: its lots left (none once filled)
        lines.push(`F ${pair.book.getOrder(mine)?.remainingLots ?? 0}`);
      }
      return { lines, orders: pair.book.orderCount };
    };
    const added = run(false);
    const grown = run(true);
    // the user's 0.010 fills by the second sell (behind the first house order, ahead of the rest)
    expect(added.lines.filter((l) => l.startsWith('F '))).toEqual(['F 10', 'F 0', 'F 0']);
    expect(grown.lines.filter((l) => l.startsWith('F '))).toEqual(added.lines.filter((l) => l.startsWith('F ')));
    expect(grown.lines.filter((l) => l.startsWith('L '))).toEqual(added.lines.filter((l) => l.startsWith('L ')));
    // the tape: the same lots at the same price, one trade fewer where the two back orders were one
    const vol = (r: { lines: string[] }): number =>
      r.lines.filter((l) => l.startsWith('T ')).reduce((a, l) => a + Number(l.split(' ')[2]), 0);
    expect(vol(grown)).toBe(vol(added));
    expect(vol(grown)).toBe(32);
    expect(grown.lines.filter((l) => l.startsWith('T ')).length).toBe(
      added.lines.filter((l) => l.startsWith('T ')).length - 1,
    );
    expect(grown.orders).toBe(0);
    expect(added.orders).toBe(0);
  });

  it('houseGrow refuses what is not the last house order of its level, or not a growth, changing nothing', () => {
    const v = venue();
    const ex = v.exchange;
    const pair = ex.pair('BTCUSDT')!;
    const P = pair.math.ticksRound(pair.markPrice) - 5;
    const bid = (lots: number): number => house(ex, { account: BOOK, side: 1, priceTicks: P, lots, tif: 1 }).orderId;
    const first = bid(10);
    const user = upsertAccount(ex, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT }, 0).id;
    const mine = Number(openLimit(ex, user, { side: 1, price: pair.math.formatPrice(P), qty: '0.010' }).order_id);
    const last = bid(5);
    const cases: Array<[number, number, number]> = [
      [first, 20, Errors.INVALID_PARAMETER.code], // the user's order is behind it
      [mine, 20, Errors.ORDER_NOT_FOUND.code], // not a house order
      [999_999, 20, Errors.ORDER_NOT_FOUND.code],
      [last, 5, Errors.INVALID_PARAMETER.code], // not a growth
      [last, 3, Errors.INVALID_PARAMETER.code],
      [last, 7.5, Errors.INVALID_PARAMETER.code],
      [last, pair.maxLots + 1, Errors.INVALID_PARAMETER.code],
    ];
    const id0 = pair.book.updateId;
    for (const [orderId, lots, code] of cases) {
      expect(() => ex.execute({ kind: 'houseGrow', symbol: 'BTCUSDT', orderId, lots }), `${orderId} ${lots}`).toThrow(
        expect.objectContaining({ code }),
      );
    }
    expect(pair.book.updateId).toBe(id0);
    expect(pair.book.levelOrderIds(1, P)).toEqual([first, mine, last]);
    expect(pair.book.getOrder(last)!.remainingLots).toBe(5);
    expect(ex.execute({ kind: 'houseGrow', symbol: 'BTCUSDT', orderId: last, lots: 9 })).toBe(9);
    expect(pair.book.levelOrderIds(1, P)).toEqual([first, mine, last]);
    expect(pair.book.getOrder(last)!.remainingLots).toBe(9);
  });
});
