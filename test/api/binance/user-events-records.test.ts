// What the user stream's translator (streams/user-events.ts) says of a command agrees with the
// records the command left, whenever the events go out: ORDER_TRADE_UPDATE's `T` and `o.T` are
// the order's time (NEW), the fill's (TRADE) and the order's update time (CANCELED), never the
// time the event is sent (`E`). Driven on a venue in memory with the
// exchange's own account events, its market clock paused and moved by the test between a command
// and the moment its events are translated (a microtask later).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderType, PositionAction, PositionSide, Side, TimeInForce } from '../../../src-shared/enums.ts';
import type { OrderRecord, TradeRecord } from '../../../src-shared/types.ts';
import type { BinanceContext } from '../../../src-main/api/binance/context.ts';
import { UserEvents } from '../../../src-main/api/binance/streams/user-events.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';
import { cancelOrder, placeOrder, setPrices } from '../../helpers/exchange-commands.ts';
import { account } from './helpers.ts';

let venue: LocalVenue;
let off: () => void;
let offRecords: () => void;
let events: UserEvents;
const streams = new Set<number>();
const sent: Array<{ accountId: number; msg: any }> = [];
/** The native records the commands pushed: orders and fills, as the native API shows them. */
const records: { orders: OrderRecord[]; fills: TradeRecord[] } = { orders: [], fills: [] };

beforeAll(() => {
  venue = openVenue({ dataDir: ':memory:' });
  venue.clock.pause();
  setPrices(venue.exchange, 'BTCUSDT', { mark: 96000 });
  setPrices(venue.exchange, 'ETHUSDT', { mark: 3400 });
  const ctx = { venue } as unknown as BinanceContext;
  events = new UserEvents(
    ctx,
    { deliver: (accountId, msg) => sent.push({ accountId, msg }), hasStream: (id) => streams.has(id) },
    0,
  );
  off = venue.exchange.events.on('account', (e) => events.onAccount(e));
  offRecords = venue.exchange.events.on('account', (e) => {
    if (e.kind === 'order') records.orders.push(e.data as OrderRecord);
    if (e.kind === 'fill') records.fills.push(e.data as TradeRecord);
  });
});
afterAll(async () => {
  off();
  offRecords();
  await venue.close();
});

// the account events go out once committed, and are translated a microtask later
const settle = () => new Promise((r) => setTimeout(r, 50));
/** Moves the paused market clock on by 5 s: what the command stamped is now 5 s old. */
const later = () => venue.clock.advance(5_000);

/** A one-way order of `who` (its one net position: position side 1). */
function order(who: { id: number }, symbol: string, side: Side, qty: string, price: string, tif: number): number {
  const r = placeOrder(venue.exchange, who.id, {
    symbol,
    side,
    position_side: PositionSide.LONG,
    position_action: PositionAction.OPEN,
    type: OrderType.LIMIT,
    price,
    qty,
    time_in_force: tif,
  });
  return Number(r.order_id);
}

function stream(accountId: number): void {
  events.seed(accountId);
  streams.add(accountId);
}

const of = (accountId: number, e: string) =>
  sent.filter((s) => s.accountId === accountId && s.msg.e === e).map((s) => s.msg);

describe('ORDER_TRADE_UPDATE times', () => {
  it("T and o.T are the order's and the fill's record times, E the time the event is sent", async () => {
    const a = account(venue, 'uerta', 100_000, 'one_way');
    const b = account(venue, 'uertb', 100_000, 'one_way');
    stream(a.id);
    const resting = order(a, 'BTCUSDT', Side.SELL, '0.010', '96100.0', TimeInForce.GTC);
    later();
    await settle();
    order(b, 'BTCUSDT', Side.BUY, '0.004', '96100.0', TimeInForce.IOC);
    later();
    await settle();
    const cancelled = order(a, 'BTCUSDT', Side.SELL, '0.010', '96300.0', TimeInForce.GTC);
    later();
    cancelOrder(venue.exchange, a.id, { symbol: 'BTCUSDT', orderId: cancelled });
    later();
    await settle();
    const got = of(a.id, 'ORDER_TRADE_UPDATE').map((m) => ({ x: m.o.x, i: m.o.i, T: m.T, oT: m.o.T, E: m.E }));
    const placed = (id: number) => records.orders.find((r) => Number(r.id) === id)!.created_at;
    const fill = records.fills.find((f) => Number(f.order_id) === resting)!;
    const ended = records.orders.findLast((r) => Number(r.id) === cancelled)!.updated_at;
    expect(got.map(({ x, i, T, oT }) => ({ x, i, T, oT }))).toEqual([
      { x: 'NEW', i: resting, T: placed(resting), oT: placed(resting) },
      { x: 'TRADE', i: resting, T: fill.created_at, oT: fill.created_at },
      { x: 'NEW', i: cancelled, T: placed(cancelled), oT: placed(cancelled) },
      { x: 'CANCELED', i: cancelled, T: ended, oT: ended },
    ]);
    // each sent 5 s (or 10 s) after what it reports: E is the sending, not the record's time
    for (const m of got) expect(m.E).toBeGreaterThan(m.T);
  });
});
