// The lines of a recording an import skipped, one count per stream (docs/data.md): a websocket
// recorder's JSON lines hold every stream it subscribed to (depth, aggTrade, bookTicker, kline of
// several pairs), and a dataset takes one kind of one pair. The data command, the import route
// and the Data dialog say them in the same words.

import type { Kind } from './dataset-kinds.ts';

/** One stream's skipped lines: `kind` is the dataset kind that reads them (the pair's own), else null. */
export interface SkippedStream {
  stream: string;
  lines: number;
  kind: Kind | null;
}

/** `ctkusdt@aggTrade 38 (kind aggTrades reads them), ctkusdt@bookTicker 145, ...` */
export function skippedList(skipped: readonly SkippedStream[]): string {
  return skipped
    .map((s) => `${s.stream} ${s.lines}${s.kind === null ? '' : ` (kind ${s.kind} reads them)`}`)
    .join(', ');
}

/** What an import skipped, in a clause: `1350 lines of other streams: ...`; '' when nothing was. */
export function skippedText(skipped: readonly SkippedStream[]): string {
  const n = skipped.reduce((sum, s) => sum + s.lines, 0);
  if (n === 0) return '';
  return `${n} line${n === 1 ? '' : 's'} of other streams: ${skippedList(skipped)}`;
}
