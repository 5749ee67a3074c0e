// The chart's indicator slots (indicator-settings.ts) as the screen holds them: turned on and off
// and given new parameters from the chart's Indicators panel, kept in this browser's storage (the
// same for every pair and interval, as a chart layout keeps its studies) and read back at the next
// visit, with whether the account's fills are marked on the candles and the price scale's mode
// (chart-scale.ts). A write that the storage refuses (full, disabled) keeps the choice for this visit.
// Another tab on the same address writes the same entries: each is taken as it is written
// (`stored`, from the page's storage event, watchStoredIndicators), as the drawings are, so this
// tab's next change does not write its old slots over the other's. (Before, each tab wrote its own
// slots: RSI turned on in one tab was gone, at the next visit, once the other turned on an MA.)
import { createStore } from 'zustand/vanilla';
import {
  browserStorage,
  type KeyValueStorage,
  type StorageChange,
  type StorageEvents,
} from '../../lib/browser-storage.ts';
import { readScale, type ScaleMode } from './chart-scale.ts';
import { DEFAULT_SLOTS, paramsConflict, readSlots, writeSlots, type IndicatorSlot } from './indicator-settings.ts';

/** The storage entry of the slots. */
export const INDICATORS_KEY = 'perpdesk.indicators';
/** The storage entry of whether the account's fills are marked on the candles ('0': not). */
const FILLS_KEY = 'perpdesk.chart-fills';
/** The storage entry of the candles' price scale: 'log' or 'linear'. */
export const SCALE_KEY = 'perpdesk.chart-scale';

export interface IndicatorsState {
  slots: readonly IndicatorSlot[];
  /** The account's fills marked on their candles (fill-layer.ts); on at first. */
  fills: boolean;
  /** The candles' price scale, the same for every pair and interval; linear at first. */
  scale: ScaleMode;
  actions: {
    showFills(on: boolean): void;
    setScale(mode: ScaleMode): void;
    toggle(id: string, on: boolean): void;
    /** New parameters for a slot (each already read by parseParam); a conflict's message, or null when taken. */
    setParams(id: string, params: readonly number[]): string | null;
    /** Every slot back to its default (all off). */
    reset(): void;
    /** Another tab wrote entry `key` (the storage event's key and new value; a null key: storage cleared): this tab takes it. */
    stored(key: string | null, text: string | null): void;
  };
}

export function createIndicatorsStore(storage: KeyValueStorage | null = browserStorage()) {
  let loaded: IndicatorSlot[] = DEFAULT_SLOTS.slice();
  let fills = true;
  let scale: ScaleMode = 'linear';
  try {
    loaded = readSlots(storage?.getItem(INDICATORS_KEY) ?? null);
    fills = storage?.getItem(FILLS_KEY) !== '0';
    scale = readScale(storage?.getItem(SCALE_KEY) ?? null);
  } catch {
    // storage that throws on read: the defaults
  }
  const store = createStore<IndicatorsState>()((set, get) => {
    const change = (id: string, f: (s: IndicatorSlot) => IndicatorSlot): void =>
      set({ slots: get().slots.map((s) => (s.id === id ? f(s) : s)) });
    return {
      slots: loaded,
      fills,
      scale,
      actions: {
        showFills: (on) => set({ fills: on }),
        setScale: (mode) => set({ scale: mode }),
        toggle: (id, on) => change(id, (s) => ({ ...s, on })),
        setParams(id, params) {
          const slot = get().slots.find((s) => s.id === id);
          if (slot === undefined) return 'No such indicator.';
          const conflict = paramsConflict(slot.kind, params);
          if (conflict !== null) return conflict;
          change(id, (s) => ({ ...s, params: params.slice() }));
          return null;
        },
        reset: () => set({ slots: DEFAULT_SLOTS.slice() }),
        stored(key, text) {
          if (key === INDICATORS_KEY || key === null) set({ slots: readSlots(text) });
          if (key === FILLS_KEY || key === null) set({ fills: text !== '0' });
          if (key === SCALE_KEY || key === null) set({ scale: readScale(text) });
        },
      },
    };
  });
  // (an entry that already holds the text, one taken from another tab, is not written again)
  const write = (key: string, text: string): void => {
    if (storage !== null && storage.getItem(key) !== text) storage.setItem(key, text);
  };
  store.subscribe((s, prev) => {
    try {
      if (s.slots !== prev.slots) write(INDICATORS_KEY, writeSlots(s.slots));
      if (s.fills !== prev.fills) write(FILLS_KEY, s.fills ? '1' : '0');
      if (s.scale !== prev.scale) write(SCALE_KEY, s.scale);
    } catch {
      // storage full or disabled: the choice holds for this visit only
    }
  });
  return store;
}

/** Takes the indicators, fills and scale another tab writes (the window's storage events); answers the stop. */
export function watchStoredIndicators(
  indicators: ReturnType<typeof createIndicatorsStore>,
  win: StorageEvents,
): () => void {
  const onStorage = (e: StorageChange): void => {
    if (e.key !== null && e.key !== INDICATORS_KEY && e.key !== FILLS_KEY && e.key !== SCALE_KEY) return;
    indicators.getState().actions.stored(e.key, e.newValue);
  };
  win.addEventListener('storage', onStorage);
  return () => win.removeEventListener('storage', onStorage);
}
