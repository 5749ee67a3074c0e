// Take-profit and stop-loss on a position: set, change, remove.
import type { FastifyInstance } from 'fastify';
import type { PositionRecord } from '../../../src-shared/types.ts';
import type { Venue } from '../../venue.ts';
import { signedQuerystring } from '../auth.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { strictJsonBody } from '../trading-schemas.ts';

const priceOrNull = {
  anyOf: [{ type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,12})?$' }, { type: 'null' }],
  description: 'Trigger price (decimal string); null removes it; absent leaves it unchanged',
};

const tpslBody = {
  type: 'object',
  additionalProperties: false,
  required: ['symbol', 'position_side'],
  properties: {
    symbol: { type: 'string', pattern: '^[A-Za-z0-9]{2,30}$' },
    position_side: { type: 'integer', enum: [1, 2], description: '1 long, 2 short (1 in one-way mode)' },
    take_profit_price: priceOrNull,
    stop_loss_price: priceOrNull,
    working_type: { type: 'integer', enum: [1, 2], default: 1, description: '1 mark price, 2 last price' },
  },
};

interface Body {
  symbol: string;
  position_side: 1 | 2;
  take_profit_price?: string | null;
  stop_loss_price?: string | null;
  working_type?: 1 | 2;
}

export default async function tpslRoutes(app: FastifyInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  app.post<{ Body: Body }>(
    '/fapi/v1/position/tpsl',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(tpslBody as { properties: Record<string, { type?: string }> }),
      schema: {
        tags: ['positions'],
        summary: 'Set, change or remove the take-profit / stop-loss of a position (signed)',
        description:
          'When the watched price (working_type 1 = mark price, the default; 2 = last price) reaches the trigger, ' +
          'the whole position closes with a reduce-only market order; the closed position is recorded with ' +
          'close_type 2 (take profit) or 3 (stop loss). A take-profit must lie beyond the mark in the ' +
          "position's favour, a stop-loss against it; a trigger is spent once it fires.",
        querystring: signedQuerystring(),
        body: tpslBody,
        response: { 200: envelopeSchema({ type: 'object', additionalProperties: true }), ...standardErrors(401) },
      },
    },
    async (req): Promise<ReturnType<typeof ok<PositionRecord & { take_profit_price: string | null; stop_loss_price: string | null; working_type: number }>>> => {
      const b = req.body;
      const wt = b.working_type ?? 1;
      const symbol = b.symbol.toUpperCase();
      const rec = venue.exchange.execute({
        kind: 'setTpSl',
        accountId: req.account!.id,
        symbol,
        positionSide: b.position_side,
        tp: b.take_profit_price === undefined ? undefined : { price: b.take_profit_price, trigger: wt },
        sl: b.stop_loss_price === undefined ? undefined : { price: b.stop_loss_price, trigger: wt },
      });
      const t = venue.exchange.tpsl(req.account!.id, symbol, b.position_side);
      return ok({ ...rec, take_profit_price: t.take_profit_price, stop_loss_price: t.stop_loss_price, working_type: wt });
    },
  );

  app.get(
    '/fapi/v1/position/tpsl',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['positions'],
        summary: 'Take-profit / stop-loss of every open position (signed)',
        description: 'One entry per open position; a price is null when no trigger is set. working_type 1 mark, 2 last.',
        querystring: signedQuerystring(),
        response: {
          200: envelopeSchema({
            type: 'array',
            items: {
              type: 'object',
              required: ['symbol', 'position_side', 'take_profit_price', 'stop_loss_price', 'working_type'],
              properties: {
                symbol: { type: 'string' },
                position_side: { type: 'integer', enum: [1, 2] },
                take_profit_price: { type: ['string', 'null'] },
                stop_loss_price: { type: ['string', 'null'] },
                working_type: { type: 'integer', enum: [1, 2] },
              },
            },
          }),
          ...standardErrors(401),
        },
      },
    },
    async (req) => ok(venue.exchange.tpslList(req.account!.id)),
  );
}
