// The account's fills on the pair shown, for the chart's marks (fill-layer.ts): read over REST
// (`GET /fapi/v1/myTrades`, the newest 500 since the oldest bar loaded) when the pair, the bars
// loaded or the setting change, and again after the user channel brings fills (the feed's `fills`
// count). Fills come in bursts (a bot's grid, a sweep of the book): one request at a time, at most
// one every half second, the last burst always read. Without an account (no key) there are none.
import { useEffect, useState } from 'react';
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';
import type { FillMark } from './fill-marks.ts';

/** Fills read at most (the route's page limit). */
const MAX_FILLS = 500;
const SPACING_MS = 500;

class FillsReader {
  private readonly api: RestClient;
  private readonly onFills: (f: FillMark[]) => void;
  private want: { symbol: string; since: number } | null = null;
  private busy = false;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(api: RestClient, onFills: (f: FillMark[]) => void) {
    this.api = api;
    this.onFills = onFills;
  }

  /** Reads the fills of `symbol` since `since` (ms) now, or as soon as the one in flight is done. */
  read(symbol: string, since: number): void {
    this.want = { symbol, since };
    if (this.busy || this.timer !== null) {
      this.again = true;
      return;
    }
    void this.run();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
  }

  private async run(): Promise<void> {
    const want = this.want;
    if (want === null || this.closed) return;
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
    const r = new FillsReader(s.api, setFills);
    setReader(r);
    return () => r.close();
  }, [s]);
  useEffect(() => {
    if (reader === null) return;
    if (!on || since <= 0) setFills([]);
    else reader.read(symbol, since);
  }, [reader, symbol, since, on, bumps]);
  return fills;
}
