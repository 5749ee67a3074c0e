// The synthetic book's direct path (src-main/replay/direct-levels.ts) against the mirror's
// general pass: the same walk replayed twice, once as the replay runs it (the direct path on
// from the first print) and once with the direct path turned off, must show users and clients
// the same: every trade (id, price, size, side, time), every level change with its update id,
// the final book and the mirror's counts. Two thirds in, a user's orders rest in the book (at the
// touch and off it), and later one takes the book: the direct path ends at the first of them for good and the general pass goes on from the
// book as it is, with the same results.
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReplayData } from '../../src-main/replay/ports.ts';
import { memoryReplayVenue, tradesReplayData, walkTrades } from './harness.ts';

const START = Date.UTC(2024, 0, 1);
const N = 12_000;
const USER_AT = 8_000;

const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

function data(): ReplayData {
  return tradesReplayData(START, walkTrades(START, N));
}

/** What the replay showed, and whether the direct path was on before and after the user came. */
function run(direct: boolean, withUser: boolean) {
  const rig = memoryReplayVenue(data(), 'BTCUSDT', START, '50000.0');
  closers.push(() => rig.close());
  const { exchange, market } = rig;
  const mirror = market.engine.mirror('BTCUSDT');
  if (!direct) mirror.direct.on = false;
  const seen: string[] = [];
  exchange.events.on('trade', (e) => seen.push(`t${e.tradeId},${e.priceTicks},${e.qtyLots},${e.takerSide},${e.time}`));
  exchange.events.on('level', (e) => seen.push(`l${e.updateId},${e.side},${e.priceTicks},${e.totalLots}`));
  const book = exchange.pair('BTCUSDT')!.book;
  market.seek(START + (USER_AT - 1) * 10);
  const onBefore = mirror.direct.on;
  if (withUser) {
    const acct = upsertAccount(exchange, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 10n ** 16n }, 0).id;
    const order = (side: 1 | 2, price: number, tif: number): void => {
      const r = placeOrder(exchange, acct, {
        symbol: 'BTCUSDT',
        side,
        position_side: side,
        position_action: 1,
        type: 1,
        time_in_force: tif,
        price: exchange.pair('BTCUSDT')!.math.formatPrice(price),
        qty: '0.050',
        leverage: 20,
      });
      seen.push(`u${r.order_id},${r.status}`);
    };
    // resting orders alone first (nobody has traded with the house yet): at the best bid, behind
    // the book account, and two ticks above the best ask
    order(1, book.bestBid(), 1);
    order(2, book.bestAsk() + 2, 1);
    market.seek(START + (USER_AT + 1000 - 1) * 10);
    order(1, book.bestAsk(), 2); // then an IOC taking the best ask
  }
  market.seek(START + (N - 1) * 10);
  const depth = book.depth();
  seen.push(`book ${depth.updateId} ${JSON.stringify(depth.bids)} ${JSON.stringify(depth.asks)}`);
  seen.push(`stats ${JSON.stringify(mirror.stats)} own ${mirror.ownTrades} orders ${book.orderCount}`);
  return { seen, onBefore, onAfter: mirror.direct.on };
}

describe('the synthetic book direct path', () => {
  it('shows what the general pass shows, and ends for good once a user has an order', () => {
    for (const withUser of [false, true]) {
      const a = run(true, withUser);
      const b = run(false, withUser);
      expect(a.onBefore).toBe(true);
      expect(a.onAfter).toBe(!withUser);
      expect(b.onBefore).toBe(false);
      expect(a.seen.length).toBe(b.seen.length);
      expect(a.seen.length).toBeGreaterThan(2 * N); // trades and level changes were seen
      for (let i = 0; i < a.seen.length; i++)
        if (a.seen[i] !== b.seen[i]) expect(`${i}: ${a.seen[i]}`).toBe(`${i}: ${b.seen[i]}`);
    }
  });
});
