// The bot IP whitelist (DESIGN section 4, "Bot orders"), kept in settings as a JSON array.
//
// Entries are IP literals, no ranges. Loopback entries are always present: the desktop's own
// bots and the UI run on this machine, and a whitelist that locks them out could only be
// repaired by editing the database. Addresses are compared in one canonical text form, and an
// IPv4-mapped IPv6 address (::ffff:a.b.c.d, what a dual-stack socket reports for an IPv4
// caller) matches its IPv4 entry and the other way round.
import { isIPv4, isIPv6 } from 'node:net';
import type { SettingsStore } from './ports.ts';

const SETTINGS_KEY = 'bot_whitelist';

/** Always on the whitelist, first, in this order. */
const LOOPBACK_WHITELIST: readonly string[] = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];

const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * The canonical text of an IP literal, or null when `text` is not one: IPv4 dotted decimal as
 * given; IPv6 lower-case and compressed (RFC 5952, via the WHATWG URL serialiser), with an
 * IPv4-mapped address written as ::ffff:a.b.c.d. Zone ids (fe80::1%eth0) are refused.
 */
function canonicalIp(text: string): string | null {
  if (isIPv4(text)) return text;
  if (!isIPv6(text) || text.includes('%')) return null;
  let host: string;
  try {
    host = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const m = MAPPED_HEX.exec(host);
  if (m) {
    const hi = parseInt(m[1], 16);
    const lo = parseInt(m[2], 16);
    return `::ffff:${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return host;
}

/** The form two addresses are compared in: canonical, IPv4-mapped IPv6 reduced to IPv4. */
function matchKey(canonical: string): string {
  return canonical.startsWith('::ffff:') && isIPv4(canonical.slice(7)) ? canonical.slice(7) : canonical;
}

/** Whether `ip` is a loopback address (127.0.0.0/8, ::1, or their IPv4-mapped forms). */
export function isLoopbackIp(ip: string): boolean {
  if (ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1') return true;
  const c = canonicalIp(ip);
  if (c === null) return false;
  const k = matchKey(c);
  return k === '::1' || (isIPv4(k) && k.startsWith('127.'));
}

export type IpListResult = { ok: true; ips: string[] } | { ok: false; bad: string };

/** Canonical, de-duplicated entries with the loopback ones first; the first bad entry otherwise. */
export function parseIpList(ips: readonly string[]): IpListResult {
  const out: string[] = [...LOOPBACK_WHITELIST];
  const seen = new Set(out);
  for (const text of ips) {
    const c = typeof text === 'string' ? canonicalIp(text) : null;
    if (c === null) return { ok: false, bad: String(text) };
    if (!seen.has(c)) {
      seen.add(c);
      out.push(c);
    }
  }
  return { ok: true, ips: out };
}

// Results for caller addresses seen; bounded so a scan from many addresses cannot grow it.
const MEMO_LIMIT = 4096;

export class BotWhitelist {
  private readonly settings: SettingsStore;
  private entries: string[];
  private keys: Set<string>;
  private readonly memo = new Map<string, boolean>();

  constructor(settings: SettingsStore) {
    this.settings = settings;
    this.entries = this.load();
    this.keys = new Set(this.entries.map(matchKey));
  }

  /** The entries, loopback ones first. */
  list(): string[] {
    return [...this.entries];
  }

  /** Whether a caller at `ip` (as the socket reports it) may use the bot routes. */
  has(ip: string): boolean {
    const hit = this.memo.get(ip);
    if (hit !== undefined) return hit;
    const c = canonicalIp(ip);
    const yes = c !== null && this.keys.has(matchKey(c));
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(ip, yes);
    return yes;
  }

  /**
   * Replaces the whitelist with `ips` plus the loopback entries and stores it. Throws a
   * RangeError naming the first entry that is not an IP literal (callers validate first).
   */
  replace(ips: readonly string[]): string[] {
    const r = parseIpList(ips);
    if (!r.ok) throw new RangeError(`not an IP address: '${r.bad}'`);
    this.settings.set(SETTINGS_KEY, JSON.stringify(r.ips));
    this.entries = r.ips;
    this.keys = new Set(r.ips.map(matchKey));
    this.memo.clear();
    for (const l of [...this.changeListeners]) l();
    return this.list();
  }

  /**
   * Calls `listener` after every replace() (the WebSocket hub ends the `bot` stream of connections
   * whose IP is no longer on the list); returns its remover.
   */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private readonly changeListeners = new Set<() => void>();

  private load(): string[] {
    const raw = this.settings.get(SETTINGS_KEY);
    if (raw === undefined) return [...LOOPBACK_WHITELIST];
    try {
      const v: unknown = JSON.parse(raw);
      if (Array.isArray(v)) {
        // An entry that no longer parses is dropped rather than locking every bot out.
        const r = parseIpList(v.filter((x): x is string => typeof x === 'string' && canonicalIp(x) !== null));
        if (r.ok) return r.ips;
      }
    } catch {
      // fall through: a damaged value means the default list
    }
    return [...LOOPBACK_WHITELIST];
  }
}
