// The paper reset (POST /fapi/v1/account/reset): every open order and conditional order cancelled,
// every position closed at the mark, the wallet set to the balance asked. Each close is an order of
// its own, as a liquidation's and an ADL's are: a reduce-only MARKET order `reset-<order id>`,
// stored FILLED, whose one fill (at the mark, fee 0, close type 1) carries its id, so a fill always
// names an order that GET /fapi/v1/order finds.
import { CloseType } from '../../src-shared/enums.ts';
import { Errors } from '../../src-shared/errors.ts';
import type { AccountSummary } from '../../src-shared/types.ts';
import { cancelAllConditionals } from './conditional.ts';
import { rejectParam, type AccountLive, type TradingCore } from './core.ts';
import { closeLots, drain, filledVenueOrder, recordSyntheticTrade } from './fills.ts';
import { bookWalletTo } from './ledger.ts';
import { resetClientId } from './liquidation-client-id.ts';
import { summaryRecord } from './views.ts';

/**
 * Cancels every open order of `a`, closes every position at the mark price (close type 1, no fee)
 * with a filled close order each, and sets the wallet to `balance` units; the difference is booked
 * as a deposit.
 */
export function paperReset(core: TradingCore, a: AccountLive, balance: bigint): AccountSummary {
  if (balance < 0n) rejectParam(Errors.INVALID_PARAMETER, 'balance', 'must not be negative');
  cancelAllConditionals(core, a);
  for (const o of [...a.orders.values()]) {
    const pair = core.pairs.get(o.symbol)!;
    pair.book.cancel(o.id);
    drain(core, pair, null);
  }
  const time = core.now();
  for (const p of [...a.positions.values()]) {
    if (p.qty === 0) continue;
    const pair = core.pairs.get(p.symbol)!;
    const ticks = Math.max(1, pair.math.ticksRound(pair.markPrice));
    const notional = pair.math.notional(ticks, p.qty);
    const lots = p.qty;
    const id = core.takeOrderId();
    const order = filledVenueOrder(core, a, p, {
      id,
      clientOrderId: resetClientId(id),
      closeType: CloseType.USER,
      time,
      lots,
      notional,
    });
    const pnl = closeLots(core, a, p, lots, notional, 0n, time, CloseType.USER);
    a.wallet += pnl;
    const close = { priceTicks: ticks, lots, notional, closeType: CloseType.USER, time, orderId: order.id };
    recordSyntheticTrade(core, a, p, close, pnl);
  }
  // marks the wallet and flushes the command: that announces the balance, once
  bookWalletTo(core, a, balance, time);
  return summaryRecord(core, a);
}
