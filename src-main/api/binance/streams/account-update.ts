// ACCOUNT_UPDATE's wallet and position entries (user-events.ts sends the event). The wallet's `bc`
// is Binance's "balance change except PnL and commission": what moved the wallet but the event's
// fills (a deposit, a reset's difference, a funding payment, a liquidation's clearance fee).
// Binance pushes only the
// positions that changed ("Only symbols of changed positions will be pushed"): a fill its
// position's, an isolated position's funding or margin transfer that position's new `iw`, a cross
// position's funding none. A position changed when anything of its entry but the unrealized PnL
// (`up`, which moves with the mark alone) differs from what the last update sent of it; a position
// gone since is sent closed (pa "0"). A hedge account's fill lists each such symbol's BOTH entry too (empty).
import { Decimal } from 'decimal.js';
import { MarginMode, PositionSide } from '../../../../src-shared/enums.ts';
import type { PositionRecord, TradeRecord } from '../../../../src-shared/types.ts';
import type { PairView } from '../../../trading/pair-state.ts';
import { crossFigures } from '../translate/account.ts';
import { positionSideName, type Mode } from '../translate/orders.ts';

/**
 * The wallet entry of an ACCOUNT_UPDATE whose wallet moved from `previous` (what the last update,
 * or the stream's start, showed) to `wallet`: `cw` the cross wallet (the wallet less the isolated
 * positions' wallets, of `positions`), `bc` that move less the batch's `fills` (their realized PnL
 * less their fees), at 8 decimals as `wb`, "0" when the fills made all of it (as Binance's).
 */
export function walletEntry(
  previous: string | undefined,
  wallet: string,
  positions: readonly PositionRecord[],
  fills: readonly TradeRecord[],
) {
  const trading = fills.reduce((sum, f) => sum.plus(f.realized_pnl).minus(f.fee), new Decimal(0));
  const bc = previous === undefined ? new Decimal(0) : new Decimal(wallet).minus(previous).minus(trading);
  const cw = crossFigures(wallet, positions).crossWalletBalance;
  return { a: 'USDT', wb: wallet, cw, bc: bc.isZero() ? '0' : bc.toFixed(8) };
}

/** An ACCOUNT_UPDATE position entry (a one-way short and a hedge SHORT have a negative pa). */
function positionEntry(pair: PairView, p: PositionRecord, mode: Mode) {
  const isolated = p.margin_mode === MarginMode.ISOLATED;
  return {
    s: p.symbol,
    pa: new Decimal(p.quantity).times(p.position_side === PositionSide.SHORT ? -1 : 1).toFixed(pair.row.qtyPrecision),
    ep: String(p.entry_price),
    bep: String(p.break_even_price),
    cr: new Decimal(p.realized_pnl).toFixed(),
    up: String(p.unrealized_pnl),
    mt: isolated ? 'isolated' : 'cross',
    iw: isolated ? String(p.margin) : '0',
    ps: positionSideName(mode, p.position_side),
  };
}

/** What tells a change of a position, by `symbol|ps`: its entry but `up`. */
export type PositionSignatures = Map<string, string>;

/** Each of `positions`' entry, key and signature. */
function signed(positions: readonly PositionRecord[], mode: Mode, pairOf: (symbol: string) => PairView | undefined) {
  return positions.map((p) => {
    const entry = positionEntry(pairOf(p.symbol)!, p, mode);
    const { up: _up, ...changing } = entry;
    return { entry, key: `${p.symbol}|${entry.ps}`, sig: JSON.stringify(changing) };
  });
}

/** The signatures of `positions`: what a stream starts from. */
export function positionSignatures(
  positions: readonly PositionRecord[],
  mode: Mode,
  pairOf: (symbol: string) => PairView | undefined,
): PositionSignatures {
  return new Map(signed(positions, mode, pairOf).map((x) => [x.key, x.sig]));
}

/**
 * The positions that changed since `before` (what the last ACCOUNT_UPDATE sent), a closed one as
 * pa "0" with the realized PnL it accumulated (cr: what the last update sent of it plus the batch's
 * fills of it); `after` the signatures to compare the next update with. With `fills` (reason ORDER),
 * on a hedge account each symbol's entries follow its BOTH entry, empty (withBoth).
 */
export function positionChanges(
  before: PositionSignatures,
  positions: readonly PositionRecord[],
  mode: Mode,
  fills: readonly TradeRecord[],
  pairOf: (symbol: string) => PairView | undefined,
): { P: unknown[]; after: PositionSignatures } {
  const now = signed(positions, mode, pairOf);
  const after: PositionSignatures = new Map(now.map((x) => [x.key, x.sig]));
  const P: unknown[] = now.filter((x) => before.get(x.key) !== x.sig).map((x) => x.entry);
  for (const [key, sig] of before) {
    if (after.has(key)) continue;
    // closed: amount 0, in the margin type it had (an isolated position closes as isolated)
    const { s, ps, mt, cr } = JSON.parse(sig) as { s: string; ps: string; mt: string; cr: string };
    let realized = new Decimal(cr);
    for (const f of fills)
      if (f.symbol === s && positionSideName(mode, f.position_side) === ps) realized = realized.plus(f.realized_pnl);
    P.push({ s, pa: '0', ep: '0', bep: '0', cr: realized.toFixed(), up: '0', mt, iw: '0', ps });
  }
  return { P: fills.length > 0 && mode === 'hedge' ? withBoth(P as Array<{ s: string; mt: string }>) : P, after };
}

/**
 * A hedge account's position entries of a fill with each symbol's BOTH entry before its first one,
 * as Binance pushes a changed symbol's positions (its USD-M ACCOUNT_UPDATE example: BTCUSDT's BOTH,
 * pa "0", then LONG and SHORT): empty, as a hedge account holds nothing on BOTH, in the symbol's
 * margin type.
 */
function withBoth(P: ReadonlyArray<{ s: string; mt: string }>): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (const p of P) {
    if (!seen.has(p.s)) {
      seen.add(p.s);
      out.push({ s: p.s, pa: '0', ep: '0', bep: '0', cr: '0', up: '0', mt: p.mt, iw: '0', ps: 'BOTH' });
    }
    out.push(p);
  }
  return out;
}

/** The native `margin_call` event's data (trading/margin-call.ts). */
export interface MarginCallData {
  margin_mode: number;
  wallet: string;
  positions: Array<{
    symbol: string;
    position_side: number;
    quantity: number;
    mark_price: string;
    unrealized_pnl: string;
    maintenance_margin: string;
  }>;
}

/** Binance's MARGIN_CALL: `cw` (the cross wallet) only for the cross positions' call, `iw` an isolated one's margin. */
export function marginCallEvent(
  d: MarginCallData,
  mode: Mode,
  now: number,
  pairOf: (symbol: string) => PairView | undefined,
) {
  const isolated = d.margin_mode === MarginMode.ISOLATED;
  return {
    e: 'MARGIN_CALL',
    E: now,
    ...(isolated ? {} : { cw: d.wallet }),
    p: d.positions.map((p) => ({
      s: p.symbol,
      ps: positionSideName(mode, p.position_side),
      pa: new Decimal(p.quantity)
        .times(p.position_side === PositionSide.SHORT ? -1 : 1)
        .toFixed(pairOf(p.symbol)?.row.qtyPrecision ?? 8),
      mt: isolated ? 'ISOLATED' : 'CROSSED',
      iw: isolated ? d.wallet : '0',
      mp: p.mark_price,
      up: p.unrealized_pnl,
      mm: p.maintenance_margin,
    })),
  };
}
