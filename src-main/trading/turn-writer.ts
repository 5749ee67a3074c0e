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

export class TurnWriter {
  private readonly core: TradingCore;
  // This command's write set, emptied by flush and never replaced. Arrays, not Sets: a command
  // marks a handful of rows, a scan of them costs less than hashing, and emptying an array
  // allocates nothing (Set.prototype.clear allocates a new table, on every order).
  private readonly orders: LiveOrder[] = [];
  private readonly trades: TradeState[] = [];
  private readonly positions: PositionState[] = [];
  private readonly closed: Array<{ p: PositionState; closeType: number }> = [];
  private readonly wallets: AccountLive[] = [];
  private readonly events: PendingEvent[] = [];
  /** Anything marked since the last flush (most house commands mark nothing: flush is then one test). */
  private marked = false;
  /** Changes of this event-loop turn not yet written (see flush / writeTurn; emptied, never replaced). */
  private readonly turn = emptyTurn();
  private turnScheduled = false;

  constructor(core: TradingCore) {
    this.core = core;
  }

  order(o: LiveOrder): void {
    if (!this.orders.includes(o)) this.orders.push(o);
    this.marked = true;
  }

  trade(t: TradeState): void {
    this.trades.push(t);
    this.events.push({ accountId: t.accountId, kind: 'fill', data: t });
    this.marked = true;
  }

  position(p: PositionState): void {
    if (!this.positions.includes(p)) this.positions.push(p);
    this.marked = true;
  }

  /** A position went flat: a copy of its final state goes to the closed-position history. */
  closedPosition(p: PositionState, closeType: number): void {
    this.closed.push({ p: { ...p }, closeType });
    this.marked = true;
  }

  wallet(a: AccountLive): void {
    if (!this.wallets.includes(a)) this.wallets.push(a);
    this.marked = true;
  }

  /** An order changed: announced to its owner (cached bot orders to the house, account 0). */
  orderEvent(o: LiveOrder): void {
    if (o.isBot && !o.cached) return; // fire-and-forget bot orders are not announced
    this.events.push({ accountId: o.isBot ? 0 : o.accountId, kind: 'order', data: o });
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
    const writes = orders.length + trades.length + positions.length + closed.length + wallets.length;
    if (writes + events.length === 0) return;
    if (writes > 0) {
      const turn = this.turn;
      for (const o of orders) turn.orders.add(o);
      for (const t of trades) turn.trades.push(t);
      for (const p of positions) turn.positions.add(p);
      for (const c of closed) turn.closed.push(c);
      for (const a of wallets) turn.wallets.add(a);
      if (!this.turnScheduled) {
        this.turnScheduled = true;
        this.core.deps.repo.group.defer(this.writeTurn);
      }
    }
    if (this.core.events.has('account')) this.announceCommand();
    // the command's lists are emptied for the next one, not made anew (a command per order)
    orders.length = 0;
    trades.length = 0;
    positions.length = 0;
    closed.length = 0;
    wallets.length = 0;
    events.length = 0;
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
    for (const ev of events) {
      if (ev.kind === 'order') {
        if (seen.has(ev.data)) continue;
        seen.add(ev.data);
        out.push({ accountId: ev.accountId, kind: 'order', data: orderRecord(core, ev.data) });
      } else {
        out.push({ accountId: ev.accountId, kind: 'fill', data: tradeRecord(core, ev.data) });
      }
    }
    const touched = new Set<number>();
    for (const p of positions) touched.add(p.accountId);
    for (const c of closed) touched.add(c.p.accountId);
    for (const id of touched)
      out.push({ accountId: id, kind: 'position', data: positionRecords(core, core.accounts.get(id)!) });
    // The summary moves with the wallet, and also with the order margin an order freezes or
    // frees and the position margin a fill changes: one balance push per account concerned.
    const balances = new Set<number>();
    for (const a of wallets) balances.add(a.id);
    for (const ev of events) if (ev.kind === 'order' && ev.accountId > 0) balances.add(ev.accountId);
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
