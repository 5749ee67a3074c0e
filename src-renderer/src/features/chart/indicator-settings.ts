// Which indicators the chart draws and with what parameters: a fixed set of slots, as a trading
// terminal's chart settings have them (three MAs at 7, 25 and 99, three EMAs, BOLL, VWAP, RSI,
// MACD), each on or off with its own parameters and colour. The set is the trader's, for every
// pair and interval, kept in the browser (indicators-store.ts). Parameters are whole periods
// from 1 to MAX_PERIOD (BOLL's deviations a number from 0.1 to 10, one decimal); a field that
// holds anything else is refused with a message and the slot keeps its last good value. MACD's
// fast period must be under its slow one. No DOM here (unit tests).
import { INDICATOR_KINDS, type IndicatorKind } from './indicators.ts';

/** The longest period taken: the chart loads 500 bars at first, more as it scrolls back. */
export const MAX_PERIOD = 500;

export interface IndicatorSlot {
  /** Stable identity (`ma1`, `boll`, ...), the stored setting's key. */
  id: string;
  kind: IndicatorKind;
  on: boolean;
  params: readonly number[];
  /** One colour per line of the kind (INDICATOR_KINDS[kind].lines). */
  colors: readonly string[];
}

export const DEFAULT_SLOTS: readonly IndicatorSlot[] = [
  { id: 'ma1', kind: 'ma', on: false, params: [7], colors: ['#f0b90b'] },
  { id: 'ma2', kind: 'ma', on: false, params: [25], colors: ['#e040fb'] },
  { id: 'ma3', kind: 'ma', on: false, params: [99], colors: ['#4c8dff'] },
  { id: 'ema1', kind: 'ema', on: false, params: [12], colors: ['#ff9f43'] },
  { id: 'ema2', kind: 'ema', on: false, params: [26], colors: ['#00bcd4'] },
  { id: 'ema3', kind: 'ema', on: false, params: [200], colors: ['#b0bec5'] },
  { id: 'boll', kind: 'boll', on: false, params: [20, 2], colors: ['#f0b90b', '#b388ff', '#b388ff'] },
  { id: 'vwap', kind: 'vwap', on: false, params: [], colors: ['#ff6d9a'] },
  { id: 'rsi', kind: 'rsi', on: false, params: [14], colors: ['#b388ff'] },
  {
    id: 'macd',
    kind: 'macd',
    on: false,
    params: [12, 26, 9],
    colors: ['#4c8dff', '#ff9f43', 'rgba(132, 142, 156, 0.6)'],
  },
];

/** The slot's name among the others: `MA 1`, `EMA 3`, `BOLL`. */
export function slotName(slot: Pick<IndicatorSlot, 'id' | 'kind'>): string {
  const n = /\d+$/.exec(slot.id);
  return n === null ? INDICATOR_KINDS[slot.kind].name : `${INDICATOR_KINDS[slot.kind].name} ${n[0]}`;
}

/**
 * The slot as a screen reader names its checkbox: a kind of several slots by its period, `MA 7`,
 * `EMA 26` (its slot's number, `MA 1`, said nothing of which), the others as `slotName`: `RSI`.
 */
export function spokenName(slot: Pick<IndicatorSlot, 'id' | 'kind' | 'params'>): string {
  return /\d$/.test(slot.id) ? `${INDICATOR_KINDS[slot.kind].name} ${slot.params.join(', ')}` : slotName(slot);
}

/** The slot's short name with its parameters: `MA(7)`, `BOLL(20, 2)`, `VWAP`. */
export function slotLabel(slot: Pick<IndicatorSlot, 'kind' | 'params'>): string {
  const name = INDICATOR_KINDS[slot.kind].name;
  return slot.params.length === 0 ? name : `${name}(${slot.params.join(', ')})`;
}

export type ParamCheck = { ok: true; value: number } | { ok: false; error: string };

/** The text of parameter `index` of a slot of `kind`, read as the slot would take it. */
export function parseParam(kind: IndicatorKind, index: number, text: string): ParamCheck {
  const name = INDICATOR_KINDS[kind].params[index] ?? 'Parameter';
  const t = text.trim();
  if (kind === 'boll' && index === 1) {
    if (!/^\d{1,2}(\.\d)?$/.test(t) || !(Number(t) >= 0.1 && Number(t) <= 10))
      return { ok: false, error: `${name}: a number from 0.1 to 10, one decimal at most.` };
    return { ok: true, value: Number(t) };
  }
  if (!/^\d{1,4}$/.test(t) || !(Number(t) >= 1 && Number(t) <= MAX_PERIOD))
    return { ok: false, error: `${name}: a whole number of bars from 1 to ${MAX_PERIOD}.` };
  return { ok: true, value: Number(t) };
}

/**
 * An open dialog row's field texts once the slot's parameters changed from `base`, the values it
 * last showed or wrote, to `params` elsewhere (another tab on the same address): a field that still
 * reads as its old value shows the new one; a field being edited keeps its text. (The row kept its
 * old values, and its next edit wrote them back over the other tab's.)
 */
export function followParams(
  kind: IndicatorKind,
  texts: readonly string[],
  base: readonly number[],
  params: readonly number[],
): string[] {
  return texts.map((t, i) => {
    const c = parseParam(kind, i, t);
    return c.ok && c.value === base[i] && params[i] !== undefined ? String(params[i]) : t;
  });
}

/** Whether two slots' parameters are the same values. */
export const sameParams = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/** Why these parameters cannot go together, or null (MACD's fast period under its slow one). */
/** The parameters (their indexes) a conflict of `kind` is between: the fields marked with it. */
export function conflictingParams(kind: IndicatorKind): readonly number[] {
  return kind === 'macd' ? [0, 1] : [];
}

export function paramsConflict(kind: IndicatorKind, params: readonly number[]): string | null {
  if (kind === 'macd' && !(params[0] < params[1])) return 'Fast: shorter than Slow.';
  return null;
}

/** Whether `params` suit a slot of `kind`: as many as it takes, each as parseParam reads it. */
function validParams(kind: IndicatorKind, params: unknown): params is number[] {
  if (!Array.isArray(params) || params.length !== INDICATOR_KINDS[kind].params.length) return false;
  const each = params.every((p, i) => typeof p === 'number' && parseParam(kind, i, String(p)).ok);
  return each && paramsConflict(kind, params) === null;
}

/**
 * The slots as stored (a JSON array of `{id, on, params}`), over the defaults: an unknown id, a
 * damaged entry or parameters out of range leave that slot's default; unreadable text, all of them.
 */
export function readSlots(text: string | null): IndicatorSlot[] {
  let stored: unknown;
  try {
    stored = text === null ? null : JSON.parse(text);
  } catch {
    stored = null;
  }
  const byId = new Map<string, { on?: unknown; params?: unknown }>();
  if (Array.isArray(stored))
    for (const e of stored)
      if (e !== null && typeof e === 'object' && typeof (e as { id?: unknown }).id === 'string')
        byId.set((e as { id: string }).id, e as { on?: unknown; params?: unknown });
  return DEFAULT_SLOTS.map((d) => {
    const e = byId.get(d.id);
    if (e === undefined) return d;
    return {
      ...d,
      on: typeof e.on === 'boolean' ? e.on : d.on,
      params: validParams(d.kind, e.params) ? e.params.slice() : d.params,
    };
  });
}

/** What is stored of the slots: their ids, whether on, and parameters. */
export function writeSlots(slots: readonly IndicatorSlot[]): string {
  return JSON.stringify(slots.map((s) => ({ id: s.id, on: s.on, params: s.params })));
}
