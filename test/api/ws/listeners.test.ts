// The /ws hub costs the exchange nothing while no market stream is subscribed: its level and
// trade listeners come with the first market subscription (any pair, any market stream) and go
// with the last, so a venue with no market stream open builds no level events for it. A
// depth_update stream opened again after a time without any starts a fresh window at the book's
// id of that moment (pu = that id, U = pu + 1): no hole, no stale changes.
import { placeBotOrder } from '../../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSE_ACCOUNT, type BotOrderInput } from '../../../src-main/trading/exchange.ts';
import type { LocalVenue as Venue } from '../../../src-main/venue.ts';
import { startWsService, until, type TestClient, type WsService } from './ws-test-client.ts';

let svc: WsService;
let venue: Venue;

beforeAll(async () => {
  svc = await startWsService();
  venue = svc.venue;
});

afterAll(() => svc.close());

function client(): Promise<TestClient> {
  return svc.open();
}

const counts = () => ({ level: venue.exchange.events.count('level'), trade: venue.exchange.events.count('trade') });

function bot(side: 1 | 2, ticksFromMid: number): void {
  const mid = Math.round(venue.exchange.pair('BTCUSDT')!.markPrice * 10);
  const input: BotOrderInput = {
    symbol: 'BTCUSDT',
    side,
    position_side: side,
    position_action: 1,
    type: 1,
    price: ((mid + ticksFromMid) / 10).toFixed(1),
    qty: '0.010',
  };
  placeBotOrder(venue.exchange, input, HOUSE_ACCOUNT);
}

describe('/ws market listeners on demand', () => {
  it('attaches with the first market subscription, detaches with the last; a new depth window starts at the book', async () => {
    const base = counts();
    const a = await client();
    expect(await a.request('SUBSCRIBE', ['depth_update@BTCUSDT'])).toMatchObject({ result: null });
    const one = counts();
    expect(one).toEqual({ level: base.level + 1, trade: base.trade + 1 });
    const b = await client();
    expect(await b.request('SUBSCRIBE', ['trade@ETHUSDT', 'price@BTCUSDT'])).toMatchObject({ result: null });
    expect(counts()).toEqual(one); // one set for the hub, not one per pair or connection
    expect(await a.request('UNSUBSCRIBE', ['depth_update@BTCUSDT'])).toMatchObject({ result: null });
    expect(counts()).toEqual(one); // b's streams still there
    expect(await b.request('UNSUBSCRIBE', ['trade@ETHUSDT', 'price@BTCUSDT'])).toMatchObject({ result: null });
    expect(counts()).toEqual(base);

    // the book changes while nobody listens; then a depth_update stream again
    bot(1, -30);
    bot(2, 30);
    const at = venue.exchange.pair('BTCUSDT')!.book.updateId;
    expect(await a.request('SUBSCRIBE', ['depth_update@BTCUSDT'])).toMatchObject({ result: null });
    expect(counts()).toEqual(one);
    bot(1, -31);
    const push = await a.waitFor((m) => m.stream === 'depth_update@BTCUSDT' && m.data.u > at, 5000);
    expect(push.data.pu).toBe(at);
    expect(push.data.U).toBe(at + 1);
    a.close();
    await until(() => counts().level === base.level);
    expect(counts()).toEqual(base);
  });
});
