// Control of the simulated market: GET /api/v1/sim (public: seed, clock, per-symbol settings)
// and POST /api/v1/sim (loopback only: speed and pause). Both talk to the venue's MarketSource;
// speed and pause act on the market clock it follows, the one source of market time, and the
// source catches up on its next tick.
import type { FastifyInstance } from 'fastify';
import { MAX_SPEED, MIN_SPEED } from '../../core/clock.ts';
import type { MarketSource } from '../../market/market-source.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';

const venueSchema = {
  type: 'object',
  required: ['name', 'weight', 'up'],
  properties: {
    name: { type: 'string' },
    weight: { type: 'number', description: 'Index weight while up (weights of the venues up are renormalised)' },
    up: { type: 'boolean', description: 'false while the venue is out of the index' },
  },
} as const;

const symbolSchema = {
  type: 'object',
  required: [
    'symbol', 'volatility', 'current_volatility', 'jumps_per_day', 'taker_rate', 'taker_median_notional',
    'maker_levels', 'maker_depth_notional', 'index_price', 'mark_price', 'funding_rate', 'venues',
  ],
  properties: {
    symbol: { type: 'string' },
    volatility: { type: 'number', description: 'Long-run annualized volatility of the latent price (setting), e.g. 0.45 = 45 %' },
    current_volatility: { type: 'number', description: 'Annualized volatility right now (it clusters: calm and wild stretches)' },
    jumps_per_day: { type: 'number', description: 'Average price jumps per day (setting)' },
    taker_rate: { type: 'number', description: 'Average taker orders per second of market time at normal volatility (setting)' },
    taker_median_notional: { type: 'number', description: 'Median taker order notional, USDT (setting)' },
    maker_levels: { type: 'integer', description: 'Price levels the house market maker quotes per side (setting)' },
    maker_depth_notional: { type: 'number', description: 'Notional the market maker shows per side, USDT (setting)' },
    index_price: { type: 'number' },
    mark_price: { type: 'number' },
    funding_rate: { type: 'number', description: 'Estimated funding rate of the running 8 h interval' },
    venues: { type: 'array', items: venueSchema, description: 'Synthetic spot venues of the index' },
  },
} as const;

const simSchema = {
  type: 'object',
  required: ['seed', 'speed', 'paused', 'market_time', 'sim_time', 'step_ms', 'symbols'],
  properties: {
    seed: { type: 'integer', description: 'Seed of the simulated market (same seed, same market)' },
    speed: { type: 'number', description: `Market clock speed, ${MIN_SPEED} to ${MAX_SPEED}` },
    paused: { type: 'boolean' },
    market_time: { type: 'integer', description: 'Market clock, ms' },
    sim_time: { type: 'integer', description: 'Market time the simulation has reached, ms (at most one driver tick behind market_time)' },
    step_ms: { type: 'integer', description: 'Simulation step, ms of market time' },
    symbols: { type: 'array', items: symbolSchema },
  },
} as const;

export interface SimRouteOptions {
  market: MarketSource;
}

export default async function simRoutes(app: FastifyInstance, opts: SimRouteOptions): Promise<void> {
  const { market } = opts;
  const view = () => ({
    seed: market.seed,
    speed: market.speed,
    paused: market.paused,
    market_time: market.now(),
    sim_time: market.time,
    step_ms: market.stepMs,
    symbols: market.view(),
  });

  app.get(
    '/api/v1/sim',
    {
      schema: {
        tags: ['simulator'],
        summary: 'Simulated market: seed, clock and per-symbol settings',
        description:
          'Public: any caller may read it (no signature, no loopback rule, so no 403); only POST /api/v1/sim, which ' +
          'changes the clock, is loopback-only.',
        querystring: { type: 'object', additionalProperties: false, properties: {} },
        response: { 200: envelopeSchema(simSchema), ...standardErrors() },
      },
    },
    async () => ok(view()),
  );

  app.post<{ Body: { speed?: number; paused?: boolean } }>(
    '/api/v1/sim',
    {
      config: { auth: 'loopback' },
      preValidation: (req, _reply, done) => {
        if (req.body === undefined || req.body === null) req.body = {};
        done();
      },
      schema: {
        tags: ['simulator'],
        summary: 'Set the market clock speed or pause it (loopback only)',
        description:
          `speed: ${MIN_SPEED} to ${MAX_SPEED} times real time; paused: true stops market time (no trades, no funding, ` +
          'candles stand still), false resumes it. At least one field. A change never makes market time jump or go back. ' +
          'Up to about 2,000x the market is simulated step by step (reproducible from the seed); faster, each driver tick ' +
          'samples its span (prices stay continuous, trades sparser). Answers 403 / 2102 to callers not on this machine.',
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            speed: { type: 'number', minimum: MIN_SPEED, maximum: MAX_SPEED, description: 'Market clock speed factor' },
            paused: { type: 'boolean', description: 'true pauses the market clock, false resumes it' },
          },
        },
        response: { 200: envelopeSchema(simSchema), ...standardErrors(403) },
      },
    },
    async (req) => {
      const { speed, paused } = req.body;
      if (speed !== undefined) market.setSpeed(speed);
      if (paused === true) market.pause();
      else if (paused === false) market.resume();
      return ok(view());
    },
  );
}
