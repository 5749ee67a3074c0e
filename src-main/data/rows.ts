// Row parsers and validators of every kind, one CSV line at a time (streaming: nothing keeps
// more than the previous row). A bad row throws RowError naming its line number (1-based, the
// header being line 1 when there is one) and why; the importer then drops the whole file.
//
// Columns of the archive (header optional in every kind; older files have none):
//   candle kinds: open_time,open,high,low,close,volume,close_time,quote_volume,count,
//                 taker_buy_volume,taker_buy_quote_volume,ignore
//   aggTrades:    agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker[,is_best_match]
//   trades:       id,price,qty,quote_qty|base_qty,time,is_buyer_maker[,is_best_match]
//   fundingRate:  calc_time,funding_interval_hours,last_funding_rate
//   bookTicker:   update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time
//   bookDepth:    timestamp (YYYY-MM-DD HH:MM:SS UTC),percentage,depth,notional
// Times: ms, or µs in spot files from 2025 on (decimal-field.ts); candles keep ms (a µs open
// time must be a whole ms), trades and events keep µs.

import { closeTimeOf, INTERVALS, openTimeOf, type Interval } from '../../src-shared/intervals.ts';
import { DecimalReader, quoted, readBool, readInt, sizeProblem, timeMicros, type FieldHold } from './decimal-field.ts';
import { storageOf, type DatasetKey } from './kinds.ts';
import { CANDLE_KINDS } from '../../src-shared/dataset-kinds.ts';
import { count } from './count-words.ts';
import type { SkippedStream } from '../../src-shared/skipped-streams.ts';

/** A fault of the file's data: of one row (named), or of the file as a whole (`row` null: no row is to blame). */
export class RowError extends Error {
  readonly row: number | null;
  constructor(row: number | null, message: string) {
    super(row === null ? message : `row ${row}: ${message}`);
    this.name = 'RowError';
    this.row = row;
  }
}

/** One candle as stored: times in ms, the nine value columns verbatim. */
export interface CandleRow {
  openTime: number;
  closeTime: number;
  /** open, high, low, close, volume, quote_volume, taker_buy_volume, taker_buy_quote_volume. */
  values: string[];
  count: number;
  /** Most decimals among the four prices, the two volumes and the two quote volumes. */
  priceDp: number;
  qtyDp: number;
  quoteDp: number;
}

export interface TradeRow {
  id: number;
  price: number;
  priceDp: number;
  qty: number;
  qtyDp: number;
  /** trades: quote (or base) quantity mantissa; aggTrades: first trade id. */
  aux: number;
  auxDp: number;
  /** aggTrades: last trade id; trades: 0. */
  last: number;
  timeUs: number;
  /** bit 0 buyer is maker, bit 1 best match, bit 2 the file has the best-match column. */
  flags: number;
}

/** A zeroed trade row, which a parser fills in place for each line it reads (one object per file). */
export function emptyTradeRow(): TradeRow {
  return { id: 0, price: 0, priceDp: 0, qty: 0, qtyDp: 0, aux: 0, auxDp: 0, last: 0, timeUs: 0, flags: 0 };
}

export interface RowSink {
  candle?(row: CandleRow, line: number): void;
  trade?(row: TradeRow, line: number): void;
  /** `data`: the row's validated columns after the time, comma-joined. */
  event?(timeUs: number, data: string, line: number): void;
}

export interface RowParser {
  /** Feeds one line (without its line break); line numbers count from 1. */
  line(text: string, lineNo: number): void;
  /** Rows taken (the header not counted). */
  readonly rows: number;
  /** Symbols of the rows skipped as another symbol's (layouts naming the symbol in every row). */
  readonly otherSymbols?: ReadonlySet<string>;
  /** Lines of other streams skipped, per stream (a recorder's JSON lines: recording-lines.ts). */
  readonly skipped?: readonly SkippedStream[];
  /** What the import is to say of the file's rows (a recording's duplicate events dropped). */
  readonly warnings?: readonly string[];
}

const HEADERS: Record<string, readonly string[][]> = {
  candles: [
    [
      'open_time',
      'open',
      'high',
      'low',
      'close',
      'volume',
      'close_time',
      'quote_volume',
      'count',
      'taker_buy_volume',
      'taker_buy_quote_volume',
      'ignore',
    ],
  ],
  aggTrades: [
    ['agg_trade_id', 'price', 'quantity', 'first_trade_id', 'last_trade_id', 'transact_time', 'is_buyer_maker'],
    [
      'agg_trade_id',
      'price',
      'quantity',
      'first_trade_id',
      'last_trade_id',
      'transact_time',
      'is_buyer_maker',
      'is_best_match',
    ],
  ],
  trades: [
    ['id', 'price', 'qty', 'quote_qty', 'time', 'is_buyer_maker'],
    ['id', 'price', 'qty', 'base_qty', 'time', 'is_buyer_maker'],
    ['id', 'price', 'qty', 'quote_qty', 'time', 'is_buyer_maker', 'is_best_match'],
  ],
  fundingRate: [['calc_time', 'funding_interval_hours', 'last_funding_rate']],
  bookTicker: [
    ['update_id', 'best_bid_price', 'best_bid_qty', 'best_ask_price', 'best_ask_qty', 'transaction_time', 'event_time'],
  ],
  bookDepth: [['timestamp', 'percentage', 'depth', 'notional']],
};

function headersOf(key: DatasetKey): readonly string[][] {
  return storageOf(key.kind) === 'candles' ? HEADERS.candles : HEADERS[key.kind];
}

const CANDLE_VALUE_COLUMNS = [1, 2, 3, 4, 5, 7, 9, 10];

const POW10 = Array.from({ length: 40 }, (_, i) => 10 ** i);

const BOOK_DEPTH_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

export function makeRowParser(key: DatasetKey, sink: RowSink): RowParser {
  const headers = headersOf(key);
  const widths = new Set(headers.map((h) => h.length));
  const dec = new DecimalReader();
  let rows = 0;
  let started = false;
  let width = 0;
  const body = bodyParser(key, sink, dec);
  return {
    get rows() {
      return rows;
    },
    line(text, lineNo) {
      if (text.length === 0) return; // the trailing newline, or blank lines
      const f = text.split(',');
      if (!started) {
        started = true;
        // A header is a line whose first field is not a number or a date.
        if (!/^\d/.test(f[0])) {
          const names = f.map((s) => s.trim());
          if (!headers.some((h) => h.length === names.length && h.every((n, i) => n === names[i]))) {
            throw new RowError(lineNo, notHeader(key, text, names));
          }
          width = names.length;
          return;
        }
        if (!widths.has(f.length)) {
          const want = [...widths].join(' or ');
          // a candle file (the only kind of 12 columns) imported as another kind: said so
          if (f.length === HEADERS.candles[0].length)
            throw new RowError(
              lineNo,
              `${f.length} columns, ${CANDLE_FILE}, not ${aKind(key)} file's (${want}): ${AS_CANDLES}`,
            );
          throw new RowError(lineNo, `${count(f.length, 'column')}; ${aKind(key)} row has ${want}`);
        }
        width = f.length;
      }
      if (f.length !== width)
        throw new RowError(lineNo, `${count(f.length, 'column')} where the file's rows have ${width}`);
      body(f, lineNo);
      rows++;
    },
  };
}

/** The kind with its article: `an aggTrades` (it read "is not a aggTrades header"), `a klines`. */
const aKind = (key: DatasetKey): string => withArticle(key.kind);
const withArticle = (kind: string): string => `${/^[aeiou]/i.test(kind) ? 'an' : 'a'} ${kind}`;

/** The kinds that read a recorder's JSON lines (depth-rows.ts, recording-lines.ts), in a refusal's words. */
export const JSON_LINES_KINDS =
  'kind depth reads their depthUpdate events and depth snapshots, kind aggTrades their aggTrade events, kind bookTicker their bookTicker events, kind trades their trade events, kind klines their closed kline events';
const CANDLE_FILE = `a candle file's (${[...CANDLE_KINDS].join(', ')})`;
const AS_CANDLES =
  "import it as kind klines (or the price klines it is) with its interval (--kind, or 'kind' in a request)";

/**
 * Why a first line is not the header of `key`'s kind: what it is instead when that can be told (a
 * recorder's JSON lines, another kind's header: the kind to import it as), else the headers expected.
 */
function notHeader(key: DatasetKey, text: string, names: string[]): string {
  const how = "(--kind, or 'kind' in a request)";
  if (text.startsWith('{')) return `a recorder's JSON lines, not ${aKind(key)} file: ${JSON_LINES_KINDS} ${how}`;
  const header = `the header ${quoted(text, 200)}`;
  const own = headersOf(key);
  const other = Object.keys(HEADERS).find(
    (k) => HEADERS[k] !== own && HEADERS[k].some((h) => h.length === names.length && h.every((n, i) => n === names[i])),
  );
  if (other === 'candles') return `${header} is ${CANDLE_FILE}, not ${aKind(key)} file's: ${AS_CANDLES}`;
  if (other !== undefined)
    return `${header} is ${withArticle(other)} file's, not ${aKind(key)} file's: import it as kind ${other} ${how}`;
  return `${header} is not ${aKind(key)} header (expected ${own.map((h) => h.join(',')).join(' or ')})`;
}

type Body = (f: string[], lineNo: number) => void;

function bodyParser(key: DatasetKey, sink: RowSink, dec: DecimalReader): Body {
  switch (storageOf(key.kind)) {
    case 'candles':
      return candleBody(key, sink, dec);
    case 'trades':
      return key.kind === 'aggTrades' ? aggTradeBody(sink, dec) : tradeBody(sink, dec);
    default:
      return eventBody(key, sink, dec);
  }
}

function need(ok: boolean, lineNo: number, what: string, value: string): void {
  if (!ok) throw new RowError(lineNo, `${what} ${quoted(value)}`);
}

/** Refuses a well-formed value the store or the venue cannot hold (decimal-field.ts sizeProblem). */
function fits(s: string, lineNo: number, what: string, hold: FieldHold): void {
  const problem = sizeProblem(s, hold);
  if (problem !== null) throw new RowError(lineNo, `${what} ${problem}: ${quoted(s)}`);
}

/** How each candle value is held: prices as written (coarse candles), volumes in lots, quote volumes as money. */
const CANDLE_VALUE_HOLDS: FieldHold[] = ['written', 'written', 'written', 'written', 'lots', 'money', 'lots', 'money'];

/**
 * The candle row of `key`'s interval: the archive's 12 columns, each named in its errors by `names`
 * (the CSV's; a recorder's kline event reads its t, o, h, l, c, v, T, q, n, V, Q, B through it too).
 */
export function candleBody(
  key: DatasetKey,
  sink: RowSink,
  dec: DecimalReader,
  names: readonly string[] = HEADERS.candles[0],
): Body {
  const interval = key.interval as Interval;
  const signed = key.kind === 'premiumIndexKlines';
  let prevOpen = Number.NEGATIVE_INFINITY;
  const row: CandleRow = { openTime: 0, closeTime: 0, values: [], count: 0, priceDp: 0, qtyDp: 0, quoteDp: 0 };
  const nums = new Float64Array(8);
  const dps = new Uint8Array(8);
  return (f, lineNo) => {
    const openUs = timeMicros(f[0]);
    need(
      Number.isSafeInteger(openUs) && openUs % 1000 === 0,
      lineNo,
      `${names[0]} is not a whole ms or µs timestamp:`,
      f[0],
    );
    const openTime = openUs / 1000;
    if (openTimeOf(interval, openTime) !== openTime) {
      // on the start of another interval's candle (a 1m file given 1h): the close_time error's hint
      const other = INTERVALS.some((i) => openTimeOf(i, openTime) === openTime);
      const hint = other ? ` (are these ${interval} candles?)` : '';
      need(false, lineNo, `${names[0]} is not the start of a ${interval} candle${hint}:`, f[0]);
    }
    need(openTime > prevOpen, lineNo, `${names[0]} is not after the previous row's:`, f[0]);
    const closeUs = timeMicros(f[6]);
    need(Number.isSafeInteger(closeUs), lineNo, `${names[6]} is not an integer:`, f[6]);
    const closeTime = Math.floor(closeUs / 1000);
    need(
      closeTime >= openTime && closeTime <= closeTimeOf(interval, openTime),
      lineNo,
      `${names[6]} is not inside the ${interval} candle (are these ${interval} candles?):`,
      f[6],
    );
    const values: string[] = new Array(8);
    for (let i = 0; i < 8; i++) {
      const s = f[CANDLE_VALUE_COLUMNS[i]];
      const name = names[CANDLE_VALUE_COLUMNS[i]];
      const m = dec.read(s, signed && i < 4, true);
      need(!Number.isNaN(m), lineNo, `${name} is not a ${signed && i < 4 ? '' : 'non-negative '}decimal:`, s);
      // a value the venue cannot count in ticks, lots or money is refused here (a 200,001-digit
      // volume was imported; a coarse read then answered a 200 KB message and a replay faulted)
      fits(s, lineNo, name, CANDLE_VALUE_HOLDS[i]);
      // for the order checks only: division by a power of ten keeps the order of the values
      nums[i] = m / POW10[dec.dp];
      dps[i] = dec.dp;
      values[i] = s;
    }
    const count = readInt(f[8]);
    need(!Number.isNaN(count), lineNo, `${names[8]} is not a non-negative integer:`, f[8]);
    const [open, high, low, close, volume, , tbv] = nums;
    if (!(high >= open && high >= close && high >= low && low <= open && low <= close)) {
      const [, o, h, l, c] = names;
      throw new RowError(lineNo, `${h} ${f[2]} and ${l} ${f[3]} do not bound ${o} ${f[1]} and ${c} ${f[4]}`);
    }
    if (tbv > volume) throw new RowError(lineNo, `${names[9]} ${f[9]} exceeds ${names[5]} ${f[5]}`);
    prevOpen = openTime;
    row.openTime = openTime;
    row.closeTime = closeTime;
    row.values = values;
    row.count = count;
    row.priceDp = Math.max(dps[0], dps[1], dps[2], dps[3]);
    row.qtyDp = Math.max(dps[4], dps[6]);
    row.quoteDp = Math.max(dps[5], dps[7]);
    sink.candle!(row, lineNo);
  };
}

/** A trade's decimal field, its mantissa (the trade block keeps it as written, in a double). */
function positive(dec: DecimalReader, s: string, lineNo: number, what: string, zero = false): number {
  const m = dec.read(s, false, true);
  need(zero ? m >= 0 : m > 0, lineNo, `${what} is not a ${zero ? 'non-negative' : 'positive'} decimal:`, s);
  fits(s, lineNo, what, 'written');
  return m;
}

function tradeFlags(f: string[], at: number, lineNo: number, makerName = 'is_buyer_maker'): number {
  const maker = readBool(f[at]);
  need(maker >= 0, lineNo, `${makerName} is not true or false:`, f[at]);
  if (f.length === at + 1) return maker;
  const best = readBool(f[at + 1]);
  need(best >= 0, lineNo, 'is_best_match is not true or false:', f[at + 1]);
  return maker | (best << 1) | 4;
}

/** The aggTrades CSV's columns, as its rows' errors name them. */
const AGG_TRADE_NAMES = HEADERS.aggTrades[0];

/**
 * The aggTrades row: its seven (or eight) fields in the archive's order, each named in its errors
 * by `names` (the CSV's; a recorder's aggTrade event reads its a, p, q, f, l, T, m through it too).
 */
export function aggTradeBody(sink: RowSink, dec: DecimalReader, names: readonly string[] = AGG_TRADE_NAMES): Body {
  let prevId = -1;
  let prevTime = Number.NEGATIVE_INFINITY;
  const row = emptyTradeRow();
  const [idName, priceName, qtyName, firstName, lastName, timeName, makerName] = names;
  return (f, lineNo) => {
    const id = readInt(f[0]);
    need(!Number.isNaN(id), lineNo, `${idName} is not an integer:`, f[0]);
    need(id > prevId, lineNo, `${idName} is not above the previous row's:`, f[0]);
    row.price = positive(dec, f[1], lineNo, priceName);
    row.priceDp = dec.dp;
    row.qty = positive(dec, f[2], lineNo, qtyName);
    row.qtyDp = dec.dp;
    const first = readInt(f[3]);
    const last = readInt(f[4]);
    need(!Number.isNaN(first), lineNo, `${firstName} is not an integer:`, f[3]);
    need(!Number.isNaN(last) && last >= first, lineNo, `${lastName} is not an integer at or above ${firstName}:`, f[4]);
    const t = timeMicros(f[5]);
    need(Number.isSafeInteger(t), lineNo, `${timeName} is not an integer:`, f[5]);
    need(t >= prevTime, lineNo, `${timeName} is before the previous row's:`, f[5]);
    row.flags = tradeFlags(f, 6, lineNo, makerName);
    row.id = id;
    row.aux = first;
    row.auxDp = 0;
    row.last = last;
    row.timeUs = t;
    prevId = id;
    prevTime = t;
    sink.trade!(row, lineNo);
  };
}

function tradeBody(sink: RowSink, dec: DecimalReader): Body {
  let prevId = -1;
  let prevTime = Number.NEGATIVE_INFINITY;
  const row = emptyTradeRow();
  return (f, lineNo) => {
    const id = readInt(f[0]);
    need(!Number.isNaN(id), lineNo, 'id is not an integer:', f[0]);
    need(id > prevId, lineNo, "id is not above the previous row's:", f[0]);
    row.price = positive(dec, f[1], lineNo, 'price');
    row.priceDp = dec.dp;
    row.qty = positive(dec, f[2], lineNo, 'qty');
    row.qtyDp = dec.dp;
    row.aux = positive(dec, f[3], lineNo, 'quote_qty', true);
    row.auxDp = dec.dp;
    const t = timeMicros(f[4]);
    need(Number.isSafeInteger(t), lineNo, 'time is not an integer:', f[4]);
    need(t >= prevTime, lineNo, "time is before the previous row's:", f[4]);
    row.flags = tradeFlags(f, 5, lineNo);
    row.id = id;
    row.last = 0;
    row.timeUs = t;
    prevId = id;
    prevTime = t;
    sink.trade!(row, lineNo);
  };
}

/**
 * The bookTicker row: its seven fields in the archive's order, each named in its errors by `names`
 * (the CSV's; a recorder's bookTicker event reads its u, b, B, a, A, T, E through it too).
 */
export function bookTickerBody(
  sink: RowSink,
  dec: DecimalReader,
  names: readonly string[] = HEADERS.bookTicker[0],
): Body {
  let prevTime = Number.NEGATIVE_INFINITY;
  let prevId = -1;
  return (f, lineNo) => {
    const id = readInt(f[0]);
    need(!Number.isNaN(id) && id > prevId, lineNo, `${names[0]} is not an integer above the previous row's:`, f[0]);
    for (let i = 1; i <= 4; i++) {
      need(!Number.isNaN(dec.read(f[i], false, true)), lineNo, `${names[i]} is not a decimal:`, f[i]);
      fits(f[i], lineNo, names[i], i % 2 === 1 ? 'written' : 'lots');
    }
    const t = timeMicros(f[5]);
    need(Number.isSafeInteger(t), lineNo, `${names[5]} is not an integer:`, f[5]);
    need(Number.isSafeInteger(timeMicros(f[6])), lineNo, `${names[6]} is not an integer:`, f[6]);
    need(t >= prevTime, lineNo, "the time is before the previous row's:", f[5]);
    prevId = id;
    prevTime = t;
    sink.event!(t, `${f[0]},${f[1]},${f[2]},${f[3]},${f[4]},${f[6]}`, lineNo);
  };
}

function eventBody(key: DatasetKey, sink: RowSink, dec: DecimalReader): Body {
  let prevTime = Number.NEGATIVE_INFINITY;
  const emit = (t: number, data: string, lineNo: number, raw: string): void => {
    need(t >= prevTime, lineNo, "the time is before the previous row's:", raw);
    prevTime = t;
    sink.event!(t, data, lineNo);
  };
  const decimal = (s: string, lineNo: number, what: string, hold: FieldHold, negative = false): void => {
    need(!Number.isNaN(dec.read(s, negative, true)), lineNo, `${what} is not a decimal:`, s);
    fits(s, lineNo, what, hold);
  };
  switch (key.kind) {
    case 'fundingRate':
      return (f, lineNo) => {
        const t = timeMicros(f[0]);
        need(Number.isSafeInteger(t), lineNo, 'calc_time is not an integer:', f[0]);
        need(t > prevTime, lineNo, "calc_time is not after the previous row's:", f[0]);
        const hours = readInt(f[1]);
        need(hours > 0, lineNo, 'funding_interval_hours is not a positive integer:', f[1]);
        decimal(f[2], lineNo, 'last_funding_rate', 'written', true);
        emit(t, `${f[1]},${f[2]}`, lineNo, f[0]);
      };
    case 'bookTicker':
      return bookTickerBody(sink, dec);
    case 'bookDepth':
      return (f, lineNo) => {
        const m = BOOK_DEPTH_TIME.exec(f[0]);
        const t = m === null ? Number.NaN : Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
        // a field out of its range (month 13, 24:00, Feb 30) is no time: Date.UTC would roll it on
        need(
          !Number.isNaN(t) && new Date(t).toISOString().slice(0, 19) === f[0].replace(' ', 'T'),
          lineNo,
          'timestamp is not YYYY-MM-DD HH:MM:SS:',
          f[0],
        );
        decimal(f[1], lineNo, 'percentage', 'written', true);
        decimal(f[2], lineNo, 'depth', 'lots');
        decimal(f[3], lineNo, 'notional', 'money');
        emit(t * 1000, `${f[1]},${f[2]},${f[3]}`, lineNo, f[0]);
      };
    default:
      throw new Error(`no row parser for ${key.kind}`);
  }
}
