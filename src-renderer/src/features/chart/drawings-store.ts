// The trader's chart drawings (drawings.ts), per pair: added with the tools at the chart's left
// edge, moved by dragging them, removed with Delete or the tools' bin. Kept in this browser's
// storage for the venue's address and read back at the next visit; a write the storage refuses
// keeps them for this visit. Another tab on the same address writes the same entry: its list is
// taken as it is written (`stored`, from the page's storage event, watchStoredDrawings), as the
// alerts' is, so neither tab's next write drops what the other drew. (Before, each tab wrote its
// own list over the other's: a line drawn in one tab was gone once the other drew one.)
import { createStore } from 'zustand/vanilla';
import {
  browserStorage,
  type KeyValueStorage,
  type StorageChange,
  type StorageEvents,
} from '../../lib/browser-storage.ts';
import { capPerPair, readDrawings, type Drawing, type DrawingShape } from './drawings.ts';

/** The storage entry of the drawings (a JSON array). */
export const DRAWINGS_KEY = 'perpdesk.drawings';

/** A drawing as a tool makes it, before it has an id. */
type NewDrawing = DrawingShape & { symbol: string };

export interface DrawingsState {
  drawings: readonly Drawing[];
  actions: {
    /** Adds a drawing; answers its id. */
    add(d: NewDrawing): string;
    /** Replaces drawing `d.id` (a drag's result); nothing when it is gone. */
    update(d: Drawing): void;
    remove(id: string): void;
    /** Removes every drawing of `symbol`. */
    clear(symbol: string): void;
    /** Another tab wrote the list (the storage event's new value): this tab takes it. */
    stored(text: string | null): void;
  };
}

export function createDrawingsStore(storage: KeyValueStorage | null = browserStorage()) {
  let loaded: Drawing[] = [];
  try {
    loaded = readDrawings(storage?.getItem(DRAWINGS_KEY) ?? null);
  } catch {
    // storage that throws on read: none remembered
  }
  /** The text last written or taken from another tab: what need not be written again. */
  let written: string | null = null;
  const newId = (): string => {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(6));
    return `d${Date.now().toString(36)}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  };
  const store = createStore<DrawingsState>()((set, get) => ({
    drawings: loaded,
    actions: {
      add(d) {
        const id = newId();
        set({ drawings: capPerPair([...get().drawings, { ...d, id }]) });
        return id;
      },
      update(d) {
        if (!get().drawings.some((x) => x.id === d.id)) return;
        set({ drawings: get().drawings.map((x) => (x.id === d.id ? d : x)) });
      },
      remove: (id) => set({ drawings: get().drawings.filter((x) => x.id !== id) }),
      clear: (symbol) => set({ drawings: get().drawings.filter((x) => x.symbol !== symbol) }),
      stored(text) {
        written = text;
        set({ drawings: readDrawings(text) });
      },
    },
  }));
  store.subscribe((s, prev) => {
    if (s.drawings === prev.drawings || storage === null) return;
    const text = JSON.stringify(s.drawings);
    if (text === written) return;
    written = text;
    try {
      storage.setItem(DRAWINGS_KEY, text);
    } catch {
      // storage full or disabled: the drawings hold for this visit only
    }
  });
  return store;
}

/** Takes the drawings another tab writes (the window's storage events); answers the stop. */
export function watchStoredDrawings(drawings: ReturnType<typeof createDrawingsStore>, win: StorageEvents): () => void {
  const onStorage = (e: StorageChange): void => {
    // (a null key: the other tab cleared the whole storage)
    if (e.key !== DRAWINGS_KEY && e.key !== null) return;
    drawings.getState().actions.stored(e.key === null ? null : e.newValue);
  };
  win.addEventListener('storage', onStorage);
  return () => win.removeEventListener('storage', onStorage);
}
