// The chart's price lines of the current pair, from the account's lists: its waiting price alerts,
// each position's entry, liquidation, take-profit and stop-loss (in hedge mode named by the
// position's side, "TP long", "SL short": a pair's long and short have theirs at once), its limit
// orders and its waiting stops. Orders, and stops, at one price share a line (sharedLines): alone,
// an order's or a stop's line is its own and drags; several share one that counts them and is not
// dragged, since nothing would say which of them a drag moves (✎ in their tab moves each). The ids
// say what a line is, read back when one is dragged or double-clicked (chart-panel.tsx). Pure.
import { OrderType, PositionSide, Side } from '../../../../src-shared/enums.ts';
import type { ConditionalOrderRecord, OrderRecord, PositionRecord } from '../../../../src-shared/types.ts';
import { fmt } from '../../lib/format.ts';
import type { PriceAlert } from '../alerts/alert-rules.ts';
import { condition } from '../alerts/alert-rules.ts';
import { positionKey, type TpSl } from '../positions/positions-store.ts';
import { stopModifiable } from '../stops/stop-amend.ts';
import { activationText, awaitsActivation } from '../stops/stop-labels.ts';

/** The id prefix of a line that is one order's (`order:<id>`); a line of several is not movable. */
export const ORDER_LINE = 'order:';
/** The id prefix of a price alert's line (`alert:<id>`). */
export const ALERT_LINE = 'alert:';
/** The id prefix of a waiting stop's line (`stop:<id>`); a line of several is not movable. */
export const STOP_LINE = 'stop:';

export interface PriceLinesInput {
  symbol: string;
  qd: number;
  /** Hedge mode: a pair may hold a long and a short, each with its TP / SL lines. */
  hedge: boolean;
  positions: readonly PositionRecord[];
  tpsl: Readonly<Record<string, TpSl>>;
  orders: readonly OrderRecord[];
  alerts: readonly PriceAlert[];
  stops: readonly ConditionalOrderRecord[];
}

/** A price line as ChartModel.setPriceLines draws it. */
export interface PriceLineSpec {
  /** Stable identity (e.g. `order:123`, `entry:BTCUSDT:1`), so unchanged lines are kept. */
  id: string;
  price: number;
  color: string;
  title: string;
  style?: 'solid' | 'dashed' | 'dotted' | 'sparse';
  /** Whether the line can be dragged to a new price (ChartModelOptions.onLineMoved). */
  movable?: boolean;
}

/**
 * Items at one price (`at`) share one line, as `line` draws them: alone, an item's own line,
 * movable if `line` says so; several, one line that is never movable (a drag could not say which
 * of them it moves).
 */
function sharedLines<T>(
  items: readonly T[],
  at: (t: T) => string,
  line: (group: readonly T[], at: string) => PriceLineSpec,
): PriceLineSpec[] {
  const groups = new Map<string, T[]>();
  for (const t of items) {
    const k = at(t);
    const g = groups.get(k);
    if (g === undefined) groups.set(k, [t]);
    else g.push(t);
  }
  return [...groups].map(([k, group]) => {
    const l = line(group, k);
    return { ...l, movable: group.length === 1 && l.movable === true };
  });
}

/** " (3 orders)" for a shared line, nothing for one alone. */
const counted = (n: number, what: string): string => (n > 1 ? ` (${n} ${what})` : '');

const sideWord = (side: Side): string => (side === Side.BUY ? 'Buy' : 'Sell');

/** "Buy 0.010", "Buy close" (closes the whole position), "Buy 0.010 + close", "Buy 0.010, Sell close": the stops of one line. */
function stopsText(stops: readonly ConditionalOrderRecord[], qd: number): string {
  const parts: string[] = [];
  for (const side of [Side.BUY, Side.SELL]) {
    const of = stops.filter((c) => c.side === side);
    if (of.length === 0) continue;
    const sized = of.filter((c) => !c.close_position);
    const qty = sized.reduce((sum, c) => sum + Number(c.qty), 0);
    const what = [...(sized.length > 0 ? [fmt(qty, qd)] : []), ...(sized.length < of.length ? ['close'] : [])];
    parts.push(`${sideWord(side)} ${what.join(' + ')}`);
  }
  return parts.join(', ');
}

export function priceLines(i: PriceLinesInput): PriceLineSpec[] {
  const { symbol, qd } = i;
  const out: PriceLineSpec[] = [];
  for (const a of i.alerts) {
    if (a.symbol !== symbol || a.fired !== undefined) continue;
    out.push({
      id: `${ALERT_LINE}${a.id}`,
      price: Number(a.price),
      color: '#4c8dff',
      title: `Alert ${condition(a)}`,
      style: 'sparse',
      movable: true,
    });
  }
  for (const p of i.positions) {
    if (p.symbol !== symbol) continue;
    const side = p.position_side === PositionSide.SHORT ? 'Short' : 'Long';
    const k = `${p.symbol}:${p.position_side}`;
    out.push({
      id: `entry:${k}`,
      price: p.entry_price,
      color: '#f0b90b',
      title: `${side} ${fmt(Math.abs(p.quantity), qd)}`,
      style: 'solid',
    });
    out.push({ id: `liq:${k}`, price: p.liquidation_price, color: '#ff8c3a', title: 'Liq.', style: 'dashed' });
    // hedge mode: the long's and the short's triggers, which may interleave, named apart
    const whose = i.hedge ? ` ${side.toLowerCase()}` : '';
    const t = i.tpsl[positionKey(p.symbol, p.position_side)];
    if (t?.takeProfit)
      out.push({
        id: `tp:${k}`,
        price: Number(t.takeProfit),
        color: '#2ebd85',
        title: `TP${whose}`,
        style: 'dashed',
        movable: true,
      });
    if (t?.stopLoss)
      out.push({
        id: `sl:${k}`,
        price: Number(t.stopLoss),
        color: '#f6465d',
        title: `SL${whose}`,
        style: 'dashed',
        movable: true,
      });
  }
  // limit orders: one line per side and price (a grid bot's would stack identical labels), the
  // amount left summed
  const limits = i.orders.filter((o) => o.symbol === symbol && o.type === OrderType.LIMIT);
  out.push(
    ...sharedLines(
      limits,
      (o) => `${o.side}:${o.price}`,
      (group, at) => {
        const { side, price } = group[0];
        const left = group.reduce((sum, o) => sum + Number(o.qty) - Number(o.filled_qty), 0);
        return {
          id: group.length === 1 ? `${ORDER_LINE}${group[0].id}` : `orders:${at}`,
          price: Number(price),
          color: side === Side.BUY ? '#2ebd85' : '#f6465d',
          title: `${sideWord(side)} ${fmt(left, qd)}${counted(group.length, 'orders')}`,
          style: 'dotted',
          movable: true,
        };
      },
    ),
  );
  // waiting stops: one line per trigger, whatever their sides
  out.push(
    ...sharedLines(
      i.stops.filter((c) => c.symbol === symbol),
      (c) => c.trigger_price,
      (group, at) => ({
        id: group.length === 1 ? `${STOP_LINE}${group[0].id}` : `stops:${at}`,
        price: Number(at),
        // violet: not the side's green or red, which the last price's line and TP / SL wear too
        color: '#b388ff',
        // a trailing stop waiting for its activation is not armed at this line (the price may be past it)
        title: `Stop ${stopsText(group, qd)}${counted(group.length, 'stops')}${group.length === 1 && awaitsActivation(group[0]) ? ` · ${activationText(group[0])}` : ''}`,
        style: 'dashed',
        // a trailing stop's trigger follows the price: the venue does not modify one
        movable: stopModifiable(group[0]),
      }),
    ),
  );
  return out;
}
