// Feeds a ChartModel (as a FeedModel): the latest candles over REST (`limit`), the live candle from
// `kline@{symbol},{interval}`, and older candles by time range (start_time/end_time, never
// with limit) when the view nears the left edge. A switch of symbol or interval bumps a
// generation number; answers and pushes of an older generation are dropped, so a slow
// request can never paint the previous pair's candles. Pushes that arrive before the REST
// answer are kept, each candle's latest, in order, and applied after it: a candle that closed
// meanwhile comes in its final form before the next one (before, only the latest push was kept,
// and the candle the answer held as current stayed as it was then, short of its last trades). So
// are the pushes during a reload of a chart that is ready (the socket's reconnect): until
// 2026-12-07 they were drawn, then the older answer replaced them, so a candle that closed
// meanwhile kept the answer's figures (its last trades missing) and the one after it was gone
// until its next push. That reload keeps the older candles loaded and the trader's view, zoom and
// scroll (candle-refresh.ts); until 2026-12-07 it reset both. A load that fails (the service is
// away) empties the chart when it held another pair's or interval's candles, so none stand under
// the new name; the next reconnect of the socket loads them. Another pair's candles go as soon as a
// pair is shown (they stood under the new pair's price format until its answer came); another
// interval of the pair keeps them until its own come.
//
// The kline stream carries the current candle, throttled, and when a candle closed since its
// last push, that candle's final form first (src-main/api/ws/hub.ts sendKline). So a push of the
// candle right after the newest one the feed has is simply appended: the one before it came in
// its final form just before. A push further ahead (at high simulator speeds whole candles close
// between two pushes, or a push was lost) has the feed fetch the range from its newest candle up
// to the new one over REST and append it in order before the push, so the chart has no holes and
// every closed candle shows its final values; pushes during that request wait, kept as above.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import type { WsClient } from '../../../../src-shared/sdk/ws-client.ts';
import { INTERVAL_MS, nextOpenTime, previousOpenTime, type Interval } from '../../../../src-shared/intervals.ts';
import type { Candle } from '../../../../src-shared/types.ts';
import { errorText } from '../../lib/frame.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';
import { keepSubscribed } from '../../lib/kept-streams.ts';
import { isNetworkFailure } from '../../lib/network-failure.ts';

/** Candles loaded first, and per step back in history. */
const INITIAL_CANDLES = 500;
const OLDER_CANDLES = 500;
/**
 * Past a page without candles (a replay's outage, a pair paused for days) the step back reads on,
 * up to this many further ranges of the most periods a range may span (RANGE_PERIODS), before it
 * takes history for exhausted: one empty page is no start of history.
 */
const HOLE_READS = 20;
const RANGE_PERIODS = 1500;
/** Pushes kept while a request runs; past it the oldest go (a gap then, filled over REST). */
const MAX_WAITING = 1500;

/** Adds push `k` to `list` (ascending by open time): it replaces a push of its candle, an older one is dropped. */
function keep(list: Candle[], k: Candle): void {
  const last = list[list.length - 1];
  if (last !== undefined && k[0] < last[0]) return;
  if (last !== undefined && k[0] === last[0]) list[list.length - 1] = k;
  else list.push(k);
  if (list.length > MAX_WAITING) list.shift();
}

export interface ChartFeedState {
  symbol: string;
  interval: Interval | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  loadingOlder: boolean;
  /** No candles exist before the oldest one loaded. */
  exhausted: boolean;
  candles: number;
  /** Open time of the oldest candle loaded, ms (0 when none). */
  oldest: number;
  /** The last load failed for want of an answer (the service is away): the next reconnect loads. */
  unreachable: boolean;
}

const IDLE: ChartFeedState = {
  symbol: '',
  interval: null,
  status: 'idle',
  error: null,
  loadingOlder: false,
  exhausted: false,
  candles: 0,
  oldest: 0,
  unreachable: false,
};

/** A feed state that never changes, for views rendered before their feed exists. */
export const idleFeedState: StoreApi<ChartFeedState> = createStore<ChartFeedState>()(() => IDLE);

/** `kline@` push: the current candle of the stream's symbol and interval. */
interface KlinePush {
  s?: string;
  i?: string;
  k: Candle;
}

/** What the feed needs of the chart (ChartModel, chart-model.ts): its bars, ascending by open time. */
export interface FeedModel {
  setCandles(candles: readonly Candle[]): void;
  /** The latest candles again, older ones and the view kept; false (nothing changed) when they leave a hole. */
  refresh(latest: readonly Candle[]): boolean;
  /** Adds older candles before the oldest; answers how many were added. */
  prepend(older: readonly Candle[]): number;
  /** The newest bar anew, or a newer one appended (an older one is ignored). */
  update(c: Candle): void;
  readonly newestOpenTime: number | undefined;
  readonly oldestOpenTime: number | undefined;
  readonly size: number;
}

export class ChartFeed {
  readonly state: StoreApi<ChartFeedState>;
  private readonly api: RestClient;
  private readonly ws: WsClient;
  private readonly model: FeedModel;
  private generation = 0;
  private stream: string | null = null;
  private off: (() => void) | null = null;
  private offReconnect: (() => void) | null = null;
  private keep: (() => void) | null = null;
  /** Pushes that came before the REST answer, each candle's latest, ascending. */
  private pending: Candle[] = [];
  /** A roll-over gap is being fetched; the pushes wait in `afterFill` meanwhile, as in `pending`. */
  private filling = false;
  private afterFill: Candle[] = [];
  /** Which symbol and interval the model's candles are of ('' when none were loaded). */
  private holds = '';
  /** Loads of the latest candles under way (a reconnect's while ready): pushes wait in `pending`. */
  private readonly loads = new Set<object>();

  constructor(api: RestClient, ws: WsClient, model: FeedModel) {
    this.api = api;
    this.ws = ws;
    this.model = model;
    this.state = createStore<ChartFeedState>()(() => ({ ...IDLE }));
    // Candles may have moved on while disconnected: reload the latest ones.
    this.offReconnect = ws.onReconnect(() => {
      const s = this.state.getState();
      if (s.interval !== null) void this.load(s.symbol, s.interval, this.generation);
    });
  }

  /** Shows `symbol` at `interval`: subscribes to its kline stream and loads the latest candles. */
  show(symbol: string, interval: Interval): void {
    const s = this.state.getState();
    if (s.symbol === symbol && s.interval === interval && s.status !== 'error') return;
    const gen = ++this.generation;
    // another pair's candles go at once: the chart already has this pair's price format
    // (chart-panel.tsx configures it first), and they stood under it until this pair's answer
    if (this.holds !== '' && this.holds.split(' ')[0] !== symbol) {
      this.model.setCandles([]);
      this.holds = '';
    }
    this.pending = [];
    this.loads.clear();
    this.afterFill = [];
    this.filling = false;
    this.state.setState({
      symbol,
      interval,
      status: 'loading',
      error: null,
      loadingOlder: false,
      exhausted: false,
      candles: 0,
      oldest: 0,
      unreachable: false,
    });
    const name = `kline@${symbol},${interval}`;
    if (this.stream !== name) {
      this.keep?.();
      if (this.stream !== null) void this.ws.unsubscribe([this.stream]).catch(dropServiceFailure);
      this.off?.();
      this.stream = name;
      this.off = this.ws.on(name, (d) => {
        if (this.stream === name) this.onPush(d as KlinePush);
      });
      // subscribed again once the service is there, and the latest candles loaded then
      this.keep = keepSubscribed(this.ws, [name], (again) => {
        if (again && this.stream === name) void this.load(symbol, interval, this.generation);
      });
    }
    void this.load(symbol, interval, gen);
  }

  /** The model dropped its oldest bars: they can be loaded again. */
  trimmed(): void {
    this.state.setState({ exhausted: false, oldest: this.model.oldestOpenTime ?? 0, candles: this.model.size });
  }

  /**
   * Loads the next older page, unless one is loading or history is exhausted; an empty page is read
   * past (HOLE_READS) before history counts as exhausted.
   */
  async loadOlder(): Promise<void> {
    const s = this.state.getState();
    const oldest = this.model.oldestOpenTime;
    if (s.status !== 'ready' || s.loadingOlder || s.exhausted || s.interval === null || oldest === undefined) return;
    const gen = this.generation;
    this.state.setState({ loadingOlder: true });
    try {
      let before = oldest;
      let older: Candle[] = [];
      for (let reads = 0; reads <= HOLE_READS; reads++) {
        const start = Math.max(0, stepsBack(s.interval, before, reads === 0 ? OLDER_CANDLES : RANGE_PERIODS));
        older = await this.api.klines(s.symbol, s.interval, { startTime: start, endTime: before - 1 });
        if (gen !== this.generation) return;
        if (older.length > 0 || start === 0) break;
        before = start;
      }
      const added = this.model.prepend(older.slice().reverse());
      this.state.setState({
        loadingOlder: false,
        exhausted: added === 0,
        candles: this.model.size,
        oldest: this.model.oldestOpenTime ?? 0,
      });
    } catch (err) {
      if (gen === this.generation) this.state.setState({ loadingOlder: false, error: errorText(err) });
    }
  }

  dispose(): void {
    this.generation++;
    this.off?.();
    this.offReconnect?.();
    this.keep?.();
    if (this.stream !== null) void this.ws.unsubscribe([this.stream]).catch(dropServiceFailure);
    this.stream = null;
  }

  private async load(symbol: string, interval: Interval, gen: number): Promise<void> {
    const token = {};
    this.loads.add(token);
    try {
      const candles = await this.api.klines(symbol, interval, { limit: INITIAL_CANDLES });
      if (gen !== this.generation) return;
      this.loads.delete(token);
      const latest = candles.slice().reverse();
      // the same pair and interval again (the socket's reconnect): the older bars and the view stay
      const again = this.holds === `${symbol} ${interval}` && this.model.refresh(latest);
      if (!again) this.model.setCandles(latest);
      this.holds = `${symbol} ${interval}`;
      this.state.setState({
        status: 'ready',
        error: null,
        unreachable: false,
        candles: this.model.size,
        oldest: this.model.oldestOpenTime ?? 0,
        exhausted: again ? this.state.getState().exhausted : candles.length < INITIAL_CANDLES,
      });
      // (another load under way answers later, with what came until then: they wait for it)
      if (this.loads.size === 0) for (const p of this.pending.splice(0)) this.apply(p);
    } catch (err) {
      if (gen !== this.generation) return;
      this.loads.delete(token);
      // another pair's (or interval's) candles must not stand under this one's name
      if (this.holds !== `${symbol} ${interval}`) {
        this.model.setCandles([]);
        this.holds = '';
      }
      this.state.setState({
        status: 'error',
        error: errorText(err),
        unreachable: isNetworkFailure(err),
        candles: this.model.size,
        oldest: this.model.oldestOpenTime ?? 0,
      });
    }
  }

  private onPush(d: KlinePush): void {
    if (!Array.isArray(d?.k)) return;
    if (this.state.getState().status !== 'ready' || this.loads.size > 0) {
      keep(this.pending, d.k);
      return;
    }
    this.apply(d.k);
  }

  private apply(k: Candle): void {
    const last = this.model.newestOpenTime;
    if (this.filling) {
      keep(this.afterFill, k);
      return;
    }
    const interval = this.state.getState().interval;
    // the same candle, or the next one (whose predecessor's final form was pushed just before)
    if (last === undefined || k[0] <= last || (interval !== null && k[0] === nextOpenTime(interval, last))) {
      this.model.update(k);
      this.state.setState({ candles: this.model.size });
      return;
    }
    void this.fillGap(last, k);
  }

  /** Fetches [last, k's open) over REST, appends it, then `k` and whatever was pushed meanwhile. */
  private async fillGap(last: number, k: Candle): Promise<void> {
    const s = this.state.getState();
    if (s.interval === null) return;
    const gen = this.generation;
    this.filling = true;
    try {
      const missed = await this.api.klines(s.symbol, s.interval, { startTime: last, endTime: k[0] - 1 });
      if (gen !== this.generation) return;
      for (const c of missed.slice().reverse()) this.model.update(c);
    } catch (err) {
      // The push itself is still right; a hole is better than a frozen chart.
      dropServiceFailure(err);
    } finally {
      if (gen === this.generation) this.filling = false;
    }
    if (gen !== this.generation) return;
    this.model.update(k);
    this.state.setState({ candles: this.model.size });
    // in order; one that opens another gap has the rest wait again
    for (const next of this.afterFill.splice(0)) this.apply(next);
  }
}

/** Open time `n` candles before `openTime` (calendar months for 1M). */
function stepsBack(interval: Interval, openTime: number, n: number): number {
  if (interval !== '1M') return openTime - n * INTERVAL_MS[interval];
  let t = openTime;
  for (let i = 0; i < n; i++) t = previousOpenTime('1M', t);
  return t;
}
