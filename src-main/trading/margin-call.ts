// Margin calls: checked with the liquidations (liquidation.ts), on every mark price change. When
// the maintenance margin of the cross positions reaches 80 % of the cross equity (cross wallet +
// their PnL), or an isolated position's reaches 80 % of its margin + PnL (a margin ratio of 80 %;
// liquidation at 100 %), the account is told once (a `margin_call` account event, after the turn's
// commit like every private event; Binance's MARGIN_CALL on the dialect's user stream), and again
// only after the ratio came back under 70 % (funds or margin added, the position reduced, the
// price back) or the positions closed: a ratio hovering about 80 % does not call at every mark.
//
// Invariants
// - Compared in bigint units: ratio >= 0.8 is mm x 5 >= equity x 4 (equity above 0); an equity at
//   or below 0 is a liquidation, not a call.
// - The calls made are in memory (AccountLive.marginCalls): a restart calls again an account that
//   is still over 80 %, as a margin call is a notice, not a record.
import { MarginMode } from '../../src-shared/enums.ts';
import { maintenanceMarginUnits } from '../risk/margin.ts';
import { formatMoney } from '../risk/money.ts';
import type { PositionState } from '../risk/position.ts';
import type { AccountLive, TradingCore } from './core.ts';
import { markValue, upnlUnits } from './ledger.ts';
import { markText } from './pair-figures.ts';

/** The key of the cross positions' call; an isolated position's is its `symbol:side`. */
const CROSS = 'cross';

const atCall = (mm: bigint, equity: bigint): boolean => equity > 0n && mm * 5n >= equity * 4n;
const underRearm = (mm: bigint, equity: bigint): boolean => equity > 0n && mm * 10n < equity * 7n;

/** Forgets the calls of positions gone (closed, liquidated), so that new ones may be called. */
export function dropGoneCalls(a: AccountLive): void {
  const called = a.marginCalls;
  if (called === undefined || called.size === 0) return;
  for (const key of called) {
    const open =
      key === CROSS
        ? [...a.positions.values()].some((p) => p.qty > 0 && p.marginMode === MarginMode.CROSS)
        : (a.positions.get(key)?.qty ?? 0) > 0;
    if (!open) called.delete(key);
  }
}

/**
 * Calls the account when its cross positions (`isolated` null) or one isolated position stand at a
 * margin ratio of 80 % or more and were not called since they were last under 70 %; `wallet` is
 * the margin that backs them (the cross wallet less isolated margins, or the isolated margin),
 * `mm` and `equity` their maintenance margin and equity in units.
 */
export function marginCall(
  core: TradingCore,
  a: AccountLive,
  c: { isolated: PositionState | null; wallet: bigint; mm: bigint; equity: bigint },
): void {
  const called = a.marginCalls;
  // the common case, nothing called and no call: nothing built (this runs at every mark)
  if ((called === undefined || called.size === 0) && !atCall(c.mm, c.equity)) return;
  const key = c.isolated === null ? CROSS : `${c.isolated.symbol}:${c.isolated.side}`;
  if (called?.has(key)) {
    if (underRearm(c.mm, c.equity)) called.delete(key);
    return;
  }
  if (!atCall(c.mm, c.equity)) return;
  (a.marginCalls ??= new Set()).add(key);
  // (the cross positions listed only for a call: none is made at almost every mark)
  const positions =
    c.isolated !== null
      ? [c.isolated]
      : [...a.positions.values()].filter((p) => p.qty > 0 && p.marginMode === MarginMode.CROSS);
  const time = core.now();
  core.writer.announce({
    accountId: a.id,
    kind: 'margin_call',
    time,
    data: {
      margin_mode: c.isolated === null ? MarginMode.CROSS : MarginMode.ISOLATED,
      margin_ratio: Math.round((Number(c.mm) / Number(c.equity)) * 1e6) / 1e6,
      wallet: formatMoney(c.wallet),
      positions: positions.map((p) => {
        const pair = core.pairs.get(p.symbol)!;
        return {
          symbol: p.symbol,
          position_side: p.side,
          quantity: pair.math.qtyOf(p.qty),
          mark_price: markText(pair.markPrice),
          unrealized_pnl: formatMoney(upnlUnits(p, pair)),
          maintenance_margin: formatMoney(maintenanceMarginUnits(pair.row.brackets, markValue(p, pair))),
        };
      }),
      time,
    },
  });
}
