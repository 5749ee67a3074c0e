// The screen's margin calls (margin-call-rules.ts): when the service's margin ratio of the cross
// positions, or of an isolated one, reaches 80 %, a toast says so, with what is at stake and what
// to do; it is also a desktop notification while the window is away (toasts/toast-notices.ts).
// The ratio is read with every change of a position, every 5 s, on a jump of the mark and when
// the venue sends its own `margin_call` (user-feed.ts, mark-refresh.ts), so a call comes at most
// that late. A call's toast goes when the call is over: the positions closed (a liquidation) or the
// ratio back under 70 %.
import type { StoreApi } from 'zustand/vanilla';
import { fmt, fmtPct } from '../../lib/format.ts';
import type { SymbolsState } from '../symbols/symbols-store.ts';
import type { ToastsState } from '../toasts/toasts-store.ts';
import { marginCalls, type MarginCall } from './margin-call-rules.ts';
import { positionDirection } from './position-direction.ts';
import type { PositionsState } from './positions-store.ts';

/** The toast of a call: what reached the ratio, where it is liquidated, what to do. */
function callToast(c: MarginCall, symbols: StoreApi<SymbolsState>): { title: string; body: string } {
  const pd = (symbol: string): number => symbols.getState().bySymbol[symbol]?.priceDecimals ?? 2;
  const ratio = fmtPct(c.ratio, 2);
  const name = (p: MarginCall['positions'][number]): string => `${p.symbol} ${positionDirection(p).name}`;
  if (c.key !== 'cross') {
    const [p] = c.positions;
    return {
      title: `Margin call: ${name(p)} (isolated) at a margin ratio of ${ratio}`,
      body: `Liquidation at 100%, near ${fmt(p.liquidation_price, pd(p.symbol))}: add margin (± in Positions) or reduce the position.`,
    };
  }
  const at = c.positions.map((p) => `${name(p)} near ${fmt(p.liquidation_price, pd(p.symbol))}`).join(', ');
  return {
    title: `Margin call: cross margin ratio ${ratio}`,
    body: `Liquidation at 100%: ${at}. Add funds or reduce the positions.`,
  };
}

export function watchMarginCalls(deps: {
  positions: StoreApi<PositionsState>;
  symbols: StoreApi<SymbolsState>;
  toasts: StoreApi<ToastsState>;
}): () => void {
  const { positions, symbols, toasts } = deps;
  const called = new Set<string>();
  // the toast of each call still on screen: it goes once its call is over (the positions closed,
  // liquidated say, or the ratio back under 70 %), not to advise "add funds" for positions gone
  const shown = new Map<string, number>();
  const check = (): void => {
    for (const c of marginCalls(positions.getState().positions, called))
      shown.set(
        c.key,
        toasts.getState().actions.push({ kind: 'margin', key: `margin:${c.key}`, ...callToast(c, symbols) }),
      );
    for (const [key, id] of shown) {
      if (called.has(key)) continue;
      shown.delete(key);
      toasts.getState().actions.dismiss(id);
    }
  };
  check();
  return positions.subscribe((s, prev) => {
    if (s.positions !== prev.positions) check();
  });
}
