// Isolated position margin between Binance and the venue, pure: POST /fapi/v1/positionMargin's
// parameters -> the native 'adjustMargin' command's fields, its answer, and a stored margin change
// -> an entry of GET /fapi/v1/positionMargin/history. Reference: Binance's "Modify Isolated
// Position Margin" and "Get Position Margin Change History"; ccxt's addMargin / reduceMargin /
// fetchMarginAdjustmentHistory read them.
//
// Invariants: a parameter Binance would refuse is refused here with Binance's code (-4055 an
// amount not above 0, -1111 more decimals than USDT has, -4061 a position side the account's mode
// does not take); the amount is exact units (1e-8 USDT), never a float on the way in.
import { MarginChangeType, PositionSide } from '../../../../src-shared/enums.ts';
import { parseFixed } from '../../../../src-shared/decimal.ts';
import { moneyText } from '../../../trading/pair-figures.ts';
import type { MarginChangeRow } from '../../../trading/ports.ts';
import { BinanceError, MSG, enumRefusal, illegal, positionSideMessage } from '../errors.ts';
import type { Params } from '../params.ts';
import { POSITION_SIDES, positionSideName, type Mode } from './orders.ts';

/** POST positionMargin's answer text (Binance's, which ccxt reads as success with code 200). */
const MARGIN_CHANGED = 'Successfully modify position margin.';

/** What POST positionMargin asks of the native command. */
export interface MarginRequest {
  positionSide: number;
  type: MarginChangeType;
  amount: bigint;
}

/** A margin amount in units: USDT has 8 decimals (-1111 beyond), and it must be above 0 (-4055). */
export function marginAmount(text: string): bigint {
  const r = parseFixed(text, 8);
  if (r.ok) return r.value;
  if (r.reason === 'zero' || r.reason === 'negative') throw new BinanceError(-4055, 'Amount must be positive.');
  if (r.reason === 'off_step')
    throw new BinanceError(-1111, `${MSG.PRECISION} amount ${text} has more than 8 decimals (USDT)`);
  throw illegal('amount');
}

/**
 * The native side of a positionSide: BOTH (or none) on a one-way account, whose net position the
 * exchange finds whichever side it is on; LONG or SHORT on a hedge account (-4061 otherwise, the
 * message naming the mode, as for orders).
 */
export function marginPositionSide(mode: Mode, text: string | undefined): number {
  const ps = text ?? 'BOTH';
  if (!(POSITION_SIDES as readonly string[]).includes(ps)) throw enumRefusal('positionSide');
  if (mode === 'one_way') {
    if (ps !== 'BOTH') throw new BinanceError(-4061, positionSideMessage('one_way'));
    return PositionSide.LONG;
  }
  if (ps === 'BOTH') throw new BinanceError(-4061, positionSideMessage('hedge'));
  return ps === 'LONG' ? PositionSide.LONG : PositionSide.SHORT;
}

/** POST positionMargin's parameters (the route's schema has checked their form). */
export function marginRequest(q: Params, mode: Mode): MarginRequest {
  const type = q.requiredInt('type', 1, 2) === 1 ? MarginChangeType.ADD : MarginChangeType.REDUCE;
  return {
    positionSide: marginPositionSide(mode, q.str('positionSide')),
    type,
    amount: marginAmount(q.required('amount')),
  };
}

/** POST positionMargin's answer, as Binance sends it (`amount` a JSON number). */
export function marginAnswer(amount: string, type: number): { amount: number; code: 200; msg: string; type: number } {
  return { amount: Number(amount), code: 200, msg: MARGIN_CHANGED, type };
}

/** One entry of GET positionMargin/history. */
export function marginHistoryEntry(
  r: MarginChangeRow,
  mode: Mode,
): {
  symbol: string;
  type: number;
  deltaType: 'USER_ADJUST';
  amount: string;
  asset: 'USDT';
  time: number;
  positionSide: 'BOTH' | 'LONG' | 'SHORT';
} {
  return {
    symbol: r.symbol,
    type: r.type,
    deltaType: 'USER_ADJUST',
    amount: moneyText(r.amount),
    asset: 'USDT',
    time: r.time,
    positionSide: positionSideName(mode, r.positionSide),
  };
}
