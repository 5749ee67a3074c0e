// Turns engine events into plain objects, in order: for tests, determinism checks (JSON of the
// list is byte-stable) and the service layer, which can drain it after each command.
// Allocates per event by design; use CountingSink or a custom sink where that matters. One
// exception, asked for by the caller of a command (`columns`): trades between two quiet accounts
// while nothing else is recorded are kept as numbers (a replay's house prints), and become
// objects, in their place, as soon as anything else is recorded or take() is called, so `events`
// and take() always read every event in order.

import type { EngineSink } from './types.ts';

export type EngineEvent =
  | {
      type: 'accepted';
      orderId: number;
      account: number;
      side: number;
      orderType: number;
      tif: number;
      priceTicks: number;
      qtyLots: number;
      flags: number;
    }
  | { type: 'rejected'; command: number; orderId: number; account: number; reason: number }
  | {
      type: 'trade';
      makerId: number;
      makerAccount: number;
      takerId: number;
      takerAccount: number;
      priceTicks: number;
      qtyLots: number;
      takerSide: number;
    }
  | { type: 'partiallyFilled'; orderId: number; account: number; filledLots: number; remainingLots: number }
  | { type: 'filled'; orderId: number; account: number; filledLots: number }
  | {
      type: 'amended';
      orderId: number;
      account: number;
      priceTicks: number;
      qtyLots: number;
      remainingLots: number;
      priorityKept: boolean;
    }
  | { type: 'cancelled'; orderId: number; account: number; remainingLots: number; reason: number }
  | { type: 'expired'; orderId: number; account: number; remainingLots: number; reason: number }
  | { type: 'level'; updateId: number; side: number; priceTicks: number; totalLots: number };

export class RecordingSink implements EngineSink {
  events: EngineEvent[] = [];
  /**
   * Accounts whose orders' lifecycle (accepted, fills of the order itself, amended, cancelled,
   * expired) is not recorded: only their trades, level changes and rejections are. For orders
   * nobody tracks (a replay's historical book and prints); empty by default. The set may grow
   * while the sink holds it (the exchange's reserved accounts), not shrink: assign a new one.
   */
  get quiet(): ReadonlySet<number> {
    return this.quietSet;
  }
  set quiet(accounts: ReadonlySet<number>) {
    this.quietSet = accounts;
    this.q0 = Number.NaN;
    this.q1 = Number.NaN;
  }
  private quietSet: ReadonlySet<number> = new Set();
  /**
   * Level changes are recorded (the default). Off while nobody reads them (the exchange turns it
   * off while its 'level' event has no listener): a replay with no client changes levels millions
   * of times, and an event built for nobody is an allocation a level.
   */
  levels = true;
  // the last two accounts found quiet (a replay's book and taker accounts): a set look-up costs
  // more than two comparisons. The set
  // only grows while it is the sink's (a new set resets these).
  private q0 = Number.NaN;
  private q1 = Number.NaN;

  /** The account's order lifecycle is not recorded. */
  private isQuiet(account: number): boolean {
    if (account === this.q0 || account === this.q1) return true;
    if (this.quietSet.size === 0 || !this.quietSet.has(account)) return false;
    this.q1 = this.q0;
    this.q0 = account;
    return true;
  }

  /**
   * While true, a trade between two quiet accounts recorded while `events` is empty is kept in
   * `cols` (7 numbers a trade, as onTrade's arguments; `colTrades` of them) instead of an object:
   * the caller of a command sets it, runs the command and reads the trades from `cols` when
   * `events` is still empty (then sets `colTrades` to 0), else reads `events` as usual. Off by
   * default: nothing changes for a caller that does not ask.
   */
  columns = false;
  /** Trades kept in `cols` (never while `events` holds anything: the first other event turns them into objects). */
  colTrades = 0;
  /** makerId, makerAccount, takerId, takerAccount, priceTicks, qtyLots, takerSide of each trade kept. */
  cols = new Float64Array(7 * 16);

  /** The events recorded since the last take(), and forget them. */
  take(): EngineEvent[] {
    if (this.colTrades > 0) this.spill();
    const e = this.events;
    this.events = [];
    return e;
  }

  /** The trades kept as numbers become event objects, in order, ahead of what comes next. */
  private spill(): void {
    const c = this.cols;
    const n = this.colTrades;
    this.colTrades = 0;
    for (let k = 0; k < n; k++) {
      const b = k * 7;
      this.events.push({
        type: 'trade',
        makerId: c[b],
        makerAccount: c[b + 1],
        takerId: c[b + 2],
        takerAccount: c[b + 3],
        priceTicks: c[b + 4],
        qtyLots: c[b + 5],
        takerSide: c[b + 6],
      });
    }
  }

  // eslint-disable-next-line max-params -- EngineSink callback: the engine calls it per event with primitives, allocating nothing
  onAccepted(
    orderId: number,
    account: number,
    side: number,
    orderType: number,
    tif: number,
    priceTicks: number,
    qtyLots: number,
    flags: number,
  ): void {
    if (this.isQuiet(account)) return;
    if (this.colTrades > 0) this.spill();
    this.events.push({ type: 'accepted', orderId, account, side, orderType, tif, priceTicks, qtyLots, flags });
  }
  onRejected(command: number, orderId: number, account: number, reason: number): void {
    if (this.colTrades > 0) this.spill();
    this.events.push({ type: 'rejected', command, orderId, account, reason });
  }
  // eslint-disable-next-line max-params -- EngineSink callback: the engine calls it per event with primitives, allocating nothing
  onTrade(
    makerId: number,
    makerAccount: number,
    takerId: number,
    takerAccount: number,
    priceTicks: number,
    qtyLots: number,
    takerSide: number,
  ): void {
    if (this.columns && this.events.length === 0 && this.isQuiet(makerAccount) && this.isQuiet(takerAccount)) {
      const n = this.colTrades;
      if ((n + 1) * 7 > this.cols.length) {
        const bigger = new Float64Array(this.cols.length * 2);
        bigger.set(this.cols);
        this.cols = bigger;
      }
      const c = this.cols;
      const b = n * 7;
      c[b] = makerId;
      c[b + 1] = makerAccount;
      c[b + 2] = takerId;
      c[b + 3] = takerAccount;
      c[b + 4] = priceTicks;
      c[b + 5] = qtyLots;
      c[b + 6] = takerSide;
      this.colTrades = n + 1;
      return;
    }
    if (this.colTrades > 0) this.spill();
    this.events.push({ type: 'trade', makerId, makerAccount, takerId, takerAccount, priceTicks, qtyLots, takerSide });
  }
  onPartiallyFilled(orderId: number, account: number, filledLots: number, remainingLots: number): void {
    if (this.isQuiet(account)) return;
    if (this.colTrades > 0) this.spill();
    this.events.push({ type: 'partiallyFilled', orderId, account, filledLots, remainingLots });
  }
  onFilled(orderId: number, account: number, filledLots: number): void {
    if (this.isQuiet(account)) return;
    if (this.colTrades > 0) this.spill();
    this.events.push({ type: 'filled', orderId, account, filledLots });
  }
  // eslint-disable-next-line max-params -- EngineSink callback: the engine calls it per event with primitives, allocating nothing
  onAmended(
    orderId: number,
    account: number,
    priceTicks: number,
    qtyLots: number,
    remainingLots: number,
    priorityKept: boolean,
  ): void {
    if (this.isQuiet(account)) return;
    if (this.colTrades > 0) this.spill();
    this.events.push({ type: 'amended', orderId, account, priceTicks, qtyLots, remainingLots, priorityKept });
  }
  onCancelled(orderId: number, account: number, remainingLots: number, reason: number): void {
    if (this.isQuiet(account)) return;
    if (this.colTrades > 0) this.spill();
    this.events.push({ type: 'cancelled', orderId, account, remainingLots, reason });
  }
  onExpired(orderId: number, account: number, remainingLots: number, reason: number): void {
    if (this.isQuiet(account)) return;
    if (this.colTrades > 0) this.spill();
    this.events.push({ type: 'expired', orderId, account, remainingLots, reason });
  }
  onLevelChanged(updateId: number, side: number, priceTicks: number, totalLots: number): void {
    if (!this.levels) return;
    if (this.colTrades > 0) this.spill();
    this.events.push({ type: 'level', updateId, side, priceTicks, totalLots });
  }
}
