// The CSV layouts of Binance-Data-Processor-style recorders (DanielLasota/Binance-Data-Processor:
// test/fixtures/binance/SOURCES.md), one file per stream of a recording, each told by its header:
//   depth snapshot (depth-rows.ts): TimestampOfRequest,TimestampOfReceive,MessageOutputTime,
//                                   TransactionTime,LastUpdateId,IsAsk,Price,Quantity
//                                   (spot: TimestampOfReceive,TimestampOfRequest,LastUpdateId,IsAsk,Price,Quantity)
//   diff-depth stream (depth-rows.ts): TimestampOfReceive,Stream,EventType,EventTime,TransactionTime,
//                                   Symbol,FirstUpdateId,FinalUpdateId,FinalUpdateIdInLastStream,IsAsk,Price,Quantity
//                                   (spot: no TransactionTime, no FinalUpdateIdInLastStream)
// Lines starting with # before the header (a data quality report some of its files open with) are skipped.
//   trade stream (here, as trades): TimestampOfReceive,Stream,EventType,EventTime,TransactionTime,
//                                   Symbol,TradeId,Price,Quantity,IsBuyerMarketMaker,XUnknownParameter
//                                   (futures; a spot recording's last column is MUnknownParameter)
// The trade stream's columns are the `<symbol>@trade` event's fields (futures: {e, E, T, s, t, p,
// q, X, m}): EventType e, EventTime E (when the event was sent), TransactionTime T (the trade's
// own time, what a trade is stored with), TradeId t, Price p, Quantity q, IsBuyerMarketMaker m
// (1 / 0), XUnknownParameter X (the order type, MARKET; not stored). Spot's `<symbol>@trade` has
// no X but an M (documented 'ignore', True): its recording ends in MUnknownParameter, not stored
// either, and its times are µs. The quote quantity the
// archive's trades carry is not in the stream: it is price x quantity, exact.
// A file of such a recording whose name and folders say nothing is told by its header, so a
// recording's folder imports without --kind.

import { DecimalReader, readBool, readInt, timeMicros } from './decimal-field.ts';
import { readLines } from './file-source.ts';
import type { Kind } from '../../src-shared/dataset-kinds.ts';
import type { DatasetKey } from './kinds.ts';
import { emptyTradeRow, makeRowParser, RowError, type RowParser, type RowSink } from './rows.ts';
import { count } from './count-words.ts';
import { StreamSkips } from './stream-skips.ts';
import { EventRepeats } from './event-repeats.ts';

export const SNAPSHOT_CSV =
  'TimestampOfRequest,TimestampOfReceive,MessageOutputTime,TransactionTime,LastUpdateId,IsAsk,Price,Quantity';
export const STREAM_CSV =
  'TimestampOfReceive,Stream,EventType,EventTime,TransactionTime,Symbol,FirstUpdateId,FinalUpdateId,FinalUpdateIdInLastStream,IsAsk,Price,Quantity';
/** A spot recording's snapshot: no symbol, no exchange time (spot's REST depth has neither E nor T). */
export const SPOT_SNAPSHOT_CSV = 'TimestampOfReceive,TimestampOfRequest,LastUpdateId,IsAsk,Price,Quantity';
/** A spot recording's diff-depth stream: no TransactionTime (spot has no T) and no pu. */
export const SPOT_STREAM_CSV =
  'TimestampOfReceive,Stream,EventType,EventTime,Symbol,FirstUpdateId,FinalUpdateId,IsAsk,Price,Quantity';
const DEPTH_CSVS = [SNAPSHOT_CSV, STREAM_CSV, SPOT_SNAPSHOT_CSV, SPOT_STREAM_CSV];

/** A line of the report some recordings open with (`# Data Quality Report ...`), before the header. */
export const isPreamble = (line: string): boolean => line.startsWith('#');
const TRADE_STREAM_COLUMNS =
  'TimestampOfReceive,Stream,EventType,EventTime,TransactionTime,Symbol,TradeId,Price,Quantity,IsBuyerMarketMaker';
/** The trade stream's headers: futures (last column the event's X) and spot (its M). */
const TRADE_STREAM_CSVS = [`${TRADE_STREAM_COLUMNS},XUnknownParameter`, `${TRADE_STREAM_COLUMNS},MUnknownParameter`];
const isTradeStreamHeader = (line: string): boolean => TRADE_STREAM_CSVS.includes(line.trim());

/** The kind a recorder file holds, from its first line; undefined for any other file. */
function recorderKind(firstLine: string): Kind | undefined {
  const h = firstLine.trim();
  if (DEPTH_CSVS.includes(h)) return 'depth';
  if (isTradeStreamHeader(h)) return 'trades';
  return undefined;
}

/** recorderKind of a file's first line; undefined when it cannot be read (the import says why). */
export async function recorderKindOf(path: string): Promise<Kind | undefined> {
  try {
    for await (const lines of readLines(path)) {
      const first = lines.find((l) => l.trim().length > 0 && !isPreamble(l));
      if (first !== undefined) return recorderKind(first);
    }
  } catch {
    return undefined; // unreadable: the import itself reports it
  }
  return undefined;
}

/** A note for a file refused as `kind` whose header says it is the recorder's `other`. */
export function wrongRecorderKind(line: string, kind: Kind): string | null {
  const other = recorderKind(line);
  if (other === undefined || other === kind) return null;
  return `the header is a recorder's ${other === 'trades' ? 'trade stream' : 'depth stream or snapshot'}, a ${other} file: import it as kind ${other} (--kind, or 'kind' in a request), or without a kind (the header tells)`;
}

/** Why a COIN-M trade stream (CSV or JSON lines) is refused. */
export const COIN_M_TRADES =
  "a COIN-M trade stream's quantities are contracts: the trades' base_qty needs the contract size; only spot and um recordings are read";

/**
 * The trades parser: the archive's layout (rows.ts), or a recorder's trade stream when the first
 * line is its header (rows of another symbol skipped; a COIN-M stream is refused: its quantity is
 * contracts, and the archive's base_qty needs the contract size).
 */
export function makeTradesParser(key: DatasetKey, sink: RowSink): RowParser {
  const others = new Set<string>();
  const skips = new StreamSkips(key.symbol);
  let inner: RowParser | null = null;
  let body: ((f: string[], text: string, lineNo: number) => boolean) | null = null;
  let rows = 0;
  // a row written again (a recorder reconnecting): the same trade, its TimestampOfReceive aside
  const repeats = new EventRepeats('trade', 'TradeId', (text) => text.slice(text.indexOf(',') + 1));
  return {
    get rows() {
      return inner?.rows ?? rows;
    },
    otherSymbols: others,
    get skipped() {
      return inner !== null ? inner.skipped : skips.list();
    },
    get warnings() {
      if (inner !== null) return inner.warnings ?? [];
      const w = repeats.warning();
      return w === null ? [] : [w];
    },
    line(text, lineNo) {
      if (inner !== null) return inner.line(text, lineNo);
      if (body === null) {
        if (text.trim().length === 0 || isPreamble(text)) return;
        if (!isTradeStreamHeader(text)) {
          const note = wrongRecorderKind(text, key.kind);
          if (note !== null) throw new RowError(lineNo, note);
          inner = makeRowParser(key, sink);
          return inner.line(text, lineNo);
        }
        if (key.market === 'cm') throw new RowError(lineNo, COIN_M_TRADES);
        body = tradeStreamBody(key.symbol, sink, others, skips, repeats);
        return;
      }
      if (text.length === 0) return;
      const f = text.split(',');
      if (f.length !== 11) throw new RowError(lineNo, `${count(f.length, 'column')}; a trade-stream row has 11`);
      if (body(f, text, lineNo)) rows++;
    },
  };
}

function need(ok: boolean, lineNo: number, what: string, value: string): void {
  if (!ok) throw new RowError(lineNo, `${what} ${JSON.stringify(value.slice(0, 60))}`);
}

const MAX = Number.MAX_SAFE_INTEGER;

/**
 * One trade-stream row into a trade (false: another symbol's row, skipped and counted by its
 * Stream, or a row written again, dropped and counted by `repeats`).
 */
function tradeStreamBody(
  symbol: string,
  sink: RowSink,
  others: Set<string>,
  skips: StreamSkips,
  repeats: EventRepeats,
): (f: string[], text: string, lineNo: number) => boolean {
  const trade = tradeBody(sink, new DecimalReader());
  return (f, text, lineNo) => {
    need(f[2] === 'trade', lineNo, 'EventType is not trade:', f[2]);
    const sym = f[5].toUpperCase();
    if (sym !== symbol) {
      others.add(sym);
      skips.add({ stream: f[1] === '' ? `${sym.toLowerCase()}@trade` : f[1], symbol: sym, event: 'trade' });
      return false;
    }
    const id = readInt(f[6]);
    if (repeats.repeats(id, text, lineNo)) return false;
    trade([f[6], f[7], f[8], f[4], f[9]], lineNo);
    repeats.took(id, text, lineNo);
    return true;
  };
}

/** The trade stream's columns of a trade's id, price, quantity, time and side. */
const TRADE_STREAM_NAMES = ['TradeId', 'Price', 'Quantity', 'TransactionTime', 'IsBuyerMarketMaker'];

/**
 * A trade of the `<symbol>@trade` stream, its fields id, price, quantity, time (T) and
 * buyer-is-maker (1 / 0, or true / false) named in errors by `names` (the CSV trade stream's
 * columns; a recording's JSON event reads its t, p, q, T, m through it too).
 */
export function tradeBody(
  sink: RowSink,
  dec: DecimalReader,
  names: readonly string[] = TRADE_STREAM_NAMES,
): (f: string[], lineNo: number) => void {
  const [idName, priceName, qtyName, timeName, makerName] = names;
  let prevId = -1;
  let prevTime = Number.NEGATIVE_INFINITY;
  const row = emptyTradeRow();
  return (f, lineNo) => {
    const id = readInt(f[0]);
    need(!Number.isNaN(id), lineNo, `${idName} is not an integer:`, f[0]);
    need(id > prevId, lineNo, `${idName} is not above the previous row's:`, f[0]);
    row.price = dec.read(f[1]);
    need(row.price > 0, lineNo, `${priceName} is not a positive decimal:`, f[1]);
    row.priceDp = dec.dp;
    row.qty = dec.read(f[2]);
    need(row.qty > 0, lineNo, `${qtyName} is not a positive decimal:`, f[2]);
    row.qtyDp = dec.dp;
    // quote quantity = price x quantity, exact (the product of two mantissas below 2^53 is exact
    // when it is itself below 2^53), trailing zeros dropped
    let quote = row.price * row.qty;
    let quoteDp = row.priceDp + row.qtyDp;
    need(quote <= MAX, lineNo, `${priceName} x ${qtyName} has more than 15 digits:`, `${f[1]} x ${f[2]}`);
    while (quoteDp > 0 && quote % 10 === 0) {
      quote /= 10;
      quoteDp--;
    }
    const t = timeMicros(f[3]);
    need(Number.isSafeInteger(t) && t > 0, lineNo, `${timeName} is not a timestamp:`, f[3]);
    need(t >= prevTime, lineNo, `${timeName} is before the previous row's:`, f[3]);
    const maker = f[4] === '1' ? 1 : f[4] === '0' ? 0 : readBool(f[4]);
    need(maker >= 0, lineNo, `${makerName} is not 1 or 0:`, f[4]);
    row.id = id;
    row.aux = quote;
    row.auxDp = quoteDp;
    row.timeUs = t;
    row.flags = maker;
    prevId = id;
    prevTime = t;
    sink.trade!(row, lineNo);
  };
}
