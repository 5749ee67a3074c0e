// Signed position routes: current positions, closed-position history and one closed position.
// The spec leaves the auth of position/list and position/history/detail open; user data is
// never public (DESIGN section 4), so both are signed.
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type { PositionHistoryPage, PositionHistoryQuery } from '../../../src-shared/types.ts';
import type { Venue } from '../../services/venue.ts';
import { signedQuerystring } from '../auth.ts';
import { page } from '../cursor.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { closedPositionRecord } from '../records.ts';
import { agree, agreeSent, type ApiInstance } from '../schemas.ts';
import {
  accountIdOf,
  checkTimeRange,
  closedPositionDetailRef,
  closedPositionRef,
  closeTypeField,
  cursorField,
  idField,
  listedSymbol,
  marginModeField,
  pageLimit,
  positionRecordRef,
  positionSideField,
  symbolField,
  timeField,
} from '../trading-schemas.ts';

// camelCase filters, as the spec names them for this route (the SDK sends these names as they are)
const historyQuery = signedQuerystring({
  symbol: symbolField,
  positionSide: positionSideField,
  marginMode: marginModeField,
  closeType: closeTypeField,
  startTime: timeField('Close time from, ms (inclusive)'),
  endTime: timeField('Close time up to, ms (inclusive)'),
  cursor: cursorField,
  limit: pageLimit(10, 100),
});
const historyPageSchema = Type.Object({
  limit: Type.Integer({ description: 'Page size used' }),
  next_cursor: Type.String({ description: 'Cursor of the next page; empty on the last page' }),
  list: Type.Array(closedPositionRef),
});

agreeSent<typeof historyQuery, PositionHistoryQuery>(true);
agree<typeof historyPageSchema, PositionHistoryPage>(true);

export default async function positionRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  const ex = venue.exchange;

  const mathOf = (symbol: string) => {
    const pair = ex.pair(symbol);
    if (!pair) throw new ApiError(Errors.INTERNAL, `closed position on unlisted pair ${symbol}`);
    return pair.math;
  };

  app.get(
    '/fapi/v1/position/list',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['positions'],
        summary: 'Current positions (signed)',
        description: 'All your open positions with PnL and risk at the current mark price. Numbers are JSON numbers.',
        querystring: signedQuerystring(),
        response: { 200: envelopeSchema(Type.Array(positionRecordRef)), ...standardErrors(401) },
      },
    },
    async (req) => ok(ex.positions(accountIdOf(req))),
  );

  app.get(
    '/fapi/v1/position/history',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['positions'],
        summary: 'Closed positions (signed)',
        description:
          'Your closed positions, newest close first. Filters (camelCase, as the spec names them): symbol, ' +
          'positionSide, marginMode, closeType, startTime / endTime (close time, inclusive). Pass next_cursor back ' +
          'with the same filters for the next page; it is "" on the last page. In this list position_id is an integer.',
        querystring: historyQuery,
        response: { 200: envelopeSchema(historyPageSchema), ...standardErrors(401) },
      },
    },
    async (req) => {
      const q = req.query;
      checkTimeRange(q.startTime, q.endTime, ['startTime', 'endTime']);
      const symbol = q.symbol === undefined ? undefined : listedSymbol(venue, q.symbol);
      const accountId = accountIdOf(req);
      const p = page('positions', q, q.limit, (beforeId, n) =>
        venue.trading.closedPositions({
          accountId,
          symbol,
          positionSide: q.positionSide,
          marginMode: q.marginMode,
          closeType: q.closeType,
          startTime: q.startTime,
          endTime: q.endTime,
          beforeId,
          limit: n,
        }),
      );
      return ok({
        limit: q.limit,
        next_cursor: p.nextCursor,
        list: p.rows.map((r) => closedPositionRecord(r, mathOf(r.symbol), 'number')),
      });
    },
  );

  app.get(
    '/fapi/v1/position/history/detail',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['positions'],
        summary: 'One closed position (signed)',
        description:
          'The closed position with this position_id (here a string, as the spec says); 1103 when you have none.',
        querystring: signedQuerystring({ position_id: idField('Position ID') }, ['position_id']),
        response: { 200: envelopeSchema(closedPositionDetailRef), ...standardErrors(401) },
      },
    },
    async (req) => {
      const row = venue.trading.closedPosition(accountIdOf(req), req.query.position_id);
      if (row === undefined)
        throw new ApiError(Errors.POSITION_NOT_FOUND, `No closed position ${req.query.position_id}`);
      return ok(closedPositionRecord(row, mathOf(row.symbol), 'string'));
    },
  );
}
