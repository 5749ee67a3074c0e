// The account side of amending a resting order (PUT /fapi/v1/order, orders.ts amendOrder): the
// placement's checks (order-checks.ts) for the order's new price and quantity at its own settings.
import { Errors } from '../../src-shared/errors.ts';
import { PositionMode } from '../../src-shared/enums.ts';
import { formatMoney } from '../risk/money.ts';
import { maxNotionalFor } from '../risk/tiers.ts';
import { reducibleLots, reject, type AccountLive, type TradingCore } from './core.ts';
import { available, capNotional, eachOpeningOrder, orderMargin } from './ledger.ts';
import { checkMinNotional, rejectNothingToReduce, type CheckedShape } from './order-checks.ts';
import type { PairState } from './pair-state.ts';
import type { OrderState } from './ports.ts';

/**
 * The account side of an amendment of resting order `o` to the price and total quantity of
 * `s` (`priceTicks`, `qtyLots`), as checkAccountSide for a placement at the order's own settings: a reduce-only
 * order's cap (the position it reduces), else the minimum notional, the leverage cap with the
 * order's remaining part replaced by the new one, and the margin of the new remaining part
 * (what the order freezes once amended; in one-way mode of the part of it that would open)
 * against the available balance plus what it frees.
 */
export function checkAmendAccountSide(
  core: TradingCore,
  a: AccountLive,
  pair: PairState,
  o: OrderState,
  s: Pick<CheckedShape, 'priceTicks' | 'qtyLots'>,
): { frozen: bigint; maxFill: number } {
  const { row, math } = pair;
  const { priceTicks, qtyLots } = s;
  if (o.reduceOnly) {
    const reducible = reducibleLots(a, row.symbol, o.positionSide, o.side);
    if (reducible <= 0) rejectNothingToReduce(a, row.symbol, o.positionSide, o.side, `order ${o.id}`);
    return { frozen: 0n, maxFill: reducible };
  }
  checkMinNotional(pair, priceTicks, qtyLots);
  const remaining = qtyLots - o.filledLots;
  const maxNotional = maxNotionalFor(row.brackets, o.leverage);
  const amended = { o, priceTicks, lots: remaining };
  const wanted = capNotional(a, pair, o.positionSide, o.side, amended);
  // what it frees (its own margin), less, in one-way mode, what the newer orders against the
  // position need more when it keeps more of it (it keeps its place among them: ledger.ts
  // eachOpeningOrder) and the part of itself that opens
  const free = available(core, a);
  let avail = free + o.frozen;
  let frozen = 0n;
  if (a.mode === PositionMode.HEDGE) frozen = orderMargin(pair, math.notional(priceTicks, remaining), o.leverage);
  else {
    eachOpeningOrder(
      a,
      pair,
      (x, lots, ticks) => {
        const f = lots > 0 ? orderMargin(pair, math.notional(ticks, lots), x.leverage) : 0n;
        if (x === o) frozen = f;
        else avail -= f - x.frozen;
      },
      amended,
    );
  }
  if (wanted > maxNotional * (1 + 1e-12)) {
    reject(
      Errors.LEVERAGE_INVALID,
      `At ${o.leverage}x the position may hold at most ${maxNotional} USDT notional on ${row.symbol}; this order would make it ${wanted.toFixed(2)}`,
    );
  }
  if (frozen > avail) {
    // what it counts, said: the account's available balance (GET /fapi/v1/account) is not it
    const newer = free + o.frozen - avail;
    reject(
      Errors.INSUFFICIENT_MARGIN,
      `The modified order needs ${formatMoney(frozen, 2)} USDT of margin and fees; available with what this order ` +
        `holds is ${formatMoney(avail < 0n ? 0n : avail, 2)} USDT (available balance ${formatMoney(free, 2)} + ` +
        `${formatMoney(o.frozen, 2)} held by order ${o.id}` +
        (newer === 0n
          ? ')'
          : newer > 0n
            ? ` - ${formatMoney(newer, 2)} more that newer orders against the position would hold)`
            : ` + ${formatMoney(-newer, 2)} that newer orders against the position would free)`),
    );
  }
  return { frozen, maxFill: -1 };
}
