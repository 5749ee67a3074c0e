// Which loaded accounts a failed commit left ahead of the store.
//
// After a failed group commit the exchange's memory holds the batch's changes and the store does
// not (SQLite rolled them back), and it takes no further change (core.ts fatal). An account the
// batch did not touch is, in memory, exactly what the store holds and what a restart loads: its
// reads stay true and go on. An account it touched shows what a restart loses: its reads are
// refused (5001 naming the failure) rather than answered with figures that vanish. Which is
// which is found once, at the failure, by comparing each loaded account with its stored rows the
// way a start loads them (core.ts restore): the account row, open positions, open orders, pair
// settings, waiting conditional orders. Nothing is tracked on the order path for it. A field the
// store keeps and memory differs on, or a row on one side only, puts the account ahead; when the
// store cannot be read, every account is.
import type { PositionState } from '../risk/position.ts';
import type { ConditionalState, ExchangeDeps, OrderState } from './ports.ts';

type Row = object;

/** What is compared of a loaded account (core.ts AccountLive). */
export interface LoadedAccount {
  id: number;
  wallet: bigint;
  deposits: bigint;
  mode: string;
  positions: ReadonlyMap<string, PositionState>;
  orders: { values(): Iterable<OrderState> };
  pairs: ReadonlyMap<string, { leverage: number; marginMode: number }>;
}

/** Whether `mem` has every field of the stored `row` with the same value. */
function sameFields(row: Row, mem: Row): boolean {
  const m = mem as Record<string, unknown>;
  for (const [k, v] of Object.entries(row)) {
    const w = m[k];
    // memory leaves a false flag out where the store reads 0 (expiredInMatch)
    if (v !== w && !(v === false && w === undefined)) return false;
  }
  return true;
}

/** Rows by account, then by id. */
function byAccount<T extends { accountId: number }>(
  rows: readonly T[],
  key: (r: T) => string,
): Map<number, Map<string, T>> {
  const out = new Map<number, Map<string, T>>();
  for (const r of rows) {
    let m = out.get(r.accountId);
    if (m === undefined) out.set(r.accountId, (m = new Map()));
    m.set(key(r), r);
  }
  return out;
}

/** Whether the stored rows and the memory objects (keyed alike) hold the same. */
function sameSet<T extends Row>(stored: Map<string, T> | undefined, mem: Map<string, Row>): boolean {
  if ((stored?.size ?? 0) !== mem.size) return false;
  for (const [k, row] of stored ?? []) {
    const m = mem.get(k);
    if (m === undefined || !sameFields(row, m)) return false;
  }
  return true;
}

/** The loaded accounts whose memory differs from the store; null when the store could not be read (all differ). */
export function accountsAheadOfStore(
  deps: Pick<ExchangeDeps, 'repo' | 'accounts' | 'conditionals'>,
  loaded: Iterable<LoadedAccount>,
  waitingNow: Iterable<ConditionalState>,
): Set<number> | null {
  const { repo, accounts, conditionals } = deps;
  try {
    const positions = byAccount(repo.loadPositions(), (p) => String(p.id));
    const orders = byAccount(repo.loadOpenOrders(), (o) => String(o.id));
    const pairs = byAccount(repo.loadPairSettings(), (s) => s.symbol);
    const waiting = byAccount(conditionals.loadWaiting(), (c) => String(c.id));
    const memWaiting = new Map<number, Map<string, Row>>();
    for (const c of waitingNow) {
      let m = memWaiting.get(c.accountId);
      if (m === undefined) memWaiting.set(c.accountId, (m = new Map()));
      m.set(String(c.id), c);
    }
    const ahead = new Set<number>();
    for (const a of loaded) {
      const row = accounts.byId(a.id);
      const same =
        row !== undefined &&
        row.walletBalance === a.wallet &&
        row.totalDeposits === a.deposits &&
        row.positionMode === a.mode &&
        sameSet(positions.get(a.id), openPositions(a)) &&
        sameSet(orders.get(a.id), new Map([...a.orders.values()].map((o) => [String(o.id), o]))) &&
        sameSet(pairs.get(a.id), new Map([...a.pairs].map(([s, p]) => [s, { accountId: a.id, symbol: s, ...p }]))) &&
        sameSet(waiting.get(a.id), memWaiting.get(a.id) ?? new Map());
      if (!same) ahead.add(a.id);
    }
    return ahead;
  } catch {
    return null;
  }
}

function openPositions(a: LoadedAccount): Map<string, Row> {
  const out = new Map<string, Row>();
  for (const p of a.positions.values()) if (p.qty > 0) out.set(String(p.id), p);
  return out;
}
