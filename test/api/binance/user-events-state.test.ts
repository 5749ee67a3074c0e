// What the user stream's translator keeps between commands (streams/user-events.ts) does not grow
// with the orders an account ever had: once an account's last stream closed nothing of it or of its
// orders is left, whatever its orders did since; while a stream is open an order is kept only
// until it is final. Driven on a venue in memory with the exchange's own account events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderType, PositionAction, PositionSide, Side, TimeInForce } from '../../../src-shared/enums.ts';
import type { BinanceContext } from '../../../src-main/api/binance/context.ts';
import { UserEvents } from '../../../src-main/api/binance/streams/user-events.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';
import { cancelOrder, placeOrder } from '../../helpers/exchange-commands.ts';
import { account } from './helpers.ts';

let venue: LocalVenue;
let off: () => void;
let events: UserEvents;
const streams = new Set<number>();
const sent: Array<{ accountId: number; msg: any }> = [];

beforeAll(() => {
  venue = openVenue({ dataDir: ':memory:' });
  venue.clock.pause();
  const ctx = { venue } as unknown as BinanceContext;
  events = new UserEvents(
    ctx,
    { deliver: (accountId, msg) => sent.push({ accountId, msg }), hasStream: (id) => streams.has(id) },
    0,
  );
  off = venue.exchange.events.on('account', (e) => events.onAccount(e));
});
afterAll(async () => {
  off();
  await venue.close();
});

/** Entries of every Map and Set the translator holds, and of the Maps and Sets they hold. */
function kept(): number {
  let n = 0;
  for (const v of Object.values(events)) {
    if (!(v instanceof Map) && !(v instanceof Set)) continue;
    n += v.size;
    for (const inner of v.values()) if (inner instanceof Map || inner instanceof Set) n += inner.size;
  }
  return n;
}

// the account events go out once committed, and are translated a microtask later
const settle = () => new Promise((r) => setTimeout(r, 50));

function limit(who: { id: number }, side: Side, qty: string, price: string, tif: number = TimeInForce.GTC): number {
  const r = placeOrder(venue.exchange, who.id, {
    symbol: 'BTCUSDT',
    side,
    position_side: PositionSide.LONG, // one-way: one net position
    position_action: PositionAction.OPEN,
    type: OrderType.LIMIT,
    price,
    qty,
    time_in_force: tif,
  });
  return Number(r.order_id);
}

function open(accountId: number): void {
  events.seed(accountId);
  streams.add(accountId);
}

function close(accountId: number): void {
  streams.delete(accountId);
  events.forget(accountId);
}

describe('user stream translator state', () => {
  it('nothing is kept of an account once its last stream closed, whatever its orders did after', async () => {
    const a = account(venue, 'uesa', 100_000, 'one_way');
    const b = account(venue, 'uesb', 100_000, 'one_way');
    open(a.id);
    const id = limit(a, Side.SELL, '0.010', '96100.0');
    limit(b, Side.BUY, '0.004', '96100.0', TimeInForce.IOC);
    await settle();
    expect(sent.filter((s) => s.msg.o?.i === id).map((s) => s.msg.o.x)).toEqual(['NEW', 'TRADE']);
    close(a.id);
    // the order ends while no stream is open: its final events are never translated
    cancelOrder(venue.exchange, a.id, { symbol: 'BTCUSDT', orderId: id });
    await settle();
    expect(kept()).toBe(0);
  });

  it('with a stream open, an order is kept only until it is final', async () => {
    const a = account(venue, 'uesc', 100_000, 'one_way');
    const b = account(venue, 'uesd', 100_000, 'one_way');
    open(a.id);
    const start = kept();
    const resting = limit(a, Side.SELL, '0.010', '96200.0');
    await settle();
    expect(kept()).toBeGreaterThan(start);
    limit(b, Side.BUY, '0.010', '96200.0', TimeInForce.IOC);
    const cancelled = limit(a, Side.SELL, '0.010', '96300.0');
    cancelOrder(venue.exchange, a.id, { symbol: 'BTCUSDT', orderId: cancelled });
    await settle();
    expect(sent.filter((s) => s.msg.o?.i === resting).map((s) => s.msg.o.X)).toEqual(['NEW', 'FILLED']);
    // what is left is what a stream opened now would start from (wallet, positions): no order
    const left = kept();
    close(a.id);
    expect(kept()).toBe(0);
    open(a.id);
    expect(left).toBe(kept());
    close(a.id);
  });
});

describe('a failing stream', () => {
  it("one account's stream that throws stops neither the others' events nor the service", async () => {
    const a = account(venue, 'uesf', 100_000, 'one_way');
    const b = account(venue, 'uesg', 100_000, 'one_way');
    const got: number[] = [];
    const logged: unknown[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void logged.push(args[0]);
    const failing = new UserEvents(
      { venue } as unknown as BinanceContext,
      {
        deliver: (accountId) => {
          if (accountId === a.id) throw new Error('socket gone');
          got.push(accountId);
        },
        hasStream: (id) => id === a.id || id === b.id,
      },
      0,
    );
    const offFailing = venue.exchange.events.on('account', (e) => failing.onAccount(e));
    try {
      failing.seed(a.id);
      failing.seed(b.id);
      // one command, both accounts' events in one batch: a's translated first
      limit(a, Side.SELL, '0.010', '96400.0');
      limit(b, Side.BUY, '0.010', '96400.0', TimeInForce.IOC);
      await settle();
      expect(got.length).toBeGreaterThan(0);
      expect(new Set(got)).toEqual(new Set([b.id]));
      expect(String(logged[0])).toContain(`account ${a.id}`);
    } finally {
      offFailing();
      console.error = error;
    }
  });
});
