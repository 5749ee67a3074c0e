// The toasts of funding settlements (the user channel's `funding` events: {symbol, position_side,
// funding_rate, mark_price, amount, time}, amount > 0 received). During play each settlement is a
// toast of its own. A replay's seek applies hours or days of history at once: every settlement it
// passed came at once, one toast each (two a settlement on a hedged account), four stacked over
// the chart at a time, the rest pushed out unseen. The settlements a seek passed (their time
// within its span, replay-store.ts `seek`) now read as one summary toast: how many, and the total.
import type { StoreApi } from 'zustand/vanilla';
import { PositionSide } from '../../../../src-shared/enums.ts';
import { fmt, fmtSigned } from '../../lib/format.ts';
import type { ToastsState } from '../toasts/toasts-store.ts';

export interface FundingEvent {
  symbol?: string;
  position_side?: number;
  funding_rate?: string;
  amount?: string | number;
  time?: number;
}

/** A seek's span of history: from the clock it left (excluded) to the time it went to (included). */
export interface SeekSpan {
  from: number;
  to: number;
}

function settledText(amount: number): string {
  return Number.isFinite(amount) ? `${amount >= 0 ? 'received' : 'paid'} ${fmt(Math.abs(amount), 4)} USDT` : 'settled';
}

/** Handles each funding event: a toast of its own, or its seek's summary (`seek()`: the last seek, if any). */
export function createFundingToasts(
  toasts: StoreApi<ToastsState>,
  seek: () => SeekSpan | null,
): (x: FundingEvent) => void {
  // the summary of the last seek's settlements so far
  let sum: { to: number; payments: number; settlements: Set<string>; symbols: Set<string>; total: number } | null =
    null;
  return (x) => {
    const amount = Number(x.amount);
    const span = seek();
    if (span && typeof x.time === 'number' && x.time > span.from && x.time <= span.to) {
      if (sum?.to !== span.to) sum = { to: span.to, payments: 0, settlements: new Set(), symbols: new Set(), total: 0 };
      sum.payments++;
      sum.settlements.add(`${x.symbol ?? ''}@${x.time}`);
      if (x.symbol) sum.symbols.add(x.symbol);
      if (Number.isFinite(amount)) sum.total += amount;
      const n = sum.settlements.size;
      const payments = sum.payments > n ? ` (${sum.payments} payments)` : '';
      toasts.getState().actions.push({
        kind: 'funding',
        key: `funding-seek:${span.to}`,
        title: `Funding over the seek: ${n} settlement${n === 1 ? '' : 's'}${payments}, ${settledText(sum.total)}`,
        body: [...sum.symbols].join(', ') || undefined,
      });
      return;
    }
    toasts.getState().actions.push({
      kind: 'funding',
      title: `Funding ${x.symbol ?? ''} ${x.position_side === PositionSide.SHORT ? 'short' : 'long'}: ${settledText(amount)}`,
      body: x.funding_rate !== undefined ? `Rate ${fmtSigned(Number(x.funding_rate) * 100, 4)}%` : undefined,
    });
  };
}
