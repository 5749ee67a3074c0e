// Binance's "futures data" statistics (/futures/data/...), all from the venue's one sampler
// (market/open-interest-history.ts): openInterestHist, globalLongShortAccountRatio,
// topLongShortAccountRatio, topLongShortPositionRatio and takerlongshortRatio. Every route takes
// symbol and period (both required), limit (default 30, at most 500), startTime and endTime, and
// selects the samples on the period's boundaries as openInterestHist does.
//
// A ratio is answered only where it is defined: a sample whose short side (accounts, lots, or
// taker volume) is empty has no row (Binance never has that case; nobody holding a position is
// such a sample). `limit` counts the samples selected before those are left out.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OPEN_INTEREST_PERIODS } from '../../../market/open-interest-history.ts';
import type { FuturesStats, OpenInterestSample } from '../../../market/ports.ts';
import type { PairView } from '../../../trading/pair-state.ts';
import { pairOf, paramsOf, type BinanceContext } from '../context.ts';
import { invalidValue } from '../errors.ts';
import { routeSchema } from '../schemas.ts';

const FIVE_MINUTES = OPEN_INTEREST_PERIODS['5m'];
/** Binance's ratios and shares: 4 decimals. */
const share = (x: number): string => x.toFixed(4);

/** A long/short row where the short side is not empty, else null. */
function longShort(symbol: string, time: number, long: number, short: number) {
  if (short <= 0) return null;
  return {
    symbol,
    longShortRatio: share(long / short),
    longAccount: share(long / (long + short)),
    shortAccount: share(short / (long + short)),
    timestamp: time,
  };
}

export function registerFuturesData(app: FastifyInstance, ctx: BinanceContext): void {
  const { venue } = ctx;
  /** The route's pair, period and selected samples (those before the statistics were kept drop out of the ratio routes). */
  const select = (req: FastifyRequest): { pair: PairView; period: number; rows: OpenInterestSample[] } => {
    const q = paramsOf(req);
    const pair = pairOf(ctx, q.required('symbol'));
    const period = OPEN_INTEREST_PERIODS[q.required('period')];
    if (period === undefined)
      throw invalidValue('period', `It must be one of ${Object.keys(OPEN_INTEREST_PERIODS).join(', ')}.`);
    const limit = q.int('limit', 1, 500) ?? 30;
    const { start, end } = q.timeWindow();
    const rows = venue.openInterestHistory.samples(pair.row.symbol, period, { startTime: start, endTime: end, limit });
    return { pair, period, rows };
  };
  /** A long/short route: each sample with statistics, through `pick` (its long and short figures). */
  const ratioRoute = (path: string, pick: (s: FuturesStats) => [number, number]) =>
    app.get(path, routeSchema('GET', path), async (req) => {
      const { pair, rows } = select(req);
      return rows.flatMap((r) => {
        if (r.stats === null) return [];
        const row = longShort(pair.row.symbol, r.time, ...pick(r.stats));
        return row === null ? [] : [row];
      });
    });

  app.get('/futures/data/openInterestHist', routeSchema('GET', '/futures/data/openInterestHist'), async (req) => {
    const { pair, rows } = select(req);
    return rows.map((r) => ({
      symbol: r.symbol,
      sumOpenInterest: pair.math.formatQty(r.lots),
      sumOpenInterestValue: r.value.toFixed(8),
      timestamp: r.time,
    }));
  });
  ratioRoute('/futures/data/globalLongShortAccountRatio', (s) => [s.longAccounts, s.shortAccounts]);
  ratioRoute('/futures/data/topLongShortAccountRatio', (s) => [s.topLongAccounts, s.topShortAccounts]);
  ratioRoute('/futures/data/topLongShortPositionRatio', (s) => [s.topLongLots, s.topShortLots]);
  app.get('/futures/data/takerlongshortRatio', routeSchema('GET', '/futures/data/takerlongshortRatio'), async (req) => {
    const { pair, period, rows } = select(req);
    return rows.flatMap((r) => {
      if (r.stats === null) return [];
      const v =
        period === FIVE_MINUTES
          ? { buyLots: r.stats.takerBuyLots, sellLots: r.stats.takerSellLots }
          : venue.openInterestHistory.takerVolume(pair.row.symbol, r.time, period);
      if (v.sellLots <= 0) return [];
      return [
        {
          buySellRatio: share(v.buyLots / v.sellLots),
          buyVol: pair.math.formatQty(v.buyLots),
          sellVol: pair.math.formatQty(v.sellLots),
          timestamp: r.time,
        },
      ];
    });
  });
}
