// The desktop's own paper account, created on first run; the preload hands its credentials
// to the renderer so the trading screen signs requests like any bot.
import { DEFAULT_PAPER_BALANCE, newApiKey, newApiSecret } from './accounts/credentials.ts';
import type { Account } from './core/account.ts';
import type { LocalVenue } from './venue.ts';

export function ensureLocalAccount(venue: LocalVenue, now = Date.now(), balance = DEFAULT_PAPER_BALANCE): Account {
  const existing = venue.accounts.firstOfKind('local');
  if (existing) return existing;
  // through the exchange, the venue's one sequencer of account changes
  const { id } = venue.exchange.execute({
    kind: 'upsertAccount',
    spec: { apiKey: newApiKey('local'), apiSecret: newApiSecret(), kind: 'local', balance },
    now,
  });
  return venue.accounts.byId(id)!;
}
