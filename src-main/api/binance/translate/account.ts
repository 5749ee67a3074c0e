// Account records between the venue and Binance, pure: positionRisk entries, the USDT asset of
// account / balance, the account answers (v2 and v3), leverage brackets, open-order figures.
// Ids and times are integers, money and amounts decimal strings; a one-way account's position is
// BOTH with a signed amount, a hedge account's LONG / SHORT with SHORT amounts negative
// (reference d.2 items 1-2).
import { Decimal } from 'decimal.js';
import { MarginMode, PositionSide, Side } from '../../../../src-shared/enums.ts';
import type { AccountSummary, OrderRecord, PositionRecord } from '../../../../src-shared/types.ts';
import type { SymbolRow } from '../../../core/symbol.ts';
import { formatMoney } from '../../../risk/money.ts';
import { markText } from '../../../trading/pair-figures.ts';
import { positionSideName, type Mode } from './orders.ts';

/** Open orders' figures of one position entry (remaining quantity x price). */
export interface OrderFigures {
  bidNotional: number;
  askNotional: number;
  /**
   * The margin (and taker fee) the entry's orders hold, 1e-8 USDT: the venue's own frozen margin
   * (exchange.frozenMargin), so the entries add up to the account's totalOpenOrderInitialMargin.
   * Summed from the orders' notionals at their leverage it was gross where the venue nets: a
   * one-way bid against a short holds nothing for the part that closes it (180 USDT said on the
   * entry, 108.27 on the account, the API walk of 12-05).
   */
  frozen: bigint;
}

/** The notionals of the open orders of one entry (`side` null takes all of them: one-way) and what they hold. */
export function orderFigures(orders: readonly OrderRecord[], side: number | null, frozen: bigint): OrderFigures {
  const f = { bidNotional: 0, askNotional: 0, frozen };
  for (const o of orders) {
    if (side !== null && o.position_side !== side) continue;
    const n = (Number(o.qty) - Number(o.filled_qty)) * Number(o.price);
    if (o.side === Side.BUY) f.bidNotional += n;
    else f.askNotional += n;
  }
  return f;
}

/** What a positionRisk entry is made of. */
export interface PositionEntry {
  row: SymbolRow;
  mark: number;
  /** The native position, undefined for an empty entry. */
  position: PositionRecord | undefined;
  /** Its ADL quantile, 0 to 4 (0 for an empty entry). */
  adl: number;
  mode: Mode;
  /** Native position side of the entry (LONG for one-way). */
  side: number;
  setting: { leverage: number; marginMode: number };
  maxNotional: number;
  /** The maintenance margin of a notional (the pair's brackets, a service's figure). */
  maintenance: (notional: number) => number;
  /** v2 adds leverage, marginType, isAutoAddMargin, maxNotionalValue. */
  v2: boolean;
  orders: OrderFigures;
}

const dec = (x: number, places: number) => new Decimal(x).toFixed(places);

export function binancePosition(e: PositionEntry): Record<string, unknown> {
  const { row: r, position: p } = e;
  const sign = p !== undefined && p.position_side === PositionSide.SHORT ? -1 : 1;
  const qty = p?.quantity ?? 0;
  // valued at the mark as published (8 decimals), the one the venue values the position at (its
  // margin and unrealized PnL) and positionAmt x markPrice gives: not the unrounded float, which
  // put notional and the margins off the native figures (DOGEUSDT 13608 at a mark of 0.3187000716:
  // notional 4336.87057402 against 13608 x 0.31870007 = 4336.87055256)
  const notional = new Decimal(markText(e.mark)).times(qty).toNumber();
  const isolated = (p?.margin_mode ?? e.setting.marginMode) === MarginMode.ISOLATED;
  const leverage = p?.leverage ?? e.setting.leverage;
  const initial = notional / leverage;
  const out: Record<string, unknown> = {
    symbol: r.symbol,
    positionSide: positionSideName(e.mode, e.side),
    positionAmt: new Decimal(qty).times(sign).toFixed(r.qtyPrecision),
    entryPrice: dec(p?.entry_price ?? 0, 8),
    breakEvenPrice: dec(p?.break_even_price ?? 0, 8),
    markPrice: markText(e.mark),
    unRealizedProfit: dec(p?.unrealized_pnl ?? 0, 8),
    liquidationPrice: dec(p?.liquidation_price ?? 0, r.pricePrecision),
    isolatedMargin: isolated && p ? dec(p.margin + p.unrealized_pnl, 8) : '0',
    notional: dec(notional * sign, 8),
    marginAsset: 'USDT',
    isolatedWallet: isolated && p ? dec(p.margin, 8) : '0',
    initialMargin: dec(initial, 8),
    maintMargin: dec(e.maintenance(notional), 8),
    positionInitialMargin: dec(initial, 8),
    openOrderInitialMargin: formatMoney(e.orders.frozen),
    adl: e.adl,
    bidNotional: dec(e.orders.bidNotional, 8),
    askNotional: dec(e.orders.askNotional, 8),
    updateTime: p?.updated_at ?? 0,
  };
  if (e.v2) {
    out.leverage = String(leverage);
    out.marginType = isolated ? 'isolated' : 'cross';
    out.isAutoAddMargin = 'false';
    out.maxNotionalValue = String(e.maxNotional);
  }
  return out;
}

/**
 * A GET /fapi/v2/positionRisk entry from the full one: Binance's v2 fields in its order, without
 * v3's margins, order notionals and ADL quantile (those stay in the full entry, which the v2
 * account's positions[] read).
 */
export function positionRiskV2(risk: Record<string, unknown>): Record<string, unknown> {
  return {
    entryPrice: risk.entryPrice,
    breakEvenPrice: risk.breakEvenPrice,
    marginType: risk.marginType,
    isAutoAddMargin: risk.isAutoAddMargin,
    isolatedMargin: risk.isolatedMargin,
    leverage: risk.leverage,
    liquidationPrice: risk.liquidationPrice,
    markPrice: risk.markPrice,
    maxNotionalValue: risk.maxNotionalValue,
    positionAmt: risk.positionAmt,
    notional: risk.notional,
    isolatedWallet: risk.isolatedWallet,
    symbol: risk.symbol,
    unRealizedProfit: risk.unRealizedProfit,
    positionSide: risk.positionSide,
    updateTime: risk.updateTime,
  };
}

/**
 * An entry of the account answer's positions[] from the entry positionRisk answers for it (v2's
 * for the v2 account): Binance's account layout, which is not positionRisk's (unrealizedProfit,
 * v2's isolated flag and maxNotional), v3 the short one. v2 also carries notional and
 * isolatedWallet, as Binance's v2 answers do (ccxt's parseAccountPosition reads them).
 */
export function accountPosition(risk: Record<string, unknown>, v2: boolean): Record<string, unknown> {
  if (!v2)
    return {
      symbol: risk.symbol,
      positionSide: risk.positionSide,
      positionAmt: risk.positionAmt,
      unrealizedProfit: risk.unRealizedProfit,
      isolatedMargin: risk.isolatedMargin,
      notional: risk.notional,
      isolatedWallet: risk.isolatedWallet,
      initialMargin: risk.initialMargin,
      maintMargin: risk.maintMargin,
      updateTime: risk.updateTime,
    };
  return {
    symbol: risk.symbol,
    initialMargin: risk.initialMargin,
    maintMargin: risk.maintMargin,
    unrealizedProfit: risk.unRealizedProfit,
    positionInitialMargin: risk.positionInitialMargin,
    openOrderInitialMargin: risk.openOrderInitialMargin,
    leverage: risk.leverage,
    isolated: risk.marginType === 'isolated',
    entryPrice: risk.entryPrice,
    breakEvenPrice: risk.breakEvenPrice,
    maxNotional: risk.maxNotionalValue,
    bidNotional: risk.bidNotional,
    askNotional: risk.askNotional,
    positionSide: risk.positionSide,
    positionAmt: risk.positionAmt,
    notional: risk.notional,
    isolatedWallet: risk.isolatedWallet,
    updateTime: risk.updateTime,
  };
}

/** Binance's cross-margin figures of an account: its wallet less the isolated positions' wallets, and the cross positions' unrealized PnL. */
export interface CrossFigures {
  crossWalletBalance: string;
  crossUnPnl: string;
}

/**
 * The cross figures from the wallet and the account's positions (all of them): an isolated
 * position's margin is its own wallet, taken out of the cross wallet, and its unrealized PnL is
 * not the cross positions' (Binance's crossWalletBalance / crossUnPnl, ACCOUNT_UPDATE `cw`).
 */
export function crossFigures(walletBalance: string, positions: readonly PositionRecord[]): CrossFigures {
  let isolatedWallets = new Decimal(0);
  let crossUpnl = new Decimal(0);
  for (const p of positions) {
    if (p.quantity <= 0) continue;
    if (p.margin_mode === MarginMode.ISOLATED) isolatedWallets = isolatedWallets.plus(p.margin);
    else crossUpnl = crossUpnl.plus(p.unrealized_pnl);
  }
  return {
    crossWalletBalance: new Decimal(walletBalance).minus(isolatedWallets).toFixed(8),
    crossUnPnl: crossUpnl.toFixed(8),
  };
}

/** The USDT asset of account / balance answers. */
function usdtAsset(
  s: AccountSummary,
  cross: CrossFigures,
  maintMargin: string,
  updateTime: number,
): Record<string, unknown> {
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
    crossWalletBalance: cross.crossWalletBalance,
    crossUnPnl: cross.crossUnPnl,
    availableBalance: s.available_balance,
    maxWithdrawAmount: s.available_balance,
    marginAvailable: true,
    updateTime,
  };
}

/**
 * GET fapi/v1/accountConfig (Binance's field order), also the head of fapi/v2/account. Fee tier
 * 0 is Binance's regular tier, 0.02 % maker and 0.05 % taker, the rates every listed pair here
 * charges (per pair: commissionRate); no multi-assets mode, no trade group.
 */
export function accountConfig(dualSidePosition: boolean): Record<string, unknown> {
  return {
    feeTier: 0,
    canTrade: true,
    canDeposit: true,
    canWithdraw: true,
    dualSidePosition,
    updateTime: 0,
    multiAssetsMargin: false,
    tradeGroupId: -1,
  };
}

/** GET fapi/v2|v3/account from the summary, the cross figures and the positions[] entries (accountPosition). */
export function accountAnswer(
  sum: AccountSummary,
  positions: Record<string, unknown>[],
  opts: { now: number; v2: boolean; cross: CrossFigures },
): Record<string, unknown> {
  const maint = positions.reduce((acc, p) => acc.plus(p.maintMargin as string), new Decimal(0)).toFixed(8);
  const asset = usdtAsset(sum, opts.cross, maint, opts.now);
  const { dualSidePosition: _, ...config } = accountConfig(false);
  const v2 = opts.v2 ? config : {};
  return {
    ...v2,
    totalInitialMargin: asset.initialMargin,
    totalMaintMargin: maint,
    totalWalletBalance: sum.wallet_balance,
    totalUnrealizedProfit: sum.unrealized_pnl,
    totalMarginBalance: sum.margin_balance,
    totalPositionInitialMargin: sum.position_margin,
    totalOpenOrderInitialMargin: sum.frozen_margin,
    totalCrossWalletBalance: opts.cross.crossWalletBalance,
    totalCrossUnPnl: opts.cross.crossUnPnl,
    availableBalance: sum.available_balance,
    maxWithdrawAmount: sum.available_balance,
    assets: [asset],
    positions,
  };
}

/** GET fapi/v2|v3/balance: the one USDT entry. */
export function balanceAnswer(
  accountId: number,
  sum: AccountSummary,
  cross: CrossFigures,
  now: number,
): Record<string, unknown>[] {
  return [
    {
      accountAlias: `pd${accountId}`,
      asset: 'USDT',
      balance: sum.wallet_balance,
      crossWalletBalance: cross.crossWalletBalance,
      crossUnPnl: cross.crossUnPnl,
      availableBalance: sum.available_balance,
      maxWithdrawAmount: sum.available_balance,
      marginAvailable: true,
      updateTime: now,
    },
  ];
}

/** One leverageBracket entry: the pair's bracket table in Binance's names. */
export function bracketsAnswer(row: SymbolRow): Record<string, unknown> {
  return {
    symbol: row.symbol,
    notionalCoef: 1.0,
    brackets: row.brackets.map((b) => ({
      bracket: b.tier,
      initialLeverage: b.maxLeverage,
      notionalCap: b.cap,
      notionalFloor: b.floor,
      maintMarginRatio: b.mmr,
      cum: b.cum,
    })),
  };
}
