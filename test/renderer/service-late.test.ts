// A screen opened while the service is down or restarting: its first requests fail, the
// WebSocket's first attempt fails (and with it the SUBSCRIBEs sent before it, which the client
// reports at once rather than wait), then the service comes up. The pair catalogue is loaded
// again and every stream the feeds follow is subscribed once the connection opens, so the chart,
// book, tape and price stream come back without a reload.
import { describe, expect, it } from 'vitest';
import { PerpdeskApiError, type RestClient } from '../../src-shared/sdk/rest-client.ts';
import { WsClient } from '../../src-shared/sdk/ws-client.ts';
import { createSymbolsStore, reloadWhenOpen } from '../../src-renderer/src/features/symbols/symbols-store.ts';
import { keepSubscribed } from '../../src-renderer/src/lib/kept-streams.ts';
import { ManualScheduler } from '../helpers/manual-scheduler.ts';
import { FakeVenue, flush } from '../shared/sdk/fake-venue.ts';

/** A client whose service is down (its first attempt fails), and a way to bring it up. */
function downAtFirst() {
  const venue = new FakeVenue();
  const sched = new ManualScheduler();
  const ws = new WsClient({
    url: 'ws://fake/ws',
    WebSocket: venue.WebSocket,
    scheduler: sched,
    reconnectBaseMs: 100,
    reconnectJitter: 0,
  });
  ws.onError(() => {});
  ws.connect();
  const up = async (): Promise<void> => {
    venue.socket(0).drop(); // the first attempt fails: the service is not there
    await flush();
    sched.advance(100);
    venue.socket(1).open(); // it is back
    await flush();
  };
  return { venue, ws, up };
}

describe('a screen opened before the service is there', () => {
  it('loads the pair catalogue again once the connection opens', async () => {
    const t = downAtFirst();
    let serving = false;
    const refuse = (): never => {
      throw new PerpdeskApiError(-1, 'Cannot reach the service at http://fake: Failed to fetch', 0);
    };
    const general = { symbol: 'BTCUSDT' };
    const futures = { symbol: 'BTCUSDT', price_precision: 1, qty_precision: 3 };
    const api = {
      generalSymbols: async () => (serving ? [general] : refuse()),
      futuresSymbols: async (f: { tag?: string } = {}) => (serving ? (f.tag ? [] : [futures]) : refuse()),
    } as unknown as RestClient;
    const symbols = createSymbolsStore(api);
    reloadWhenOpen(symbols, t.ws);
    await symbols.getState().actions.load();
    expect(symbols.getState().status).toBe('error');

    serving = true;
    await t.up();
    expect(symbols.getState().status).toBe('ready');
    expect(symbols.getState().entries.map((e) => e.general.symbol)).toEqual(['BTCUSDT']);
  });

  it("subscribes a feed's streams once the connection opens, and tells the feed", async () => {
    const t = downAtFirst();
    const told: boolean[] = [];
    keepSubscribed(t.ws, ['trade@BTCUSDT'], (again) => told.push(again));
    keepSubscribed(t.ws, ['depth_update@BTCUSDT', 'depth@BTCUSDT,20']);
    await t.up();
    await flush();
    expect([...t.venue.socket(1).subs]).toEqual(['trade@BTCUSDT', 'depth_update@BTCUSDT', 'depth@BTCUSDT,20']);
    expect(t.ws.subscriptions).toEqual(['trade@BTCUSDT', 'depth_update@BTCUSDT', 'depth@BTCUSDT,20']);
    expect(told).toEqual([true]);

    // a later reconnect: the client restores them itself, nothing is sent twice
    t.venue.socket(1).drop();
    await flush();
    t.ws.retryNow();
    t.venue.socket(2).open();
    await flush();
    await flush();
    const subscribes = t.venue.socket(2).sent.filter((m) => m.method === 'SUBSCRIBE');
    expect(subscribes).toHaveLength(1);
    expect(told).toEqual([true]);
  });

  it('sends nothing more after its stop, and nothing twice while connected from the start', async () => {
    const venue = new FakeVenue();
    const ws = new WsClient({ url: 'ws://fake/ws', WebSocket: venue.WebSocket, scheduler: new ManualScheduler() });
    ws.connect();
    const told: boolean[] = [];
    const stop = keepSubscribed(ws, ['price@BTCUSDT'], (again) => told.push(again));
    venue.socket(0).open();
    await flush();
    expect(venue.socket(0).sent.map((m) => m.method)).toEqual(['SUBSCRIBE']);
    expect(told).toEqual([false]);
    stop();
    venue.socket(0).drop();
    await flush();
    ws.retryNow();
    venue.socket(1).open();
    await flush();
    // the client restores it; the stopped keeper adds nothing
    expect(venue.socket(1).sent.map((m) => m.method)).toEqual(['SUBSCRIBE']);
    expect(told).toEqual([false]);
  });
});
