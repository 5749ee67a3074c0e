// Account routes of the facade (signed): positionRisk, account, balance, leverage brackets,
// symbol configuration, leverage, margin type, position mode, multi-assets mode, account
// configuration, ADL quantiles, commission rates. Reads come from the exchange's views and the
// pair-figures service; changes run one exchange command each.
//
// Where the native core answers differently from Binance, the translation is named: a margin
// type or position mode change to the current setting is -4046 / -4059 (native answers success),
// decided against the live setting.
import type { FastifyInstance } from 'fastify';
import { MarginMode, PositionSide } from '../../../../src-shared/enums.ts';
import { maintenanceMargin, maxNotional } from '../../../trading/pair-figures.ts';
import type { PairView } from '../../../trading/pair-state.ts';
import { listedPairs, enter, pairOf, signedRequest, type BinanceContext, type Signed } from '../context.ts';
import { routeSchema } from '../schemas.ts';
import { BinanceError, MSG, invalidValue, mandatory } from '../errors.ts';
import {
  accountAnswer,
  accountConfig,
  accountPosition,
  balanceAnswer,
  binancePosition,
  positionRiskV2,
  bracketsAnswer,
  crossFigures,
  orderFigures,
} from '../translate/account.ts';

/** The quantile of a native position side. */
const adlOf = (q: { long: number; short: number }, side: number): number =>
  side === PositionSide.SHORT ? q.short : q.long;

export function registerAccount(app: FastifyInstance, ctx: BinanceContext): void {
  const { venue } = ctx;
  const ex = venue.exchange;

  /** positionRisk entries: one-way one per pair, hedge LONG and SHORT; v2 lists empty ones too. */
  const positionsOf = (s: Signed, v2: boolean, symbol: string | undefined) => {
    const records = ex.positions(s.account.id);
    const out: Record<string, unknown>[] = [];
    const pairs = symbol === undefined ? listedPairs(ctx) : [pairOf(ctx, symbol)];
    for (const pair of pairs) {
      const setting = ex.pairSetting(s.account.id, pair.row.symbol);
      const mine = records.filter((p) => p.symbol === pair.row.symbol);
      const orders = ex.openOrders(s.account.id, pair.row.symbol);
      const adl = mine.length > 0 ? ex.adlQuantiles(s.account.id, pair.row.symbol) : undefined;
      const entry = (side: number, figures: ReturnType<typeof orderFigures>) => {
        const position = s.mode === 'one_way' ? mine[0] : mine.find((x) => x.position_side === side);
        return binancePosition({
          row: pair.row,
          mark: pair.markPrice,
          position,
          adl: position === undefined || adl === undefined ? 0 : adlOf(adl, position.position_side),
          mode: s.mode,
          side,
          setting,
          maxNotional: maxNotional(pair, setting.leverage),
          maintenance: (n) => maintenanceMargin(pair, n),
          v2,
          orders: figures,
        });
      };
      if (s.mode === 'one_way') {
        if (mine.length > 0 || v2 || orders.length > 0)
          out.push(
            entry(PositionSide.LONG, orderFigures(orders, null, ex.frozenMargin(s.account.id, pair.row.symbol))),
          );
        continue;
      }
      for (const side of [PositionSide.LONG, PositionSide.SHORT]) {
        const f = orderFigures(orders, side, ex.frozenMargin(s.account.id, pair.row.symbol, side));
        if (mine.some((x) => x.position_side === side) || v2 || f.bidNotional + f.askNotional > 0)
          out.push(entry(side, f));
      }
    }
    return out;
  };

  app.get('/fapi/v3/positionRisk', routeSchema('GET', '/fapi/v3/positionRisk'), async (req) => {
    const s = signedRequest(ctx, req);
    return positionsOf(s, false, s.q.str('symbol'));
  });
  app.get('/fapi/v2/positionRisk', routeSchema('GET', '/fapi/v2/positionRisk'), async (req) => {
    const s = signedRequest(ctx, req);
    return positionsOf(s, true, s.q.str('symbol')).map(positionRiskV2);
  });

  const cross = (s: Signed, wallet: string) => crossFigures(wallet, ex.positions(s.account.id));
  /** positions[]: v2 every pair's entry, v3 those with a position or open orders, each in the account layout. */
  const account = (s: Signed, v2: boolean) => {
    const sum = ex.summary(s.account.id);
    const positions = positionsOf(s, v2, undefined).map((p) => accountPosition(p, v2));
    return accountAnswer(sum, positions, { now: venue.clock.now(), v2, cross: cross(s, sum.wallet_balance) });
  };
  app.get('/fapi/v3/account', routeSchema('GET', '/fapi/v3/account'), async (req) =>
    account(signedRequest(ctx, req), false),
  );
  app.get('/fapi/v2/account', routeSchema('GET', '/fapi/v2/account'), async (req) =>
    account(signedRequest(ctx, req), true),
  );

  const balance = (s: Signed) => {
    const sum = ex.summary(s.account.id);
    return balanceAnswer(s.account.id, sum, cross(s, sum.wallet_balance), venue.clock.now());
  };
  app.get('/fapi/v3/balance', routeSchema('GET', '/fapi/v3/balance'), async (req) => balance(signedRequest(ctx, req)));
  app.get('/fapi/v2/balance', routeSchema('GET', '/fapi/v2/balance'), async (req) => balance(signedRequest(ctx, req)));

  app.get('/fapi/v1/leverageBracket', routeSchema('GET', '/fapi/v1/leverageBracket'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = s.q.str('symbol');
    if (symbol !== undefined) return bracketsAnswer(pairOf(ctx, symbol).row);
    return listedPairs(ctx).map((p: PairView) => bracketsAnswer(p.row));
  });

  // Each pair's leverage and margin type for the account (ccxt fetchLeverage(s), fetchMarginMode(s)):
  // Binance's layout, an array also for one symbol.
  app.get('/fapi/v1/symbolConfig', routeSchema('GET', '/fapi/v1/symbolConfig'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = s.q.str('symbol');
    const pairs = symbol === undefined ? listedPairs(ctx) : [pairOf(ctx, symbol)];
    return pairs.map((pair) => {
      const setting = ex.pairSetting(s.account.id, pair.row.symbol);
      return {
        symbol: pair.row.symbol,
        marginType: setting.marginMode === MarginMode.ISOLATED ? 'ISOLATED' : 'CROSSED',
        isAutoAddMargin: 'false',
        leverage: setting.leverage,
        maxNotionalValue: String(maxNotional(pair, setting.leverage)),
      };
    });
  });

  app.post('/fapi/v1/leverage', routeSchema('POST', '/fapi/v1/leverage'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const text = s.q.required('leverage');
    const leverage = s.q.requiredInt('leverage', 1, 1000);
    const r = await enter(ctx, { kind: 'setLeverage', accountId: s.account.id, symbol, leverage }, { leverage: text });
    return { leverage: r.leverage, maxNotionalValue: r.max_notional, symbol: r.symbol };
  });

  app.post('/fapi/v1/marginType', routeSchema('POST', '/fapi/v1/marginType'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const type = s.q.required('marginType').toUpperCase();
    if (type !== 'ISOLATED' && type !== 'CROSSED') throw invalidValue('marginType', 'It must be ISOLATED or CROSSED.');
    const marginMode = type === 'ISOLATED' ? MarginMode.ISOLATED : MarginMode.CROSS;
    if (ex.pairSetting(s.account.id, symbol).marginMode === marginMode)
      throw new BinanceError(-4046, MSG.NO_MARGIN_CHANGE);
    await enter(ctx, { kind: 'setMarginMode', accountId: s.account.id, symbol, marginMode }, {});
    return { code: 200, msg: MSG.SUCCESS };
  });

  app.get('/fapi/v1/positionSide/dual', routeSchema('GET', '/fapi/v1/positionSide/dual'), async (req) => ({
    dualSidePosition: signedRequest(ctx, req).mode === 'hedge',
  }));

  app.post('/fapi/v1/positionSide/dual', routeSchema('POST', '/fapi/v1/positionSide/dual'), async (req) => {
    const s = signedRequest(ctx, req);
    const dual = s.q.bool('dualSidePosition');
    if (dual === undefined) throw mandatory('dualSidePosition');
    const mode = dual ? 'hedge' : 'one_way';
    if (mode === s.mode) throw new BinanceError(-4059, MSG.NO_POSITION_SIDE_CHANGE);
    // a refusal (3015) names its cause: open orders -4067, a position -4068
    await enter(ctx, { kind: 'setPositionMode', accountId: s.account.id, mode }, {});
    ctx.auth.accounts.invalidate(s.account.apiKey);
    return { code: 200, msg: MSG.SUCCESS };
  });

  app.get('/fapi/v1/multiAssetsMargin', routeSchema('GET', '/fapi/v1/multiAssetsMargin'), async (req) => {
    signedRequest(ctx, req);
    return { multiAssetsMargin: false };
  });

  // Single-Asset Mode is the only one (margin is USDT): false is already set, -4171, as Binance
  // answers a change to the current mode; true is refused by name
  app.post('/fapi/v1/multiAssetsMargin', routeSchema('POST', '/fapi/v1/multiAssetsMargin'), async (req) => {
    const multi = signedRequest(ctx, req).q.bool('multiAssetsMargin');
    if (multi === undefined) throw mandatory('multiAssetsMargin');
    if (multi)
      throw invalidValue(
        'multiAssetsMargin',
        'Multi-Assets Mode is not offered by this venue: margin is USDT only (Single-Asset Mode).',
      );
    throw new BinanceError(-4171, MSG.NO_ASSET_MODE_CHANGE);
  });

  app.get('/fapi/v1/accountConfig', routeSchema('GET', '/fapi/v1/accountConfig'), async (req) =>
    accountConfig(signedRequest(ctx, req).mode === 'hedge'),
  );

  // The ADL quantiles of the pairs the account holds a position on, Binance's keys: one-way LONG,
  // SHORT and BOTH (the position's); hedge LONG and SHORT, with BOTH 0 beside isolated positions
  // and HEDGE 0 beside cross ones (Binance's sign; each side is ranked on its own here)
  app.get('/fapi/v1/adlQuantile', routeSchema('GET', '/fapi/v1/adlQuantile'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = s.q.str('symbol');
    const only = symbol === undefined ? undefined : pairOf(ctx, symbol).row.symbol;
    const records = ex.positions(s.account.id).filter((p) => only === undefined || p.symbol === only);
    const out: Array<{ symbol: string; adlQuantile: Record<string, number> }> = [];
    for (const pair of listedPairs(ctx)) {
      const mine = records.filter((p) => p.symbol === pair.row.symbol);
      if (mine.length === 0) continue;
      const q = ex.adlQuantiles(s.account.id, pair.row.symbol);
      const quantile: Record<string, number> = { LONG: q.long, SHORT: q.short };
      if (s.mode === 'one_way') quantile.BOTH = adlOf(q, mine[0].position_side);
      else if (mine.some((p) => p.margin_mode === MarginMode.CROSS)) quantile.HEDGE = 0;
      else quantile.BOTH = 0;
      out.push({ symbol: pair.row.symbol, adlQuantile: quantile });
    }
    return out;
  });

  app.get('/fapi/v1/commissionRate', routeSchema('GET', '/fapi/v1/commissionRate'), async (req) => {
    const s = signedRequest(ctx, req);
    const pair = pairOf(ctx, s.q.required('symbol'));
    return {
      symbol: pair.row.symbol,
      makerCommissionRate: pair.row.makerFeeRate,
      takerCommissionRate: pair.row.takerFeeRate,
    };
  });
}
