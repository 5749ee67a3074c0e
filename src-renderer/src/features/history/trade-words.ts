// What a trade did, in words, for Trade history and the fill toast. A trade record says its side,
// the position side it closed or opened and whether it closed; in one-way mode one fill can close
// the position and open the other side with the rest (a sell of 0.030 against a long of 0.010),
// and its record names only the close ("close long", position_side long, is_close): so one-way
// trades read by their side alone in the history, as Binance's one-way history does, and the
// fill toast, which knows the position held before the order filled, says both parts.
import { PositionSide, Side } from '../../../../src-shared/enums.ts';
import { TradeRole } from '../../../../src-shared/enums.ts';
import type { TradeRecord } from '../../../../src-shared/types.ts';
import type { VenueClose } from '../orders/order-labels.ts';

type TradeWords = Pick<TradeRecord, 'side' | 'is_close' | 'position_side'>;

const sideWord = (t: TradeWords): string => (t.side === Side.BUY ? 'Buy' : 'Sell');
const posWord = (side: number): string => (side === PositionSide.LONG ? 'long' : 'short');

/** Trade history's Side: "Sell · close long" in hedge mode, "Sell" in one-way mode. */
export function tradeSideText(t: TradeWords, oneWay: boolean): string {
  if (oneWay) return sideWord(t);
  return `${sideWord(t)} · ${t.is_close ? 'close' : 'open'} ${posWord(t.position_side)}`;
}

/**
 * Trade history's Role: Maker / Taker, or for a close the venue sent (`closedBy`) what it was,
 * "Liquidation", "ADL", "Reset": not a trade of the trader's own.
 */
export function tradeRoleText(role: TradeRole, closedBy: VenueClose | null): string {
  if (closedBy !== null) return closedBy;
  return role === TradeRole.MAKER ? 'Maker' : 'Taker';
}

/** The fill toast's word for the same: "maker", "taker", "liquidation", "ADL", "reset close". */
export function fillRoleWord(role: TradeRole, closedBy: VenueClose | null): string {
  if (closedBy === 'Reset') return 'reset close';
  if (closedBy === 'Liquidation') return 'liquidation';
  return tradeRoleText(role, closedBy).replace(/^(Maker|Taker)$/, (w) => w.toLowerCase());
}

/**
 * The fill toast's action: "Open short", "Close long", and in one-way mode, when the order filled
 * past the position it closed (`held`, its quantity before the order's first fill), "Close long
 * 0.010 · open short 0.020" (`fmt` writes a quantity).
 */
export function fillActionText(
  t: TradeWords,
  oneWay: boolean,
  filled: number,
  held: number,
  fmt: (q: number) => string,
): string {
  const pos = posWord(t.position_side);
  if (!t.is_close) return `Open ${pos}`;
  if (!oneWay || !(held > 0) || filled <= held * (1 + 1e-9)) return `Close ${pos}`;
  const other = posWord(t.position_side === PositionSide.LONG ? PositionSide.SHORT : PositionSide.LONG);
  return `Close ${pos} ${fmt(held)} · open ${other} ${fmt(filled - held)}`;
}
