// The turn writer: what one command changed, handed to the store as one group-commit unit, and
// the private events it announces once that unit is committed.
//
// Invariants
// - A command marks what it changed (orders, trades, positions, closed positions, wallets) and
//   ends with flush(); flush moves the marks into the turn's write set, which the store's
//   commit writes once (group.defer): a row changed by ten commands of a turn is written once.
// - Positions are written in first-change order, so a flat position is deleted before a new one
//   takes its (account, symbol, side) key.
// - Private events are built from the state the command left (at flush) and emitted only after
//   the commit that stores them succeeded (group.afterCommit): nothing a crash could take back
//   is ever pushed.
// - With no 'account' listener nothing is formatted (the bot hot path pays for no records).
import type { PositionState } from '../risk/position.ts';
import type { AccountLive, LiveOrder, TradingCore } from './core.ts';
import type { AccountEvent } from './events.ts';
import type { TradeState } from './ports.ts';
import { orderRecord, positionRecords, summaryRecord, tradeRecord } from './views.ts';

interface TurnWrites {
  orders: Set<LiveOrder>;
  trades: TradeState[];
  positions: Set<PositionState>;
  closed: Array<{ p: PositionState; closeType: number }>;
  wallets: Set<AccountLive>;
}

function emptyTurn(): TurnWrites {
  return { orders: new Set(), trades: [], positions: new Set(), closed: [], wallets: new Set() };
}

type PendingEvent =
  { accountId: number; kind: 'order'; data: LiveOrder } | { accountId: number; kind: 'fill'; data: TradeState };

/**
 * A command's marks of one kind: a list emptied in place. Not a Set (a command marks a handful
 * of rows: a scan costs less than hashing, and Set.prototype.clear allocates a new table), nor an
 * array emptied with `length = 0` (which frees its storage, for the next push to allocate anew):
 * on the order path each of them was an allocation per order.
 */
class Marks<T> {
  private readonly items: Array<T | undefined> = [];
  size = 0;

  add(x: T): void {
    this.items[this.size++] = x;
  }

  /** Adds x unless it is already marked. */
  addOnce(x: T): void {
    for (let i = 0; i < this.size; i++) if (this.items[i] === x) return;
    this.items[this.size++] = x;
  }

  at(i: number): T {
    return this.items[i] as T;
  }

  /** Empties the list, keeping its storage (and no reference to what it held). */
  clear(): void {
    for (let i = 0; i < this.size; i++) this.items[i] = undefined;
    this.size = 0;
  }
}

export class TurnWriter {
  private readonly core: TradingCore;
  // this command's write set (emptied by flush, never replaced)
  private readonly orders = new Marks<LiveOrder>();
  private readonly trades = new Marks<TradeState>();
  private readonly positions = new Marks<PositionState>();
  private readonly closed = new Marks<{ p: PositionState; closeType: number }>();
  private readonly wallets = new Marks<AccountLive>();
  /** This command's private events, kept only while someone listens ('account'). */
  private readonly events = new Marks<PendingEvent>();
  /** Anything marked since the last flush (most house commands mark nothing: flush is then one test). */
  private marked = false;
  /** Changes of this event-loop turn not yet written (see flush / writeTurn; emptied, never replaced). */
  private readonly turn = emptyTurn();
  private turnScheduled = false;

  constructor(core: TradingCore) {
    this.core = core;
  }

  order(o: LiveOrder): void {
    this.orders.addOnce(o);
    this.marked = true;
  }

  trade(t: TradeState): void {
    this.trades.add(t);
    if (this.core.events.has('account')) this.events.add({ accountId: t.accountId, kind: 'fill', data: t });
    this.marked = true;
  }

  position(p: PositionState): void {
    this.positions.addOnce(p);
    this.marked = true;
  }

  /** A position went flat: a copy of its final state goes to the closed-position history. */
  closedPosition(p: PositionState, closeType: number): void {
    this.closed.add({ p: { ...p }, closeType });
    this.marked = true;
  }

  wallet(a: AccountLive): void {
    this.wallets.addOnce(a);
    this.marked = true;
  }

  /** An order changed: announced to its owner (cached bot orders to the house, account 0). */
  orderEvent(o: LiveOrder): void {
    if (o.isBot && !o.cached) return; // fire-and-forget bot orders are not announced
    if (!this.core.events.has('account')) return; // nobody to tell: nothing to keep
    this.events.add({ accountId: o.isBot ? 0 : o.accountId, kind: 'order', data: o });
    this.marked = true;
  }

  /**
   * Ends a command: its changes join the turn's write set, which the group commit writes once,
   * just before the turn's commit; a failed write fails that commit, whose listener stops the
   * exchange.
   */
  flush(): void {
    if (!this.marked) return;
    this.marked = false;
    const { orders, trades, positions, closed, wallets, events } = this;
    const writes = orders.size + trades.size + positions.size + closed.size + wallets.size;
    if (writes + events.size === 0) return;
    if (writes > 0) {
      const turn = this.turn;
      for (let i = 0; i < orders.size; i++) turn.orders.add(orders.at(i));
      for (let i = 0; i < trades.size; i++) turn.trades.push(trades.at(i));
      for (let i = 0; i < positions.size; i++) turn.positions.add(positions.at(i));
      for (let i = 0; i < closed.size; i++) turn.closed.push(closed.at(i));
      for (let i = 0; i < wallets.size; i++) turn.wallets.add(wallets.at(i));
      if (!this.turnScheduled) {
        this.turnScheduled = true;
        this.core.deps.repo.group.defer(this.writeTurn);
      }
    }
    if (this.core.events.has('account')) this.announceCommand();
    // the command's lists are emptied for the next one, not made anew (a command per order)
    orders.clear();
    trades.clear();
    positions.clear();
    closed.clear();
    wallets.clear();
    events.clear();
  }

  /**
   * The private events of the command being flushed. Records are taken now (the state this
   * command left); they go out once the commit that stores them succeeded, so no push
   * announces what a crash could still take back.
   */
  private announceCommand(): void {
    const core = this.core;
    const { positions, closed, wallets, events } = this;
    const out: AccountEvent[] = [];
    const seen = new Set<unknown>();
    for (let i = 0; i < events.size; i++) {
      const ev = events.at(i);
      if (ev.kind === 'order') {
        if (seen.has(ev.data)) continue;
        seen.add(ev.data);
        out.push({ accountId: ev.accountId, kind: 'order', data: orderRecord(core, ev.data) });
      } else {
        out.push({ accountId: ev.accountId, kind: 'fill', data: tradeRecord(core, ev.data) });
      }
    }
    const touched = new Set<number>();
    for (let i = 0; i < positions.size; i++) touched.add(positions.at(i).accountId);
    for (let i = 0; i < closed.size; i++) touched.add(closed.at(i).p.accountId);
    for (const id of touched)
      out.push({ accountId: id, kind: 'position', data: positionRecords(core, core.accounts.get(id)!) });
    // The summary moves with the wallet, and also with the order margin an order freezes or
    // frees and the position margin a fill changes: one balance push per account concerned.
    const balances = new Set<number>();
    for (let i = 0; i < wallets.size; i++) balances.add(wallets.at(i).id);
    for (let i = 0; i < events.size; i++) {
      const ev = events.at(i);
      if (ev.kind === 'order' && ev.accountId > 0) balances.add(ev.accountId);
    }
    for (const id of touched) balances.add(id);
    for (const id of balances) {
      const a = core.accounts.get(id);
      if (a) out.push({ accountId: id, kind: 'balance', data: summaryRecord(core, a) });
    }
    if (out.length > 0) {
      const time = core.now();
      for (const ev of out) ev.time = time;
      core.deps.repo.group.afterCommit(() => this.emitAll(out));
    }
  }

  /** Writes the turn's changes (run by the group commit inside its transaction). */
  private readonly writeTurn = (): void => {
    const { repo } = this.core.deps;
    const t = this.turn;
    this.turnScheduled = false;
    const now = this.core.now();
    try {
      for (const o of t.orders) repo.saveOrder(o);
      for (const tr of t.trades) repo.insertTrade(tr);
      for (const p of t.positions) {
        if (p.qty > 0) repo.savePosition(p);
        else repo.deletePosition(p.id);
      }
      for (const c of t.closed) repo.insertClosed(c.p, c.closeType, c.p.updatedAt);
      for (const a of t.wallets) repo.setWallet(a.id, a.wallet, now);
    } finally {
      // emptied for the next turn (a failed write fails the commit, which stops the exchange)
      t.orders.clear();
      t.trades.length = 0;
      t.positions.clear();
      t.closed.length = 0;
      t.wallets.clear();
    }
  };

  private emitAll(out: AccountEvent[]): void {
    for (const ev of out) this.core.events.emit('account', ev);
  }

  /** Announces a private event once everything written before it is committed. */
  announce(ev: AccountEvent): void {
    const events = this.core.events;
    if (!events.has('account')) return;
    const stamped = ev.time === undefined ? { ...ev, time: this.core.now() } : ev;
    this.core.deps.repo.group.afterCommit(() => events.emit('account', stamped));
  }

  /** Announces an account's balance summary (as it is now) after the commit. */
  announceBalance(a: AccountLive): void {
    if (this.core.events.has('account'))
      this.announce({ accountId: a.id, kind: 'balance', data: summaryRecord(this.core, a) });
  }

  /** Announces an account's position list (as it is now) after the commit. */
  announcePositions(a: AccountLive): void {
    if (this.core.events.has('account'))
      this.announce({ accountId: a.id, kind: 'position', data: positionRecords(this.core, a) });
  }
}
