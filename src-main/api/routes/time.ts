// Server time: the wall clock (what request signatures are checked against) and the market's
// virtual clock (what candles, funding and trade timestamps follow).
import type { FastifyInstance } from 'fastify';
import type { Venue } from '../../venue.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';

export default async function timeRoutes(app: FastifyInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  app.get(
    '/fapi/v1/time',
    {
      schema: {
        tags: ['market data'],
        summary: 'Server time',
        description:
          'server_time is the wall clock in ms: sign requests against it. market_time is the simulated market clock, ' +
          'which runs at `speed` times real time and stands still while paused.',
        querystring: { type: 'object', additionalProperties: false, properties: {} },
        response: {
          200: envelopeSchema({
            type: 'object',
            required: ['server_time', 'market_time', 'speed', 'paused'],
            properties: {
              server_time: { type: 'integer', description: 'Wall-clock time, ms' },
              market_time: { type: 'integer', description: 'Market (virtual) time, ms' },
              speed: { type: 'number', description: 'Market clock speed factor' },
              paused: { type: 'boolean', description: 'Whether the market clock is paused' },
            },
          }),
          ...standardErrors(),
        },
      },
    },
    async () =>
      ok({
        server_time: Date.now(),
        market_time: venue.clock.now(),
        speed: venue.clock.speed,
        paused: venue.clock.paused,
      }),
  );
}
