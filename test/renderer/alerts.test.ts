// Price alerts (src-renderer/src/features/alerts): when one may be set, when it fires (once, from
// the side it was set on), what a stored list may hold, and the store that keeps them. The chart's
// bell, the line drag and the toast are e2e/alerts.spec.ts.
import { describe, expect, it } from 'vitest';
import {
  MAX_ALERTS,
  capped,
  moveAlert,
  reached,
  reachedAt,
  readAlerts,
  setAlert,
  type PriceAlert,
} from '../../src-renderer/src/features/alerts/alert-rules.ts';
import { ALERTS_KEY, createAlertsStore } from '../../src-renderer/src/features/alerts/alerts-store.ts';

const at = (price: string, last: number): PriceAlert => {
  const r = setAlert({ id: 'x', symbol: 'BTCUSDT', price, last, now: 1 });
  if (!r.ok) throw new Error(r.error);
  return r.alert;
};

describe('setAlert', () => {
  it('takes its side from the last price now', () => {
    expect(at('96000.0', 95000).above).toBe(true);
    expect(at('94000.0', 95000).above).toBe(false);
  });

  it('refuses a level not above 0, an unknown last price, and the last price itself', () => {
    const base = { id: 'x', symbol: 'BTCUSDT', now: 1 };
    expect(setAlert({ ...base, price: '0', last: 95000 })).toEqual({
      ok: false,
      error: 'The alert price must be above 0.',
    });
    const unknown = setAlert({ ...base, price: '96000', last: NaN });
    expect(unknown.ok).toBe(false);
    expect(!unknown.ok && unknown.error).toMatch(/No last price for BTCUSDT/);
    const same = setAlert({ ...base, price: '95000.0', last: 95000 });
    expect(!same.ok && same.error).toBe('BTCUSDT is at 95000.0 now: pick a level above or below it.');
  });
});

describe('reached', () => {
  it('fires an alert set below the price at or under its level, not above', () => {
    const a = at('94000.0', 95000);
    expect(reached(a, 94000.1)).toBe(false);
    expect(reached(a, 94000)).toBe(true);
    expect(reached(a, 93000)).toBe(true);
  });

  it('fires an alert set above the price at or over its level, not under', () => {
    const a = at('96000.0', 95000);
    expect(reached(a, 95999.9)).toBe(false);
    expect(reached(a, 96000)).toBe(true);
  });

  it('fires on a range of trades that reached the level, though the last came back', () => {
    const above = at('96000.0', 95000);
    const below = at('94000.0', 95000);
    expect(reached(above, 95500, 96000)).toBe(true);
    // the first trade past the level, not the extreme: 95,500 then 96,000.3 then 96,001 then 95,800
    expect(reachedAt(above, { highs: [95500, 96000.3, 96001], lows: [95500] })).toBe(96000.3);
    expect(reachedAt(above, { highs: [95500, 95999.9], lows: [95500] })).toBeNaN();
    expect(reached(above, 95500, 95999.9)).toBe(false);
    expect(reached(below, 93999.9, 95500)).toBe(true);
    expect(reachedAt(below, { highs: [95500], lows: [95500, 93999.9, 93000] })).toBe(93999.9);
    expect(reached(below, 94000.1, 99000)).toBe(false);
  });

  it('never fires a fired alert again, nor on a price that is not one', () => {
    const a = { ...at('96000.0', 95000), fired: { at: 2, last: 96001 } };
    expect(reached(a, 97000)).toBe(false);
    expect(reached(at('94000.0', 95000), NaN)).toBe(false);
    expect(reached(at('94000.0', 95000), 0)).toBe(false);
  });
});

describe('moveAlert', () => {
  it('takes the side again from the last price, keeping id and time set', () => {
    const a = at('96000.0', 95000);
    const r = moveAlert(a, '94000.0', 95000);
    expect(r).toEqual({ ok: true, alert: { ...a, price: '94000.0', above: false } });
    expect(moveAlert(a, '95000.0', 95000).ok).toBe(false);
  });
});

describe('readAlerts', () => {
  const good = { id: 'a', symbol: 'ETHUSDT', price: '3000.50', above: true, created: 5 };

  it('keeps the entries that are alerts, in order, one per id', () => {
    const fired = { ...good, id: 'b', fired: { at: 9, last: 3001 } };
    const text = JSON.stringify([good, { ...good, price: '-1' }, fired, { ...good, price: '1' }, { nope: 1 }]);
    expect(readAlerts(text)).toEqual([good, fired]);
  });

  it('drops what is not a list of alerts, and fields it does not know', () => {
    expect(readAlerts(null)).toEqual([]);
    expect(readAlerts('{not json')).toEqual([]);
    expect(readAlerts('{"a":1}')).toEqual([]);
    expect(readAlerts(JSON.stringify([{ ...good, symbol: 'eth usdt' }]))).toEqual([]);
    expect(readAlerts(JSON.stringify([{ ...good, price: '3e3' }]))).toEqual([]);
    expect(readAlerts(JSON.stringify([{ ...good, extra: 'x' }]))).toEqual([good]);
  });
});

describe('capped', () => {
  it('keeps every waiting alert first and then the newest fired, in their order', () => {
    const waiting = Array.from({ length: MAX_ALERTS - 2 }, (_, i) => ({ ...at('96000.0', 95000), id: `w${i}` }));
    const fired = [5, 9, 7].map((t) => ({ ...at('96000.0', 95000), id: `f${t}`, fired: { at: t, last: 96000 } }));
    const out = capped([fired[0], ...waiting, fired[1], fired[2]]);
    expect(out).toHaveLength(MAX_ALERTS);
    expect(out.map((a) => a.id).filter((id) => id.startsWith('f'))).toEqual(['f9', 'f7']);
  });
});

/** A storage in memory, as localStorage would hold it. */
function memory(): {
  items: Map<string, string>;
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
} {
  const items = new Map<string, string>();
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) };
}

describe('alerts store', () => {
  it('fires an alert once, marks it, and keeps the list for the next visit', () => {
    const storage = memory();
    const store = createAlertsStore(storage);
    const act = store.getState().actions;
    const up = act.add('BTCUSDT', '96000.0', 95000);
    const down = act.add('BTCUSDT', '94000.0', 95000);
    const other = act.add('ETHUSDT', '3000.00', 3100);
    expect(up.ok && down.ok && other.ok).toBe(true);
    expect(act.check('BTCUSDT', 95500, 10)).toEqual([]);
    const fired = act.check('BTCUSDT', 96000.5, 11);
    expect(fired.map((a) => a.price)).toEqual(['96000.0']);
    expect(fired[0].fired).toEqual({ at: 11, last: 96000.5 });
    // once only
    expect(act.check('BTCUSDT', 97000, 12)).toEqual([]);
    // the others wait
    expect(
      store
        .getState()
        .alerts.filter((a) => a.fired === undefined)
        .map((a) => a.price),
    ).toEqual(['94000.0', '3000.00']);

    const again = createAlertsStore(storage);
    expect(again.getState().alerts).toEqual(store.getState().alerts);
    again.getState().actions.clearFired();
    expect(again.getState().alerts.map((a) => a.price)).toEqual(['94000.0', '3000.00']);
    expect(readAlerts(storage.items.get(ALERTS_KEY) ?? null)).toHaveLength(2);
  });

  it('moves and removes a waiting alert, and refuses to move a fired or gone one', () => {
    const store = createAlertsStore(memory());
    const act = store.getState().actions;
    const r = act.add('BTCUSDT', '96000.0', 95000);
    if (!r.ok) throw new Error(r.error);
    const moved = act.move(r.alert.id, '94000.0', 95000);
    expect(moved.ok && moved.alert.above).toBe(false);
    expect(act.check('BTCUSDT', 96500, 1)).toEqual([]);
    expect(act.check('BTCUSDT', 93999, 2)).toHaveLength(1);
    expect(act.move(r.alert.id, '95500.0', 95000)).toEqual({ ok: false, error: 'That alert has fired.' });
    act.remove(r.alert.id);
    expect(store.getState().alerts).toEqual([]);
    expect(act.move(r.alert.id, '95500.0', 95000)).toEqual({ ok: false, error: 'That alert is gone.' });
  });

  it('takes the list another tab wrote, so that neither tab loses the alerts of the other', () => {
    const storage = memory();
    const a = createAlertsStore(storage);
    const b = createAlertsStore(storage);
    a.getState().actions.add('BTCUSDT', '96000.0', 95000);
    // the storage event of tab b: the list as tab a wrote it
    b.getState().actions.stored(storage.getItem(ALERTS_KEY));
    b.getState().actions.add('ETHUSDT', '3000.00', 3100);
    a.getState().actions.stored(storage.getItem(ALERTS_KEY));
    const both = ['96000.0', '3000.00'];
    expect(readAlerts(storage.getItem(ALERTS_KEY)).map((x) => x.price)).toEqual(both);
    expect(a.getState().alerts.map((x) => x.price)).toEqual(both);
    // a cleared storage (key null in the event): no alerts
    b.getState().actions.stored(null);
    expect(b.getState().alerts).toEqual([]);
  });

  it('refuses an alert beyond the most that wait at once, rather than drop it unsaid', () => {
    const store = createAlertsStore(memory());
    const act = store.getState().actions;
    for (let i = 0; i < MAX_ALERTS; i++) expect(act.add('BTCUSDT', `${96000 + i}.0`, 95000).ok).toBe(true);
    expect(act.add('BTCUSDT', '99999.0', 95000)).toEqual({
      ok: false,
      error: `At most ${MAX_ALERTS} alerts wait at once: remove one first.`,
    });
    expect(store.getState().alerts).toHaveLength(MAX_ALERTS);
    // a fired one makes room
    expect(act.check('BTCUSDT', 96000, 1)).toHaveLength(1);
    expect(act.add('BTCUSDT', '99999.0', 95000).ok).toBe(true);
    expect(store.getState().alerts).toHaveLength(MAX_ALERTS);
    expect(store.getState().alerts.some((a) => a.fired !== undefined)).toBe(false);
  });

  it('keeps working on a storage that refuses to write', () => {
    const store = createAlertsStore({
      getItem: () => '[',
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    });
    expect(store.getState().alerts).toEqual([]);
    expect(store.getState().actions.add('BTCUSDT', '96000.0', 95000).ok).toBe(true);
    expect(store.getState().alerts).toHaveLength(1);
  });
});
