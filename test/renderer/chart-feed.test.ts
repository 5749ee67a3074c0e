// The chart's feed (src-renderer/src/features/chart/chart-feed.ts): a push of the candle right
// after the newest one is appended as it is (the stream sent its predecessor's final form just
// before), and only a push further ahead, a gap, is filled over REST first, in order.
import { describe, expect, it } from 'vitest';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import type { WsClient } from '../../src-shared/sdk/ws-client.ts';
import type { Candle } from '../../src-shared/types.ts';
import { ChartFeed, type FeedModel } from '../../src-renderer/src/features/chart/chart-feed.ts';

const S = 1000;
const T0 = 1_764_460_800_000; // a whole second (2025-11-30T00:00:00Z)

function candle(openTime: number, close: string, isClosed = true): Candle {
  return [openTime, openTime + S - 1, '100', '101', '99', close, '1', '100', 1, '0.5', '50', isClosed];
}

/** The chart's data without the canvas: the candles the feed handed over, by open time. */
class Bars implements FeedModel {
  readonly bars = new Map<number, Candle>();
  setCandles(cs: readonly Candle[]): void {
    this.bars.clear();
    for (const c of cs) this.bars.set(c[0], c);
  }
  prepend(cs: readonly Candle[]): number {
    for (const c of cs) this.bars.set(c[0], c);
    return cs.length;
  }
  /** As the real model: the bars from `latest`'s first on are its own, older ones stay; none when they would leave a hole. */
  refreshes = 0;
  refresh(latest: readonly Candle[]): boolean {
    const newest = this.newestOpenTime;
    if (newest === undefined || latest.length === 0 || latest[0][0] > newest) return false;
    for (const t of [...this.bars.keys()]) if (t >= latest[0][0]) this.bars.delete(t);
    for (const c of latest) this.bars.set(c[0], c);
    this.refreshes++;
    return true;
  }
  update(c: Candle): void {
    const newest = this.newestOpenTime;
    if (newest !== undefined && c[0] < newest) return; // as the real model: older updates are ignored
    this.bars.set(c[0], c);
  }
  get newestOpenTime(): number | undefined {
    return this.bars.size === 0 ? undefined : Math.max(...this.bars.keys());
  }
  get oldestOpenTime(): number | undefined {
    return this.bars.size === 0 ? undefined : Math.min(...this.bars.keys());
  }
  get size(): number {
    return this.bars.size;
  }
}

/** The service's 1s candles of BTCUSDT over REST (limit: the newest; a time range: ascending in, newest first out). */
function fakeApi(history: Candle[], calls: Array<Record<string, unknown>>): RestClient {
  return {
    async klines(_symbol: string, _interval: string, opts: { limit?: number; startTime?: number; endTime?: number }) {
      calls.push({ ...opts });
      const asc = history.filter(
        (c) =>
          (opts.startTime === undefined || c[0] >= opts.startTime) &&
          (opts.endTime === undefined || c[0] <= opts.endTime),
      );
      const picked = opts.limit !== undefined ? asc.slice(-opts.limit) : asc;
      return picked.slice().reverse();
    },
  } as unknown as RestClient;
}

function fakeWs(): { ws: WsClient; push: (k: Candle) => void } {
  const handlers = new Map<string, (d: unknown, stream: string) => void>();
  const ws = {
    on(stream: string, h: (d: unknown, stream: string) => void) {
      handlers.set(stream, h);
      return () => handlers.delete(stream);
    },
    subscribe: async () => ({}),
    unsubscribe: async () => ({}),
    onOpen: () => () => {},
    subscriptions: [],
    onReconnect: () => () => {},
  } as unknown as WsClient;
  const push = (k: Candle): void =>
    handlers.get('kline@BTCUSDT,1s')?.({ s: 'BTCUSDT', i: '1s', k }, 'kline@BTCUSDT,1s');
  return { ws, push };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
}

async function ready(history: Candle[]) {
  const calls: Array<Record<string, unknown>> = [];
  const bars = new Bars();
  const { ws, push } = fakeWs();
  const feed = new ChartFeed(fakeApi(history, calls), ws, bars);
  feed.show('BTCUSDT', '1s');
  await settle();
  expect(feed.state.getState().status).toBe('ready');
  return { calls, bars, push, feed };
}

describe('chart feed roll-over', () => {
  it("appends the next candle as pushed, after its predecessor's final form, with no REST request", async () => {
    const history = [candle(T0, '100'), candle(T0 + S, '100.5'), candle(T0 + 2 * S, '101', false)];
    const { calls, bars, push } = await ready(history);
    expect(calls).toEqual([{ limit: 500 }]);

    push(candle(T0 + 2 * S, '101.2', true)); // the closed candle's final form
    push(candle(T0 + 3 * S, '101.3', false)); // then the new current one
    await settle();
    expect(calls).toHaveLength(1);
    expect([...bars.bars.keys()]).toEqual([T0, T0 + S, T0 + 2 * S, T0 + 3 * S]);
    expect(bars.bars.get(T0 + 2 * S)?.[5]).toBe('101.2');
    expect(bars.bars.get(T0 + 3 * S)?.[5]).toBe('101.3');
  });

  it('fills a gap (candles closed between two pushes) over REST, in order, before the push', async () => {
    const history = [candle(T0, '100'), candle(T0 + S, '100.5', false)];
    const { calls, bars, push } = await ready(history);
    // meanwhile the service closed three candles; the stream's next push is the fourth
    history[1] = candle(T0 + S, '100.6');
    history.push(candle(T0 + 2 * S, '100.7'), candle(T0 + 3 * S, '100.8'));
    push(candle(T0 + 4 * S, '100.9', false));
    await settle();
    expect(calls).toEqual([{ limit: 500 }, { startTime: T0 + S, endTime: T0 + 4 * S - 1 }]);
    expect([...bars.bars.keys()].sort((a, b) => a - b)).toEqual([T0, T0 + S, T0 + 2 * S, T0 + 3 * S, T0 + 4 * S]);
    expect(bars.bars.get(T0 + S)?.[5]).toBe('100.6'); // the final values, from REST
    expect(bars.bars.get(T0 + 4 * S)?.[5]).toBe('100.9');
  });
});

describe('chart feed: pushes that come while a request runs', () => {
  /** The REST api of `history`, each answer held until `release()`, which reads `history` then. */
  function heldApi(history: Candle[], calls: Array<Record<string, unknown>>) {
    const api = fakeApi(history, []);
    const held: Array<() => void> = [];
    return {
      api: {
        klines: (...args: Parameters<RestClient['klines']>) => {
          calls.push({ ...args[2] });
          return new Promise((resolve) => held.push(() => resolve(api.klines(...args))));
        },
      } as unknown as RestClient,
      release: () => held.splice(0).forEach((go) => go()),
    };
  }

  it("keeps a candle's final form pushed before the first load's answer, with the next candle after it", async () => {
    // the answer holds T0 + S as the current candle; before it arrives the candle closes
    const history = [candle(T0, '100'), candle(T0 + S, '100.5', false)];
    const calls: Array<Record<string, unknown>> = [];
    const { api, release } = heldApi(history, calls);
    const bars = new Bars();
    const { ws, push } = fakeWs();
    const feed = new ChartFeed(api, ws, bars);
    feed.show('BTCUSDT', '1s');
    await settle(); // the answer is on its way, not yet applied
    push(candle(T0 + S, '100.7', true)); // the stream: its final form
    push(candle(T0 + 2 * S, '100.8', false)); // then the next candle
    release();
    await settle();
    expect(feed.state.getState().status).toBe('ready');
    expect([...bars.bars.keys()]).toEqual([T0, T0 + S, T0 + 2 * S]);
    expect(bars.bars.get(T0 + S)?.[5]).toBe('100.7'); // not the answer's 100.5 of before its close
    expect(bars.bars.get(T0 + S)?.[11]).toBe(true);
    expect(calls).toEqual([{ limit: 500 }]);
  });

  // After a reconnect the feed loads the latest candles again while the chart is ready: pushes
  // that came during that request were drawn, then the answer (older than they are) replaced them,
  // so a candle that closed meanwhile stayed as the answer had it (100.5, open) and its close was gone.
  it("keeps a candle's final form pushed while the reconnect's reload runs, with the next candle after it", async () => {
    const history = [candle(T0, '100'), candle(T0 + S, '100.5', false)];
    const calls: Array<Record<string, unknown>> = [];
    const { api, release } = heldApi(history, calls);
    const bars = new Bars();
    const { ws: base, push } = fakeWs();
    const reconnected = new Set<() => void>();
    const ws = Object.assign(Object.create(base) as WsClient, {
      onReconnect: (fn: () => void) => (reconnected.add(fn), () => reconnected.delete(fn)),
    });
    const feed = new ChartFeed(api, ws, bars);
    feed.show('BTCUSDT', '1s');
    release();
    await settle();
    expect(feed.state.getState().status).toBe('ready');
    for (const fn of reconnected) fn(); // the socket is back: the latest candles again
    await settle(); // that answer (T0 + S open, 100.5) is on its way
    push(candle(T0 + S, '100.7', true)); // meanwhile T0 + S closes
    push(candle(T0 + 2 * S, '100.8', false)); // and T0 + 2s opens
    release();
    await settle();
    expect(calls).toEqual([{ limit: 500 }, { limit: 500 }]);
    expect([...bars.bars.keys()]).toEqual([T0, T0 + S, T0 + 2 * S]);
    expect(bars.bars.get(T0 + S)?.[5]).toBe('100.7'); // not the answer's 100.5 of before its close
    expect(bars.bars.get(T0 + S)?.[11]).toBe(true);
    expect(bars.bars.get(T0 + 2 * S)?.[5]).toBe('100.8');
    feed.dispose();
  });

  // A reconnect's reload of the pair and interval shown replaced every bar (and so reset the view):
  // the older history the trader had scrolled back to load was gone after a short outage.
  it('keeps the older candles loaded by scrolling back through a reconnect, and takes the answer for the newest', async () => {
    const history = Array.from({ length: 700 }, (_, i) => candle(T0 + i * S, String(100 + i / 100)));
    const calls: Array<Record<string, unknown>> = [];
    const bars = new Bars();
    const { ws: base } = fakeWs();
    const reconnected = new Set<() => void>();
    const ws = Object.assign(Object.create(base) as WsClient, {
      onReconnect: (fn: () => void) => (reconnected.add(fn), () => reconnected.delete(fn)),
    });
    const feed = new ChartFeed(fakeApi(history, calls), ws, bars);
    feed.show('BTCUSDT', '1s');
    await settle();
    expect(bars.size).toBe(500);
    await feed.loadOlder(); // scrolled back: the 200 before them
    expect(bars.size).toBe(700);
    expect(feed.state.getState().exhausted).toBe(false);
    // during the outage two candles opened and the last one held closed at another price
    history[699] = candle(T0 + 699 * S, '107.5');
    history.push(candle(T0 + 700 * S, '107.6'), candle(T0 + 701 * S, '107.7', false));
    for (const fn of reconnected) fn();
    await settle();
    expect(calls.at(-1)).toEqual({ limit: 500 });
    expect(bars.refreshes).toBe(1);
    expect(bars.size).toBe(702);
    expect(bars.oldestOpenTime).toBe(T0);
    expect(bars.bars.get(T0 + 699 * S)?.[5]).toBe('107.5');
    expect(bars.newestOpenTime).toBe(T0 + 701 * S);
    expect(feed.state.getState()).toMatchObject({ status: 'ready', candles: 702, oldest: T0, exhausted: false });
    feed.dispose();
  });

  it("keeps a candle's final form pushed while a gap is filled, with the next candle after it", async () => {
    const history = [candle(T0, '100'), candle(T0 + S, '100.5', false)];
    const calls: Array<Record<string, unknown>> = [];
    const { api, release } = heldApi(history, calls);
    const bars = new Bars();
    const { ws, push } = fakeWs();
    const feed = new ChartFeed(api, ws, bars);
    feed.show('BTCUSDT', '1s');
    release();
    await settle();
    // a push two candles ahead: the feed fetches the one between over REST
    history[1] = candle(T0 + S, '100.6');
    history.push(candle(T0 + 2 * S, '100.7'));
    push(candle(T0 + 3 * S, '100.8', false));
    await settle();
    expect(calls).toEqual([{ limit: 500 }, { startTime: T0 + S, endTime: T0 + 3 * S - 1 }]);
    // while that request runs, T0 + 3s closes and T0 + 4s opens
    push(candle(T0 + 3 * S, '100.9', true));
    push(candle(T0 + 4 * S, '101', false));
    release();
    await settle();
    expect([...bars.bars.keys()].sort((a, b) => a - b)).toEqual([T0, T0 + S, T0 + 2 * S, T0 + 3 * S, T0 + 4 * S]);
    expect(bars.bars.get(T0 + 2 * S)?.[5]).toBe('100.7');
    expect(bars.bars.get(T0 + 3 * S)?.[5]).toBe('100.9'); // its final form, not the gap push's 100.8
    expect(bars.bars.get(T0 + 4 * S)?.[5]).toBe('101');
  });
});

describe('chart feed while the service is away', () => {
  it("shows no other pair's candles under a pair picked while disconnected, and loads its own on the reconnect", async () => {
    const { PerpdeskApiError, CLIENT_ERROR, NO_ANSWER } = await import('../../src-shared/sdk/rest-request.ts');
    const btc = [candle(T0, '96000'), candle(T0 + S, '96001')];
    const eth = [candle(T0, '3000'), candle(T0 + S, '3001'), candle(T0 + 2 * S, '3002')];
    let down = false;
    const api = {
      async klines(symbol: string) {
        if (down) throw new PerpdeskApiError(CLIENT_ERROR, 'GET /api/v1/klines: no answer', NO_ANSWER);
        return (symbol === 'ETHUSDT' ? eth : btc).slice().reverse();
      },
    } as unknown as RestClient;
    const reconnected = new Set<() => void>();
    const ws = {
      on: () => () => {},
      subscribe: async () => ({}),
      unsubscribe: async () => ({}),
      onOpen: () => () => {},
      subscriptions: [],
      onReconnect: (fn: () => void) => (reconnected.add(fn), () => reconnected.delete(fn)),
    } as unknown as WsClient;
    const bars = new Bars();
    const feed = new ChartFeed(api, ws, bars);
    feed.show('BTCUSDT', '1s');
    await settle();
    expect(bars.size).toBe(2);

    down = true; // the service goes away; the trader picks ETHUSDT meanwhile
    feed.show('ETHUSDT', '1s');
    await settle();
    expect(bars.size).toBe(0); // BTCUSDT's candles are not shown as ETHUSDT's
    expect(feed.state.getState()).toMatchObject({ symbol: 'ETHUSDT', status: 'error', candles: 0, unreachable: true });

    down = false; // back: the socket reconnects
    for (const fn of reconnected) fn();
    await settle();
    expect(feed.state.getState()).toMatchObject({ symbol: 'ETHUSDT', status: 'ready', candles: 3, unreachable: false });
    expect(bars.bars.get(T0 + 2 * S)?.[5]).toBe('3002');
    feed.dispose();
  });
});

describe('chart feed, another pair', () => {
  // The chart panel sets the new pair's price format, then shows the pair: the old pair's candles
  // stood under the new format (96,000.0 written to ETHUSDT's two decimals, its scale's ticks)
  // until the new pair's answer came. They go as the new pair is shown.
  it("takes the old pair's candles off as another pair is shown, before its own arrive", async () => {
    const btc = [candle(T0, '96000'), candle(T0 + S, '96001')];
    const eth = [candle(T0, '3000'), candle(T0 + S, '3001'), candle(T0 + 2 * S, '3002')];
    let answer: (() => void) | null = null;
    const api = {
      klines(symbol: string) {
        const out = (symbol === 'ETHUSDT' ? eth : btc).slice().reverse();
        if (symbol === 'BTCUSDT') return Promise.resolve(out);
        return new Promise<Candle[]>((resolve) => (answer = () => resolve(out)));
      },
    } as unknown as RestClient;
    const bars = new Bars();
    const feed = new ChartFeed(api, fakeWs().ws, bars);
    feed.show('BTCUSDT', '1s');
    await settle();
    expect(bars.size).toBe(2);

    feed.show('ETHUSDT', '1s');
    await settle();
    expect(bars.size).toBe(0); // ETHUSDT's answer not in yet: no candles, not BTCUSDT's
    answer!();
    await settle();
    expect(bars.bars.get(T0 + 2 * S)?.[5]).toBe('3002');
    // another interval of the same pair keeps its candles until the new ones come (same format)
    feed.show('ETHUSDT', '1m');
    expect(bars.size).toBe(3);
    feed.dispose();
  });
});

describe('chart feed stepping back in history', () => {
  // A series with a hole wider than a page (a replay's outage, a pair paused for hours): until
  // 2026-12-07 the first empty page was taken for the start of history and the older candles
  // were never shown.
  it('reads on past a page without candles, and takes history for exhausted only where it starts', async () => {
    const early = Array.from({ length: 100 }, (_, i) => candle(T0 + i * S, String(90_000 + i)));
    const late = Array.from({ length: 600 }, (_, i) => candle(T0 + (100 + 4000 + i) * S, String(96_000 + i)));
    const calls: Array<Record<string, unknown>> = [];
    const bars = new Bars();
    const feed = new ChartFeed(fakeApi([...early, ...late], calls), fakeWs().ws, bars);
    feed.show('BTCUSDT', '1s');
    await settle();
    expect(bars.size).toBe(500);
    await feed.loadOlder(); // the 100 before the hole
    expect(bars.size).toBe(600);
    expect(feed.state.getState().exhausted).toBe(false);
    await feed.loadOlder(); // 4000 s without candles: read past
    expect(bars.size).toBe(700);
    expect(bars.oldestOpenTime).toBe(T0);
    expect(feed.state.getState()).toMatchObject({ exhausted: false, oldest: T0, loadingOlder: false });
    // each range at most 1500 periods, each right before the one read before it
    const ranges = calls.filter((c) => c.startTime !== undefined).slice(1);
    for (const [i, r] of ranges.entries()) {
      expect((r.endTime as number) + 1 - (r.startTime as number)).toBeLessThanOrEqual(1500 * S);
      if (i > 0) expect(r.endTime).toBe((ranges[i - 1].startTime as number) - 1);
    }
    // before T0 there is nothing: history is exhausted after the bounded further reads
    const before = calls.length;
    await feed.loadOlder();
    expect(feed.state.getState().exhausted).toBe(true);
    expect(calls.length - before).toBe(21);
    await feed.loadOlder(); // exhausted: nothing more asked
    expect(calls.length - before).toBe(21);
    feed.dispose();
  });
});
