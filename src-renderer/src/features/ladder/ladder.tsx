// Depth ladder: asks above, bids below, grouped by one of the pair's price_merges, with size
// and cumulative-total bars, the last trade and mark price in the middle with the spread, and
// a flash on the level of the last trade. Clicking a level puts its price in the order form.
// A level holding your own resting orders has a dot beside its price (their open size in its
// title and spoken label; ladder-levels.ts ownLevels).
// While the book is not live (first sync, a resync after a gap, the market connection lost)
// the levels are dimmed behind a "Reconnecting…" / "Syncing…" veil: they may be stale; on a replay
// that ended with its service, behind "Replay ended" (the book is its last, nothing reconnects).
// From the keyboard the levels are one Tab stop (a roving tab index): Tab lands on the level last
// used while it is still shown on its side of the book (a bid is never taken for an ask at the same
// price), else on the best bid, never on a gone level; the arrow keys move one level up or down from the focused one as
// the book is drawn now, Home / End go to the top and the bottom, Enter or Space puts the level's
// price in the order form. The focus follows the level's price, never its row: a level that leaves
// the book under the focus stays drawn, marked gone ("—", said by a polite live region), until the
// user moves off it, so the focus never moves by itself and Enter never takes a price the user did
// not reach; it is drawn in its place among the prices, or at the column's end when the book has
// put more levels than fit between it and the spread, as is a focused level still in the book
// (never wrapped out of sight, where its focus ring would not show).
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { decimalsOf, fmt, fmtSmallPct } from '../../lib/format.ts';
import { marketDown } from '../../lib/connection-status.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useSymbolView } from '../../lib/use-symbol.ts';
import { Side } from '../../../../src-shared/enums.ts';
import { keepFocus } from '../../layout/keep-focus.ts';
import { BookTabs } from './book-tabs.tsx';
import { sizeHeading } from './size-heading.ts';
import { barWidth, keepHeld, near, ownLevels, regroup, shown, type Level } from './ladder-levels.ts';
import { Row } from './ladder-row.tsx';
import './ladder.css';

/** Rows per side rendered: enough for a tall window; the column clips the rest. */
const ROWS = 28;

export function Ladder() {
  const s = useServices();
  const { symbol, entry, pd, qd } = useSymbolView();
  const size = sizeHeading(entry?.general.base_asset ?? '');
  const book = useSel(s.book, (b) => b);
  const lastTrade = useSel(s.trades, (t) => t.trades[0]);
  const mark = useSel(s.tickers, (t) => t.tickers[symbol]?.mark);
  // the top bar's last price: the middle's before the first trade reaches the tape (a replay's start)
  const tickerLast = useSel(s.tickers, (t) => t.tickers[symbol]?.last);
  const orders = useSel(s.orders, (o) => o.orders);
  const down = useSel(s.connection, (c) => marketDown(c.state));
  // a replay found gone with its service: nothing will reconnect (replay-store.ts, link 'ended')
  const ended = useSel(s.replay, (r) => r.link === 'ended');
  // 'simple' is a book without update ids: as live as this feed gets
  const stale = down || ended || (book.sync !== 'live' && book.sync !== 'simple');
  const veil = ended ? 'Replay ended' : down || book.sync === 'resyncing' ? 'Reconnecting…' : 'Syncing…';
  const step = book.step;
  const stepDecimals = step ? Math.max(decimalsOf(step), 0) : pd;
  const priceDecimals = Math.min(pd, stepDecimals);

  // the level that has the focus, while the ladder has it (a level gone from the book stays drawn)
  const [held, setHeld] = useState<Level | null>(null);
  // how many rows each side shows whole (measured: the rest wraps out of sight, ladder.css)
  const [fit, setFit] = useState<Record<Level['side'], number>>({ ask: ROWS, bid: ROWS });
  const askRows = book.asks.slice(0, ROWS);
  const bidRows = book.bids.slice(0, ROWS);
  const gone = held !== null && !(held.side === 'ask' ? book.asks : book.bids).some((l) => l.price === held.price);
  const asks = keepHeld(askRows, book.asks, held?.side === 'ask' ? held.price : null, 1, fit.ask);
  const bids = keepHeld(bidRows, book.bids, held?.side === 'bid' ? held.price : null, -1, fit.bid);
  // the levels in sight (the rows past `fit` wrap out of view): the bars and the B / S share are of these
  const askShown = askRows.slice(0, fit.ask);
  const bidShown = bidRows.slice(0, fit.bid);
  const maxTotal = Math.max(Number(askShown.at(-1)?.total ?? 0), Number(bidShown.at(-1)?.total ?? 0));
  // your resting orders' open size on each level, marked beside its price
  const ownAsks = useMemo(() => ownLevels(orders, symbol, 'ask', book.rowsStep), [orders, symbol, book.rowsStep]);
  const ownBids = useMemo(() => ownLevels(orders, symbol, 'bid', book.rowsStep), [orders, symbol, book.rowsStep]);
  const spread = book.bestAsk - book.bestBid;
  const mid = (book.bestAsk + book.bestBid) / 2;

  const flash = useMemo(() => {
    if (!lastTrade || !step) return null;
    const st = Number(step);
    // Bid groups round down, ask groups round up (LocalOrderBook.grouped).
    const down = Math.floor(lastTrade.price / st + 1e-9) * st;
    const up = Math.ceil(lastTrade.price / st - 1e-9) * st;
    return { id: lastTrade.id, side: lastTrade.side, down, up };
  }, [lastTrade, step]);

  // one function for the ladder's life, so that a row whose level did not change is not drawn again
  const pick = useCallback((price: string): void => s.orderForm.getState().actions.pickPrice(price), [s]);
  // the level that is the ladder's Tab stop: the one focused (gone from the book or not); else the
  // one last focused while the book still shows it on its side, else the best bid (the best ask)
  const [cursor, setCursor] = useState<Level | null>(null);
  const stop: Level | null =
    held ??
    (cursor !== null && shown(cursor.side === 'ask' ? askRows : bidRows, cursor.price, fit[cursor.side])
      ? cursor
      : bidRows[0]
        ? { side: 'bid', price: bidRows[0].price }
        : askRows[0]
          ? { side: 'ask', price: askRows[0].price }
          : null);
  const root = useRef<HTMLDivElement>(null);
  // The grouping changed under the keyboard's focus (`[` / `]` on a level): the focus goes to the
  // group that now holds its price, not to a made-up level "gone from the book" at the old price
  // written at the new step's decimals (the bid 96,344.6 at a step of 1 read "96,345, gone" beside
  // the ask 96,345, and Enter took 96344.6).
  const shownStep = useRef(book.rowsStep);
  const refocus = useRef<Level | null>(null);
  useLayoutEffect(() => {
    const from = shownStep.current;
    shownStep.current = book.rowsStep;
    if (from === '' || book.rowsStep === '' || from === book.rowsStep) return;
    const to = (l: Level | null): Level | null =>
      regroup(l, from, book.rowsStep, l?.side === 'ask' ? book.asks : book.bids);
    const h = to(held);
    if (h !== held) {
      refocus.current = h;
      setHeld(h);
    }
    setCursor(to);
  }, [book, held]);
  useLayoutEffect(() => {
    // (once drawn with it: the commit that set it still has the previous rows)
    const l = refocus.current;
    if (l === null || l !== held) return;
    refocus.current = null;
    root.current
      ?.querySelector<HTMLElement>(`.ladder-row.${l.side}[data-price="${l.price}"]`)
      ?.focus({ preventScroll: true });
  });
  useEffect(() => keepFocus(root.current!, levelPlace, (at) => levelAt(root.current!, at)), []);
  // the rows that fit, read after each drawing (set only when changed) and when a side is resized
  const measure = useCallback((): void => {
    const el = root.current;
    if (!el) return;
    const now = { ask: rowsFit(el, 'asks'), bid: rowsFit(el, 'bids') };
    setFit((f) => (f.ask === now.ask && f.bid === now.bid ? f : now));
  }, []);
  useLayoutEffect(measure);
  useEffect(() => {
    const ro = new ResizeObserver(measure);
    for (const side of root.current!.querySelectorAll('.ladder-side')) ro.observe(side);
    return () => ro.disconnect();
  }, [measure]);
  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const row = (e.target as HTMLElement).closest<HTMLElement>('.ladder-row');
    if (!row) return;
    const to = ['ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key) ? moveFrom(root.current!, row, e.key) : null;
    if (e.key === 'Enter' || e.key === ' ') pick(row.dataset.price!);
    else if (to) to.focus({ preventScroll: true });
    else if (!['ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key)) return;
    // (not the page's scroll, nor a shortcut: Space plays a replay)
    e.preventDefault();
  };
  const bidQty = bidShown.reduce((a, l) => a + Number(l.qty), 0);
  const askQty = askShown.reduce((a, l) => a + Number(l.qty), 0);
  // an empty book has no ratio: "—" and an empty bar, not 50% / 50%
  const bidShare = bidQty + askQty > 0 ? bidQty / (bidQty + askQty) : NaN;
  const shared = Number.isFinite(bidShare);

  return (
    <div
      ref={root}
      className={`ladder panel-fill${stale ? ' stale' : ''}`}
      onKeyDown={onKey}
      onFocus={(e) => {
        const el = e.target as HTMLElement;
        const price = el.dataset.price;
        const level: Level | null =
          price === undefined ? null : { price, side: el.classList.contains('ask') ? 'ask' : 'bid' };
        if (level) setCursor(level);
        // (a level clicked keeps no gone row: the keyboard's focus alone is held)
        setHeld(level && el.matches(':focus-visible') ? level : null);
      }}
      onBlur={(e) => {
        if (root.current?.contains(e.relatedTarget as Node | null)) return;
        // once the focus has moved: out of the ladder, the focused level is let go (another window
        // taking the focus for a while leaves it the page's active element: kept)
        setTimeout(() => {
          if (root.current && !root.current.contains(document.activeElement)) setHeld(null);
        });
      }}
      data-testid="ladder"
      data-sync={book.sync}
      data-stale={stale}
      data-update-id={book.updateId}
      data-step={book.rowsStep}
    >
      <span className="sr-only" role="status" data-testid="ladder-gone">
        {gone && held ? `${fmt(held.price, priceDecimals)} is gone from the book` : ''}
      </span>
      {stale && (
        <div className="ladder-veil" role="status" data-testid="ladder-veil">
          {veil}
        </div>
      )}
      <div className="panel-title">
        <BookTabs own="book" />
        <select
          aria-label="Grouping"
          className="mini-select"
          value={step}
          onChange={(e) => s.book.getState().actions.setStep(e.target.value)}
        >
          {(entry?.futures.price_merges ?? []).map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </div>
      <div className="ladder-head">
        <span>Price ({entry?.general.quote_asset ?? 'USDT'})</span>
        <span className="num" title={size.full} aria-label={size.full}>
          {size.text}
        </span>
        <span className="num">Total</span>
      </div>
      <div className="ladder-side asks" data-testid="ladder-asks">
        {asks.map((l) => (
          <Row
            key={l.price}
            level={l}
            side="ask"
            pd={priceDecimals}
            qd={qd}
            totalW={barWidth(l.total, maxTotal)}
            sizeW={barWidth(l.qty, maxTotal)}
            flash={flash !== null && flash.side === Side.BUY && near(Number(l.price), flash.up) ? flash.id : null}
            stop={stop?.side === 'ask' && l.price === stop.price}
            own={ownAsks.get(l.price) ?? null}
            onPick={pick}
          />
        ))}
      </div>
      <div className="ladder-mid" data-testid="ladder-mid">
        <span className={`mid-last ${lastTrade ? (lastTrade.side === Side.BUY ? 'up' : 'down') : ''}`}>
          {/* the last price, as the top bar's; the book's mid only while there is none */}
          {fmt(lastTrade ? lastTrade.price : tickerLast !== undefined && tickerLast > 0 ? tickerLast : mid, pd)}
          {lastTrade && <span className="arrow">{lastTrade.side === Side.BUY ? '↑' : '↓'}</span>}
        </span>
        <span className="mid-mark" title="Mark price">
          {fmt(mark, pd)}
        </span>
        <span className="mid-spread" data-testid="spread" title="Spread">
          {Number.isFinite(spread) ? (
            // the amount over the share, so that a long price (0.0000001) still fits the row
            <>
              <span>{fmt(spread, pd)}</span>
              <span>{fmtSmallPct(spread / mid)}</span>
            </>
          ) : book.sync === 'idle' || book.sync === 'syncing' ? (
            'syncing…'
          ) : (
            '—'
          )}
        </span>
      </div>
      <div className="ladder-side bids" data-testid="ladder-bids">
        {bids.map((l) => (
          <Row
            key={l.price}
            level={l}
            side="bid"
            pd={priceDecimals}
            qd={qd}
            totalW={barWidth(l.total, maxTotal)}
            sizeW={barWidth(l.qty, maxTotal)}
            flash={flash !== null && flash.side === Side.SELL && near(Number(l.price), flash.down) ? flash.id : null}
            stop={stop?.side === 'bid' && l.price === stop.price}
            own={ownBids.get(l.price) ?? null}
            onPick={pick}
          />
        ))}
      </div>
      <div className="ladder-ratio" title="Share of bids and asks among the levels shown">
        <span className="up" data-testid="ratio-bids">
          B {shared ? `${fmt(bidShare * 100, 0)}%` : '—'}
        </span>
        <div className="ratio-bar">
          {shared && <div className="ratio-bid" style={{ width: `${bidShare * 100}%` }} />}
        </div>
        <span className="down" data-testid="ratio-asks">
          {shared ? `${fmt((1 - bidShare) * 100, 0)}%` : '—'} S
        </span>
      </div>
    </div>
  );
}

/** How many rows the side shows whole: its height in rows (1.5rem each, ladder.css). */
function rowsFit(root: HTMLElement, name: 'asks' | 'bids'): number {
  const box = root.querySelector<HTMLElement>(`.ladder-side.${name}`);
  if (!box) return ROWS;
  const row = box.querySelector<HTMLElement>('.ladder-row')?.getBoundingClientRect().height;
  const h = row || 1.5 * parseFloat(getComputedStyle(document.documentElement).fontSize);
  return h > 0 ? Math.max(Math.floor((box.clientHeight + 1) / h), 1) : ROWS;
}

/**
 * The levels shown, top to bottom: the asks (drawn bottom-up from the best) then the bids; those
 * the column cuts off are left out (the focus never scrolls the book).
 */
function levelRows(root: HTMLElement): HTMLElement[] {
  const side = (name: string): HTMLElement[] => {
    const box = root.querySelector<HTMLElement>(`.ladder-side.${name}`);
    if (!box) return [];
    const { top, bottom, right } = box.getBoundingClientRect();
    // (a row that does not fit whole wraps to a column right of the side, out of sight: ladder.css)
    return [...box.querySelectorAll<HTMLElement>('.ladder-row')].filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= top - 1 && b.bottom <= bottom + 1 && b.left < right - 1;
    });
  };
  return [...side('asks').reverse(), ...side('bids')];
}

/**
 * The level a key moves the focus to from `row`: one up or down from it among all the levels as
 * drawn (asks top-down, then bids), kept to those shown, so a level the book has moved out of
 * sight under the focus (better bids push it below the column's end) moves from where it is, to
 * the nearest level shown that way, and never jumps to the other end of the book; Home / End: the
 * top / the bottom level shown.
 */
function moveFrom(root: HTMLElement, row: HTMLElement, key: string): HTMLElement | undefined {
  const shown = levelRows(root);
  if (key === 'Home') return shown[0];
  if (key === 'End') return shown[shown.length - 1];
  const all = [
    ...[...root.querySelectorAll<HTMLElement>('.ladder-side.asks .ladder-row')].reverse(),
    ...root.querySelectorAll<HTMLElement>('.ladder-side.bids .ladder-row'),
  ];
  const i = all.indexOf(row);
  if (i < 0 || shown.length === 0) return undefined;
  const first = all.indexOf(shown[0]);
  const last = all.indexOf(shown[shown.length - 1]);
  const j = Math.min(Math.max(key === 'ArrowUp' ? i - 1 : i + 1, first), last);
  return j === i ? undefined : all[j];
}

/** Where a focused level is: its price, and its place among the levels shown. */
function levelPlace(el: HTMLElement): { price: string | undefined; index: number } {
  const root = el.closest<HTMLElement>('.ladder');
  return { price: el.dataset.price, index: root ? levelRows(root).indexOf(el) : -1 };
}

/** The level to focus for one that went away: the same price (drawn anew), else the one in its place. */
function levelAt(root: HTMLElement, at: { price: string | undefined; index: number }): HTMLElement | null {
  const rows = levelRows(root);
  return (
    rows.find((r) => r.dataset.price === at.price) ?? rows[Math.min(Math.max(at.index, 0), rows.length - 1)] ?? null
  );
}
