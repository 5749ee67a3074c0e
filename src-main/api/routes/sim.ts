// Control of the simulated market: GET /api/v1/sim (public: seed, clock, per-symbol settings)
// and POST /api/v1/sim (loopback only: speed, pause, fast mode). Both talk to the venue's MarketSource;
// speed and pause act on the market clock it follows, the one source of market time, and the
// source catches up on its next tick. A venue without a source (--no-sim) answers for its clock
// alone: speed and pause act on it, fast is refused, and it has no pairs to describe.
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type { SimChange, SimState } from '../../../src-shared/types/sim.ts';
import { MAX_SPEED, MIN_SPEED, type VirtualClock } from '../../core/clock.ts';
import type { MarketSource } from '../../market/market-source.ts';
import { SimulatedMarket } from '../../market/sim/simulated-market.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { agree, agreeSent, noQuery, type ApiInstance } from '../schemas.ts';
import { strictJsonBody } from '../strict-input.ts';

const venueSchema = Type.Object({
  name: Type.String(),
  weight: Type.Number({ description: 'Index weight while up (weights of the venues up are renormalised)' }),
  up: Type.Boolean({ description: 'false while the venue is out of the index' }),
});

const symbolSchema = Type.Object({
  symbol: Type.String(),
  volatility: Type.Number({
    description: 'Long-run annualized volatility of the latent price (setting), e.g. 0.45 = 45 %',
  }),
  current_volatility: Type.Number({
    description: 'Annualized volatility right now (it clusters: calm and wild stretches)',
  }),
  jumps_per_day: Type.Number({ description: 'Average price jumps per day (setting)' }),
  taker_rate: Type.Number({
    description: 'Average taker orders per second of market time at normal volatility (setting)',
  }),
  taker_median_notional: Type.Number({ description: 'Median taker order notional, USDT (setting)' }),
  maker_levels: Type.Integer({ description: 'Price levels the house market maker quotes per side (setting)' }),
  maker_depth_notional: Type.Number({ description: 'Notional the market maker shows per side, USDT (setting)' }),
  index_price: Type.Number(),
  mark_price: Type.Number(),
  funding_rate: Type.Number({ description: 'Estimated funding rate of the running 8 h interval' }),
  venues: Type.Array(venueSchema, { description: 'Synthetic spot venues of the index' }),
});

const spanSchema = Type.Object({
  from: Type.Integer({
    description: 'Market time the thinned span starts, ms (the simulation stood here when the tick began)',
  }),
  to: Type.Integer({ description: 'Market time it ends, ms (where the tick left the simulation)' }),
});

const overloadSchema = Type.Object(
  {
    behind: Type.Boolean({
      description:
        'true when the latest driver tick could not simulate its span step by step and sampled it: the market clock runs ' +
        'faster than this machine simulates, and the trades and candles being written now are thinned',
    }),
    thinned_ticks: Type.Integer({
      description: 'Driver ticks that sampled their span since the venue started (0: none)',
    }),
    thinned_ms: Type.Integer({
      description: 'Market ms those ticks jumped over without taker flow (no trades there; prices moved exactly)',
    }),
    spans: Type.Array(spanSchema, {
      description:
        'Market time the sampling thinned since the venue started, oldest first, consecutive ticks joined into one span ' +
        '(the newest 100 spans): candles in these spans have fewer trades and less volume than the model gives, and ' +
        'the run is no longer reproducible from the seed. Kept in memory only: a restart starts an empty list.',
    }),
  },
  {
    description:
      'The driver\'s overload sampling (docs/simulated-market.md, "The driver"); null without the simulator (--no-sim)',
  },
);

const simSchema = Type.Object({
  seed: Type.Integer({ description: 'Seed of the simulated market (same seed, same market)' }),
  speed: Type.Number({ description: `Market clock speed, ${MIN_SPEED} to ${MAX_SPEED}` }),
  paused: Type.Boolean(),
  fast: Type.Boolean({
    description:
      'true while the simulated market runs as fast as the CPU allows, every step simulated (speed is then unused)',
  }),
  market_time: Type.Integer({ description: 'Market clock, ms' }),
  sim_time: Type.Integer({
    description:
      'Market time the simulation has reached, ms (at most one driver tick behind market_time; market_time with --no-sim)',
  }),
  step_ms: Type.Integer({ description: 'Simulation step, ms of market time (0 with --no-sim: no simulation)' }),
  overload: Type.Union([overloadSchema, Type.Null()]),
  symbols: Type.Array(symbolSchema, { description: 'The simulated pairs ([] with --no-sim)' }),
});

const simBody = Type.Object(
  {
    speed: Type.Optional(
      Type.Number({ minimum: MIN_SPEED, maximum: MAX_SPEED, description: 'Market clock speed factor' }),
    ),
    paused: Type.Optional(Type.Boolean({ description: 'true pauses the market clock, false resumes it' })),
    fast: Type.Optional(
      Type.Boolean({
        description:
          'true runs the simulated market as fast as the CPU allows, every step simulated (reproducible from the seed); ' +
          'false goes back to the clock speed from the market time reached',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

agree<typeof simSchema, SimState>(true);
agreeSent<typeof simBody, SimChange>(true);

export interface SimRouteOptions {
  /** The venue's simulated market; null without one (--no-sim): the route answers for `clock`. */
  market: MarketSource | null;
  clock: VirtualClock;
  /** The venue's seed (kept for a later simulated start). */
  seed: number;
}

/** What the route reads and sets of a market source; the clock alone stands in for a venue without one. */
type SimControl = Pick<
  MarketSource,
  'seed' | 'speed' | 'paused' | 'now' | 'time' | 'stepMs' | 'view' | 'setSpeed' | 'pause' | 'resume'
>;

function clockAlone(clock: VirtualClock, seed: number): SimControl {
  return {
    seed,
    get speed() {
      return clock.speed;
    },
    get paused() {
      return clock.paused;
    },
    now: () => clock.now(),
    get time() {
      return clock.now();
    },
    stepMs: 0,
    view: () => [],
    setSpeed: (speed) => clock.setSpeed(speed),
    pause: () => clock.pause(),
    resume: () => clock.resume(),
  };
}

export default async function simRoutes(app: ApiInstance, opts: SimRouteOptions): Promise<void> {
  const market: SimControl = opts.market ?? clockAlone(opts.clock, opts.seed);
  const view = () => ({
    seed: market.seed,
    speed: market.speed,
    paused: market.paused,
    fast: market instanceof SimulatedMarket && market.fast,
    market_time: market.now(),
    sim_time: market.time,
    step_ms: market.stepMs,
    overload: market instanceof SimulatedMarket ? market.overload() : null,
    symbols: market.view(),
  });

  app.get(
    '/api/v1/sim',
    {
      schema: {
        tags: ['simulator'],
        summary: 'Simulated market: seed, clock and per-symbol settings',
        description:
          "Public: any caller may read it (no signature, no loopback rule: its only 403 is the Host guard's); only POST /api/v1/sim, which " +
          'changes the clock, is loopback-only.',
        querystring: noQuery,
        response: { 200: envelopeSchema(simSchema), ...standardErrors() },
      },
    },
    async () => ok(view()),
  );

  app.post(
    '/api/v1/sim',
    {
      config: { auth: 'loopback' },
      preValidation: strictJsonBody(simBody),
      schema: {
        tags: ['simulator'],
        summary: 'Set the market clock speed or pause it (loopback only)',
        description:
          `speed: ${MIN_SPEED} to ${MAX_SPEED} times real time; paused: true stops market time (no trades, no funding, ` +
          'candles stand still), false resumes it. At least one field. A change never makes market time jump or go back. ' +
          'Up to about 2,000x the market is simulated step by step (reproducible from the seed); faster, each driver tick ' +
          'samples its span (prices stay continuous, trades sparser). fast: true instead runs every step as fast as the ' +
          'CPU allows, the market clock following the simulation (a simulated market only: 400 / 1001 with --no-sim). ' +
          'With --no-sim speed and paused act on the market clock alone. ' +
          'Answers 403 / 2102 to callers not on this machine.',
        querystring: noQuery,
        body: simBody,
        response: { 200: envelopeSchema(simSchema), ...standardErrors(403) },
      },
    },
    async (req) => {
      const { speed, paused, fast } = req.body;
      if (fast !== undefined && !(market instanceof SimulatedMarket))
        throw new ApiError(
          Errors.INVALID_PARAMETER,
          "Invalid body parameter 'fast': only a simulated market has a fast mode",
        );
      if (speed !== undefined) market.setSpeed(speed);
      if (fast !== undefined) (market as SimulatedMarket).setFast(fast);
      if (paused === true) market.pause();
      else if (paused === false) market.resume();
      return ok(view());
    },
  );
}

/**
 * A replay venue's answer on the simulator's route: its clock is moved by the replay's controls
 * (POST /api/v1/replay), so both methods answer 404 / 1108 saying so (before: 404 / 1100 "No
 * route", as if the route did not exist on any venue).
 */
export async function replaySimRoutes(app: ApiInstance): Promise<void> {
  const refuse = (): never => {
    throw new ApiError(
      Errors.NOT_A_REPLAY,
      'A replay has no simulator: its clock is moved by the replay controls, POST /api/v1/replay ' +
        "(play, pause, speed, step, seek) and read from GET /api/v1/replay; /api/v1/sim is the live venue's",
    );
  };
  const schema = (summary: string) => ({
    tags: ['simulator'],
    summary,
    description: 'On a replay venue: 404 / 1108, naming the replay controls.',
    response: standardErrors(),
  });
  // before anything of the request is read (a body the clock route would take included)
  app.addHook('onRequest', async () => refuse());
  app.get('/api/v1/sim', { schema: schema('Simulated market (a replay venue: none)') }, refuse);
  app.post('/api/v1/sim', { schema: schema('Market clock (a replay venue: the replay controls)') }, refuse);
}
