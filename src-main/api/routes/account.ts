// Signed account routes (DESIGN section 4 extensions): balance and margin summary, per-pair
// leverage and margin mode, position mode. Every change goes through the exchange, which
// refuses it (3013 / 3014 / 3015) when open positions or orders forbid it.
import type { FastifyInstance } from 'fastify';
import type { Venue } from '../../venue.ts';
import { maxNotionalFor } from '../../risk/tiers.ts';
import { signedQuerystring } from '../auth.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import {
  accountIdOf,
  leverageField,
  listedSymbol,
  marginModeField,
  ref,
  strictJsonBody,
  symbolField,
} from '../trading-schemas.ts';

const leverageBody = {
  type: 'object',
  additionalProperties: false,
  required: ['symbol', 'leverage'],
  properties: { symbol: symbolField, leverage: leverageField },
} as const;

const marginTypeBody = {
  type: 'object',
  additionalProperties: false,
  required: ['symbol', 'margin_mode'],
  properties: { symbol: symbolField, margin_mode: marginModeField },
} as const;

const positionModeBody = {
  type: 'object',
  additionalProperties: false,
  required: ['position_mode'],
  properties: {
    position_mode: { type: 'string', enum: ['hedge', 'one_way'], description: 'hedge (default) or one_way' },
  },
} as const;

const obj = (required: string[], properties: Record<string, object>) => ({ type: 'object', required, properties });

export default async function accountRoutes(app: FastifyInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  const ex = venue.exchange;
  const errors = standardErrors(401);

  app.get(
    '/fapi/v1/account',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['account'],
        summary: 'Balance and margin summary (signed; extension)',
        querystring: signedQuerystring(),
        response: { 200: envelopeSchema(ref('AccountSummary')), ...errors },
      },
    },
    async (req) => ok(ex.summary(accountIdOf(req))),
  );

  app.get<{ Querystring: { symbol: string } }>(
    '/fapi/v1/leverage',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['account'],
        summary: 'Leverage and margin mode of a pair (signed; extension)',
        description: 'Defaults until changed: leverage min(20, max_leverage), margin mode 2 (cross).',
        querystring: signedQuerystring({ symbol: symbolField }, ['symbol']),
        response: {
          200: envelopeSchema(
            obj(['symbol', 'leverage', 'margin_mode', 'max_leverage', 'max_notional'], {
              symbol: { type: 'string', description: 'Trading pair' },
              leverage: { type: 'integer', description: 'Leverage of new orders and positions' },
              margin_mode: marginModeField,
              max_leverage: { type: 'integer', description: "The pair's maximum leverage" },
              max_notional: { type: 'string', description: 'Largest position notional allowed at this leverage (its tier), USDT' },
            }),
          ),
          ...errors,
        },
      },
    },
    async (req) => {
      const symbol = listedSymbol(venue, req.query.symbol);
      const s = ex.pairSetting(accountIdOf(req), symbol);
      const row = ex.pair(symbol)!.row;
      return ok({ symbol, leverage: s.leverage, margin_mode: s.marginMode, max_leverage: row.maxLeverage, max_notional: String(maxNotionalFor(row.brackets, s.leverage)) });
    },
  );

  app.post<{ Body: { symbol: string; leverage: number } }>(
    '/fapi/v1/leverage',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(leverageBody),
      schema: {
        tags: ['account'],
        summary: 'Set the leverage of a pair (signed; extension)',
        description:
          "Applies to new orders and to the pair's open positions. 3013 when above the pair's max_leverage or when " +
          "an open position's notional exceeds what the tier allows at that leverage.",
        querystring: signedQuerystring(),
        body: leverageBody,
        response: {
          200: envelopeSchema(
            obj(['symbol', 'leverage', 'max_notional'], {
              symbol: { type: 'string', description: 'Trading pair' },
              leverage: { type: 'integer', description: 'Leverage now in force' },
              max_notional: { type: 'string', description: 'Largest position notional allowed at this leverage, USDT' },
            }),
          ),
          ...errors,
        },
      },
    },
    async (req) => ok(ex.execute({ kind: 'setLeverage', accountId: accountIdOf(req), symbol: listedSymbol(venue, req.body.symbol), leverage: req.body.leverage })),
  );

  app.post<{ Body: { symbol: string; margin_mode: number } }>(
    '/fapi/v1/marginType',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(marginTypeBody),
      schema: {
        tags: ['account'],
        summary: 'Set the margin mode of a pair (signed; extension)',
        description: '1=isolated, 2=cross. 3014 while a position or an open order exists on the pair.',
        querystring: signedQuerystring(),
        body: marginTypeBody,
        response: {
          200: envelopeSchema(
            obj(['symbol', 'margin_mode'], { symbol: { type: 'string', description: 'Trading pair' }, margin_mode: marginModeField }),
          ),
          ...errors,
        },
      },
    },
    async (req) => ok(ex.execute({ kind: 'setMarginMode', accountId: accountIdOf(req), symbol: listedSymbol(venue, req.body.symbol), marginMode: req.body.margin_mode })),
  );

  app.post<{ Body: { position_mode: 'hedge' | 'one_way' } }>(
    '/fapi/v1/positionMode',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(positionModeBody),
      schema: {
        tags: ['account'],
        summary: 'Set the position mode (signed; extension)',
        description: 'hedge: a long and a short per pair; one_way: one net position. 3015 while any position or order is open.',
        querystring: signedQuerystring(),
        body: positionModeBody,
        response: {
          200: envelopeSchema(obj(['position_mode'], { position_mode: positionModeBody.properties.position_mode })),
          ...errors,
        },
      },
    },
    async (req) => ok(ex.execute({ kind: 'setPositionMode', accountId: accountIdOf(req), mode: req.body.position_mode })),
  );
}
