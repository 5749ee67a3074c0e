// A replayed pair's funding (docs/replay.md "Mark, index, funding"): settlements at the times of
// the fundingRate rows with their rates when the pair has them (the next row's time shown as the
// next funding time, never its rate before it settles); otherwise (and before the rows' first
// 8-hour slot, after their last) every 8 h at 00/08/16 UTC, at the rate
// Binance's rule gives from the premiumIndexKlines closes (premium-funding.ts), else at 0.01 %
// (the interest rate: with mark = index the premium is 0). Everything goes through the venue's
// 'funding' and 'prices' commands, so payments are the live venue's.
import { FUNDING_INTEREST_RATE, FUNDING_INTERVAL_MS, fundingRateCap } from '../risk/funding.ts';
import type { Exchange } from '../trading/exchange.ts';
import type { PairState } from '../trading/pair-state.ts';
import { RANK_FUNDING, RANK_PRICES, type StreamMerge, type Stream } from './merge.ts';
import type { HistCandle, ReplayData, ReplayDataset } from './ports.ts';
import { PremiumFunding } from './premium-funding.ts';
import { iter, iteratorStream } from './streams.ts';

export interface FundingStreamOptions {
  ex: Exchange;
  data: ReplayData;
  merge: StreamMerge;
  pair: PairState;
  funding: ReplayDataset | null;
  premium: ReplayDataset | null;
  start: number;
  until: number;
}

/** Adds the pair's funding stream (and its premium samples' stream) to the merge. */
export function addFundingStreams(o: FundingStreamOptions): void {
  if (o.funding !== null) o.merge.add(rowsStream(o, o.funding));
  else o.merge.add(scheduleStream(o));
}

/** The 8-hour slot (00/08/16 UTC) a time falls in. */
const slotOf = (t: number): number => Math.floor(t / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;

/**
 * Settlements at the fundingRate rows. Before a settlement only its time is known (Binance's
 * schedule); its rate is not shown (it would be a rate from the future): the rate shown is the
 * last one settled (the interest rate before any). Where the dataset has no rows, before its
 * first row's 8-hour slot and from the slot after its last row's, the schedule settles as without
 * the dataset (scheduleStream), not nothing (a next funding time of 0, or the first row's, days away).
 */
function rowsStream(o: FundingStreamOptions, ds: ReplayDataset): Stream {
  const { ex, pair } = o;
  const symbol = pair.row.symbol;
  const firstSlot = slotOf(ds.firstTime!);
  const afterLast = slotOf(ds.lastTime!) + FUNDING_INTERVAL_MS;
  // the schedule's next slot at or after t outside the rows' slots
  const schedFrom = (t: number): number => (t >= firstSlot && t < afterLast ? afterLast : t);
  let sched = schedFrom(slotOf(o.start) + FUNDING_INTERVAL_MS);
  // the rows from one interval before the start: the last of them before it is the rate settled last
  const it = iter(o.data.funding(ds.id, o.start - FUNDING_INTERVAL_MS));
  let nextRow = it.next();
  let last = FUNDING_INTEREST_RATE;
  while (!nextRow.done && nextRow.value.time < o.start) {
    last = nextRow.value.rate;
    nextRow = it.next();
  }
  const rowNext = (): boolean => !nextRow.done && nextRow.value.time <= sched;
  const premium =
    o.premium === null
      ? null
      : premiumSamples(
          o,
          o.premium,
          () => sched,
          () => !rowNext(),
        );
  const nextTime = (): number => (rowNext() ? nextRow.value!.time : sched);
  // the rate settled last (at the start before a slot of the schedule: its predicted rate; the
  // premium samples then move it, while the next settlement is the schedule's)
  const atStart = rowNext() ? last : (premium?.rate(sched) ?? FUNDING_INTEREST_RATE);
  const st: Stream = {
    time: nextTime(),
    rank: RANK_FUNDING,
    apply() {
      if (rowNext()) {
        const f = nextRow.value!;
        nextRow = it.next();
        ex.execute({ kind: 'funding', symbol, rate: f.rate, mark: pair.markPrice, time: f.time });
        last = f.rate;
        premium?.settle(slotOf(f.time)); // (its slot's samples, not needed: the row settled it)
      } else {
        const t = sched;
        sched = schedFrom(t + FUNDING_INTERVAL_MS);
        last = premium?.settle(t) ?? FUNDING_INTEREST_RATE;
        ex.execute({ kind: 'funding', symbol, rate: last, mark: pair.markPrice, time: t });
      }
      st.time = nextTime();
      ex.execute({ kind: 'prices', symbol, fundingRate: last, nextFundingTime: st.time });
    },
  };
  ex.execute({ kind: 'prices', symbol, fundingRate: atStart, nextFundingTime: st.time });
  return st;
}

function scheduleStream(o: FundingStreamOptions): Stream {
  const { ex, pair } = o;
  const symbol = pair.row.symbol;
  let next = Math.floor(o.start / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS + FUNDING_INTERVAL_MS;
  const premium = o.premium === null ? null : premiumSamples(o, o.premium, () => next);
  const rateOf = (t: number): number => premium?.settle(t) ?? FUNDING_INTEREST_RATE;
  const predicted = (): number => premium?.rate(next) ?? FUNDING_INTEREST_RATE;
  ex.execute({ kind: 'prices', symbol, fundingRate: predicted(), nextFundingTime: next });
  const st: Stream = {
    time: next,
    rank: RANK_FUNDING,
    apply() {
      const t = next;
      next += FUNDING_INTERVAL_MS;
      st.time = next;
      ex.execute({ kind: 'funding', symbol, rate: rateOf(t), mark: pair.markPrice, time: t });
      ex.execute({ kind: 'prices', symbol, fundingRate: predicted(), nextFundingTime: next });
    },
  };
  return st;
}

/**
 * The premium index candles of a pair without fundingRate rows (or where its rows are not): each close is a premium sample
 * at its close time (those of the interval running at the start are read from its beginning
 * and applied at the start), and the predicted rate follows them.
 */
function premiumSamples(
  o: FundingStreamOptions,
  ds: ReplayDataset,
  settlement: () => number,
  shown: () => boolean = () => true,
): PremiumFunding {
  const pf = new PremiumFunding(fundingRateCap(o.pair.row.brackets));
  const { ex, start } = o;
  const symbol = o.pair.row.symbol;
  const from = Math.floor(start / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;
  o.merge.add(
    iteratorStream(
      RANK_PRICES,
      iter(o.data.candles(ds.id, from, o.until)),
      (c: HistCandle) => {
        pf.add(c.closeTime, Number(c.close));
        // (beside fundingRate rows, the predicted rate is shown only before a slot of the schedule)
        if (shown()) ex.execute({ kind: 'prices', symbol, fundingRate: pf.rate(settlement()) });
      },
      (c) => Math.max(start, c.closeTime),
    ),
  );
  return pf;
}
