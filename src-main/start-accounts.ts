// The --account paper accounts a start creates or updates (startService, docs/headless.md
// "--account on an existing key"). An existing account changes its position mode first, as the
// admin API does: the exchange refuses (3015) while it holds a position or an open order, and
// then nothing else of it, nor of any other --account, is applied. A refusal names the --account: the start fails with it
// (service.ts closes the venue, the folder marked as a failed start). Before, the error named
// neither the key nor --account, the folder was left as a kill leaves it, and the wallet line of
// a change never stored was printed first.
import type { AccountSpec } from './cli-args.ts';
import { accountNotice } from './start-notices.ts';
import type { LocalVenue } from './venue.ts';

/**
 * Applies each --account to the venue, in order; returns the lines to say once they are stored
 * (accountNotice). Throws, naming the --account, when one is refused: before any is applied.
 */
export function applyStartAccounts(venue: LocalVenue, accounts: readonly AccountSpec[]): string[] {
  const modeOf = (id: number) => venue.exchange.summary(id).position_mode;
  // every refusal first, so a later --account refused leaves an earlier one unchanged too
  for (const a of accounts)
    named(a, () => {
      const before = venue.accounts.byKey(a.apiKey);
      if (before !== undefined && a.positionMode !== undefined && modeOf(before.id) !== a.positionMode)
        venue.exchange.checkPositionModeChange(before.id);
    });
  const notices: string[] = [];
  for (const a of accounts)
    named(a, () => {
      const before = venue.accounts.byKey(a.apiKey);
      // the mode is the account's, on every surface
      if (before !== undefined && a.positionMode !== undefined && modeOf(before.id) !== a.positionMode)
        venue.exchange.execute({ kind: 'setPositionMode', accountId: before.id, mode: a.positionMode });
      const row = venue.exchange.execute({
        kind: 'upsertAccount',
        spec: { apiKey: a.apiKey, apiSecret: a.apiSecret, kind: 'user', balance: a.balance },
        now: Date.now(),
      });
      const set = accountNotice(a.apiKey, before, row);
      if (set !== null) notices.push(set);
      if (a.positionMode !== undefined && modeOf(row.id) !== a.positionMode)
        venue.exchange.execute({ kind: 'setPositionMode', accountId: row.id, mode: a.positionMode });
      // its starting equity in the report is what it was made with, whatever its first command
      venue.replay?.report.baseline(row.id);
    });
  return notices;
}

/** Runs `f` for one --account; its error names the --account. */
function named(a: AccountSpec, f: () => void): void {
  try {
    f();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const mode = a.positionMode === undefined ? '' : ` (MODE ${a.positionMode})`;
    throw new Error(`--account ${a.apiKey}${mode}: ${why}`, { cause: err });
  }
}
