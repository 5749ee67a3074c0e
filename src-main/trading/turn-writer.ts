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

type PendingEvent =
  { accountId: number; kind: 'order'; data: LiveOrder } | { accountId: number; kind: 'fill'; data: TradeState };

/**
 * Marks of one kind (a command's, or the turn's): a list emptied in place.
 *
 * Not a Set, nor an array emptied with `length = 0`: the lists live as long as the exchange (old
 * space), and V8 does not empty what a Set or Map leaves behind when it is cleared or rehashed
 * (the old table keeps its entries and points to the new one, for iterators) nor the backing
 * store an array drops. So every order, trade and string a turn marked stayed reachable from that
 * dead old-space table for the scavenger, was promoted, and waited for a full mark-compact: about
 * 280 bytes an order, 5 MB a second of old space at 9,000 signed orders a second (docs/
 * benchmarks-log.md, "ninth pass"). Here a slot is overwritten with `undefined` when the list is
 * emptied, so nothing it held outlives the turn.
 *
 * addOnce scans while the list is short (a command marks a handful of rows, a turn tens); past
 * INDEX_FROM entries it keeps a Set of them, made anew for each filling and dropped on clear (a
 * young table, which dies young).
 */
class Marks<T> {
  private static readonly INDEX_FROM = 32;
  private readonly items: Array<T | undefined> = [];
  private index: Set<T> | null = null;
  size = 0;

  add(x: T): void {
    this.items[this.size++] = x;
    this.index?.add(x);
  }

  /** Adds x unless it is already marked. */
  addOnce(x: T): void {
    if (this.index !== null) {
      if (this.index.has(x)) return;
      this.index.add(x);
    } else {
      for (let i = 0; i < this.size; i++) if (this.items[i] === x) return;
      if (this.size === Marks.INDEX_FROM) {
        this.index = new Set();
        for (let i = 0; i < this.size; i++) this.index.add(this.items[i] as T);
        this.index.add(x);
      }
    }
    this.items[this.size++] = x;
  }

  at(i: number): T {
    return this.items[i] as T;
  }

  /** Empties the list, keeping its storage (and no reference to what it held). */
  clear(): void {
    for (let i = 0; i < this.size; i++) this.items[i] = undefined;
    this.size = 0;
    this.index = null;
  }
}

/** The turn's write set: every command's marks since the last commit, each row once. */
interface TurnWrites {
  orders: Marks<LiveOrder>;
  trades: Marks<TradeState>;
  positions: Marks<PositionState>;
  closed: Marks<{ p: PositionState; closeType: number }>;
  wallets: Marks<AccountLive>;
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
  private readonly turn: TurnWrites = {
    orders: new Marks(),
    trades: new Marks(),
    positions: new Marks(),
    closed: new Marks(),
    wallets: new Marks(),
  };
  private turnScheduled = false;

  constructor(core: TradingCore) {
    this.core = core;
  }

  order(o: LiveOrder): void {
    this.orders.addOnce(o);
    this.marked = true;
  }

  /** A fill. */
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

  /**
   * A position this command closed changed after it went flat (a liquidation's clearance fee
   * joined its close fee): its history copy, not yet handed to the turn, takes its state again.
   */
  amendClosed(p: PositionState): void {
    for (let i = this.closed.size - 1; i >= 0; i--) {
      const c = this.closed.at(i);
      if (c.p.id === p.id) {
        Object.assign(c.p, p);
        return;
      }
    }
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
      for (let i = 0; i < orders.size; i++) turn.orders.addOnce(orders.at(i));
      for (let i = 0; i < trades.size; i++) turn.trades.add(trades.at(i));
      for (let i = 0; i < positions.size; i++) turn.positions.addOnce(positions.at(i));
      for (let i = 0; i < closed.size; i++) turn.closed.add(closed.at(i));
      for (let i = 0; i < wallets.size; i++) turn.wallets.addOnce(wallets.at(i));
      this.scheduleTurn();
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
    // every event of the command carries its time and number (made with them: one object shape)
    const time = core.now();
    const command = core.commands;
    // Each order once, with the state the command left, and before its fills: a resting order a
    // taker filled is marked after its fill, yet it goes first, as a taker's own order does.
    const orderEvents = new Map<number, Extract<PendingEvent, { kind: 'order' }>>();
    for (let i = 0; i < events.size; i++) {
      const ev = events.at(i);
      if (ev.kind === 'order' && !orderEvents.has(ev.data.id)) orderEvents.set(ev.data.id, ev);
    }
    const pushOrder = (ev: Extract<PendingEvent, { kind: 'order' }> | undefined): void => {
      if (ev === undefined || !orderEvents.delete(ev.data.id)) return;
      out.push({ accountId: ev.accountId, kind: 'order', data: orderRecord(core, ev.data), time, command });
    };
    for (let i = 0; i < events.size; i++) {
      const ev = events.at(i);
      if (ev.kind === 'order') pushOrder(ev);
      else {
        pushOrder(orderEvents.get(ev.data.orderId));
        out.push({ accountId: ev.accountId, kind: 'fill', data: tradeRecord(core, ev.data), time, command });
      }
    }
    const touched = new Set<number>();
    for (let i = 0; i < positions.size; i++) touched.add(positions.at(i).accountId);
    for (let i = 0; i < closed.size; i++) touched.add(closed.at(i).p.accountId);
    for (const id of touched)
      out.push({ accountId: id, kind: 'position', data: positionRecords(core, core.accounts.get(id)!), time, command });
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
      if (a) out.push({ accountId: id, kind: 'balance', data: summaryRecord(core, a), time, command });
    }
    if (out.length > 0) {
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
      for (let i = 0; i < t.orders.size; i++) repo.saveOrder(t.orders.at(i));
      for (let i = 0; i < t.trades.size; i++) repo.insertTrade(t.trades.at(i));
      for (let i = 0; i < t.positions.size; i++) {
        const p = t.positions.at(i);
        if (p.qty > 0) repo.savePosition(p);
        else repo.deletePosition(p.id);
      }
      for (let i = 0; i < t.closed.size; i++) {
        const c = t.closed.at(i);
        repo.insertClosed(c.p, c.closeType, c.p.updatedAt);
      }
      for (let i = 0; i < t.wallets.size; i++) {
        const a = t.wallets.at(i);
        repo.setWallet(a.id, a.wallet, now);
      }
    } finally {
      // emptied for the next turn (a failed write fails the commit, which stops the exchange)
      t.orders.clear();
      t.trades.clear();
      t.positions.clear();
      t.closed.clear();
      t.wallets.clear();
    }
  };

  private emitAll(out: AccountEvent[]): void {
    for (const ev of out) this.core.events.emit('account', ev);
  }

  /** The turn's writer runs in the coming commit (opening the batch when none is open). */
  private scheduleTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    this.core.deps.repo.group.defer(this.writeTurn);
  }

  /** Announces a private event once everything written before it is committed. */
  announce(ev: AccountEvent): void {
    const events = this.core.events;
    if (!events.has('account')) return;
    // What this command marked and has not flushed yet (a liquidation's close order) is what the
    // event reports: it waits for the commit that stores it. Without an open batch afterCommit
    // would emit it at once, before the order is written (the forceOrder streams, reading it back
    // by its id, then found none and pushed nothing).
    if (this.marked) this.scheduleTurn();
    const stamped = { ...ev, time: ev.time ?? this.core.now(), command: this.core.commands };
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
