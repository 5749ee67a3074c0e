// The desktop's own paper account, created on first run; the preload hands its credentials
// to the renderer so the trading screen signs requests like any bot.
import { randomBytes } from 'node:crypto';
import { DEFAULT_PAPER_BALANCE } from './cli-args.ts';
import type { Account } from './store/accounts-repo.ts';
import type { Venue } from './venue.ts';

export function ensureLocalAccount(venue: Venue, now = Date.now()): Account {
  const existing = venue.accounts.firstOfKind('local');
  if (existing) return existing;
  // through the exchange, the venue's one sequencer of account changes
  const { id } = venue.exchange.execute({
    kind: 'upsertAccount',
    spec: {
      apiKey: `local_${randomBytes(12).toString('hex')}`,
      apiSecret: randomBytes(32).toString('hex'),
      kind: 'local',
      balance: DEFAULT_PAPER_BALANCE,
    },
    now,
  });
  return venue.accounts.byId(id)!;
}
