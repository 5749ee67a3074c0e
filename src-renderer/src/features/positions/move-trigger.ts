// A position's take-profit or stop-loss line dragged to a new price on the chart
// (chart/line-drag.ts): POST /fapi/v1/position/tpsl with that trigger alone, so the other one is
// left as it is, watching the price it watched. The venue refuses a trigger the price it watches
// has already reached (1001, its message shown as it comes); the returned promise then rejects,
// so the line goes back. A position that closed while its line was held is not sent, and says so.
import type { Services } from '../../lib/services.ts';
import type { PositionSide, WorkingType } from '../../../../src-shared/enums.ts';
import { refusalText } from '../../lib/frame.ts';
import { fmt } from '../../lib/format.ts';
import { positionDirection } from './position-direction.ts';
import { positionKey } from './positions-store.ts';

export type TriggerKind = 'tp' | 'sl';

const NAME: Record<TriggerKind, string> = { tp: 'Take-profit', sl: 'Stop-loss' };

export async function moveTrigger(
  s: Services,
  kind: TriggerKind,
  at: { symbol: string; side: PositionSide },
  price: string,
): Promise<void> {
  const toasts = s.toasts.getState().actions;
  const { positions, tpsl, actions } = s.positions.getState();
  const p = positions.find((x) => x.symbol === at.symbol && x.position_side === at.side);
  const t = tpsl[positionKey(at.symbol, at.side)];
  if (p === undefined || t === undefined) {
    toasts.push({
      kind: 'error',
      title: `${NAME[kind]} of ${at.symbol} not moved`,
      body: 'The position or its trigger is gone.',
    });
    throw new Error('trigger gone');
  }
  const d = positionDirection(p);
  const pd = s.symbols.getState().bySymbol[p.symbol]?.priceDecimals ?? 2;
  try {
    await actions.setTpSl({
      symbol: p.symbol,
      position_side: p.position_side,
      [kind === 'tp' ? 'take_profit_price' : 'stop_loss_price']: price,
      // the dragged trigger's own (a stop-loss on the last price stays on it beside a take-profit on the mark)
      working_type: (kind === 'tp' ? t.tpWorkingType : t.slWorkingType) as WorkingType,
    });
    toasts.push({ kind: 'success', title: `${NAME[kind]} of ${p.symbol} ${d.name} moved to ${fmt(price, pd)}` });
  } catch (e) {
    toasts.push({ kind: 'error', title: `${NAME[kind]} move of ${p.symbol} ${d.name} refused`, body: refusalText(e) });
    throw e;
  }
}
