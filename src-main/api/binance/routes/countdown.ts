// POST /fapi/v1/countdownCancelAll (signed; Binance USD-M "Auto-Cancel All Open Orders"): starts,
// replaces or (countdownTime 0) ends the account's countdown for a pair (countdowns.ts); when it
// runs out, the pair's open orders of the account are cancelled through the exchange's cancelAll
// command, the one DELETE /fapi/v1/allOpenOrders runs, so the user stream reports each as an
// ordinary cancel (ORDER_TRADE_UPDATE CANCELED) and the native API and screen see them cancelled.
// The deadlines are stored with the venue's data, so a restart keeps them (countdowns.ts).
import type { FastifyInstance } from 'fastify';
import { binanceErrorOf } from '../errors.ts';
import { CancelCountdowns } from '../countdowns.ts';
import { pairOf, signedRequest, type BinanceContext } from '../context.ts';
import { routeSchema } from '../schemas.ts';

export function registerCountdown(app: FastifyInstance, ctx: BinanceContext): void {
  const cancelAll = (accountId: number, symbol: string) => {
    const failed = (err: unknown) =>
      app.log.error(
        { err, accountId, symbol },
        `countdownCancelAll: cancelling the open orders failed: ${binanceErrorOf(err).message}`,
      );
    try {
      const r = ctx.venue.submit({ kind: 'cancelAll', accountId, symbol });
      if (r instanceof Promise) r.catch(failed);
    } catch (err) {
      failed(err);
    }
  };
  // the countdowns a previous run of the venue left armed start again (a passed deadline fires now)
  const countdowns = new CancelCountdowns(ctx.auth.now, cancelAll, ctx.venue.settings);
  app.addHook('onClose', (_i, done) => {
    countdowns.close();
    done();
  });

  app.post('/fapi/v1/countdownCancelAll', routeSchema('POST', '/fapi/v1/countdownCancelAll'), async (req) => {
    const s = signedRequest(ctx, req, false);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const ms = s.q.requiredInt('countdownTime', 0);
    countdowns.set(s.account.id, symbol, ms);
    // Binance's answer: the pair and the countdown, the latter as a string (its documented example)
    return { symbol, countdownTime: String(ms) };
  });
}
