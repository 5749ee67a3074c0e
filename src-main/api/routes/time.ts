// Server time: the wall clock (what request signatures are checked against) and the market's
// virtual clock (what candles, funding and trade timestamps follow).
import { Type } from 'typebox';
import type { Venue } from '../../services/venue.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import type { ServerTime } from '../../../src-shared/types.ts';
import { agree, noQuery, type ApiInstance } from '../schemas.ts';

const serverTimeSchema = Type.Object({
  server_time: Type.Integer({ description: 'Wall-clock time, ms' }),
  market_time: Type.Integer({ description: 'Market (virtual) time, ms' }),
  speed: Type.Number({
    description: "Market ms per wall ms: the clock speed, or a fast market's measured rate (0 before its first slice)",
  }),
  paused: Type.Boolean({ description: 'Whether the market clock is paused' }),
});

agree<typeof serverTimeSchema, ServerTime>(true);

export default async function timeRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
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
        querystring: noQuery,
        response: {
          200: envelopeSchema(serverTimeSchema),
          ...standardErrors(),
        },
      },
    },
    async () =>
      ok({
        server_time: Date.now(),
        market_time: venue.clock.now(),
        // the rate the market time runs at: a fast simulated market's measured one, not the speed kept for later
        speed: venue.market?.rate ?? venue.clock.speed,
        // the market's own pause: a fast simulated market holds the clock off the wall while it
        // runs it itself, so the clock's flag would say paused
        paused: venue.market?.paused ?? venue.clock.paused,
      }),
  );
}
