// L2 depth as recorded from Binance: REST snapshots (lastUpdateId, bids, asks) and the
// diff-depth stream (U first update id, u final update id, pu the previous event's u in futures).
// Two layouts, told apart by their first line:
//   JSONL (cryptofeed-style recorders): snapshot lines {"symbol","lastUpdateId","E","T","bids","asks",...}
//     and stream lines {"stream":"xyz@depth@100ms","data":{"e":"depthUpdate","E","T","s","U","u","pu","b","a"}}
//     (other streams in the same file are skipped);
//   CSV, one row per price level (Binance-Data-Processor-style recorders, recorder-rows.ts):
//     snapshot: TimestampOfRequest,TimestampOfReceive,MessageOutputTime,TransactionTime,LastUpdateId,IsAsk,Price,Quantity
//     stream:   TimestampOfReceive,Stream,EventType,EventTime,TransactionTime,Symbol,FirstUpdateId,FinalUpdateId,
//               FinalUpdateIdInLastStream,IsAsk,Price,Quantity  (consecutive rows of one event share its ids)
//     spot:     TimestampOfReceive,TimestampOfRequest,LastUpdateId,IsAsk,Price,Quantity (a snapshot: spot's
//               REST depth has no E or T, so it is timed when it was received, the first time its book is
//               known: never before its state) and TimestampOfReceive,Stream,EventType,EventTime,Symbol,
//               FirstUpdateId,FinalUpdateId,IsAsk,Price,Quantity (diffs, timed by E); read as the futures
//               rows with those columns empty
// Only rows of the dataset's symbol are taken (CSV snapshots carry no symbol: all their rows are).
// An event is timed by its transaction time T (futures: the matching engine's time of the last
// change it carries, the clock of the trades' T), else by its event time E (spot has no T): E is
// when Binance pushed the event, 0-107 ms after T in the fixtures, so a diff at E would come after
// trades that matched after its state.
// Every event is validated (ids, prices, quantities, time order); a break in the stream (pu not
// the previous u; in spot, U not the previous u + 1) is a gap, reported to the sink, not an error.

import { DecimalReader, readInt } from './decimal-field.ts';
import {
  isPreamble,
  SNAPSHOT_CSV,
  SPOT_SNAPSHOT_CSV,
  SPOT_STREAM_CSV,
  STREAM_CSV,
  wrongRecorderKind,
} from './recorder-rows.ts';
import { RowError } from './rows.ts';
import { count } from './count-words.ts';
import { lineObject, RecordingObjects, recordedLine } from './recording-lines.ts';
import { StreamSkips } from './stream-skips.ts';
import { EventRepeats } from './event-repeats.ts';
import type { SkippedStream } from '../../src-shared/skipped-streams.ts';

export interface DepthEvent {
  kind: 'snapshot' | 'diff';
  /** µs: the transaction time (T) when the event has one (futures), else the event time (E, spot). */
  timeUs: number;
  /** diff: first update id; snapshot: lastUpdateId. */
  U: number;
  /** diff: final update id; snapshot: lastUpdateId. */
  u: number;
  /** diff: previous event's u (futures), -1 when the stream has none (spot). */
  pu: number;
  bids: [string, string][];
  asks: [string, string][];
}

export interface DepthSink {
  depth(ev: DepthEvent, line: number): void;
  /** The stream broke between two events (an event lost). */
  brokenStream(prevU: number, ev: DepthEvent): void;
}

export interface DepthParser {
  line(text: string, lineNo: number): void;
  /** Flushes the event still being assembled (CSV streams); call after the last line. */
  end(): void;
  readonly rows: number;
  /** Symbols seen in rows that were skipped (another symbol's). */
  readonly otherSymbols: ReadonlySet<string>;
  /** JSON lines of other streams (and other pairs) skipped, per stream. */
  readonly skipped: readonly SkippedStream[];
  /** What the import says of the file's rows: depthUpdate events written twice, dropped (event-repeats.ts). */
  readonly warnings: readonly string[];
}

export function makeDepthParser(symbol: string, sink: DepthSink): DepthParser {
  const dec = new DecimalReader();
  const others = new Set<string>();
  const skips = new StreamSkips(symbol);
  let layout: 'json' | 'csv-snapshot' | 'csv-stream' | null = null;
  /** A spot recording's CSV (SPOT_SNAPSHOT_CSV, SPOT_STREAM_CSV): fewer columns. */
  let spot = false;
  let rows = 0;
  let prevDiff: DepthEvent | null = null;
  let prevTime = Number.NEGATIVE_INFINITY;
  let pending: DepthEvent | null = null;
  let pendingLine = 0;
  let pendingField = '';
  // a depthUpdate written again (a recorder reconnecting) is dropped, counted; another of its u refuses the file
  const eventText = (text: string): string => JSON.stringify(recordedLine(lineObject(text, 0), symbol).data);
  const repeats = new EventRepeats('depthUpdate', 'u', eventText);
  const objects = new RecordingObjects();

  const level = (p: unknown, q: unknown, lineNo: number): [string, string] => {
    if (typeof p !== 'string' || Number.isNaN(dec.read(p)) || dec.read(p) <= 0)
      throw new RowError(lineNo, `price ${JSON.stringify(p)} is not a positive decimal`);
    if (typeof q !== 'string' || Number.isNaN(dec.read(q, false, true)))
      throw new RowError(lineNo, `quantity ${JSON.stringify(q)} is not a decimal`);
    return [p, q];
  };
  const levels = (v: unknown, lineNo: number, what: string): [string, string][] => {
    if (!Array.isArray(v)) throw new RowError(lineNo, `${what} is not an array of [price, quantity]`);
    return v.map((x) => {
      if (!Array.isArray(x) || x.length < 2)
        throw new RowError(lineNo, `${what} holds ${JSON.stringify(x)}, not [price, quantity]`);
      return level(x[0], x[1], lineNo);
    });
  };
  const id = (v: unknown, lineNo: number, what: string): number => {
    const n = typeof v === 'number' ? v : typeof v === 'string' ? readInt(v) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 0)
      throw new RowError(lineNo, `${what} ${JSON.stringify(v)} is not an update id`);
    return n;
  };
  const time = (v: unknown, lineNo: number, what: string): number => {
    const n = typeof v === 'number' ? v : typeof v === 'string' ? readInt(v) : Number.NaN;
    if (!Number.isSafeInteger(n) || n <= 0)
      throw new RowError(lineNo, `${what} ${JSON.stringify(v)} is not a timestamp`);
    return n >= 1e14 ? n : n * 1000;
  };

  const emit = (ev: DepthEvent, lineNo: number, timeField: string): void => {
    if (ev.timeUs < prevTime)
      throw new RowError(
        lineNo,
        `${timeField} ${Math.floor(ev.timeUs / 1000)} is before the previous event's time, ${Math.floor(prevTime / 1000)}`,
      );
    prevTime = ev.timeUs;
    if (ev.kind === 'diff') {
      if (ev.U > ev.u) throw new RowError(lineNo, `first update id ${ev.U} is above the final update id ${ev.u}`);
      if (prevDiff !== null) {
        if (ev.u <= prevDiff.u)
          throw new RowError(lineNo, `final update id ${ev.u} is not above the previous event's ${prevDiff.u}`);
        const continues = ev.pu >= 0 ? ev.pu === prevDiff.u : ev.U === prevDiff.u + 1;
        if (!continues) sink.brokenStream(prevDiff.u, ev);
      }
      prevDiff = ev;
    }
    rows++;
    sink.depth(ev, lineNo);
  };

  const jsonLine = (text: string, lineNo: number): void => {
    const whole = objects.object(text, lineNo);
    if (whole === null) return;
    const line = recordedLine(whole, symbol);
    const o = line.data;
    if (line.symbol !== symbol && (line.event === 'snapshot' || line.event === 'depthUpdate')) others.add(line.symbol);
    // another stream of the same recording, or another pair's: counted, the import says them
    if (line.symbol !== symbol || (line.event !== 'snapshot' && line.event !== 'depthUpdate')) return skips.add(line);
    if (line.event === 'snapshot') {
      const u = id(o.lastUpdateId, lineNo, 'lastUpdateId');
      const field = o.T === undefined ? 'E' : 'T';
      emit(
        {
          kind: 'snapshot',
          timeUs: time(o[field], lineNo, field),
          U: u,
          u,
          pu: -1,
          bids: levels(o.bids, lineNo, 'bids'),
          asks: levels(o.asks, lineNo, 'asks'),
        },
        lineNo,
        field,
      );
      return;
    }
    const d = o;
    const field = d.T === undefined ? 'E' : 'T';
    const u = id(d.u, lineNo, 'u');
    if (repeats.repeats(u, text, lineNo)) return;
    emit(
      {
        kind: 'diff',
        timeUs: time(d[field], lineNo, field),
        U: id(d.U, lineNo, 'U'),
        u,
        pu: d.pu === undefined ? -1 : id(d.pu, lineNo, 'pu'),
        bids: levels(d.b, lineNo, 'b'),
        asks: levels(d.a, lineNo, 'a'),
      },
      lineNo,
      field,
    );
    repeats.took(u, text, lineNo);
  };

  const flush = (): void => {
    if (pending !== null) emit(pending, pendingLine, pendingField);
    pending = null;
  };

  /** A spot row in the futures row's columns (those spot has not left empty); its width checked. */
  const spotRow = (f: string[], lineNo: number): string[] => {
    const snapshot = layout === 'csv-snapshot';
    const want = snapshot ? 6 : 10;
    if (f.length !== want)
      throw new RowError(
        lineNo,
        `${count(f.length, 'column')}; a spot ${snapshot ? 'depth snapshot' : 'diff-depth'} row has ${want}`,
      );
    return snapshot
      ? [f[1], f[0], '', f[0], f[2], f[3], f[4], f[5]]
      : [f[0], f[1], f[2], f[3], '', f[4], f[5], f[6], '', f[7], f[8], f[9]];
  };

  const csvLine = (text: string, lineNo: number): void => {
    const f = spot ? spotRow(text.split(','), lineNo) : text.split(',');
    if (layout === 'csv-snapshot') {
      const timeField = spot ? 'TimestampOfReceive' : 'TransactionTime';
      if (f.length !== 8) throw new RowError(lineNo, `${count(f.length, 'column')}; a depth snapshot row has 8`);
      const u = id(f[4], lineNo, 'LastUpdateId');
      const side = f[5];
      if (side !== '0' && side !== '1') throw new RowError(lineNo, `IsAsk ${JSON.stringify(side)} is not 0 or 1`);
      const lv = level(f[6], f[7], lineNo);
      if (pending === null || pending.u !== u) {
        flush();
        pending = {
          kind: 'snapshot',
          timeUs: time(f[3], lineNo, timeField),
          U: u,
          u,
          pu: -1,
          bids: [],
          asks: [],
        };
        pendingLine = lineNo;
        pendingField = timeField;
      }
      (side === '1' ? pending.asks : pending.bids).push(lv);
      return;
    }
    if (f.length !== 12) throw new RowError(lineNo, `${count(f.length, 'column')}; a diff-depth row has 12`);
    if (f[2] !== 'depthUpdate') throw new RowError(lineNo, `EventType ${JSON.stringify(f[2])} is not depthUpdate`);
    const sym = f[5].toUpperCase();
    if (sym !== symbol) {
      // another pair's row, counted by its Stream column as a JSON line is by its stream
      others.add(sym);
      return skips.add({
        stream: f[1] === '' ? `${sym.toLowerCase()}@depth` : f[1],
        symbol: sym,
        event: 'depthUpdate',
      });
    }
    const U = id(f[6], lineNo, 'FirstUpdateId');
    const u = id(f[7], lineNo, 'FinalUpdateId');
    const side = f[9];
    if (side !== '0' && side !== '1') throw new RowError(lineNo, `IsAsk ${JSON.stringify(side)} is not 0 or 1`);
    const lv = level(f[10], f[11], lineNo);
    if (pending === null || pending.u !== u || pending.U !== U) {
      flush();
      // a spot stream has no T: its TransactionTime column is empty, the event is timed by EventTime
      const t = f[4] === '' ? 3 : 4;
      pendingField = f[4] === '' ? 'EventTime' : 'TransactionTime';
      pending = {
        kind: 'diff',
        timeUs: time(f[t], lineNo, pendingField),
        U,
        u,
        pu: f[8] === '' ? -1 : id(f[8], lineNo, 'FinalUpdateIdInLastStream'),
        bids: [],
        asks: [],
      };
      pendingLine = lineNo;
    }
    (side === '1' ? pending.asks : pending.bids).push(lv);
  };

  return {
    get rows() {
      return rows;
    },
    get otherSymbols() {
      return others;
    },
    get skipped() {
      return skips.list();
    },
    get warnings() {
      return [repeats.warning(), objects.warning()].filter((w) => w !== null);
    },
    line(text, lineNo) {
      if (text.trim().length === 0) return;
      if (layout === null) {
        const h = text.trim();
        spot = h === SPOT_SNAPSHOT_CSV || h === SPOT_STREAM_CSV;
        if (text.startsWith('{')) layout = 'json';
        else if (isPreamble(text)) return;
        else if (h === SNAPSHOT_CSV || h === SPOT_SNAPSHOT_CSV) return void (layout = 'csv-snapshot');
        else if (h === STREAM_CSV || h === SPOT_STREAM_CSV) return void (layout = 'csv-stream');
        else {
          throw new RowError(
            lineNo,
            wrongRecorderKind(text, 'depth') ??
              `not a depth file: expected JSON lines or the header ${JSON.stringify(SNAPSHOT_CSV)} or ${JSON.stringify(STREAM_CSV)}`,
          );
        }
      }
      if (layout === 'json') jsonLine(text, lineNo);
      else csvLine(text, lineNo);
    },
    end: flush,
  };
}

/** The stored form of one event (the events table's data column). */
export function depthData(ev: DepthEvent): string {
  return JSON.stringify(
    ev.kind === 'snapshot'
      ? { t: 's', u: ev.u, b: ev.bids, a: ev.asks }
      : { t: 'd', U: ev.U, u: ev.u, pu: ev.pu, b: ev.bids, a: ev.asks },
  );
}
