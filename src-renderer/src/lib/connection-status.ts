// What the top bar says about the market connection and the market clock. A short drop
// (a reconnect that succeeds within `graceMs`) stays a quiet "Reconnecting"; a drop that
// lasts becomes a prominent "Disconnected — reconnecting…", because by then every price,
// PnL and the book on screen is stale. A paused market clock (the simulator paused from
// Settings) is said too, else frozen trades and a frozen funding countdown look like a
// fault. A replay venue's open connection is "Connected", never "Live": its market is
// history (its banner says whether it plays); a replay found gone (its service stopped) is
// "Replay ended", not "reconnecting" forever. A venue that cannot store changes says so beside it
// (storeView): a failed store commit for good, a nearly full disk until a change is accepted
// again (store-status.ts). Pure: the view hands in the states and the wall clock.
import type { WsState } from '../../../src-shared/sdk/ws-client.ts';
import type { StoreStatus } from './store-status.ts';

export const DISCONNECTED_GRACE_MS = 3000;

export interface ConnectionView {
  label: string;
  /** Dot colour / banner style. */
  tone: 'ok' | 'warn' | 'bad';
  /** The loud banner: the data on screen is not live. */
  prominent: boolean;
  /** Whether the market connection is down (orders are not offered). */
  down: boolean;
}

/** The venue's market as the top bar names it: the live market running or paused, a replay, or a replay gone. */
type MarketKind = 'live' | 'paused' | 'replay' | 'replay-ended';

export function connectionView(
  ws: WsState,
  downSince: number | null,
  market: MarketKind,
  now: number,
  graceMs = DISCONNECTED_GRACE_MS,
): ConnectionView {
  if (market === 'replay-ended') return { label: 'Replay ended', tone: 'bad', prominent: true, down: true };
  if (ws === 'open')
    return market === 'paused'
      ? { label: 'Market paused', tone: 'warn', prominent: true, down: false }
      : { label: market === 'replay' ? 'Connected' : 'Live', tone: 'ok', prominent: false, down: false };
  if (ws === 'reconnecting' || ws === 'closed') {
    const long = ws === 'closed' || (downSince !== null && now - downSince >= graceMs);
    if (!long) return { label: 'Reconnecting', tone: 'warn', prominent: false, down: true };
    return {
      label: ws === 'closed' ? 'Disconnected' : 'Disconnected — reconnecting…',
      tone: 'bad',
      prominent: true,
      down: true,
    };
  }
  return { label: 'Connecting', tone: 'warn', prominent: false, down: false };
}

/** Whether the market connection is lost (it was open or tried, and is not now). */
export function marketDown(ws: WsState): boolean {
  return ws === 'reconnecting' || ws === 'closed';
}

/**
 * The top bar's banner about the venue's store, or null while it stores: a failed commit is a
 * bad-tone "Changes cannot be stored — <cause and what to do>", a nearly full disk a warn-tone
 * one with the venue's 5002 message. Both prominent: every change is refused meanwhile.
 */
export function storeView(s: StoreStatus): { label: string; tone: 'warn' | 'bad' } | null {
  if (s.kind === 'failed') return { label: `Changes cannot be stored — ${s.cause}`, tone: 'bad' };
  if (s.kind === 'full') return { label: s.message, tone: 'warn' };
  return null;
}
