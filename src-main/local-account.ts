// The desktop's own paper account, created on first run; the preload hands its credentials
// to the renderer so the trading screen signs requests like any bot.
import type { Account } from './core/account.ts';
import type { Venue } from './venue.ts';

export function ensureLocalAccount(venue: Venue, now = Date.now()): Account {
  return venue.accounts.ensureLocal(now);
}
