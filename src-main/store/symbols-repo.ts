// Trading-pair catalogue in SQLite. The catalogue is small and read on every request, so the
// repository keeps an in-memory copy that is replaced whenever a row changes.
import type { DatabaseSync } from 'node:sqlite';
import type { MaintenanceBracket, NewSymbol, SymbolRow, SymbolTag } from '../core/symbol.ts';
import type { SymbolsPort } from '../trading/ports.ts';
import { transaction } from './database.ts';

interface DbRow {
  id: number;
  symbol: string;
  base_asset: string;
  quote_asset: string;
  margin_asset: string;
  contract_type: number;
  status: number;
  allow_market: number;
  price_precision: number;
  qty_precision: number;
  quote_precision: number;
  tick_size: string;
  step_size: string;
  min_qty: string;
  max_qty: string;
  min_notional: string;
  maker_fee_rate: string;
  taker_fee_rate: string;
  max_leverage: number;
  maintenance_margin_rate: string;
  brackets: string;
  market_price_protect_ratio: string;
  price_merges: string;
  logo: string;
  sort_order: number;
  is_default: number;
  is_hot: number;
  is_gainer: number;
  is_new: number;
  tags: string;
  initial_price: string;
  created_at: number;
  updated_at: number;
}

function fromDb(r: DbRow): SymbolRow {
  return {
    id: r.id,
    symbol: r.symbol,
    baseAsset: r.base_asset,
    quoteAsset: r.quote_asset,
    marginAsset: r.margin_asset,
    contractType: r.contract_type,
    status: r.status,
    allowMarket: r.allow_market === 1,
    pricePrecision: r.price_precision,
    qtyPrecision: r.qty_precision,
    quotePrecision: r.quote_precision,
    tickSize: r.tick_size,
    stepSize: r.step_size,
    minQty: r.min_qty,
    maxQty: r.max_qty,
    minNotional: r.min_notional,
    makerFeeRate: r.maker_fee_rate,
    takerFeeRate: r.taker_fee_rate,
    maxLeverage: r.max_leverage,
    maintenanceMarginRate: r.maintenance_margin_rate,
    brackets: (JSON.parse(r.brackets) as Array<Omit<MaintenanceBracket, 'cap'> & { cap: number | null }>).map((b) => ({
      ...b,
      cap: b.cap ?? Infinity,
    })),
    marketPriceProtectRatio: r.market_price_protect_ratio,
    priceMerges: JSON.parse(r.price_merges) as string[],
    logo: r.logo,
    sortOrder: r.sort_order,
    isDefault: r.is_default === 1,
    isHot: r.is_hot === 1,
    isGainer: r.is_gainer === 1,
    isNew: r.is_new === 1,
    tags: r.tags === '' ? [] : (r.tags.split(',') as SymbolTag[]),
    initialPrice: r.initial_price,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export class SymbolsRepo implements SymbolsPort {
  private readonly db: DatabaseSync;
  private cache: SymbolRow[] | null = null;
  private bySymbol = new Map<string, SymbolRow>();

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM symbols').get() as { n: number }).n;
  }

  /** Inserts pairs that are not listed yet (by symbol); returns how many were added. */
  insertMissing(rows: readonly NewSymbol[], now: number): number {
    const insert = this.db.prepare(`
      INSERT OR IGNORE INTO symbols (
        symbol, base_asset, quote_asset, margin_asset, contract_type, status, allow_market,
        price_precision, qty_precision, quote_precision, tick_size, step_size, min_qty, max_qty,
        min_notional, maker_fee_rate, taker_fee_rate, max_leverage, maintenance_margin_rate,
        brackets, market_price_protect_ratio, price_merges, logo, sort_order, is_default, is_hot,
        is_gainer, is_new, tags, initial_price, created_at, updated_at
      ) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
    let added = 0;
    transaction(this.db, () => {
      for (const s of rows) {
        const res = insert.run(
          s.symbol,
          s.baseAsset,
          s.quoteAsset,
          s.marginAsset,
          s.contractType,
          s.status,
          s.allowMarket ? 1 : 0,
          s.pricePrecision,
          s.qtyPrecision,
          s.quotePrecision,
          s.tickSize,
          s.stepSize,
          s.minQty,
          s.maxQty,
          s.minNotional,
          s.makerFeeRate,
          s.takerFeeRate,
          s.maxLeverage,
          s.maintenanceMarginRate,
          JSON.stringify(s.brackets.map((b) => ({ ...b, cap: Number.isFinite(b.cap) ? b.cap : null }))),
          s.marketPriceProtectRatio,
          JSON.stringify(s.priceMerges),
          s.logo,
          s.sortOrder,
          s.isDefault ? 1 : 0,
          s.isHot ? 1 : 0,
          s.isGainer ? 1 : 0,
          s.isNew ? 1 : 0,
          s.tags.join(','),
          s.initialPrice,
          now,
          now,
        );
        added += Number(res.changes);
      }
    });
    this.cache = null;
    return added;
  }

  setStatus(symbol: string, status: number, now: number): boolean {
    const res = this.db
      .prepare('UPDATE symbols SET status = ?, updated_at = ? WHERE symbol = ?')
      .run(status, now, symbol);
    this.cache = null;
    return Number(res.changes) === 1;
  }

  /** All pairs, in display order (sort_order, then symbol). */
  all(): readonly SymbolRow[] {
    if (this.cache === null) {
      const rows = this.db.prepare('SELECT * FROM symbols ORDER BY sort_order, symbol').all() as unknown as DbRow[];
      this.cache = rows.map(fromDb);
      this.bySymbol = new Map(this.cache.map((r) => [r.symbol, r]));
    }
    return this.cache;
  }

  get(symbol: string): SymbolRow | undefined {
    this.all();
    return this.bySymbol.get(symbol);
  }
}
