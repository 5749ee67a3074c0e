// Price alerts: what one is, when it fires, and what a stored list may hold. An alert watches a
// pair's last price and fires once when the price reaches its level from the side it was on when
// the alert was set (TradingView's "crossing"): set above the last price, it fires when the last
// price, or any trade the screen is told of, is at or above the level; set below, at or below. The level is on the pair's tick, in its
// decimals, as the trader typed or picked it. Pure: no DOM, so the tests take it as it is.

export interface PriceAlert {
  id: string;
  symbol: string;
  /** The level, a decimal text on the pair's tick (as the API writes prices). */
  price: string;
  /** Fires when the last price is at or above `price` (true), at or below (false). */
  above: boolean;
  /** Market time it was set, ms (a replay's time in a replay). */
  created: number;
  /** Market time and last price it fired at; absent while it waits. */
  fired?: { at: number; last: number };
}

/** Most alerts kept at once, waiting and fired (the oldest fired go first). */
export const MAX_ALERTS = 100;

/** The result of setting an alert: the alert, or why it cannot be set (shown as it is). */
export type AlertSetting = { ok: true; alert: PriceAlert } | { ok: false; error: string };

/**
 * An alert on `symbol` at `price` (a decimal text), its side taken from the last price now.
 * Refused: a level not above 0, a last price not known yet, or a level the price is at now.
 */
export function setAlert(a: { id: string; symbol: string; price: string; last: number; now: number }): AlertSetting {
  const level = Number(a.price);
  if (!(level > 0)) return { ok: false, error: 'The alert price must be above 0.' };
  if (!(a.last > 0)) return { ok: false, error: `No last price for ${a.symbol} yet: try again in a moment.` };
  if (level === a.last)
    return { ok: false, error: `${a.symbol} is at ${a.price} now: pick a level above or below it.` };
  return { ok: true, alert: { id: a.id, symbol: a.symbol, price: a.price, above: level > a.last, created: a.now } };
}

/**
 * Whether a waiting alert fires at this last price, or on trades from `low` to `high` (the range
 * an update of the trade channel traded over: a level one of them reached counts, though the
 * last came back).
 */
export function reached(alert: PriceAlert, low: number, high = low): boolean {
  if (alert.fired !== undefined) return false;
  const level = Number(alert.price);
  return alert.above ? high > 0 && high >= level : low > 0 && low <= level;
}

/**
 * The trades of one update of the trade channel as the alerts read them: each trade that went
 * above every one before it (`highs`) and below every one before it (`lows`), in time order, so
 * the last of each is the update's high and low. The first trade at or past a level is always one
 * of them: every trade before it is short of the level, so it goes past them all.
 */
export interface TradedPath {
  highs: readonly number[];
  lows: readonly number[];
}

/**
 * The price of the first trade, in time order, that reached the alert's level (NaN if none did):
 * what it fires at, not the update's high or low (an alert at or above 95,975.7 said "Fired at
 * 95,976.4", the high, where the first trade at or past the level printed 95,975.9).
 */
export function reachedAt(alert: PriceAlert, path: TradedPath): number {
  if (alert.fired !== undefined) return NaN;
  const level = Number(alert.price);
  const hit = alert.above ? path.highs.find((p) => p > 0 && p >= level) : path.lows.find((p) => p > 0 && p <= level);
  return hit ?? NaN;
}

/** The alert moved to `price`: its side taken again from the last price (as a new one's). */
export function moveAlert(alert: PriceAlert, price: string, last: number): AlertSetting {
  const r = setAlert({ id: alert.id, symbol: alert.symbol, price, last, now: alert.created });
  return r.ok ? { ok: true, alert: { ...r.alert, created: alert.created } } : r;
}

/** The condition as the screen writes it: "≥ 96,000.0" over the pair's last price. */
export function condition(alert: PriceAlert): '≥' | '≤' {
  return alert.above ? '≥' : '≤';
}

/** At most MAX_ALERTS, the waiting ones kept first, then the newest fired. */
export function capped(alerts: readonly PriceAlert[]): PriceAlert[] {
  if (alerts.length <= MAX_ALERTS) return alerts.slice();
  const waiting = alerts.filter((a) => a.fired === undefined);
  const fired = alerts
    .filter((a) => a.fired !== undefined)
    .sort((x, y) => y.fired!.at - x.fired!.at)
    .slice(0, Math.max(0, MAX_ALERTS - waiting.length));
  const keep = new Set([...waiting.slice(0, MAX_ALERTS), ...fired]);
  return alerts.filter((a) => keep.has(a));
}

const PRICE = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const SYMBOL = /^[A-Z0-9]{2,30}$/;

function isAlert(v: unknown): v is PriceAlert {
  if (typeof v !== 'object' || v === null) return false;
  const a = v as Record<string, unknown>;
  const fired = a.fired as Record<string, unknown> | undefined;
  return (
    typeof a.id === 'string' &&
    a.id.length > 0 &&
    typeof a.symbol === 'string' &&
    SYMBOL.test(a.symbol) &&
    typeof a.price === 'string' &&
    PRICE.test(a.price) &&
    Number(a.price) > 0 &&
    typeof a.above === 'boolean' &&
    Number.isFinite(a.created) &&
    (fired === undefined ||
      (typeof fired === 'object' && fired !== null && Number.isFinite(fired.at) && Number.isFinite(fired.last)))
  );
}

/**
 * The alerts of a stored text (JSON): the entries that are alerts, in order, one per id, at most
 * MAX_ALERTS; anything else (not JSON, another shape, an entry from a later version) is left out,
 * so a damaged store costs the alerts it damaged and nothing else.
 */
export function readAlerts(text: string | null): PriceAlert[] {
  if (text === null) return [];
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(v)) return [];
  const seen = new Set<string>();
  const out: PriceAlert[] = [];
  for (const a of v) {
    if (!isAlert(a) || seen.has(a.id)) continue;
    seen.add(a.id);
    const { id, symbol, price, above, created, fired } = a;
    out.push(
      fired === undefined ? { id, symbol, price, above, created } : { id, symbol, price, above, created, fired },
    );
  }
  return capped(out);
}
