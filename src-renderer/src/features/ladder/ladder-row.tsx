// One row of the depth ladder: a level's price, size and cumulative total with their bars, lit
// for a moment by a trade on it; a click or Enter puts its price in the order form.
import { memo, useLayoutEffect, useRef } from 'react';
import type { GroupedLevel } from '../../../../src-shared/sdk/local-order-book.ts';
import { fmt } from '../../lib/format.ts';

/**
 * How long a level stays lit after a trade on it, ms. Lit and unlit at once, not faded: a fade is
 * a frame of style and paint every 16 ms for as long as it runs, and with a trade every few
 * hundred ms some level is always fading (measured: about 14 % of a core, over the renderer's
 * threads, with the screen idle).
 */
const FLASH_MS = 300;

export interface RowProps {
  level: GroupedLevel;
  side: 'ask' | 'bid';
  pd: number;
  qd: number;
  /** The cumulative total's bar, % of the row. */
  totalW: number;
  /** The level's own size's bar, % of the row. */
  sizeW: number;
  /** The id of the last trade when it was on this level (it flashes once per trade), else null. */
  flash: number | null;
  /** The ladder's one Tab stop. */
  stop: boolean;
  /** Your resting orders' size still open on this level (marked beside its price), else null. */
  own: string | null;
  onPick: (price: string) => void;
}

/** Drawn again only when what it shows changed (each book update brings new level objects). */
function sameRow(a: RowProps, b: RowProps): boolean {
  return (
    a.level.price === b.level.price &&
    a.level.qty === b.level.qty &&
    a.level.total === b.level.total &&
    a.side === b.side &&
    a.pd === b.pd &&
    a.qd === b.qd &&
    a.totalW === b.totalW &&
    a.sizeW === b.sizeW &&
    a.flash === b.flash &&
    a.stop === b.stop &&
    a.own === b.own &&
    a.onPick === b.onPick
  );
}

export const Row = memo(function Row(props: RowProps) {
  const { level, side, pd, qd, totalW, sizeW, flash, stop, own, onPick } = props;
  const gone = level.qty === '';
  const glow = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = glow.current;
    if (flash === null || el === null) return;
    el.classList.add('lit');
    const t = setTimeout(() => el.classList.remove('lit'), FLASH_MS);
    return () => {
      clearTimeout(t);
      el.classList.remove('lit');
    };
  }, [flash]);
  return (
    <div
      className={`ladder-row ${side}${gone ? ' gone' : ''}`}
      data-testid={`ladder-${side}-row`}
      data-price={level.price}
      data-qty={level.qty}
      data-own={own ?? undefined}
      style={{ '--total': `${totalW}%`, '--size': `${sizeW}%` } as React.CSSProperties}
      onClick={() => onPick(level.price)}
      title={`${own === null ? '' : `Your orders here: ${fmt(own, qd)} open. `}Click (or Enter) to use ${level.price} in the order form`}
      role="button"
      tabIndex={stop ? 0 : -1}
      aria-label={`${side === 'ask' ? 'Ask' : 'Bid'} ${fmt(level.price, pd)}, ${gone ? 'gone from the book' : fmt(level.qty, qd)}${own === null ? '' : `, yours ${fmt(own, qd)}`}: use the price`}
    >
      <span className="ladder-flash" ref={glow} aria-hidden="true" />
      {own !== null && <span className="ladder-own" aria-hidden="true" data-testid="ladder-own" />}
      <span className="price">{fmt(level.price, pd)}</span>
      <span className="num">{gone ? '—' : fmt(level.qty, qd)}</span>
      <span className="num total">{gone ? '—' : fmt(level.total, qd)}</span>
    </div>
  );
}, sameRow);
