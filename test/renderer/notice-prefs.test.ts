// Which toasts are also desktop notifications (src-renderer/src/features/toasts/notice-prefs.ts),
// and the choices kept for the next visit. The notification shown while the window is away is
// e2e/alerts.spec.ts and e2e/notifications.spec.ts.
import { describe, expect, it } from 'vitest';
import {
  createNoticesStore,
  noticeOf,
  readPrefs,
  watchStoredNotices,
} from '../../src-renderer/src/features/toasts/notice-prefs.ts';
import type { StorageChange, StorageEvents } from '../../src-renderer/src/lib/browser-storage.ts';
import type { Toast } from '../../src-renderer/src/features/toasts/toasts-store.ts';

const toast = (t: Partial<Toast>): Toast => ({
  id: 7,
  rev: 0,
  kind: 'fill',
  title: 'Bought 0.010 BTCUSDT',
  ttl: 5000,
  ...t,
});
const ALL = { alert: true, fill: true, margin: true, liquidation: true };

describe('noticeOf', () => {
  it('makes alerts, fills and liquidations notifications in the toast’s words, tagged by its key', () => {
    expect(noticeOf(toast({ key: 'fill:12', body: 'Open long' }), ALL)).toEqual({
      title: 'Bought 0.010 BTCUSDT',
      body: 'Open long',
      tag: 'perpdesk-fill:12',
    });
    expect(noticeOf(toast({ kind: 'liquidation', title: 'Liquidation: BTCUSDT long' }), ALL)?.tag).toBe(
      'perpdesk-toast-7',
    );
    expect(noticeOf(toast({ kind: 'alert', key: 'alert:x' }), ALL)?.tag).toBe('perpdesk-alert:x');
    expect(noticeOf(toast({ kind: 'margin', key: 'margin:cross' }), ALL)?.tag).toBe('perpdesk-margin:cross');
  });

  it('makes none of a kind not chosen, nor of errors, funding or confirmations', () => {
    expect(noticeOf(toast({}), { ...ALL, fill: false })).toBeNull();
    expect(noticeOf(toast({ kind: 'alert' }), { ...ALL, alert: false })).toBeNull();
    for (const kind of ['error', 'funding', 'success', 'info'] as const)
      expect(noticeOf(toast({ kind }), ALL)).toBeNull();
  });
});

describe('the choices', () => {
  it('are all on at first, and a stored boolean per kind overrides its default', () => {
    expect(readPrefs(null)).toEqual(ALL);
    expect(readPrefs('nope')).toEqual(ALL);
    expect(readPrefs('{"fill":false,"alert":"no","other":false}')).toEqual({ ...ALL, fill: false });
  });

  it('are kept for the next visit', () => {
    const items = new Map<string, string>();
    const storage = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
    };
    createNoticesStore(storage).getState().actions.set('fill', false);
    expect(createNoticesStore(storage).getState().prefs).toEqual({ ...ALL, fill: false });
  });

  // Before, each tab read the choices once, when it opened: price alerts turned off in one tab were
  // still desktop notifications from another open tab, the one an alert may fire in.
  it("are taken from another tab's write, as it is written", () => {
    const items = new Map<string, string>();
    const storage = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
    };
    const listeners: ((e: StorageChange) => void)[] = [];
    const win: StorageEvents = {
      addEventListener: (_t, f) => void listeners.push(f),
      removeEventListener: (_t, f) => void listeners.splice(listeners.indexOf(f), 1),
    };
    const here = createNoticesStore(storage);
    const stop = watchStoredNotices(here, win);
    const there = createNoticesStore(storage);
    there.getState().actions.set('alert', false);
    // the browser tells the other tabs, never the writer
    for (const f of listeners) f({ key: 'perpdesk.notices', newValue: items.get('perpdesk.notices') ?? null });
    expect(here.getState().prefs).toEqual({ ...ALL, alert: false });
    expect(noticeOf(toast({ kind: 'alert', key: 'alert:1' }), here.getState().prefs)).toBeNull();
    // another entry is not the choices; the whole storage cleared: the defaults
    for (const f of listeners) f({ key: 'perpdesk.alerts', newValue: '[]' });
    expect(here.getState().prefs.alert).toBe(false);
    for (const f of listeners) f({ key: null, newValue: null });
    expect(here.getState().prefs).toEqual(ALL);
    stop();
    expect(listeners).toHaveLength(0);
  });
});
