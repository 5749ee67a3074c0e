// What others can do to the replay's historical book (TRXUSDT depth recording): a user's resting
// order changes no house order, so no level is put back for it; a user's order that trades with
// the book has the levels it traded at put back at the next event; the bot API cannot cancel or
// trim the book's orders (they are history's, not a bot's).
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { REPLAY_BOOK_ACCOUNT, REPLAY_TAKER_ACCOUNT } from '../../src-main/replay/symbol-replay.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { replayVenue, TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT, trxBooks, type ReplayVenue } from './harness.ts';

const UNIT = 100_000_000n;
describe('others and the historical book', () => {
  let v: ReplayVenue;
  let acct: number;
  beforeAll(async () => {
    const books = trxBooks();
    v = await replayVenue([TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT], { symbols: ['TRXUSDT'], start: books[0].time });
    v.market.seek(books[0].time + 5_000);
    acct = upsertAccount(v.exchange, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT }, 0).id;
  }, 60_000);
  afterAll(() => v?.close());

  it('a resting user order puts nothing back; one that trades has exactly its levels put back', () => {
    const pair = v.exchange.pair('TRXUSDT')!;
    const mirror = v.market.engine.mirror('TRXUSDT');
    const levels: Array<[number, number, number]> = [];
    v.exchange.events.on('level', (e) => levels.push([e.side, e.priceTicks, e.totalLots]));
    // resting, away from the touch: the book's update id moves, no house order changes
    const r0 = mirror.stats.resyncs;
    placeOrder(v.exchange, acct, {
      symbol: 'TRXUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: pair.math.formatPrice(pair.book.bestBid() - 20),
      qty: '100',
      leverage: 1,
    });
    v.market.step(2_000);
    expect(mirror.stats.resyncs).toBe(r0);
    // a buy through the two best asks: those two levels, and only they, are put back
    const a1 = pair.book.bestAsk();
    const hist = mirror.hist[1];
    const want1 = hist.get(a1)!;
    const want2 = hist.get(a1 + 1)!;
    expect(want1).toBeGreaterThan(0);
    expect(want2).toBeGreaterThan(0);
    const qty = pair.math.formatQty(want1 + Math.floor(want2 / 2));
    expect(
      placeOrder(v.exchange, acct, {
        symbol: 'TRXUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        time_in_force: 2,
        price: pair.math.formatPrice(a1 + 1),
        qty,
        leverage: 1,
      }).status,
    ).toBe(3);
    levels.length = 0;
    mirror.restoreIfTouched();
    expect(mirror.stats.resyncs).toBe(r0 + 1);
    // the two levels back at their historical sizes, nothing else touched
    expect(levels).toEqual([
      [2, a1, want1],
      [2, a1 + 1, want2],
    ]);
    expect(mirror.houseLots(2, a1)).toBe(want1);
    expect(mirror.houseLots(2, a1 + 1)).toBe(want2);
    // nothing left to put back
    levels.length = 0;
    mirror.restoreIfTouched();
    expect(levels).toEqual([]);
    expect(mirror.stats.resyncs).toBe(r0 + 1);
  });

  it('the bot API cannot cancel or trim the historical book', () => {
    const pair = v.exchange.pair('TRXUSDT')!;
    const id = pair.book.openOrderIds(REPLAY_BOOK_ACCOUNT)[0];
    const before = pair.book.getOrder(id)!;
    expect(() => v.exchange.execute({ kind: 'cancelBot', symbol: 'TRXUSDT', orderId: id })).toThrow(
      expect.objectContaining({ code: Errors.ORDER_NOT_FOUND.code }),
    );
    expect(() => v.exchange.execute({ kind: 'trimBot', symbol: 'TRXUSDT', orderId: id, lots: 1 })).toThrow(
      expect.objectContaining({ code: Errors.ORDER_NOT_FOUND.code }),
    );
    expect(pair.book.getOrder(id)).toEqual(before);
    // the venue set-up accepts house accounts only
    expect(() => v.exchange.reserveHouseAccounts([5])).toThrow(RangeError);
    expect(REPLAY_TAKER_ACCOUNT).toBeGreaterThan(HOUSE_ACCOUNT);
  });
});
