// Isolated margin by hand (signed; extension): add margin to an isolated position from the
// available balance or remove it back, how far it may move now, and the changes made. The
// exchange decides (trading/isolated-margin.ts); these routes parse and answer.
import { Type } from 'typebox';
import type { MarginChangeType, PositionSide } from '../../../src-shared/enums.ts';
import type {
  IsolatedMarginLimits,
  MarginChangeRequest,
  MarginChangeResult,
  MarginHistoryPage,
  MarginHistoryQuery,
} from '../../../src-shared/types/position-settings.ts';
import type { Venue } from '../../services/venue.ts';
import { parseMarginAmount } from '../../trading/isolated-margin.ts';
import { formatMoney } from '../../risk/money.ts';
import { signedQuerystring } from '../auth.ts';
import { page } from '../cursor.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { agree, agreeSent, intEnum, type ApiInstance } from '../schemas.ts';
import { strictJsonBody } from '../strict-input.ts';
import {
  accountIdOf,
  checkTimeRange,
  cursorField,
  cursorPageSchema,
  listedSymbol,
  pageLimit,
  positionRecordRef,
  symbolField,
  timeField,
} from '../trading-schemas.ts';

const positionSide = intEnum(
  [1, 2] as const satisfies readonly PositionSide[],
  '1 long, 2 short; in one-way mode either names the net position',
);
const changeType = intEnum([1, 2] as const satisfies readonly MarginChangeType[], '1 add margin, 2 remove margin');
const money = (description: string) => Type.String({ description });
const sideOut = (description: string) => Type.Unsafe<PositionSide>({ type: 'integer', enum: [1, 2], description });
const typeOut = Type.Unsafe<MarginChangeType>({ type: 'integer', enum: [1, 2], description: '1 added, 2 removed' });

const marginBody = Type.Object(
  {
    symbol: symbolField,
    position_side: positionSide,
    amount: Type.String({
      minLength: 1,
      maxLength: 40,
      pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$',
      description: 'USDT to move, a decimal string above 0 with at most 8 decimals, e.g. "250.5"',
    }),
    type: changeType,
  },
  { additionalProperties: false },
);

const marginChangeSchema = Type.Object({
  symbol: Type.String({ description: 'Trading pair' }),
  position_side: sideOut('The position changed'),
  type: typeOut,
  amount: money('USDT moved, 8 decimals'),
  margin: money("The position's isolated margin after the change, USDT, 8 decimals"),
  position: positionRecordRef,
});

const limitsSchema = Type.Object({
  symbol: Type.String({ description: 'Trading pair' }),
  position_side: sideOut('The position'),
  margin: money('Isolated margin, USDT'),
  initial_margin: money('Initial margin at the mark and the leverage, USDT'),
  max_add: money('Most that may be added now (the available balance), USDT'),
  max_remove: money('Most that may be removed now, USDT'),
});

const historyQuery = signedQuerystring({
  symbol: symbolField,
  position_side: positionSide,
  type: changeType,
  start_time: timeField('From this time, ms (inclusive)'),
  end_time: timeField('Up to this time, ms (inclusive)'),
  cursor: cursorField,
  limit: pageLimit(100, 500),
});

const historyPageSchema = cursorPageSchema(
  Type.Object({
    id: Type.String({ description: 'Change ID' }),
    symbol: Type.String({ description: 'Trading pair' }),
    position_side: sideOut('The position changed'),
    position_id: Type.String({ description: 'Position ID' }),
    type: typeOut,
    amount: money('USDT moved'),
    margin: money("The position's isolated margin after it, USDT"),
    created_at: Type.Integer({ description: 'Time (market clock), ms' }),
  }),
);

agreeSent<typeof marginBody, MarginChangeRequest>(true);
agree<typeof marginChangeSchema, MarginChangeResult>(true);
agree<typeof limitsSchema, IsolatedMarginLimits>(true);
agreeSent<typeof historyQuery, MarginHistoryQuery>(true);
agree<typeof historyPageSchema, MarginHistoryPage>(true);

const REFUSALS =
  '1103 when you have no open position on that side (one-way: on the pair); 3024 when it is a cross position; ' +
  '1001 for an amount of 0, more than 8 decimals or above 1e10; 3009 when adding more than the available balance; ' +
  '3025 when removing more than the position can release (the message names the most it can). A refusal changes nothing.';

export default async function positionMarginRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  const ex = venue.exchange;
  const errors = standardErrors(401);

  app.post(
    '/fapi/v1/position/margin',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(marginBody),
      schema: {
        tags: ['positions'],
        summary: 'Add margin to or remove margin from an isolated position (signed; extension)',
        description:
          'type 1 moves `amount` USDT from the available balance into the isolated position, which moves its ' +
          'liquidation price away; type 2 moves it back, at most down to what keeps the margin, less any unrealized ' +
          "loss, at or above the position's initial margin at the mark and its leverage (so the position is never " +
          'left liquidatable; GET /fapi/v1/position/margin tells the most now). The wallet does not change (it holds ' +
          'the isolated margin already); the position and balance are pushed on the user channel with a `margin` ' +
          `event. ${REFUSALS}`,
        querystring: signedQuerystring(),
        body: marginBody,
        response: {
          200: envelopeSchema(marginChangeSchema),
          ...errors,
        },
      },
    },
    async (req) => {
      const b = req.body;
      return ok(
        await venue.submit({
          kind: 'adjustMargin',
          accountId: accountIdOf(req),
          symbol: listedSymbol(venue, b.symbol),
          positionSide: b.position_side,
          type: b.type,
          amount: parseMarginAmount(b.amount),
        }),
      );
    },
  );

  app.get(
    '/fapi/v1/position/margin',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['positions'],
        summary: "An isolated position's margin and how far it may move now (signed; extension)",
        description:
          'max_add is the available balance; max_remove what may leave the position at the current mark (its ' +
          'margin, less any unrealized loss, less its initial margin at the mark and its leverage). 1103 when you ' +
          'have no open position on that side, 3024 when it is cross.',
        querystring: signedQuerystring({ symbol: symbolField, position_side: positionSide }, [
          'symbol',
          'position_side',
        ]),
        response: {
          200: envelopeSchema(limitsSchema),
          ...errors,
        },
      },
    },
    async (req) =>
      ok(ex.isolatedMargin(accountIdOf(req), listedSymbol(venue, req.query.symbol), req.query.position_side)),
  );

  app.get(
    '/fapi/v1/position/margin/history',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['positions'],
        summary: 'Isolated margin added and removed by hand (signed; extension)',
        description:
          'Newest first. Filters: symbol, position_side, type, start_time / end_time (inclusive, ms, market clock). ' +
          'Cursor paging as myTrades: pass next_cursor back with the same filters; it is "" on the last page.',
        querystring: historyQuery,
        response: {
          200: envelopeSchema(historyPageSchema),
          ...errors,
        },
      },
    },
    async (req) => {
      const q = req.query;
      checkTimeRange(q.start_time, q.end_time, ['start_time', 'end_time']);
      const symbol = q.symbol === undefined ? undefined : listedSymbol(venue, q.symbol);
      const accountId = accountIdOf(req);
      const p = page('margins', q, q.limit, (beforeId, n) =>
        venue.trading.marginChanges({
          accountId,
          symbol,
          positionSide: q.position_side,
          type: q.type,
          startTime: q.start_time,
          endTime: q.end_time,
          beforeId,
          limit: n,
        }),
      );
      return ok({
        has_more: p.hasMore,
        next_cursor: p.nextCursor,
        items: p.rows.map((r) => ({
          id: String(r.id),
          symbol: r.symbol,
          position_side: r.positionSide,
          position_id: String(r.positionId),
          type: r.type,
          amount: formatMoney(r.amount),
          margin: formatMoney(r.margin),
          created_at: r.time,
        })),
      });
    },
  );
}
