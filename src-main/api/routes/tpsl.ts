// Take-profit and stop-loss on a position: set, change, remove.
import { Type } from 'typebox';
import { type PositionSide, WorkingType } from '../../../src-shared/enums.ts';
import type { PositionTpSl, TpSlRequest, TpSlResult } from '../../../src-shared/types/position-settings.ts';
import type { Venue } from '../../services/venue.ts';
import { signedQuerystring } from '../auth.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { agree, agreeSent, intEnum, type ApiInstance } from '../schemas.ts';
import { defaulted, positionRecordRef, symbolField } from '../trading-schemas.ts';
import { strictJsonBody } from '../strict-input.ts';

// One schema with a type list, not anyOf [string, null]: the coercing validator would take ""
// for the null branch (and remove the trigger); here "" is a string and fails the pattern.
const priceOrNull = Type.Optional(
  Type.Unsafe<string | null>({
    type: ['string', 'null'],
    pattern: '^\\d{1,12}(\\.\\d{1,12})?$',
    description: 'Trigger price (decimal string); null removes it; absent leaves it unchanged',
  }),
);

/** One trigger's own working type in a request, over `working_type` (a take-profit and a stop-loss may watch different prices). */
const ownWorkingType = (trigger: string) =>
  Type.Optional(
    Type.Unsafe<WorkingType>({
      type: 'integer',
      enum: [1, 2],
      description: `The price the ${trigger} watches (1 mark price, 2 last price); absent: working_type`,
    }),
  );

const tpslBody = Type.Object(
  {
    symbol: symbolField,
    position_side: intEnum([1, 2] as const, '1 long, 2 short (1 in one-way mode)'),
    take_profit_price: priceOrNull,
    stop_loss_price: priceOrNull,
    working_type: defaulted(
      Type.Unsafe<WorkingType>({
        type: 'integer',
        enum: [1, 2],
        default: 1,
        description: '1 mark price, 2 last price',
      }),
    ),
    take_profit_working_type: ownWorkingType('take-profit'),
    stop_loss_working_type: ownWorkingType('stop-loss'),
  },
  { additionalProperties: false },
);

const nullablePrice = (description?: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...(description === undefined ? {} : { description }) });
const positionSideOut = Type.Unsafe<PositionSide>({ type: 'integer', enum: [1, 2], description: '1 long, 2 short' });
const workingTypeOut = Type.Unsafe<WorkingType>({
  type: 'integer',
  enum: [1, 2],
  description: '1 mark price, 2 last price',
});
/** Each trigger's own working type (a take-profit and a stop-loss set apart may watch different prices). */
const nullableWorkingType = (description: string) =>
  Type.Unsafe<WorkingType | null>({
    type: ['integer', 'null'],
    enum: [1, 2, null],
    description: `${description}: 1 mark price, 2 last price`,
  });

/** One open position's triggers (GET /fapi/v1/position/tpsl). */
const tpslEntrySchema = Type.Object({
  symbol: Type.String(),
  position_side: positionSideOut,
  take_profit_price: nullablePrice(),
  stop_loss_price: nullablePrice(),
  working_type: workingTypeOut,
  take_profit_working_type: nullableWorkingType('The price the take-profit watches; null when none'),
  stop_loss_working_type: nullableWorkingType('The price the stop-loss watches; null when none'),
});

/** The position as position/list has it, with its triggers as GET /fapi/v1/position/tpsl writes them. */
const tpslResultSchema = Type.Intersect([
  positionRecordRef,
  Type.Object({
    take_profit_price: nullablePrice('Take-profit trigger price (decimal string), null when none'),
    stop_loss_price: nullablePrice('Stop-loss trigger price (decimal string), null when none'),
    working_type: workingTypeOut,
    take_profit_working_type: nullableWorkingType('The price the take-profit watches; null when none'),
    stop_loss_working_type: nullableWorkingType('The price the stop-loss watches; null when none'),
  }),
]);

agreeSent<typeof tpslBody, TpSlRequest>(true);
agree<typeof tpslEntrySchema, PositionTpSl>(true);
agree<typeof tpslResultSchema, TpSlResult>(true);

export default async function tpslRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  app.post(
    '/fapi/v1/position/tpsl',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(tpslBody),
      schema: {
        tags: ['positions'],
        summary: 'Set, change or remove the take-profit / stop-loss of a position (signed)',
        description:
          'When the watched price (working_type 1 = mark price, the default, checked at each mark; 2 = last price, ' +
          'checked on every trade: a trade at or through the trigger fires it, whoever trades, once the order that ' +
          'traded is done) reaches the trigger, ' +
          'the whole position closes with a reduce-only market order; the closed position is recorded with ' +
          'close_type 2 (take profit) or 3 (stop loss). A take-profit must lie beyond the mark in the ' +
          "position's favour, a stop-loss against it; a trigger is spent once it fires. take_profit_working_type / " +
          'stop_loss_working_type set the price one trigger watches, over working_type.',
        querystring: signedQuerystring(),
        body: tpslBody,
        response: {
          // the position as position/list has it, with its triggers as GET /fapi/v1/position/tpsl writes them
          200: envelopeSchema(tpslResultSchema),
          ...standardErrors(401),
        },
      },
    },
    async (req) => {
      const b = req.body;
      const wt = b.working_type ?? WorkingType.MARK_PRICE;
      const symbol = b.symbol.toUpperCase();
      const rec = await venue.submit({
        kind: 'setTpSl',
        accountId: req.account!.id,
        symbol,
        positionSide: b.position_side,
        tp:
          b.take_profit_price === undefined
            ? undefined
            : { price: b.take_profit_price, trigger: b.take_profit_working_type ?? wt },
        sl:
          b.stop_loss_price === undefined
            ? undefined
            : { price: b.stop_loss_price, trigger: b.stop_loss_working_type ?? wt },
      });
      const t = venue.exchange.tpsl(req.account!.id, symbol, b.position_side);
      return ok({
        ...rec,
        take_profit_price: t.take_profit_price,
        stop_loss_price: t.stop_loss_price,
        working_type: wt,
        take_profit_working_type: t.take_profit_working_type,
        stop_loss_working_type: t.stop_loss_working_type,
      });
    },
  );

  app.get(
    '/fapi/v1/position/tpsl',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['positions'],
        summary: 'Take-profit / stop-loss of every open position (signed)',
        description:
          'One entry per open position; a price is null when no trigger is set. working_type 1 mark, 2 last.',
        querystring: signedQuerystring(),
        response: {
          200: envelopeSchema(Type.Array(tpslEntrySchema)),
          ...standardErrors(401),
        },
      },
    },
    async (req) => ok(venue.exchange.tpslList(req.account!.id)),
  );
}
