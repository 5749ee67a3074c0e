// Isolated position margin on the facade (signed): POST /fapi/v1/positionMargin (ccxt addMargin /
// reduceMargin) runs the exchange's 'adjustMargin' command; GET /fapi/v1/positionMargin/history
// (ccxt fetchMarginAdjustmentHistory) reads the changes it stored. The rules are the exchange's
// (trading/isolated-margin.ts); the refusals are Binance's: -4050 more added than the available
// (cross) balance, -4051 more removed than the position can release, -4049 a cross position, -4054
// no position, -4055 an amount not above 0, -4061 a positionSide the account's mode does not take;
// the history takes at most 30 days between startTime and endTime (-1127), as Binance's.
import type { FastifyInstance } from 'fastify';
import type { MarginChangeRow } from '../../../trading/ports.ts';
import { enter, pairOf, signedRequest, type BinanceContext } from '../context.ts';
import { BinanceError } from '../errors.ts';
import { routeSchema } from '../schemas.ts';
import { marginAnswer, marginHistoryEntry, marginRequest } from '../translate/margin.ts';

/** Rows read from the store at a time. */
const PAGE = 500;
/** Binance's longest span between startTime and endTime of the margin history. */
const MONTH = 30 * 86_400_000;

export function registerPositionMargin(app: FastifyInstance, ctx: BinanceContext): void {
  const { venue } = ctx;

  app.post('/fapi/v1/positionMargin', routeSchema('POST', '/fapi/v1/positionMargin'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const m = marginRequest(s.q, s.mode);
    const r = await enter(ctx, { kind: 'adjustMargin', accountId: s.account.id, symbol, ...m }, { margin: true }, s);
    return marginAnswer(r.amount, r.type);
  });

  app.get('/fapi/v1/positionMargin/history', routeSchema('GET', '/fapi/v1/positionMargin/history'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const type = s.q.int('type', 1, 2);
    const { start, end } = s.q.timeWindow();
    if (start !== undefined && end !== undefined && end - start > MONTH)
      throw new BinanceError(-1127, 'More than 30 days between startTime and endTime.');
    const limit = s.q.int('limit', 1, 1000) ?? 500;
    // newest first from the store: from startTime the first `limit` changes, else the newest
    // `limit` up to endTime; answered oldest first, as the facade's other histories
    const rows: MarginChangeRow[] = [];
    let before: number | undefined;
    for (;;) {
      const page = venue.trading.marginChanges({
        accountId: s.account.id,
        symbol,
        type,
        startTime: start,
        endTime: end,
        beforeId: before,
        limit: PAGE,
      });
      rows.push(...page);
      if (page.length < PAGE || (start === undefined && rows.length >= limit)) break;
      before = page[page.length - 1].id;
    }
    const chosen = start === undefined ? rows.slice(0, limit) : rows.slice(-limit);
    return chosen.reverse().map((r) => marginHistoryEntry(r, s.mode));
  });
}
