// The lines of a recording an import skipped, counted per stream (src-shared/skipped-streams.ts
// says them): a recorder's JSON lines (recording-lines.ts, depth-rows.ts) name each line's stream,
// its CSV rows (recorder-rows.ts, depth-rows.ts) their Stream column. The pair's streams another
// kind reads are said with that kind.

import type { Kind } from '../../src-shared/dataset-kinds.ts';
import type { SkippedStream } from '../../src-shared/skipped-streams.ts';

/** The kind that reads an event of the recording. */
const READ_BY: Record<string, Kind> = {
  depthUpdate: 'depth',
  snapshot: 'depth',
  aggTrade: 'aggTrades',
  bookTicker: 'bookTicker',
  trade: 'trades',
  kline: 'klines',
};

/** Counts the lines skipped, per stream. */
export class StreamSkips {
  private readonly counts = new Map<string, { lines: number; kind: Kind | null; own: boolean }>();
  private readonly symbol: string;
  constructor(symbol: string) {
    this.symbol = symbol;
  }

  add(line: { stream: string; symbol: string; event: string }): void {
    const had = this.counts.get(line.stream);
    if (had !== undefined) return void had.lines++;
    const own = line.symbol === this.symbol;
    this.counts.set(line.stream, { lines: 1, kind: own ? (READ_BY[line.event] ?? null) : null, own });
  }

  /** The pair's streams another kind reads first, then its others, then other pairs', each as first seen. */
  list(): SkippedStream[] {
    const all = [...this.counts].map(([stream, c]) => ({
      stream,
      lines: c.lines,
      kind: c.kind,
      rank: c.kind !== null ? 0 : c.own ? 1 : 2,
    }));
    return all.sort((a, b) => a.rank - b.rank).map(({ stream, lines, kind }) => ({ stream, lines, kind }));
  }
}
