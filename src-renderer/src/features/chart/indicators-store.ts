// The chart's indicator slots (indicator-settings.ts) as the screen holds them: turned on and off
// and given new parameters from the chart's Indicators panel, kept in this browser's storage (the
// same for every pair and interval, as a chart layout keeps its studies) and read back at the next
// visit, with whether the account's fills are marked on the candles and the price scale's mode
// (chart-scale.ts). A write that the storage refuses (full, disabled) keeps the choice for this visit.
import { createStore } from 'zustand/vanilla';
import { browserStorage, type KeyValueStorage } from '../../lib/browser-storage.ts';
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
      },
    };
  });
  store.subscribe((s, prev) => {
    if (storage === null) return;
    try {
      if (s.slots !== prev.slots) storage.setItem(INDICATORS_KEY, writeSlots(s.slots));
      if (s.fills !== prev.fills) storage.setItem(FILLS_KEY, s.fills ? '1' : '0');
      if (s.scale !== prev.scale) storage.setItem(SCALE_KEY, s.scale);
    } catch {
      // storage full or disabled: the choice holds for this visit only
    }
  });
  return store;
}
