// One side of the order form (buy or sell): its button and its preview column. The two sides
// mirror each other; everything that differs comes from the side's model (order-model.ts).
import { fmt, fmtSigned } from '../../lib/format.ts';
import type { FormAction } from './form-kinds.ts';
import type { SideModel } from './order-model.ts';
import { Side } from '../../../../src-shared/enums.ts';

export interface SideButtonProps {
  m: SideModel;
  /** Armed with B / S: Enter in the price or size sends it. */
  armed: boolean;
  disabled: boolean;
  /** This side's request is on its way. */
  sending: boolean;
  /** The size percentage, shown on the button in % mode (null: quantity mode). */
  pct: number | null;
  onClick: () => void;
}

/** The send button of a side: "Open long", "Close short", ... with its B / S shortcut. */
export function SideButton({ m, armed, disabled, sending, pct, onClick }: SideButtonProps) {
  return (
    <button
      className={`${m.side === Side.BUY ? 'buy' : 'sell'}${armed ? ' armed' : ''}`}
      aria-pressed={armed}
      disabled={disabled}
      onClick={onClick}
      title={m.side === Side.BUY ? 'B' : 'S'}
    >
      {sending ? 'Sending…' : m.label}
      {pct !== null && !sending && <span className="pct-tag"> · {pct}%</span>}
    </button>
  );
}

/**
 * A side's preview (a stop's first says what it places when it fires): cost, margin, fee,
 * liquidation price, Max (red, "size over", when the size is past it) (and, for a one-way open against the
 * position, the PnL of what it closes) to open; position, fee and PnL to close; last, for a close
 * or reduce-only order larger than the position, the position it is trimmed to. A side with
 * nothing to close or reduce says so instead, and shows no figures.
 */
export function SidePreview({
  m,
  action,
  pd,
  qd,
  base,
  stopDoes,
}: {
  m: SideModel;
  action: FormAction;
  pd: number;
  qd: number;
  base: string;
  /**
   * A stop: what this side places when it fires ("buy 0.010 BTC at market"), above its figures;
   * `warn` when this side cannot send it as the fields stand (a trailing stop's activation on the
   * other side of the price).
   */
  stopDoes?: { text: string; warn: boolean };
}) {
  // an opening size past what margin and the leverage's cap allow now: said at Max, before it is sent
  const over = action === 'open' && m.qty !== '' && Number(m.qty) > m.max && Number.isFinite(m.max);
  // nothing this side could close or reduce: it says so, with no size or fee of an order the venue would refuse
  if (m.nothingToClose !== null)
    return (
      <p className="muted small oe-noclose" data-testid="nothing-to-close">
        {m.nothingToClose}.
      </p>
    );
  return (
    <dl>
      {stopDoes !== undefined && (
        <div className={`oe-stop-does${stopDoes.warn ? ' warn' : ''}`} data-testid="stop-does">
          {stopDoes.text}
        </div>
      )}
      {action === 'open' ? (
        <>
          <div>
            <dt title="What the order holds while open: its margin plus the taker fee. A maker fill pays the lower fee and the difference comes back.">
              Cost
            </dt>
            <dd>{fmt(m.cost, 2)}</dd>
          </div>
          <div>
            <dt>Margin</dt>
            <dd>{fmt(m.margin, 2)}</dd>
          </div>
          <div>
            <dt>Fee (est.)</dt>
            <dd>{fmt(m.fee, 4)}</dd>
          </div>
          <div>
            <dt>Est. liq. price</dt>
            <dd
              title={
                m.qty && !Number.isFinite(m.liquidation)
                  ? 'No liquidation within a 100% price move against the position'
                  : undefined
              }
            >
              {m.qty ? fmt(m.liquidation, pd) : '—'}
            </dd>
          </div>
          {Number.isFinite(m.pnl) && (
            <div>
              <dt title="One-way mode: the order first reduces the position against it; its estimated realized PnL, before fees">
                Est. PnL
              </dt>
              <dd className={m.pnl > 0 ? 'up' : m.pnl < 0 ? 'down' : ''}>{fmtSigned(m.pnl, 2)}</dd>
            </div>
          )}
          <div>
            <dt>Max</dt>
            <dd
              className={over ? 'down' : ''}
              data-testid={over ? 'over-max' : undefined}
              title={
                over
                  ? `The size is over Max: the venue refuses an order that needs more margin than is available, or that passes the leverage's notional cap (3009 / 3013)`
                  : undefined
              }
            >
              {fmt(m.max, qd)} {base}
              {over && <span className="over-max"> · size over</span>}
            </dd>
          </div>
        </>
      ) : (
        <>
          <div>
            <dt>Position</dt>
            <dd>
              {fmt(m.max, qd)} {base}
            </dd>
          </div>
          <div>
            <dt>Fee (est.)</dt>
            <dd>{fmt(m.fee, 4)}</dd>
          </div>
          <div>
            <dt>Est. PnL</dt>
            <dd className={m.pnl > 0 ? 'up' : m.pnl < 0 ? 'down' : ''}>{fmtSigned(m.pnl, 2)}</dd>
          </div>
        </>
      )}
      {Number.isFinite(m.fokFills) && (
        <div className="oe-fok warn-text" data-testid="fok-short">
          {m.fokFills > 0
            ? `Fill-or-kill: the book holds only ${fmt(m.fokFills, qd)} ${base} at this price or better; the venue refuses it whole.`
            : 'Fill-or-kill: the book holds nothing at this price or better; the venue refuses it.'}
        </div>
      )}
      {Number.isFinite(m.trimmedTo) && (
        <div data-testid="trimmed">
          <dt title="A close or reduce-only order never opens or flips the position: the venue trims it to the position as it enters, and the figures above are of that quantity">
            Trimmed to
          </dt>
          <dd>
            {fmt(m.trimmedTo, qd)} {base}
          </dd>
        </div>
      )}
    </dl>
  );
}
