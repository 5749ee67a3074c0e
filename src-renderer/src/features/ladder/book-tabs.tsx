// The title of the order book and of the recent trades. A wide window shows both panels, each
// under its own name; a narrow one (styles.css, below 1280 px) puts them in one column, and the
// title becomes two tabs, "Order book | Trades", that pick the one shown (the workspace keeps
// the choice). Both forms are rendered; the stylesheet shows the one that fits the layout.
// The tabs are one Tab stop (tablist-keys.ts). A tab picked hides the panel it sits in: the
// focus goes to the same tab above the panel now shown, so the arrow keys go on working.
import { useLayoutEffect, useRef } from 'react';
import { useServices, useSel } from '../../lib/use-services.ts';
import type { BookTab } from '../../lib/workspace-store.ts';
import { tabStop, tablistKeys } from '../../layout/tablist-keys.ts';

const NAMES: ReadonlyArray<readonly [BookTab, string]> = [
  ['book', 'Order book'],
  ['trades', 'Trades'],
];

export function BookTabs({ own }: { own: BookTab }) {
  const s = useServices();
  const shown = useSel(s.workspace, (w) => w.bookTab);
  const row = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const at = document.activeElement;
    if (shown !== own || !(at instanceof HTMLElement) || at.closest('.book-tabs') === null) return;
    if (!row.current?.contains(at)) row.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.focus();
  }, [shown, own]);
  return (
    <>
      <span className="panel-name" role="heading" aria-level={2}>
        {own === 'book' ? 'Order book' : 'Trades'}
      </span>
      <div className="book-tabs" ref={row} role="tablist" aria-label="Order book or trades" onKeyDown={tablistKeys}>
        {NAMES.map(([t, name]) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={shown === t}
            tabIndex={tabStop(shown === t)}
            className={shown === t ? 'active' : ''}
            onClick={() => s.workspace.getState().actions.setBookTab(t)}
          >
            {name}
          </button>
        ))}
      </div>
    </>
  );
}
