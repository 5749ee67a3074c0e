// The one rule that infers a dataset's tick and lot from its data (docs/data.md "Contract specs"),
// used by the catalogue (a dataset imported with no known specs: specs_source 'inferred') and by
// a replay of such a dataset (replay/specs.ts): the most significant decimals (trailing zeros not
// counted) of the first 50 depth events (and of the first snapshot, read on to it within the first
// 10,000 events when it is not among them) or 10,000 candles / trades / bookTicker rows give a tick
// and a step of one unit there; tick + step decimals stay within 8 (the money precision), the step
// giving way. bookDepth has quantities only: its step from them, its tick the finest left.
import Decimal from 'decimal.js';
import { createScale } from '../../src-shared/decimal.ts';
import type { CandleRowText, DepthRow, TradeRowText } from './dataset-reader.ts';

const SAMPLE_EVENTS = 50;
const SAMPLE_ROWS = 10_000;
/** Tick and step decimals together stay within the money precision (risk/money.ts). */
const MAX_DECIMALS = 8;

/** What the rule reads: a dataset's first rows (the catalogue's store reader, the replay's data port). */
export interface SpecSampleReader {
  depth(datasetId: number, from: number): Iterable<Pick<DepthRow, 'snapshot' | 'bids' | 'asks'>>;
  candles(
    datasetId: number,
    from: number,
    to: number,
  ): Iterable<Pick<CandleRowText, 'open' | 'high' | 'low' | 'close' | 'volume' | 'takerBuyVolume'>>;
  trades(datasetId: number, from: number): Iterable<Pick<TradeRowText, 'price' | 'qty'>>;
  /** Stored event rows as text (bookTicker, bookDepth); a reader without them leaves those kinds to the placeholder. */
  eventData?(datasetId: number, from: number): Iterable<string>;
}

/** The dataset a sample is read from. */
export interface SampledDataset {
  readonly id: number;
  readonly kind: string;
  readonly firstTime: number | null;
}

/**
 * Why the venue could not list a pair with this tick and step, or null: one with more digits than
 * its scale can count exactly (its digits, trailing decimal zeros left out, a safe integer: the
 * price scale of src-shared/decimal.ts refuses it), or their decimals as written ('0.10' has 2)
 * together above 8, the money precision (risk/money.ts SymbolMath refuses them).
 */
export function specsProblem(tickSize: string, stepSize: string): string | null {
  const written = (t: string): number => (t.includes('.') ? t.length - t.indexOf('.') - 1 : 0);
  const n = written(tickSize) + written(stepSize);
  if (n > MAX_DECIMALS) {
    return (
      `tick_size ${tickSize} and step_size ${stepSize} have ${n} decimals together; money is kept to ` +
      `${MAX_DECIMALS} decimals, so the two may have at most ${MAX_DECIMALS} together (tick 0.0001 with step 0.0001, say)`
    );
  }
  for (const [name, value] of [
    ['tick_size', tickSize],
    ['step_size', stepSize],
  ] as const) {
    try {
      createScale(value);
    } catch {
      return (
        `${name} ${value} has too many digits: a tick or step is counted exactly only up to ` +
        `${Number.MAX_SAFE_INTEGER} units of its last decimal (trailing decimal zeros left out)`
      );
    }
  }
  return null;
}

/**
 * Why a tick cannot price a pair that traded at `price`: the price is no whole number of ticks,
 * it rounds (half up, as a replay rounds its prices onto the tick) to 0; else null. `where` says
 * which price it is ("the dataset's first price").
 */
export function tickAboveProblem(price: string, tickSize: string, where: string): string | null {
  if (!new Decimal(price).times(2).lt(tickSize)) return null;
  return (
    `tick_size ${tickSize} is above ${where} (${price}), which is no whole number of ticks (it rounds to 0); ` +
    `every price of a replay is a multiple of the tick, so it must be at most the pair's prices`
  );
}

/** Decimals of a decimal string, trailing zeros not counted ('9781.0' has 0, '0.25460' 4). */
function significantDecimals(text: string): number {
  const dot = text.indexOf('.');
  if (dot < 0) return 0;
  let end = text.length;
  while (end > dot + 1 && text.charCodeAt(end - 1) === 48) end--;
  return end - dot - 1;
}

/**
 * The tick and step the rule gives for `datasets` read together (a replayed pair's main dataset
 * and its trades): each dataset's first rows, the most significant decimals over all of them.
 */
export function inferTickStep(
  reader: SpecSampleReader,
  datasets: readonly SampledDataset[],
): { tickSize: string; stepSize: string } {
  let pdp = 0;
  let qdp = 0;
  let noPrice = false;
  let sawPrice = false;
  const price = (p: string): void => {
    sawPrice = true;
    pdp = Math.max(pdp, significantDecimals(p));
  };
  const qty = (q: string): void => {
    qdp = Math.max(qdp, significantDecimals(q));
  };
  for (const d of datasets) {
    const from = d.firstTime ?? 0;
    let n = 0;
    if (d.kind === 'depth') {
      // the first 50 events and, when no snapshot was among them, on to the first one (its levels
      // only): a recording whose diffs ran more than 50 events before its REST snapshot had its
      // tick read from the diffs alone, and the snapshot's finer levels rounded by the replay
      let snapshotSeen = false;
      for (const ev of reader.depth(d.id, from)) {
        if (n < SAMPLE_EVENTS || ev.snapshot) {
          for (const rows of [ev.bids, ev.asks])
            for (const [p, q] of rows) {
              price(p);
              qty(q);
            }
        }
        snapshotSeen ||= ev.snapshot;
        if ((++n >= SAMPLE_EVENTS && snapshotSeen) || n >= SAMPLE_ROWS) break;
      }
    } else if (d.kind === 'trades' || d.kind === 'aggTrades') {
      for (const x of reader.trades(d.id, from)) {
        price(x.price);
        qty(x.qty);
        if (++n >= SAMPLE_ROWS) break;
      }
    } else if ((d.kind === 'bookTicker' || d.kind === 'bookDepth') && reader.eventData !== undefined) {
      // bookTicker rows: update_id, bid price, bid qty, ask price, ask qty, event_time;
      // bookDepth rows: percentage, depth, notional (no price: its tick is the finest left)
      for (const data of reader.eventData(d.id, from)) {
        const f = data.split(',');
        if (d.kind === 'bookTicker') {
          price(f[1]);
          qty(f[2]);
          price(f[3]);
          qty(f[4]);
        } else {
          qty(f[1]);
          noPrice = true;
        }
        if (++n >= SAMPLE_ROWS) break;
      }
    } else if (d.kind.endsWith('lines')) {
      // klines and the price klines (mark, index, premium)
      for (const c of reader.candles(d.id, from, Number.MAX_SAFE_INTEGER)) {
        for (const p of [c.open, c.high, c.low, c.close]) price(p);
        qty(c.volume);
        qty(c.takerBuyVolume);
        if (++n >= SAMPLE_ROWS) break;
      }
    }
  }
  if (noPrice && !sawPrice) {
    qdp = Math.min(qdp, MAX_DECIMALS);
    pdp = MAX_DECIMALS - qdp;
  }
  pdp = Math.min(pdp, MAX_DECIMALS);
  qdp = Math.min(qdp, MAX_DECIMALS - pdp);
  const step = (dp: number): string => (dp === 0 ? '1' : `0.${'0'.repeat(dp - 1)}1`);
  return { tickSize: step(pdp), stepSize: step(qdp) };
}
