// The user data stream's key (API key only, no signature): POST opens or extends the account's
// one listenKey, PUT extends it (ccxt sends no key), DELETE ends it and closes its streams.
import type { FastifyInstance } from 'fastify';
import type { BinanceContext } from '../context.ts';
import { routeSchema } from '../schemas.ts';
import { BinanceError, MSG } from '../errors.ts';
import { accountByKey } from '../signing.ts';

export function registerUserStream(app: FastifyInstance, ctx: BinanceContext): void {
  const keys = ctx.listenKeys;
  app.post('/fapi/v1/listenKey', routeSchema('POST', '/fapi/v1/listenKey'), async (req) => ({
    listenKey: keys.open(accountByKey(ctx.auth, req).id),
  }));
  app.put('/fapi/v1/listenKey', routeSchema('PUT', '/fapi/v1/listenKey'), async (req) => {
    const key = keys.keepAlive(accountByKey(ctx.auth, req).id);
    if (key === undefined) throw new BinanceError(-1125, MSG.LISTEN_KEY);
    return { listenKey: key };
  });
  app.delete('/fapi/v1/listenKey', routeSchema('DELETE', '/fapi/v1/listenKey'), async (req) => {
    if (!keys.close(accountByKey(ctx.auth, req).id)) throw new BinanceError(-1125, MSG.LISTEN_KEY);
    return {};
  });
}
