// The JSON lines of a websocket recorder (cryptofeed-style, test/fixtures/binance/SOURCES.md): one
// event a line, `{"stream": "ctkusdt@aggTrade", "data": {"e": "aggTrade", ...}}` (or the event
// bare), of every stream it subscribed to, and REST depth snapshots `{"symbol", "lastUpdateId",
// ...}`. A dataset takes one kind of one pair: depth-rows.ts its depthUpdate events and snapshots,
// here the events of the other kinds (READERS), each line of another stream counted per stream (the
// import says them).
//
// Each such event is a row of the kind's archive CSV, read by the CSV's own row parser (rows.ts)
// with the event's names: an aggTrade event (Binance USD-M `<symbol>@aggTrade`: {e, E, s, a, p, q,
// f, l, T, m}) is agg_trade_id a, price p, quantity q, first_trade_id f, last_trade_id l,
// transact_time T (the trade's time; E, when the event was sent, is not kept), is_buyer_maker m.

import type { Kind } from '../../src-shared/dataset-kinds.ts';
import { DecimalReader } from './decimal-field.ts';
import { StreamSkips } from './stream-skips.ts';
import { EventRepeats } from './event-repeats.ts';
import { COIN_M_TRADES, tradeBody } from './recorder-rows.ts';
import type { DatasetKey } from './kinds.ts';
import { aggTradeBody, bookTickerBody, candleBody, RowError, type RowParser, type RowSink } from './rows.ts';

/** One recorded line: its stream's name, its pair, what it is and the event itself. */
export interface RecordedLine {
  stream: string;
  symbol: string;
  /** The event type (`e`), or 'snapshot' for a REST depth snapshot. */
  event: string;
  data: Record<string, unknown>;
}

/** A line parsed as a JSON object, or a RowError naming it. */
export function lineObject(text: string, lineNo: number): Record<string, unknown> {
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    throw new RowError(lineNo, 'not a JSON object');
  }
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new RowError(lineNo, 'not a JSON object');
  return o as Record<string, unknown>;
}

/**
 * A recording's lines as objects, its last line allowed to be cut short: a recorder stopped
 * mid-write leaves a last line that is no whole JSON object. Such a line (one opening with `{`)
 * is held, not refused, until another line shows it was not the last (then it refuses the file as
 * before); at the end it is dropped and said (`warning()`). Until 2026-12-08 it refused the file.
 */
export class RecordingObjects {
  private cut: RowError | null = null;
  private cutLine = 0;

  /** The line's object, or null for a line cut short (held). */
  object(text: string, lineNo: number): Record<string, unknown> | null {
    if (this.cut !== null) throw this.cut;
    try {
      return lineObject(text, lineNo);
    } catch (err) {
      if (!text.startsWith('{') || !(err instanceof RowError)) throw err;
      this.cut = err;
      this.cutLine = lineNo;
      return null;
    }
  }

  /** What the import says of a last line cut short, or null. */
  warning(): string | null {
    if (this.cut === null) return null;
    return `the last line, ${this.cutLine}, is cut short (not a whole JSON object, as a recorder stopped mid-write leaves it): dropped`;
  }
}

const upper = (v: unknown): string => (typeof v === 'string' ? v.toUpperCase() : '');

/** What a recorded line is; `symbol` is the default pair of a snapshot naming none. */
export function recordedLine(o: Record<string, unknown>, symbol: string): RecordedLine {
  if ('lastUpdateId' in o) {
    const sym = typeof o.symbol === 'string' ? o.symbol.toUpperCase() : symbol;
    return { stream: `${sym.toLowerCase()} depth snapshot`, symbol: sym, event: 'snapshot', data: o };
  }
  const wrapped = typeof o.data === 'object' && o.data !== null;
  const d = (wrapped ? o.data : o) as Record<string, unknown>;
  const event = typeof d.e === 'string' ? d.e : '';
  const sym = upper(d.s);
  const stream =
    typeof o.stream === 'string'
      ? o.stream
      : event === ''
        ? '(no stream or event named)'
        : `${sym.toLowerCase()}@${event}`;
  // a candle still open (`x` false) is no candle of history: its own stream, read by no kind
  if (event === 'kline' && !closedKline(d))
    return { stream: `${stream} unfinished candles`, symbol: sym, event: '', data: d };
  return { stream, symbol: sym, event, data: d };
}

/** The candle of a kline event (`k`), or an empty object. */
const candleOf = (d: Record<string, unknown>): Record<string, unknown> =>
  typeof d.k === 'object' && d.k !== null ? (d.k as Record<string, unknown>) : {};
const closedKline = (d: Record<string, unknown>): boolean => candleOf(d).x === true;

/** An event's field as a CSV field: strings as they are, numbers and booleans written out. */
function field(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return v === undefined ? '' : JSON.stringify(v);
}

/**
 * How a kind reads a recording: the event it takes, the archive CSV's fields of one (its CSV's
 * row parser reads them, naming each by the event's own name in its errors).
 */
interface EventReader {
  event: string;
  /** The event's id, rising from event to event (`a` of an aggTrade), as its errors name it, and its value. */
  idName: string;
  id(d: Record<string, unknown>): unknown;
  /** Whether the pair's event is a row of `key` (a kline of its interval); every one when absent. */
  takes?(d: Record<string, unknown>, key: DatasetKey): boolean;
  names: readonly string[];
  fields(d: Record<string, unknown>): unknown[];
  body(
    sink: RowSink,
    dec: DecimalReader,
    names: readonly string[],
    key: DatasetKey,
  ): (f: string[], lineNo: number) => void;
  /** Why the recording of `key` cannot be read as this kind, if it cannot. */
  refused?(key: DatasetKey): string | null;
}

/** The kinds that read a recording's events, and how. */
const READERS: Partial<Record<Kind, EventReader>> = {
  aggTrades: {
    event: 'aggTrade',
    idName: 'a',
    id: (d) => d.a,
    names: ['a', 'p', 'q', 'f', 'l', 'T', 'm'],
    fields: (d) => [d.a, d.p, d.q, d.f, d.l, d.T, d.m],
    body: aggTradeBody,
  },
  // bookTicker (USD-M / COIN-M `<symbol>@bookTicker`: {e, u, s, b, B, a, A, T, E}): update_id u,
  // best_bid_price b, best_bid_qty B, best_ask_price a, best_ask_qty A, transaction_time T, event_time E
  bookTicker: {
    event: 'bookTicker',
    idName: 'u',
    id: (d) => d.u,
    names: ['u', 'b', 'B', 'a', 'A', 'T', 'E'],
    fields: (d) => [d.u, d.b, d.B, d.a, d.A, d.T, d.E],
    body: bookTickerBody,
  },
  // trades (spot and USD-M `<symbol>@trade`: {e, E, T, s, t, p, q, m, ...}): as the recorder's CSV
  // trade stream (recorder-rows.ts): id t, price p, qty q, time T, is_buyer_maker m, quote_qty p x q
  trades: {
    event: 'trade',
    idName: 't',
    id: (d) => d.t,
    names: ['t', 'p', 'q', 'T', 'm'],
    fields: (d) => [d.t, d.p, d.q, d.T, d.m],
    body: tradeBody,
    refused: (key) => (key.market === 'cm' ? COIN_M_TRADES : null),
  },
  // klines (`<symbol>@kline_<interval>`: {e, E, s, k: {t, T, s, i, f, L, o, c, h, l, v, n, x, q, V,
  // Q, B}}), the closed candles (x true) of the dataset's interval (i): open_time t, open o, high h,
  // low l, close c, volume v, close_time T, quote_volume q, count n, taker_buy_volume V,
  // taker_buy_quote_volume Q, ignore B. A candle still open (x false) is pushed as it changes with
  // its values so far; only its last push, x true, is the candle as the archive has it.
  klines: {
    event: 'kline',
    idName: 't',
    id: (d) => candleOf(d).t,
    takes: (d, key) => candleOf(d).i === key.interval,
    names: ['t', 'o', 'h', 'l', 'c', 'v', 'T', 'q', 'n', 'V', 'Q', 'B'],
    fields: (d) => {
      const k = candleOf(d);
      return [k.t, k.o, k.h, k.l, k.c, k.v, k.T, k.q, k.n, k.V, k.Q, k.B];
    },
    body: (sink, dec, names, key) => candleBody(key, sink, dec, names),
  },
};

/** Whether a kind reads a recorder's JSON lines through makeRecordingParser. */
export const readsRecording = (kind: Kind): boolean => READERS[kind] !== undefined;

/**
 * The parser of a kind that reads a recording: the archive's CSV (`csv`), or a recorder's JSON
 * lines when the first line is a JSON object (the pair's events of the kind taken; every other line
 * skipped and counted).
 */
export function makeRecordingParser(
  key: DatasetKey,
  sink: RowSink,
  csv: (key: DatasetKey, sink: RowSink) => RowParser,
): RowParser {
  const reader = READERS[key.kind]!;
  const others = new Set<string>();
  const skips = new StreamSkips(key.symbol);
  let inner: RowParser | null = null;
  let body: ((f: string[], lineNo: number) => void) | null = null;
  let rows = 0;
  const eventText = (text: string): string => JSON.stringify(recordedLine(lineObject(text, 0), key.symbol).data);
  const repeats = new EventRepeats(reader.event, reader.idName, eventText);
  const objects = new RecordingObjects();
  return {
    get rows() {
      return inner?.rows ?? rows;
    },
    get otherSymbols() {
      return inner !== null ? inner.otherSymbols : others;
    },
    get skipped() {
      return inner !== null ? inner.skipped : skips.list();
    },
    get warnings() {
      if (inner !== null) return inner.warnings ?? [];
      return [repeats.warning(), objects.warning()].filter((w) => w !== null);
    },
    line(text, lineNo) {
      if (inner !== null) return inner.line(text, lineNo);
      if (text.trim().length === 0) return;
      if (body === null) {
        if (!text.startsWith('{')) {
          inner = csv(key, sink);
          return inner.line(text, lineNo);
        }
        const refused = reader.refused?.(key) ?? null;
        if (refused !== null) throw new RowError(lineNo, refused);
        body = reader.body(sink, new DecimalReader(), reader.names, key);
      }
      const o = objects.object(text, lineNo);
      if (o === null) return;
      const line = recordedLine(o, key.symbol);
      if (line.event !== reader.event || line.symbol !== key.symbol || reader.takes?.(line.data, key) === false) {
        if (line.event === reader.event && line.symbol !== key.symbol) others.add(line.symbol);
        return skips.add(line);
      }
      // an event written again (a recorder reconnecting) is dropped, counted; another of its id refuses the file
      const id = Number(field(reader.id(line.data)));
      if (repeats.repeats(id, text, lineNo)) return;
      body(reader.fields(line.data).map(field), lineNo);
      repeats.took(id, text, lineNo);
      rows++;
    },
  };
}
