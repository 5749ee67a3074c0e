// The trader's chart drawings (drawings.ts), per pair: added with the tools at the chart's left
// edge, moved by dragging them, removed with Delete or the tools' bin. Kept in this browser's
// storage for the venue's address and read back at the next visit; a write the storage refuses
// keeps them for this visit.
import { createStore } from 'zustand/vanilla';
import { browserStorage, type KeyValueStorage } from '../../lib/browser-storage.ts';
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
  };
}

export function createDrawingsStore(storage: KeyValueStorage | null = browserStorage()) {
  let loaded: Drawing[] = [];
  try {
    loaded = readDrawings(storage?.getItem(DRAWINGS_KEY) ?? null);
  } catch {
    // storage that throws on read: none remembered
  }
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
    },
  }));
  store.subscribe((s, prev) => {
    if (s.drawings === prev.drawings || storage === null) return;
    try {
      storage.setItem(DRAWINGS_KEY, JSON.stringify(s.drawings));
    } catch {
      // storage full or disabled: the drawings hold for this visit only
    }
  });
  return store;
}
