// The engine's level changes are recorded only while the exchange's 'level' event has a
// listener (core.ts, EventBus.watch): a replay with no client changes levels millions of times
// and builds no event for nobody. A listener that comes gets every change from then on, with the
// engine's update ids running on without a gap in what the book reports.
import { describe, expect, it } from 'vitest';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { paperVenues } from './venues.ts';

const venue = paperVenues(() => 1_700_000_000_000);

describe("level events follow the exchange's listeners", () => {
  it('records none with no listener, all of them while one listens, none again once it left', () => {
    const v = venue();
    const ex = v.exchange;
    const pair = ex.pair('BTCUSDT')!;
    const P = pair.math.ticksRound(95_000);
    const place = (price: number): number =>
      ex.execute({
        kind: 'houseOrder',
        symbol: 'BTCUSDT',
        account: HOUSE_ACCOUNT + 5,
        side: 1,
        priceTicks: price,
        lots: 3,
        tif: 1,
      }).orderId;
    const recorded: number[] = [];
    const sink = pair.sink;
    const take = sink.take.bind(sink);
    sink.take = () => {
      const events = take();
      for (const e of events) if (e.type === 'level') recorded.push(e.priceTicks);
      return events;
    };

    place(P - 1);
    expect(recorded).toEqual([]);
    expect(pair.book.levelCount(1)).toBe(1);

    const heard: Array<[number, number, number]> = [];
    const off = ex.events.on('level', (e) => heard.push([e.updateId, e.priceTicks, e.totalLots]));
    place(P - 2);
    const id = place(P - 2);
    ex.execute({ kind: 'houseTrim', symbol: 'BTCUSDT', orderId: id, lots: 0 });
    expect(recorded).toEqual([P - 2, P - 2, P - 2]);
    expect(heard.map(([, p, lots]) => [p, lots])).toEqual([
      [P - 2, 3],
      [P - 2, 6],
      [P - 2, 3],
    ]);
    // the first change heard carries the book's next update id: the unheard one used its own
    expect(heard.map(([u]) => u)).toEqual([2, 3, 4]);

    // a second listener and the first one leaving: still recorded while one is left
    const off2 = ex.events.on('level', () => {});
    off();
    place(P - 3);
    expect(recorded).toHaveLength(4);
    off2();
    off2(); // twice: no effect
    place(P - 4);
    expect(recorded).toHaveLength(4);
    expect(heard).toHaveLength(3);
    expect(pair.book.levelCount(1)).toBe(4);
  });
});
