// A cursor-paged list with filters (order history, trade history, position history). Pages
// are fetched newest first; the cursors of the pages already seen are kept so "previous" is a
// re-fetch of a known page, not a guess. A filter change restarts at the first page.
import { createStore } from 'zustand/vanilla';
import { errorText } from '../../lib/frame.ts';

export interface Page<T> {
  items: T[];
  nextCursor: string;
  hasMore: boolean;
}

export interface PagedState<T, F> {
  filters: F;
  /** The filters a tab opens with (what "Clear filters" goes back to). */
  defaults: F;
  items: readonly T[];
  /** 0-based index of the page shown. */
  page: number;
  hasMore: boolean;
  loading: boolean;
  loaded: boolean;
  error: string | null;
  actions: {
    load(change?: Partial<F>): Promise<void>;
    next(): Promise<void>;
    prev(): Promise<void>;
    reload(): Promise<void>;
    /** Forgets the records shown (another account's, once the login changed); an answer on its way is dropped. */
    clear(): void;
    /**
     * Every record the filters select, newest first, paged at `exportLimit` a request (the
     * route's maximum): at most `max` of them; `complete` false when there were more. Throws
     * when `clear()` ran meanwhile (the login changed): the pages read so far are the account
     * before's, the pages to come the new one's, and one file must not mix them.
     */
    collect(max: number): Promise<{ items: T[]; complete: boolean }>;
  };
}

export function createPagedStore<T, F extends object>(
  /** `shown`: a page the table shows (true), or one of an export's (false), whose records are saved as the API has them. */
  fetchPage: (filters: F, cursor: string, limit: number, shown: boolean) => Promise<Page<T>>,
  initial: F,
  limit = 20,
  exportLimit = 500,
) {
  // cursors[i] is the cursor of page i ('' for the first).
  let cursors: string[] = [''];
  let generation = 0;
  // Bumped by clear() only (a page shown bumps `generation` too, which an export must outlive).
  let account = 0;
  return createStore<PagedState<T, F>>()((set, get) => {
    const show = async (page: number): Promise<void> => {
      const gen = ++generation;
      set({ loading: true, error: null });
      try {
        const r = await fetchPage(get().filters, cursors[page] ?? '', limit, true);
        if (gen !== generation) return;
        cursors = cursors.slice(0, page + 1);
        if (r.hasMore && r.nextCursor !== '') cursors.push(r.nextCursor);
        set({ items: r.items, page, hasMore: r.hasMore && r.nextCursor !== '', loading: false, loaded: true });
      } catch (err) {
        if (gen === generation) set({ loading: false, error: errorText(err) });
      }
    };
    return {
      filters: initial,
      defaults: initial,
      items: [],
      page: 0,
      hasMore: false,
      loading: false,
      loaded: false,
      error: null,
      actions: {
        async load(change) {
          if (change) set({ filters: { ...get().filters, ...change } });
          cursors = [''];
          await show(0);
        },
        async next() {
          if (get().hasMore) await show(get().page + 1);
        },
        async prev() {
          if (get().page > 0) await show(get().page - 1);
        },
        reload: () => show(get().page),
        clear() {
          generation++;
          account++;
          cursors = [''];
          set({ items: [], page: 0, hasMore: false, loading: false, loaded: false, error: null });
        },
        async collect(max) {
          const filters = get().filters;
          const at = account;
          const items: T[] = [];
          let cursor = '';
          for (;;) {
            const r = await fetchPage(filters, cursor, Math.min(exportLimit, max - items.length + 1), false);
            if (at !== account) throw new Error('The login changed during the export; nothing was saved');
            items.push(...r.items);
            if (items.length > max) return { items: items.slice(0, max), complete: false };
            if (!r.hasMore || r.nextCursor === '' || r.items.length === 0) return { items, complete: true };
            cursor = r.nextCursor;
          }
        },
      },
    };
  });
}
