// Wire types of the simulated market's control routes, `GET` and `POST /api/v1/sim`
// (docs/simulated-market.md). Declared once here; the route's schemas are checked against them
// (src-main/api/routes/sim.ts `agree`), the simulator builds them and the SDK re-exports them.

/** One synthetic spot venue of a pair's index. */
export interface SimIndexVenue {
  name: string;
  /** Index weight while up (the weights of the venues up are renormalised). */
  weight: number;
  /** false while the venue is out of the index. */
  up: boolean;
}

/** One simulated pair: its settings and its state right now. */
export interface SimPairView {
  symbol: string;
  /** Long-run annualized volatility of the latent price (setting), e.g. 0.45 = 45 %. */
  volatility: number;
  /** Annualized volatility right now (it clusters: calm and wild stretches). */
  current_volatility: number;
  /** Average price jumps per day (setting). */
  jumps_per_day: number;
  /** Average taker orders per second of market time at normal volatility (setting). */
  taker_rate: number;
  /** Median taker order notional, USDT (setting). */
  taker_median_notional: number;
  /** Price levels the house market maker quotes per side (setting). */
  maker_levels: number;
  /** Notional the market maker shows per side, USDT (setting). */
  maker_depth_notional: number;
  index_price: number;
  mark_price: number;
  /** Estimated funding rate of the running 8 h interval. */
  funding_rate: number;
  venues: SimIndexVenue[];
}

/** The driver's overload sampling (docs/simulated-market.md, "The driver"); spans are market ms. */
export interface SimOverload {
  /** The latest driver tick sampled its span: the trades and candles written now are thinned. */
  behind: boolean;
  thinned_ticks: number;
  thinned_ms: number;
  /** The thinned market time, oldest first (the newest 100 spans). */
  spans: Array<{ from: number; to: number }>;
}

/** `GET /api/v1/sim` (and the answer of `POST`): the simulator of a local venue. */
export interface SimState {
  seed: number;
  speed: number;
  paused: boolean;
  /** Running as fast as the CPU allows, every step simulated (speed is then unused). */
  fast: boolean;
  /** Market clock, ms. */
  market_time: number;
  /** Market time the simulation has reached, ms (at most one driver tick behind market_time). */
  sim_time: number;
  /** Simulation step, ms of market time. */
  step_ms: number;
  /** null for a source other than the simulator (a replay). */
  overload: SimOverload | null;
  symbols: SimPairView[];
}

/** Body of `POST /api/v1/sim` (loopback): at least one field. */
export interface SimChange {
  speed?: number;
  paused?: boolean;
  fast?: boolean;
}
