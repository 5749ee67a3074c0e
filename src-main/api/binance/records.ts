// Native trading state -> Binance USD-M records (reference a.3): orders, user trades,
// positionRisk entries, account assets. Ids and times are JSON integers, money and amounts
// decimal strings; a one-way account's positions are BOTH with a signed amount, a hedge
// account's LONG / SHORT with SHORT amounts negative (reference d.2 items 1-2).
import { Decimal } from 'decimal.js';
import { MarginMode, OrderType, PositionSide, Side } from '../../../src-shared/enums.ts';
import type { AccountSummary, PositionRecord } from '../../../src-shared/types.ts';
import { formatMoney, type SymbolMath } from '../../risk/money.ts';
import { bracketFor } from '../../risk/tiers.ts';
import type { PairView } from '../../trading/pair-state.ts';
import type { OrderState, TradeState } from '../../trading/ports.ts';

export type Mode = 'hedge' | 'one_way';

export const STATUS = ['', 'NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED', 'EXPIRED'] as const;
export const TIF = ['', 'GTC', 'IOC', 'FOK', 'GTX'] as const;

/** Binance's order status; a taker expired by self-trade prevention is EXPIRED_IN_MATCH (reference a.5). */
export function statusName(o: Readonly<Pick<OrderState, 'status' | 'expiredInMatch'>>): string {
  return o.status === 6 && o.expiredInMatch === true ? 'EXPIRED_IN_MATCH' : STATUS[o.status];
}

export function positionSideName(mode: Mode, nativeSide: number): 'BOTH' | 'LONG' | 'SHORT' {
  if (mode === 'one_way') return 'BOTH';
  return nativeSide === PositionSide.SHORT ? 'SHORT' : 'LONG';
}

/** An order as Binance answers it (create / cancel / query / lists). */
export function binanceOrder(m: SymbolMath, o: Readonly<OrderState>, mode: Mode): Record<string, unknown> {
  const market = o.type === OrderType.MARKET;
  const avg =
    o.filledLots > 0
      ? new Decimal(formatMoney(o.filledQuote)).div(new Decimal(m.formatQty(o.filledLots))).toFixed(m.price.precision)
      : '0';
  const type = market ? 'MARKET' : 'LIMIT';
  return {
    orderId: o.id,
    symbol: o.symbol,
    status: statusName(o),
    clientOrderId: o.clientOrderId,
    price: market ? '0' : m.formatPrice(o.priceTicks),
    avgPrice: avg,
    origQty: m.formatQty(o.qtyLots),
    executedQty: m.formatQty(o.filledLots),
    cumQty: m.formatQty(o.filledLots),
    cumQuote: formatMoney(o.filledQuote),
    // a market order's native IOC is an implementation detail; Binance reports GTC for market orders
    timeInForce: market ? 'GTC' : TIF[o.tif],
    type,
    // hedge-mode closes are reduce-only natively, but Binance reports reduceOnly only in one-way mode
    reduceOnly: mode === 'one_way' ? o.reduceOnly : false,
    closePosition: false,
    side: o.side === Side.BUY ? 'BUY' : 'SELL',
    positionSide: positionSideName(mode, o.positionSide),
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    origType: type,
    priceMatch: 'NONE',
    selfTradePreventionMode: 'NONE',
    goodTillDate: 0,
    time: o.createdAt,
    updateTime: o.updatedAt,
  };
}

export function binanceTrade(m: SymbolMath, t: TradeState, mode: Mode): Record<string, unknown> {
  return {
    symbol: t.symbol,
    id: t.id,
    orderId: t.orderId,
    side: t.side === Side.BUY ? 'BUY' : 'SELL',
    price: m.formatPrice(t.priceTicks),
    qty: m.formatQty(t.qtyLots),
    realizedPnl: formatMoney(t.realizedPnl),
    marginAsset: 'USDT',
    quoteQty: formatMoney(t.quote),
    commission: formatMoney(t.fee),
    commissionAsset: 'USDT',
    time: t.createdAt,
    positionSide: positionSideName(mode, t.positionSide),
    buyer: t.side === Side.BUY,
    maker: t.role === 1,
  };
}

const dec = (x: number, places: number) => new Decimal(x).toFixed(places);

/** A positionRisk entry (v3 fields; v2 adds leverage, marginType, isAutoAddMargin, maxNotionalValue). */
/** Open orders' figures of one position entry (remaining quantity x price). */
export interface OrderFigures {
  bidNotional: number;
  askNotional: number;
  /** Initial margin of the orders that would open or add to this position. */
  initialMargin: number;
}

export function binancePosition(
  pair: PairView,
  p: PositionRecord | undefined,
  mode: Mode,
  side: number,
  setting: { leverage: number; marginMode: number },
  maxNotional: number,
  v2: boolean,
  orders: OrderFigures,
): Record<string, unknown> {
  const r = pair.row;
  const pp = r.pricePrecision;
  const sign = p !== undefined && p.position_side === PositionSide.SHORT ? -1 : 1;
  const qty = p?.quantity ?? 0;
  const mark = pair.markPrice;
  const notional = qty * mark;
  const bracket = bracketFor(r.brackets, notional);
  const isolated = (p?.margin_mode ?? setting.marginMode) === MarginMode.ISOLATED;
  const leverage = p?.leverage ?? setting.leverage;
  const initial = notional / leverage;
  const out: Record<string, unknown> = {
    symbol: r.symbol,
    positionSide: positionSideName(mode, side),
    positionAmt: new Decimal(qty).times(sign).toFixed(r.qtyPrecision),
    entryPrice: dec(p?.entry_price ?? 0, 8),
    breakEvenPrice: dec(p?.break_even_price ?? 0, 8),
    markPrice: mark.toFixed(pp),
    unRealizedProfit: dec(p?.unrealized_pnl ?? 0, 8),
    liquidationPrice: dec(p?.liquidation_price ?? 0, pp),
    isolatedMargin: isolated && p ? dec(p.margin + p.unrealized_pnl, 8) : '0',
    notional: dec(notional * sign, 8),
    marginAsset: 'USDT',
    isolatedWallet: isolated && p ? dec(p.margin, 8) : '0',
    initialMargin: dec(initial, 8),
    maintMargin: dec(Math.max(0, notional * bracket.mmr - bracket.cum), 8),
    positionInitialMargin: dec(initial, 8),
    openOrderInitialMargin: dec(orders.initialMargin, 8),
    adl: 0,
    bidNotional: dec(orders.bidNotional, 8),
    askNotional: dec(orders.askNotional, 8),
    updateTime: p?.updated_at ?? 0,
  };
  if (v2) {
    out.leverage = String(leverage);
    out.marginType = isolated ? 'isolated' : 'cross';
    out.isAutoAddMargin = 'false';
    out.maxNotionalValue = String(maxNotional);
  }
  return out;
}

/** The USDT asset of account / balance answers. */
export function usdtAsset(s: AccountSummary, maintMargin: string, updateTime: number): Record<string, unknown> {
  const initial = new Decimal(s.position_margin).plus(s.frozen_margin);
  return {
    asset: 'USDT',
    walletBalance: s.wallet_balance,
    unrealizedProfit: s.unrealized_pnl,
    marginBalance: s.margin_balance,
    maintMargin,
    initialMargin: initial.toFixed(8),
    positionInitialMargin: s.position_margin,
    openOrderInitialMargin: s.frozen_margin,
    crossWalletBalance: s.wallet_balance,
    crossUnPnl: s.unrealized_pnl,
    availableBalance: s.available_balance,
    maxWithdrawAmount: s.available_balance,
    marginAvailable: true,
    updateTime,
  };
}
