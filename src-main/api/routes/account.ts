// Signed account routes (DESIGN section 4 extensions): balance and margin summary, per-pair
// leverage and margin mode, position mode. Every change goes through the exchange, which
// refuses it (3009 / 3013 / 3014 / 3015) when open positions or orders forbid it.
import { Type } from 'typebox';
import type { MarginMode } from '../../../src-shared/enums.ts';
import type {
  LeverageSetting,
  MarginModeSetting,
  PositionModeSetting,
} from '../../../src-shared/types/position-settings.ts';
import type { Venue } from '../../services/venue.ts';
import { bracketTable, maxNotional } from '../../trading/pair-figures.ts';
import { signedQuerystring } from '../auth.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { agree, type ApiInstance } from '../schemas.ts';
import {
  accountIdOf,
  leverageField,
  listedSymbol,
  accountSummaryRef,
  marginModeField,
  positionModeField,
  symbolField,
} from '../trading-schemas.ts';
import { strictJsonBody } from '../strict-input.ts';

const leverageBody = Type.Object({ symbol: symbolField, leverage: leverageField }, { additionalProperties: false });

const marginTypeBody = Type.Object(
  { symbol: symbolField, margin_mode: marginModeField },
  { additionalProperties: false },
);

const marginModeOut = Type.Unsafe<MarginMode>(marginModeField);

/** A pair's leverage setting, as both leverage routes answer it. */
const leverageSettingSchema = Type.Object({
  symbol: Type.String({ description: 'Trading pair' }),
  leverage: Type.Integer({ description: 'Leverage of new orders and positions' }),
  margin_mode: marginModeOut,
  max_leverage: Type.Integer({ description: "The pair's maximum leverage" }),
  max_notional: Type.String({
    description: 'Largest position notional allowed at this leverage (its tier), USDT',
  }),
  brackets: Type.Array(
    Type.Object({
      tier: Type.Integer({ description: 'Tier number, from 1' }),
      notional_floor: Type.String({ description: 'Notional above which the tier applies, USDT (tier 1 holds 0)' }),
      notional_cap: Type.String({ description: 'Largest notional of the tier, USDT' }),
      maintenance_margin_rate: Type.String({ description: 'Maintenance margin rate of the tier' }),
      maintenance_amount: Type.String({
        description: 'Maintenance amount, USDT: maintenance margin = notional x rate - this amount',
      }),
      max_leverage: Type.Integer({ description: 'Largest leverage a position of the tier may have' }),
    }),
    {
      description:
        "The pair's maintenance tiers, lowest first: a position's maintenance margin and liquidation price are worked out with the tier of its notional",
    },
  ),
});

agree<typeof leverageSettingSchema, LeverageSetting>(true);

const marginModeSettingSchema = Type.Object({
  symbol: Type.String({ description: 'Trading pair' }),
  margin_mode: marginModeOut,
});

agree<typeof marginModeSettingSchema, MarginModeSetting>(true);

const positionModeBody = Type.Object({ position_mode: positionModeField }, { additionalProperties: false });

const positionModeSettingSchema = Type.Object({ position_mode: positionModeField });

agree<typeof positionModeSettingSchema, PositionModeSetting>(true);

export default async function accountRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
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
        response: { 200: envelopeSchema(accountSummaryRef), ...errors },
      },
    },
    async (req) => ok(ex.summary(accountIdOf(req))),
  );

  /** A pair's leverage setting as both leverage routes answer it. */
  const leverageSetting = (accountId: number, symbol: string): LeverageSetting => {
    const s = ex.pairSetting(accountId, symbol);
    const pair = ex.pair(symbol)!;
    return {
      symbol,
      leverage: s.leverage,
      // the exchange keeps only margin modes it checked (order-checks.ts checkMarginModeValue)
      margin_mode: s.marginMode as MarginMode,
      max_leverage: pair.row.maxLeverage,
      max_notional: String(maxNotional(pair, s.leverage)),
      brackets: bracketTable(pair),
    };
  };

  app.get(
    '/fapi/v1/leverage',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['account'],
        summary: 'Leverage and margin mode of a pair (signed; extension)',
        description: 'Defaults until changed: leverage min(20, max_leverage), margin mode 2 (cross).',
        querystring: signedQuerystring({ symbol: symbolField }, ['symbol']),
        response: { 200: envelopeSchema(leverageSettingSchema), ...errors },
      },
    },
    async (req) => ok(leverageSetting(accountIdOf(req), listedSymbol(venue, req.query.symbol))),
  );

  app.post(
    '/fapi/v1/leverage',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(leverageBody),
      schema: {
        tags: ['account'],
        summary: 'Set the leverage of a pair (signed; extension)',
        description:
          "Applies to new orders and to the pair's open positions. 3013 when above the pair's max_leverage or when " +
          "an open position's notional exceeds what the tier allows at that leverage. 3009 when a lower leverage " +
          "needs more initial margin for the pair's cross positions and open orders than the account can hold, or " +
          "more than an isolated position's margin; nothing changes then.",
        querystring: signedQuerystring(),
        body: leverageBody,
        // the setting now in force, as GET answers it
        response: { 200: envelopeSchema(leverageSettingSchema), ...errors },
      },
    },
    async (req) => {
      const symbol = listedSymbol(venue, req.body.symbol);
      await venue.submit({ kind: 'setLeverage', accountId: accountIdOf(req), symbol, leverage: req.body.leverage });
      return ok(leverageSetting(accountIdOf(req), symbol));
    },
  );

  app.post(
    '/fapi/v1/marginType',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(marginTypeBody),
      schema: {
        tags: ['account'],
        summary: 'Set the margin mode of a pair (signed; extension)',
        description:
          '1=isolated, 2=cross. 3014 while a position or an open order exists on the pair (a waiting conditional order counts as one).',
        querystring: signedQuerystring(),
        body: marginTypeBody,
        response: {
          200: envelopeSchema(marginModeSettingSchema),
          ...errors,
        },
      },
    },
    async (req) =>
      ok(
        await venue.submit({
          kind: 'setMarginMode',
          accountId: accountIdOf(req),
          symbol: listedSymbol(venue, req.body.symbol),
          marginMode: req.body.margin_mode,
        }),
      ),
  );

  app.post(
    '/fapi/v1/positionMode',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(positionModeBody),
      schema: {
        tags: ['account'],
        summary: 'Set the position mode (signed; extension)',
        description:
          'hedge: a long and a short per pair; one_way: one net position. 3015 while any position or order is open.',
        querystring: signedQuerystring(),
        body: positionModeBody,
        response: {
          200: envelopeSchema(positionModeSettingSchema),
          ...errors,
        },
      },
    },
    async (req) =>
      ok(await venue.submit({ kind: 'setPositionMode', accountId: accountIdOf(req), mode: req.body.position_mode })),
  );
}
