// Trading-pair configuration routes: /api/v1/symbols, /api/v1/symbols/{symbol}, /fapi/v1/symbols.
import { SymbolStatus, FuturesSymbolStatus } from '../../../src-shared/enums.ts';
import { Type } from 'typebox';
import type { FuturesSymbol, GeneralSymbol } from '../../../src-shared/types.ts';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type { SymbolRow } from '../../core/symbol.ts';
import type { Venue } from '../../services/venue.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import {
  futuresSymbolRef,
  generalSymbolRef,
  intEnum,
  noQuery,
  symbolParam,
  tagParam,
  type ApiInstance,
} from '../schemas.ts';

function toGeneralSymbol(r: SymbolRow): GeneralSymbol {
  return {
    id: r.id,
    symbol: r.symbol,
    base_asset: r.baseAsset,
    quote_asset: r.quoteAsset,
    status: r.status as GeneralSymbol['status'],
    allow_market: r.allowMarket,
    price_precision: r.pricePrecision,
    qty_precision: r.qtyPrecision,
    quote_precision: r.quotePrecision,
    tick_size: r.tickSize,
    step_size: r.stepSize,
    min_qty: r.minQty,
    max_qty: r.maxQty,
    min_quote: r.minNotional,
    maker_fee_rate: r.makerFeeRate,
    taker_fee_rate: r.takerFeeRate,
    logo: r.logo,
    sort_order: r.sortOrder,
    is_default: r.isDefault,
    is_hot: r.isHot,
    is_gainer: r.isGainer,
    is_new: r.isNew,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

function toFuturesSymbol(r: SymbolRow): FuturesSymbol {
  return {
    symbol: r.symbol,
    base_asset: r.baseAsset,
    quote_asset: r.quoteAsset,
    margin_asset: r.marginAsset,
    contract_type: r.contractType as FuturesSymbol['contract_type'],
    status: r.status === SymbolStatus.TRADING ? FuturesSymbolStatus.ENABLED : FuturesSymbolStatus.DISABLED,
    max_leverage: r.maxLeverage,
    maintenance_margin_rate: r.maintenanceMarginRate,
    maker_fee_rate: r.makerFeeRate,
    taker_fee_rate: r.takerFeeRate,
    price_precision: r.pricePrecision,
    price_step: r.tickSize,
    qty_precision: r.qtyPrecision,
    qty_step: r.stepSize,
    min_qty: r.minQty,
    max_qty: r.maxQty,
    min_notional: r.minNotional,
    market_price_protect_ratio: r.marketPriceProtectRatio,
    price_merges: r.priceMerges,
    logo: r.logo,
  };
}

export default async function symbolRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;

  app.get(
    '/api/v1/symbols',
    {
      schema: {
        tags: ['market data'],
        summary: 'Trading pairs, general list',
        querystring: Type.Object(
          {
            status: Type.Optional(intEnum([1, 2, 3] as const, '1=trading, 2=paused, 3=delisted')),
            tag: Type.Optional(tagParam),
          },
          { additionalProperties: false },
        ),
        response: { 200: envelopeSchema(Type.Array(generalSymbolRef)), ...standardErrors() },
      },
    },
    async (req) => {
      const { status, tag } = req.query;
      const rows = venue.symbols
        .all()
        .filter((r) => (status === undefined || r.status === status) && (tag === undefined || r.tags.includes(tag)));
      return ok(rows.map(toGeneralSymbol));
    },
  );

  app.get(
    '/api/v1/symbols/:symbol',
    {
      schema: {
        tags: ['market data'],
        summary: 'One trading pair, general record',
        params: Type.Object({ symbol: symbolParam }),
        querystring: noQuery,
        response: { 200: envelopeSchema(generalSymbolRef), ...standardErrors() },
      },
    },
    async (req) => {
      const name = req.params.symbol.toUpperCase();
      const row = venue.symbols.get(name);
      if (!row) throw new ApiError(Errors.SYMBOL_NOT_FOUND, `Unknown symbol '${name}'`);
      return ok(toGeneralSymbol(row));
    },
  );

  app.get(
    '/fapi/v1/symbols',
    {
      schema: {
        tags: ['market data'],
        summary: 'Trading pairs, futures configuration',
        querystring: Type.Object(
          {
            symbols: Type.Optional(
              Type.String({
                pattern: '^[A-Za-z0-9]{2,30}(,[A-Za-z0-9]{2,30})*$',
                description: 'Comma-separated trading pairs (unknown names are an error 1101)',
              }),
            ),
            tag: Type.Optional(tagParam),
          },
          { additionalProperties: false },
        ),
        response: { 200: envelopeSchema(Type.Array(futuresSymbolRef)), ...standardErrors() },
      },
    },
    async (req) => {
      const { symbols, tag } = req.query;
      let rows = venue.symbols.all();
      if (symbols !== undefined) {
        const wanted = [...new Set(symbols.split(',').map((s) => s.toUpperCase()))];
        const unknown = wanted.filter((s) => !venue.symbols.get(s));
        if (unknown.length > 0) throw new ApiError(Errors.SYMBOL_NOT_FOUND, `Unknown symbol(s): ${unknown.join(', ')}`);
        const set = new Set(wanted);
        rows = rows.filter((r) => set.has(r.symbol));
      }
      if (tag !== undefined) rows = rows.filter((r) => r.tags.includes(tag));
      return ok(rows.map(toFuturesSymbol));
    },
  );
}
