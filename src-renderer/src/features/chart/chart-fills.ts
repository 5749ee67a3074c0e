// The account's fills on the pair shown, for the chart's marks (fill-layer.ts): read over REST
// (`GET /fapi/v1/myTrades`, the newest 500 since the oldest bar loaded) when the pair, the bars
// loaded or the setting change, and again after the user channel brings fills (the feed's `fills`
// count). Fills come in bursts (a bot's grid, a sweep of the book): one request at a time, at most
// one every half second, the last burst always read. Without an account (no key) there are none:
// the marks follow the session, gone at a log-out (or a login that ended) and read again for the
// account of a new login, so no fill of an account the screen no longer trades as stays drawn.
import { useEffect, useState } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import type { SessionState } from '../../lib/session-store.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';
import type { FillMark } from './fill-marks.ts';

/** Fills read at most (the route's page limit). */
const MAX_FILLS = 500;
const SPACING_MS = 500;

/** The key the screen trades with, null without a login. */
const keyOf = (s: SessionState): string | null => (s.status === 'ready' ? s.apiKey : null);

export class FillsReader {
  private readonly api: Pick<RestClient, 'myTrades'>;
  private readonly onFills: (f: FillMark[]) => void;
  private want: { symbol: string; since: number } | null = null;
  private busy = false;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private key: string | null;
  private readonly unfollow: () => void;

  constructor(api: Pick<RestClient, 'myTrades'>, session: StoreApi<SessionState>, onFills: (f: FillMark[]) => void) {
    this.api = api;
    this.onFills = onFills;
    this.key = keyOf(session.getState());
    // another login (a log-out, a login that ended, another account's link): the marks of the
    // account before are not this one's
    this.unfollow = session.subscribe((s) => {
      const key = keyOf(s);
      if (key === this.key) return;
      this.key = key;
      if (key === null) this.onFills([]);
      if (this.want !== null) this.read(this.want.symbol, this.want.since);
    });
  }

  /** Reads the fills of `symbol` since `since` (ms) now, or as soon as the one in flight is done. */
  read(symbol: string, since: number): void {
    this.want = { symbol, since };
    // without an account there are none: nothing to ask (and an answer in flight is dropped)
    if (this.key === null) {
      this.onFills([]);
      return;
    }
    if (this.busy || this.timer !== null) {
      this.again = true;
      return;
    }
    void this.run();
  }

  /** No marks wanted (the setting off, no bars loaded): none shown, none read. */
  idle(): void {
    this.want = null;
    this.onFills([]);
  }

  close(): void {
    this.closed = true;
    this.unfollow();
    if (this.timer !== null) clearTimeout(this.timer);
  }

  private async run(): Promise<void> {
    const want = this.want;
    if (want === null || this.closed || this.key === null) return;
    this.busy = true;
    this.again = false;
    try {
      const page = await this.api.myTrades({ symbol: want.symbol, start_time: want.since, limit: MAX_FILLS });
      if (!this.closed && this.want === want)
        this.onFills(
          page.items.map((t) => ({
            id: t.id,
            time: t.created_at,
            side: t.side,
            qty: Number(t.qty),
            price: Number(t.price),
          })),
        );
    } catch (err) {
      // no account, or the service away: no marks (the feed reads again with the next fill)
      if (!this.closed && this.want === want) this.onFills([]);
      dropServiceFailure(err);
    } finally {
      this.busy = false;
    }
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.again || this.want !== want) void this.run();
    }, SPACING_MS);
  }
}

/** The account's fills of `symbol` since `since` (ms; 0: none loaded yet), while `on`. */
export function useChartFills(symbol: string, since: number, on: boolean): FillMark[] {
  const s = useServices();
  const bumps = useSel(s.userFeed, (u) => u.fills);
  const [fills, setFills] = useState<FillMark[]>([]);
  const [reader, setReader] = useState<FillsReader | null>(null);
  useEffect(() => {
    const r = new FillsReader(s.api, s.session, setFills);
    setReader(r);
    return () => r.close();
  }, [s]);
  useEffect(() => {
    if (reader === null) return;
    if (!on || since <= 0) reader.idle();
    else reader.read(symbol, since);
  }, [reader, symbol, since, on, bumps]);
  return fills;
}
