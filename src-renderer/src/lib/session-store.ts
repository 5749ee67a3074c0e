// Who the screen trades as. Sources, in order: Electron's preload (the desktop account), a
// one-time `#token=...` in the URL (the service prints that URL; the token is traded once with
// POST /api/v1/session and the hash is stripped so a reload or a shared screenshot does not
// carry it), the credentials a login link stored earlier in this browser (localStorage, per
// service address: other tabs, a closed and reopened tab and a browser restart stay logged in,
// as with a cookie). Without any, the screen still shows market data and says how to log in.
// A login link pasted into a tab that is already open changes only the URL's hash (no reload):
// followLoginLinks() trades its token then, as a load would. A tab already open takes a login
// another tab of this browser stores for the same service (followOtherTabs(), the storage event):
// a view-only tab is logged in when another logs in, as a reopened one would be, and a logged-in
// tab is logged out when another logs out (the stored login is gone for every tab). A logged-in tab
// that another tab's login moves to another account says so (a notice), as does a login link that
// did not work pasted into a logged-in tab (which stays logged in; the login hint is not shown there).
import type { StorageChange, StorageEvents } from './browser-storage.ts';
import { createStore } from 'zustand/vanilla';
import type { RestClient } from '../../../src-shared/sdk/rest-client.ts';
import { desktopBootstrap } from './connection.ts';

const CREDENTIALS_KEY = 'perpdesk.credentials';
/** Why the stored login last ended (a log-out, a key regenerated elsewhere): what other tabs say. */
const ENDED_KEY = 'perpdesk.login-ended';
/** What another tab says when this one logged out by hand. */
const LOGGED_OUT_ELSEWHERE = 'Logged out in another tab of this browser.';

export type SessionSource = 'desktop' | 'token' | 'session';

export interface SessionState {
  status: 'checking' | 'anonymous' | 'ready';
  apiKey: string | null;
  apiSecret: string | null;
  source: SessionSource | null;
  /** Why the last login attempt failed (shown next to the login hint). */
  error: string | null;
  /**
   * Which login this is: bumped by each login (which may be another account's), not by a new key
   * of the same account (regenerated here or in another tab), whose lists stay good.
   */
  login: number;
  actions: {
    bootstrap(): Promise<void>;
    /** New credentials (regenerated key); stored for this browser unless they came from the desktop. */
    replace(apiKey: string, apiSecret: string): void;
    logout(): void;
    /** The service no longer knows the key (e.g. a new data folder): forget it and say why. */
    expire(message: string): void;
    /**
     * Takes the credentials another window of this browser stored for this service, when they
     * differ from the ones in use (that window regenerated the key); true when it did.
     */
    adoptStored(): boolean;
    /** Trades the token of every login link the URL's hash takes from now on; returns the stop. */
    followLoginLinks(): () => void;
    /**
     * Takes the credentials another tab of this browser stores for this service from now on (its
     * login, a regenerated key, its log-out), from the window's storage events; returns the stop.
     */
    followOtherTabs(win: StorageEvents): () => void;
  };
}

interface Stored {
  apiKey: string;
  apiSecret: string;
  baseUrl: string;
  /** How the key came: a login (link, token) or a key regenerated for the same account. */
  via?: 'login' | 'regenerated';
}

/** What the session store tells the trader outside the login hint (a toast). */
export type SessionNotice = (kind: 'info' | 'error', title: string, body: string) => void;

/** An API key as a notice names it: its first 8 characters. */
const keyName = (key: string): string => (key.length > 8 ? `${key.slice(0, 8)}…` : key);

function readStored(baseUrl: string): Stored | null {
  try {
    return parseStored(localStorage.getItem(CREDENTIALS_KEY), baseUrl);
  } catch {
    // storage disabled: no stored session, the user logs in again
    return null;
  }
}

/** The credentials of a stored entry for the service at `baseUrl`, or null. */
function parseStored(raw: string | null, baseUrl: string): Stored | null {
  if (!raw) return null;
  try {
    const s = JSON.parse(raw) as Partial<Stored>;
    if (typeof s.apiKey !== 'string' || typeof s.apiSecret !== 'string') return null;
    if (s.baseUrl !== undefined && s.baseUrl !== baseUrl) return null;
    const via = s.via === 'login' || s.via === 'regenerated' ? s.via : undefined;
    return { apiKey: s.apiKey, apiSecret: s.apiSecret, baseUrl, ...(via ? { via } : {}) };
  } catch {
    // an entry that is not JSON: no stored session
    return null;
  }
}

/** Ends the stored login for every tab, `why` for the others to say (written first: they read it on the removal). */
function endStored(why: string): void {
  try {
    localStorage.setItem(ENDED_KEY, why);
  } catch {
    // storage disabled: the other tabs say the generic reason, if they hear the removal at all
  }
  writeStored(null);
}

/** Why the stored login ended, as the tab that ended it wrote it. */
function endedWhy(): string {
  try {
    return localStorage.getItem(ENDED_KEY) ?? LOGGED_OUT_ELSEWHERE;
  } catch {
    return LOGGED_OUT_ELSEWHERE;
  }
}

function writeStored(s: Stored | null): void {
  try {
    if (s === null) localStorage.removeItem(CREDENTIALS_KEY);
    else localStorage.setItem(CREDENTIALS_KEY, JSON.stringify(s));
  } catch {
    // Storage may be disabled; the session then lasts as long as the page.
  }
}

/** The token of a `#token=...` hash, or null. */
function tokenFromHash(hash: string): string | null {
  const m = /(?:^#|&)token=([^&]+)/.exec(hash);
  return m ? decodeURIComponent(m[1]) : null;
}

export function createSessionStore(api: RestClient, notice: SessionNotice = () => {}) {
  return createStore<SessionState>()((set, get) => {
    const accept = (apiKey: string, apiSecret: string, source: SessionSource, sameAccount = false): void => {
      api.setCredentials(apiKey, apiSecret);
      set({ status: 'ready', apiKey, apiSecret, source, error: null, login: get().login + (sameAccount ? 0 : 1) });
    };
    /** Trades a `#token=...` of the URL (stripped from it first); true when it logged in. */
    const loginFromHash = async (): Promise<boolean> => {
      const token = tokenFromHash(window.location.hash);
      if (token === null) return false;
      history.replaceState(null, '', window.location.pathname + window.location.search);
      try {
        const r = await api.session(token);
        writeStored({ apiKey: r.api_key, apiSecret: r.api_secret, baseUrl: api.baseUrl, via: 'login' });
        accept(r.api_key, r.api_secret, 'token');
        return true;
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        set({ error: `The login link did not work: ${why}` });
        // a logged-in tab shows no login hint: said in a notice, the login kept
        const { status, apiKey } = get();
        if (status === 'ready' && apiKey !== null)
          notice('error', 'The login link did not work', `${why}. Still logged in with API key ${keyName(apiKey)}.`);
        return false;
      }
    };
    return {
      status: 'checking',
      apiKey: null,
      apiSecret: null,
      source: null,
      error: null,
      login: 0,
      actions: {
        async bootstrap() {
          const desk = desktopBootstrap();
          if (desk && desk.apiKey && desk.apiSecret) {
            accept(desk.apiKey, desk.apiSecret, 'desktop');
            return;
          }
          if (await loginFromHash()) return;
          const stored = readStored(api.baseUrl);
          if (stored) {
            accept(stored.apiKey, stored.apiSecret, 'session');
            return;
          }
          api.setCredentials(undefined, undefined);
          set({ status: 'anonymous', apiKey: null, apiSecret: null, source: null });
        },
        replace(apiKey, apiSecret) {
          const source = get().source ?? 'session';
          if (source !== 'desktop') writeStored({ apiKey, apiSecret, baseUrl: api.baseUrl, via: 'regenerated' });
          accept(apiKey, apiSecret, source, true);
        },
        logout() {
          endStored(LOGGED_OUT_ELSEWHERE);
          api.setCredentials(undefined, undefined);
          set({ status: 'anonymous', apiKey: null, apiSecret: null, source: null, error: null });
        },
        expire(message) {
          endStored(message);
          api.setCredentials(undefined, undefined);
          set({ status: 'anonymous', apiKey: null, apiSecret: null, source: null, error: message });
        },
        adoptStored() {
          const cur = get();
          if (cur.source === 'desktop') return false;
          const stored = readStored(api.baseUrl);
          if (stored === null || stored.apiKey === cur.apiKey) return false;
          accept(stored.apiKey, stored.apiSecret, cur.source ?? 'session', true);
          return true;
        },
        followLoginLinks() {
          const onHash = (): void => {
            // the desktop's account comes from its main process, never from a link
            if (get().source !== 'desktop') void loginFromHash();
          };
          window.addEventListener('hashchange', onHash);
          return () => window.removeEventListener('hashchange', onHash);
        },
        followOtherTabs(win) {
          const onStorage = (e: StorageChange): void => {
            if (e.key !== CREDENTIALS_KEY) return;
            // the desktop's account comes from its main process, never from another tab
            const cur = get();
            if (cur.source === 'desktop') return;
            if (e.newValue === null) {
              // another tab logged out (or its login ended): the stored login is gone for every tab
              if (cur.status !== 'ready') return;
              api.setCredentials(undefined, undefined);
              set({ status: 'anonymous', apiKey: null, apiSecret: null, source: null, error: endedWhy() });
              return;
            }
            const stored = parseStored(e.newValue, api.baseUrl);
            if (stored === null || stored.apiKey === cur.apiKey) return;
            accept(stored.apiKey, stored.apiSecret, cur.source ?? 'session', stored.via === 'regenerated');
            // a logged-in tab moved to another account by another tab's login (not its own key
            // regenerated there, which trades as the same account): said, not only seen in the figures
            if (cur.status === 'ready' && stored.via !== 'regenerated')
              notice(
                'info',
                'Logged in as another account',
                `Another tab of this browser logged in with API key ${keyName(stored.apiKey)}: this tab trades as that account now.`,
              );
          };
          win.addEventListener('storage', onStorage);
          return () => win.removeEventListener('storage', onStorage);
        },
      },
    };
  });
}
