// Binance's "futures data" statistics (/futures/data/...), all from the venue's one sampler
// (market/open-interest-history.ts): openInterestHist, globalLongShortAccountRatio,
// topLongShortAccountRatio, topLongShortPositionRatio and takerlongshortRatio. Every route takes
// symbol and period (both required), limit (default 30, at most 500), startTime and endTime, and
// selects the samples on the period's boundaries as openInterestHist does.
//
// A ratio is answered only where it is defined: a sample whose short side (accounts, lots, or
// taker volume) is empty has no row (Binance never has that case; nobody holding a position is
// such a sample). `limit` counts the rows answered, as Binance's: the first `limit` rows from
// startTime, else the newest `limit` rows up to endTime, past any samples without one (a page is
// never short while rows follow it, so a client paging by startTime does not stop early).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OPEN_INTEREST_PERIODS } from '../../../market/open-interest-history.ts';
import type { FuturesStats, OpenInterestSample } from '../../../market/ports.ts';
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
  /** The route's pair, period, limit, direction (from startTime or back from the newest) and a reader of its window's samples. */
  const select = (req: FastifyRequest) => {
    const q = paramsOf(req);
    const pair = pairOf(ctx, q.required('symbol'));
    const period = OPEN_INTEREST_PERIODS[q.required('period')];
    if (period === undefined)
      throw invalidValue('period', `It must be one of ${Object.keys(OPEN_INTEREST_PERIODS).join(', ')}.`);
    const limit = q.int('limit', 1, 500) ?? 30;
    const { start, end } = q.timeWindow();
    /** The first (from startTime) or newest `n` samples of the window, oldest first. */
    const samples = (n: number): OpenInterestSample[] =>
      venue.openInterestHistory.samples(pair.row.symbol, period, { startTime: start, endTime: end, limit: n });
    return { pair, period, limit, forward: start !== undefined, samples };
  };
  /**
   * The rows of a ratio route: `row` of each sample (null where it has none), the first `limit`
   * rows from startTime or the newest `limit` rows, counted among the rows (every sample of the
   * window is read: at most 30 days of them), oldest first.
   */
  const ratioRows = <R>(
    s: ReturnType<typeof select>,
    row: (r: OpenInterestSample & { stats: FuturesStats }) => R | null,
  ): R[] => {
    const all = s.samples(Number.MAX_SAFE_INTEGER);
    const out: R[] = [];
    for (let i = 0; i < all.length && out.length < s.limit; i++) {
      const r = all[s.forward ? i : all.length - 1 - i];
      const x = r.stats === null ? null : row(r as OpenInterestSample & { stats: FuturesStats });
      if (x !== null) out.push(x);
    }
    return s.forward ? out : out.reverse();
  };
  /** A long/short route: each sample with statistics, through `pick` (its long and short figures). */
  const ratioRoute = (path: string, pick: (s: FuturesStats) => [number, number]) =>
    app.get(path, routeSchema('GET', path), async (req) => {
      const s = select(req);
      return ratioRows(s, (r) => longShort(s.pair.row.symbol, r.time, ...pick(r.stats)));
    });

  app.get('/futures/data/openInterestHist', routeSchema('GET', '/futures/data/openInterestHist'), async (req) => {
    const { pair, limit, samples } = select(req);
    return samples(limit).map((r) => ({
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
    const s = select(req);
    const { pair, period } = s;
    return ratioRows(s, (r) => {
      const v =
        period === FIVE_MINUTES
          ? { buyLots: r.stats.takerBuyLots, sellLots: r.stats.takerSellLots }
          : venue.openInterestHistory.takerVolume(pair.row.symbol, r.time, period);
      if (v.sellLots <= 0) return null;
      return {
        buySellRatio: share(v.buyLots / v.sellLots),
        buyVol: pair.math.formatQty(v.buyLots),
        sellVol: pair.math.formatQty(v.sellLots),
        timestamp: r.time,
      };
    });
  });
}
