// The account summary at live mark prices (a pure function, no DOM: unit-tested under Node).
import { MarginMode } from '../../../../src-shared/enums.ts';
import type { AccountSummary } from '../../../../src-shared/sdk/rest-client.ts';
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { liveMargin, livePnl } from '../positions/positions-store.ts';

/**
 * The summary at live mark prices. The server's summary is as of its last push or refresh (up to
 * a few seconds old), while the positions table moves with every mark; this recomputes what
 * depends on the mark the way the server does (ledger.ts accountMoney()): unrealized PnL over all
 * positions, margin balance = wallet + unrealized PnL, position margin = the cross positions'
 * initial margin at the mark (|Q| x mark / leverage) + the isolated positions' margin, available
 * = wallet + cross unrealized PnL - position margin - order margin (never below 0). Wallet, order
 * margin and deposits stay the server's. Without positions the summary is returned as it is.
 */
export function liveSummary(
  summary: AccountSummary,
  positions: readonly PositionRecord[],
  markOf: (symbol: string) => number | undefined,
): AccountSummary {
  if (positions.length === 0) return summary;
  let upnl = 0;
  let cross = 0;
  let margin = 0;
  for (const p of positions) {
    const mark = markOf(p.symbol);
    const pnl = livePnl(p, mark);
    upnl += pnl;
    margin += liveMargin(p, mark);
    if (p.margin_mode === MarginMode.CROSS) cross += pnl;
  }
  const wallet = Number(summary.wallet_balance);
  const available = Math.max(0, wallet + cross - margin - Number(summary.frozen_margin));
  // Full precision (String, not toFixed): rounding here and again on display could show a
  // cent other than the positions table, which rounds the same number once.
  return {
    ...summary,
    unrealized_pnl: String(upnl),
    margin_balance: String(wallet + upnl),
    position_margin: String(margin),
    available_balance: String(available),
  };
}
