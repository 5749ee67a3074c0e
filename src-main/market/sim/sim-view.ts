// What GET /api/v1/sim shows of one simulated pair: its settings and its state right now.
import type { SimPairView } from '../../../src-shared/types/sim.ts';
import type { IndexVenues } from './index-venues.ts';
import type { SymbolSimParams } from './params.ts';
import type { PriceFeed } from './price-feed.ts';
import type { PriceProcess } from './price-process.ts';
import type { PairState } from '../../trading/pair-state.ts';

/** What the view reads of a simulated pair (simulator.ts's SymbolSim has it). */
interface ViewedSim {
  readonly symbol: string;
  readonly pair: PairState;
  readonly params: SymbolSimParams;
  readonly process: PriceProcess;
  readonly venues: IndexVenues;
  readonly feed: PriceFeed;
}

/** The wire record of a simulated pair (src-shared/types/sim.ts, the route checks its schema against it). */
export type SimSymbolView = SimPairView;

export function symbolView(s: ViewedSim): SimSymbolView {
  return {
    symbol: s.symbol,
    volatility: s.params.volatility,
    current_volatility: round(s.process.annualVol, 4),
    jumps_per_day: s.params.jumpsPerDay,
    taker_rate: s.params.takerRate,
    taker_median_notional: s.params.takerMedianNotional,
    maker_levels: s.params.makerLevels,
    maker_depth_notional: s.params.makerDepthNotional,
    index_price: s.pair.math.roundPrice(s.feed.index || s.process.price),
    mark_price: s.pair.math.roundPrice(s.pair.markPrice),
    funding_rate: s.feed.rate,
    venues: s.venues.view().map((v) => ({ name: v.name, weight: v.weight, up: v.up })),
  };
}

function round(x: number, d: number): number {
  const p = 10 ** d;
  return Math.round(x * p) / p;
}
