// Dataset candles in the archive's 12-column layout: stored rows as they are, and coarser
// intervals aggregated from them. Invariants: a coarse candle spans the fine rows whose open
// times fall in it (the rows ascend); its close time is the next open time - 1; price-only kinds
// (mark, index, premium klines) count every fine candle as traded for the aggregation and report
// their real counts; a stored price that does not fit 2^53 units at the dataset's decimals is
// refused, never rounded (volumes are summed as exact integers of any size).
import { formatFixed, parseFixed } from '../../src-shared/decimal.ts';
import { nextOpenTime, type Interval } from '../../src-shared/intervals.ts';
import { aggregateCandles } from '../market/candle-aggregate.ts';
import type { Candle } from '../market/candles.ts';
import { DecimalReader, quoted, rescale } from './decimal-field.ts';
import { DatasetError } from './dataset-error.ts';
import type { DatasetRecord, StoredCandle } from './ports.ts';

/** One candle in the archive's 12-column layout (times ms). */
export type ArchiveKline = [
  number,
  string,
  string,
  string,
  string,
  string,
  number,
  string,
  number,
  string,
  string,
  string,
];

const POW10N = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));
const pow10 = (n: number): bigint => POW10N[n];

export function archiveRow(c: StoredCandle): ArchiveKline {
  const v = c.values;
  return [c.openTime, v[0], v[1], v[2], v[3], v[4], c.closeTime, v[5], c.count, v[6], v[7], '0'];
}

/**
 * The candles of `interval` built from a dataset's stored `fine` candles (ascending, of one
 * dataset): exact integers at the dataset's decimals through the project's aggregation, written
 * back at those decimals, so they equal Binance's own coarse files field for field.
 */
export function aggregateDatasetCandles(
  d: DatasetRecord,
  fine: Interval,
  interval: Interval,
  rows: readonly StoredCandle[],
): ArchiveKline[] {
  const pd = d.priceDp;
  const vd = d.qtyDp;
  const qd = d.quoteDp;
  const signed = d.kind === 'premiumIndexKlines';
  const dec = new DecimalReader();
  const units = (s: string, dp: number, what: string, negative = false): number => {
    const m = dec.read(s, negative);
    const v = Number.isNaN(m) || dec.dp > dp ? Number.NaN : rescale(m, dec.dp, dp);
    if (Number.isNaN(v))
      throw new DatasetError('invalid', `stored ${what} ${quoted(s)} does not fit 2^53 units at ${dp} decimals`);
    return v;
  };
  const big = (s: string, dp = qd, what = 'quote volume'): bigint => {
    // most volumes fit a double's integers exactly; the rest go through the exact parser
    const m = dec.read(s);
    if (!Number.isNaN(m) && dec.dp <= dp) return BigInt(m) * pow10(dp - dec.dp);
    const r = parseFixed(s, dp, { allowZero: true });
    if (!r.ok)
      throw new DatasetError('invalid', `stored ${what} ${quoted(s)} is not a decimal of at most ${dp} places`);
    return r.value;
  };
  // Price-only kinds (mark, index, premium) report no trades, yet every candle is a real price:
  // they enter the aggregation as traded candles, and their real counts are summed apart.
  const priceOnly = d.kind !== 'klines';
  const out: ArchiveKline[] = [];
  let start = 0;
  while (start < rows.length) {
    const next = nextOpenTime(interval, rows[start].openTime);
    let end = start + 1;
    while (end < rows.length && rows[end].openTime < next) end++;
    const fineCandles: Candle[] = [];
    let realCount = 0;
    // base volumes summed as exact integers apart: a month of a memecoin's daily volumes
    // (5e12 a day at 2 decimals) passes 2^53 units, which the candles' lot counts cannot hold
    let volume = 0n;
    let takerBuyVolume = 0n;
    for (let i = start; i < end; i++) {
      const r = rows[i];
      const v = r.values;
      realCount += r.count;
      volume += big(v[4], vd, 'volume');
      takerBuyVolume += big(v[6], vd, 'taker buy volume');
      fineCandles.push({
        interval: fine,
        openTime: r.openTime,
        open: units(v[0], pd, 'open', signed),
        high: units(v[1], pd, 'high', signed),
        low: units(v[2], pd, 'low', signed),
        close: units(v[3], pd, 'close', signed),
        volume: 0,
        quoteVolume: big(v[5]),
        trades: priceOnly ? r.count + 1 : r.count,
        takerBuyVolume: 0,
        takerBuyQuoteVolume: big(v[7]),
      });
    }
    const c = aggregateCandles(interval, fineCandles);
    out.push([
      c.openTime,
      formatFixed(c.open, pd),
      formatFixed(c.high, pd),
      formatFixed(c.low, pd),
      formatFixed(c.close, pd),
      formatFixed(volume, vd),
      next - 1,
      formatFixed(c.quoteVolume, qd),
      priceOnly ? realCount : c.trades,
      formatFixed(takerBuyVolume, vd),
      formatFixed(c.takerBuyQuoteVolume, qd),
      '0',
    ]);
    start = end;
  }
  return out;
}
