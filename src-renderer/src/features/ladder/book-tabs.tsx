// The title of the order book and of the recent trades. A wide window shows both panels, each
// under its own name; a narrow one (styles.css, below 1280 px) puts them in one column, and the
// title becomes two tabs, "Order book | Trades", that pick the one shown (the workspace keeps
// the choice). Both forms are rendered; the stylesheet shows the one that fits the layout.
import { useServices, useSel } from '../../lib/use-services.ts';
import type { BookTab } from '../../lib/workspace-store.ts';

const NAMES: ReadonlyArray<readonly [BookTab, string]> = [
  ['book', 'Order book'],
  ['trades', 'Trades'],
];

export function BookTabs({ own }: { own: BookTab }) {
  const s = useServices();
  const shown = useSel(s.workspace, (w) => w.bookTab);
  return (
    <>
      <span className="panel-name">{own === 'book' ? 'Order book' : 'Trades'}</span>
      <div className="book-tabs" role="tablist" aria-label="Order book or trades">
        {NAMES.map(([t, name]) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={shown === t}
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
