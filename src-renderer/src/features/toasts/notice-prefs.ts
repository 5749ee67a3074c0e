// Which toasts are also desktop notifications (toast-notices.ts shows them): a price alert, a fill
// of the account's orders, a margin call, a liquidation, each as the trader chose in Settings (all three at
// first, kept in this browser's storage), in the toast's own words and tagged by its key, so a
// toast that replaces another (the fills of one order) replaces its notification. Pure: no DOM,
// so the tests take it as it is.
import {
  browserStorage,
  type KeyValueStorage,
  type StorageChange,
  type StorageEvents,
} from '../../lib/browser-storage.ts';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Toast } from './toasts-store.ts';

/** The toasts that may also be desktop notifications. */
export const NOTICE_KINDS = ['alert', 'fill', 'margin', 'liquidation'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
type NoticePrefs = Record<NoticeKind, boolean>;

/** The storage entry of the choices (JSON: a boolean per kind). */
const KEY = 'perpdesk.notices';
const ALL_ON: NoticePrefs = { alert: true, fill: true, margin: true, liquidation: true };

export interface NoticesState {
  prefs: NoticePrefs;
  actions: {
    set(kind: NoticeKind, on: boolean): void;
    /** Another tab wrote the choices (the storage event's new value): this tab takes them. */
    stored(text: string | null): void;
  };
}

/** The choices of a stored text: a kind not stored as a boolean keeps its default (on). */
export function readPrefs(text: string | null): NoticePrefs {
  let v: unknown = null;
  try {
    v = text === null ? null : JSON.parse(text);
  } catch {
    // not JSON: the defaults
  }
  const o = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  const out = { ...ALL_ON };
  for (const k of NOTICE_KINDS) if (typeof o[k] === 'boolean') out[k] = o[k];
  return out;
}

export function createNoticesStore(storage: KeyValueStorage | null = browserStorage()) {
  let prefs = ALL_ON;
  try {
    prefs = readPrefs(storage?.getItem(KEY) ?? null);
  } catch {
    // storage that throws on read: the defaults
  }
  return createStore<NoticesState>()((set, get) => ({
    prefs,
    actions: {
      set(kind, on) {
        const next = { ...get().prefs, [kind]: on };
        set({ prefs: next });
        try {
          storage?.setItem(KEY, JSON.stringify(next));
        } catch {
          // storage full or disabled: the choice holds for this visit
        }
      },
      stored: (text) => set({ prefs: readPrefs(text) }),
    },
  }));
}

/**
 * Takes the choices another tab of the venue writes (the window's storage events), as the alerts
 * do: an alert fires in whichever tab sees its level first, maybe one in the background, and that
 * tab gives its desktop notification; before, a tab open before the trader turned price alerts off
 * in another kept notifying them. Answers the stop.
 */
export function watchStoredNotices(notices: StoreApi<NoticesState>, win: StorageEvents): () => void {
  const onStorage = (e: StorageChange): void => {
    // (a null key: the other tab cleared the whole storage, so the defaults)
    if (e.key !== KEY && e.key !== null) return;
    notices.getState().actions.stored(e.key === null ? null : e.newValue);
  };
  win.addEventListener('storage', onStorage);
  return () => win.removeEventListener('storage', onStorage);
}

/** The notification a toast makes under these choices, or null (a kind not chosen, or never one). */
export function noticeOf(t: Toast, prefs: NoticePrefs): { title: string; body?: string; tag: string } | null {
  if (t.notify === false) return null;
  if (!(NOTICE_KINDS as readonly string[]).includes(t.kind) || !prefs[t.kind as NoticeKind]) return null;
  return { title: t.title, body: t.body, tag: `perpdesk-${t.key ?? `toast-${t.id}`}` };
}
