// Isolated margin by hand: margin added to an open isolated position from the available balance,
// or removed from it back to the available balance (Binance's positionMargin, type 1 / 2).
//
// Invariants
// - The wallet already holds every isolated margin (ledger.ts: available = wallet + cross PnL -
//   cross initial margin - isolated margin - frozen), so a change moves units between the
//   position's isolatedMargin and the available balance only: the wallet does not move, and the
//   accounting identity (deposits = wallet + fees + liquidation fees - realized PnL + funding)
//   holds to the unit with no new term.
// - Add: at most the available balance. Remove: at most what keeps the margin, less any
//   unrealized loss, at or above the initial margin at the mark and the position's leverage, and
//   the equity (margin + PnL) above the maintenance margin (Binance's rule): a removal never
//   leaves the position liquidatable, and an addition only moves the liquidation price away, so
//   neither runs the risk check.
// - Only an open isolated position: hedge mode the side named, one-way mode the net position.
// - Everything is checked before anything changes (a refusal changes nothing); then the history
//   row and the position's new margin go into the same commit, and the position list, the
//   balance and a 'margin' event are announced once it is durable.
import { Errors } from '../../src-shared/errors.ts';
import { MarginChangeType, MarginMode, PositionMode, PositionSide } from '../../src-shared/enums.ts';
import type { IsolatedMarginLimits, MarginChangeResult } from '../../src-shared/types/position-settings.ts';
import { parseFixed } from '../../src-shared/decimal.ts';
import { maintenanceMarginUnits } from '../risk/margin.ts';
import { ceilDiv, formatMoney } from '../risk/money.ts';
import type { PositionState } from '../risk/position.ts';
import { positionNamed, reject, rejectParam, type AccountLive, type TradingCore } from './core.ts';
import { available, markValue, upnlUnits } from './ledger.ts';
import type { PairState } from './pair-state.ts';
import { positionRecord } from './views.ts';

/** A margin change asked of one position: 1 add / 2 remove `amount` units (> 0). */
export interface MarginChange {
  symbol: string;
  positionSide: number;
  type: number;
  amount: bigint;
}

/** How far an isolated position's margin may move now, units. */
interface MarginLimits {
  /** The position's isolated margin. */
  margin: bigint;
  /** Its initial margin at the mark and its leverage. */
  initialMargin: bigint;
  /** What may be added: the available balance (0 when none). */
  maxAdd: bigint;
  /** What may be removed (0 when nothing). */
  maxRemove: bigint;
}

/** Largest amount of one change, units: 1e10 USDT, the ceiling of a wallet (routes/admin.ts). */
const MAX_AMOUNT = 10_000_000_000n * 100_000_000n;

/**
 * A margin amount as the native body sends it (a USDT decimal string, at most 8 decimals) in units;
 * 1001 otherwise, with reason 'not_positive' for zero (the pattern of the routes refuses a sign)
 * and 'too_large' above 1e10 USDT.
 */
export function parseMarginAmount(text: string, name = 'amount'): bigint {
  const r = parseFixed(text, 8);
  if (r.ok && r.value > MAX_AMOUNT)
    reject(Errors.INVALID_PARAMETER, `Invalid body parameter '${name}': at most 10000000000 USDT`, 'too_large');
  if (r.ok) return r.value;
  if (r.reason === 'zero' || r.reason === 'negative')
    reject(Errors.INVALID_PARAMETER, `Invalid body parameter '${name}': must be greater than 0`, 'not_positive');
  if (r.reason === 'off_step')
    reject(Errors.INVALID_PARAMETER, `Invalid body parameter '${name}': at most 8 decimals (USDT), got '${text}'`);
  reject(
    Errors.INVALID_PARAMETER,
    `Invalid body parameter '${name}': must be a positive decimal string such as "25.5"`,
  );
}

const sideName = (p: PositionState): string => (p.side === PositionSide.LONG ? 'long' : 'short');

/** The limits of an isolated position's margin at the pair's current mark (exact units; reads only). */
function marginLimits(core: TradingCore, a: AccountLive, p: PositionState, pair: PairState): MarginLimits {
  const avail = available(core, a);
  const maxAdd = avail > 0n ? avail : 0n;
  const value = markValue(p, pair);
  const initialMargin = ceilDiv(value, BigInt(p.leverage));
  // no mark yet: nothing is known of the position's PnL, so nothing may leave it
  if (!(pair.markPrice > 0)) return { margin: p.isolatedMargin, initialMargin, maxAdd, maxRemove: 0n };
  const upnl = upnlUnits(p, pair);
  const byInitial = p.isolatedMargin + (upnl < 0n ? upnl : 0n) - initialMargin;
  // the liquidation check's rule (liquidation.ts): maintenance >= equity liquidates
  const byMaintenance = p.isolatedMargin + upnl - maintenanceMarginUnits(pair.row.brackets, value) - 1n;
  const most = byInitial < byMaintenance ? byInitial : byMaintenance;
  return { margin: p.isolatedMargin, initialMargin, maxAdd, maxRemove: most > 0n ? most : 0n };
}

/** The open isolated position a margin request names; 1103 when there is none, 3024 when it is cross. */
function isolatedPosition(a: AccountLive, symbol: string, positionSide: number): PositionState {
  const p = positionNamed(a, symbol, positionSide);
  if (p === undefined) {
    const which = a.mode === PositionMode.ONE_WAY ? '' : positionSide === PositionSide.LONG ? 'long ' : 'short ';
    reject(Errors.POSITION_NOT_FOUND, `No open ${which}position on ${symbol} to add margin to or remove it from`);
  }
  if (p.marginMode !== MarginMode.ISOLATED) {
    reject(
      Errors.MARGIN_NOT_ISOLATED,
      `The ${sideName(p)} position on ${symbol} is in cross margin, whose margin is the account's: only an isolated position's margin can be added or removed`,
    );
  }
  return p;
}

/** How far an account's isolated position's margin may move now; 1103 / 3024 as the command refuses. */
export function isolatedMarginView(
  core: TradingCore,
  a: AccountLive,
  symbol: string,
  positionSide: number,
): IsolatedMarginLimits {
  const pair = core.requirePair(symbol);
  const p = isolatedPosition(a, symbol, positionSide);
  const l = marginLimits(core, a, p, pair);
  return {
    symbol,
    position_side: p.side,
    margin: formatMoney(l.margin),
    initial_margin: formatMoney(l.initialMargin),
    max_add: formatMoney(l.maxAdd),
    max_remove: formatMoney(l.maxRemove),
  };
}

/**
 * Adds margin to, or removes it from, an isolated position (commands.ts 'adjustMargin'); answers
 * the amount moved and the margin after it (exact decimal strings), and the position.
 */
export function adjustIsolatedMargin(core: TradingCore, a: AccountLive, change: MarginChange): MarginChangeResult {
  const { symbol, positionSide, type, amount } = change;
  const pair = core.requirePair(symbol);
  if (type !== MarginChangeType.ADD && type !== MarginChangeType.REDUCE)
    rejectParam(Errors.INVALID_PARAMETER, 'type', 'must be 1 (add) or 2 (remove)');
  if (amount <= 0n) rejectParam(Errors.INVALID_PARAMETER, 'amount', 'must be greater than 0', 'not_positive');
  const p = isolatedPosition(a, symbol, positionSide);
  const limits = marginLimits(core, a, p, pair);
  const adding = type === MarginChangeType.ADD;
  if (adding && amount > limits.maxAdd) {
    reject(
      Errors.INSUFFICIENT_MARGIN,
      `Adding ${formatMoney(amount)} USDT of margin needs that much available balance; the account has ${formatMoney(limits.maxAdd)} USDT available`,
    );
  }
  if (!adding && amount > limits.maxRemove) {
    reject(
      Errors.MARGIN_REMOVE_TOO_LARGE,
      `At most ${formatMoney(limits.maxRemove)} USDT can be removed from the isolated ${sideName(p)} position on ${symbol} now: ` +
        `its margin ${formatMoney(limits.margin)} USDT, less any unrealized loss, must stay at or above its initial margin ` +
        `${formatMoney(limits.initialMargin)} USDT (at the mark, ${p.leverage}x)`,
    );
  }
  const margin = adding ? p.isolatedMargin + amount : p.isolatedMargin - amount;
  const time = core.now();
  const { repo } = core.deps;
  // the history row first: a store refusal leaves the position as it was
  repo.tx(() =>
    repo.insertMarginChange({
      accountId: a.id,
      symbol,
      positionSide: p.side,
      positionId: p.id,
      type,
      amount,
      margin,
      time,
    }),
  );
  p.isolatedMargin = margin;
  p.updatedAt = time;
  const w = core.writer;
  w.position(p);
  w.flush();
  const result = { symbol, position_side: p.side, type, amount: formatMoney(amount), margin: formatMoney(margin) };
  w.announce({ accountId: a.id, kind: 'margin', data: { ...result, time } });
  return { ...result, position: positionRecord(core, a, p) };
}
