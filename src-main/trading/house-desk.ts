// The house desk: a replay's house commands on one pair as numbers (Exchange.houseDesk). The
// same commands as 'houseOrder', 'housePrint', 'houseTrim' and 'houseGrow' (house-orders.ts),
// with the same checks, refusals, engine calls, trades and ids, without a command object, the
// execute() dispatch or an answer object; the pair and its two house accounts are bound once.
// Invariants
// - A call runs to its end like any command (synchronously, nothing in between); a call that
//   throws ApiError has changed nothing.
// - Trades between the desk's two accounts, while the engine records nothing else for the
//   command, come from the engine's sink as numbers (RecordingSink.columns) and are booked as
//   apply() books a trade of two untracked orders: trade id, last price, 'trade' event, in the
//   engine's order. Anything else recorded (a user's order met, level changes a client listens
//   for) goes through drain() as for every command.
// - The trades it books itself (`booked` counts them) reach every 'trade' listener but `unheard`,
//   the caller's own, which counts them from `booked` instead.
// - A call does not fire the last-price take-profits / stop-losses its trades reach: its caller's
//   print may still be under way (a close sent in between would take the orders it is working
//   with). The trades are noted as any others; the caller fires them once its print is over
//   (Exchange.fireTradeTriggers), and the next command does if it does not.
import { Side, TimeInForce } from '../../src-shared/enums.ts';
import { StpMode } from '../engine/types.ts';
import type { TradingCore } from './core.ts';
import { drain } from './fills.ts';
import type { TradeEvent } from './events.ts';
import { checkHouseOrder, checkHousePrint, growHouseOrderOf, trimHouseOrderOf } from './house-orders.ts';
import type { PairState } from './pair-state.ts';

export class HouseDesk {
  /** The order id of the last place(), take() or print() placing a level (the refused ones take none). */
  orderId = 0;
  private readonly core: TradingCore;
  private readonly pair: PairState;
  private readonly book: number;
  private readonly taker: number;
  /** Trades the desk booked itself (a print, a front take, the house's trades kept as numbers). */
  booked = 0;
  /**
   * The caller's 'trade' listener, not called for the trades the desk books itself (it reads
   * `booked`); it hears every other trade as before. Null: every listener hears them.
   */
  unheard: ((e: TradeEvent) => void) | null = null;
  /** A call is running (a 'trade' listener calling the desk again would read the sink's numbers half-used). */
  private busy = false;

  constructor(core: TradingCore, pair: PairState, accounts: { book: number; taker: number }) {
    this.core = core;
    this.pair = pair;
    this.book = accounts.book;
    this.taker = accounts.taker;
  }

  /**
   * A GTC order of the book account (the 'houseOrder' command, tif GTC; `expireOwn` as there);
   * returns the lots it took on entry, its id in `orderId`.
   */
  place(side: number, priceTicks: number, lots: number, expireOwn: boolean): number {
    return this.order(this.book, TimeInForce.GTC, side, priceTicks, lots, expireOwn);
  }

  /** An IOC order of the taker account (the 'houseOrder' command, tif IOC); returns the lots it took, its id in `orderId`. */
  take(side: number, priceTicks: number, lots: number): number {
    return this.order(this.taker, TimeInForce.IOC, side, priceTicks, lots, false);
  }

  /**
   * take() when the order it would meet first covers it: `makerId`, the book account's order at
   * the front of the best level of the resting side at `priceTicks`, with `lots` or more left.
   * The engine would match the taker with that order alone, so the print is booked as it would
   * book it without placing the taker: its order id taken, the maker's order reduced in place (or
   * gone at 0: the same one level change and update id), then the trade. Any other order: take().
   */
  takeFront(takerSide: number, priceTicks: number, lots: number, makerId: number): number {
    const core = this.core;
    core.checkHealthy();
    const pair = this.pair;
    checkHouseOrder(pair, takerSide, this.taker, lots, priceTicks);
    const book = pair.book;
    const rem = book.headRemaining(makerId, this.book, takerSide === Side.BUY ? Side.SELL : Side.BUY, priceTicks);
    if (rem < lots) return this.take(takerSide, priceTicks, lots);
    this.orderId = core.takeOrderId();
    book.trimOrder(makerId, rem - lots);
    // the trade first, then what the engine recorded (the level's change when a client listens),
    // in the engine's order for a taker
    this.book1(priceTicks, lots, takerSide);
    drain(core, pair, null);
    core.writer.flush();
    return lots;
  }

  /**
   * A print between the book account (maker, keeping `rest` at the price) and the taker account
   * (the 'housePrint' command); returns the lots printed.
   */
  print(takerSide: number, priceTicks: number, lots: number, rest: number, expireOwn: boolean): number {
    const core = this.core;
    core.checkHealthy();
    const pair = this.pair;
    if (expireOwn === true && rest > 0 && this.replaceOwn(takerSide, priceTicks, lots, rest)) {
      this.book1(priceTicks, lots, takerSide);
      core.writer.flush();
      return lots;
    }
    checkHousePrint(pair, this.book, this.taker, takerSide, priceTicks, lots, rest, expireOwn);
    if (rest > 0) {
      const restSide = takerSide === Side.BUY ? Side.SELL : Side.BUY;
      const id = core.takeOrderId();
      this.orderId = id;
      pair.book.placeLimit(
        id,
        this.book,
        restSide,
        priceTicks,
        rest,
        TimeInForce.GTC,
        0,
        -1,
        expireOwn ? StpMode.ExpireMaker : 0,
      );
      drain(core, pair, null);
    }
    this.book1(priceTicks, lots, takerSide);
    core.writer.flush();
    return lots;
  }

  /**
   * The maker's order of a print that moves the book account's quote across the price (its own
   * level at the price on the taker's side, nothing on the resting side at or better than the
   * price): checked as checkHousePrint checks it, where the engine's read of the book
   * (replacesOwnLevel) decides its checks of the book, then placed by replaceOwnLevel, which does
   * what placeLimit with ExpireMaker does there. False, nothing changed and no id taken, in any
   * other case (the print goes the general way, which refuses what is to be refused); throws the
   * refusal of checkHousePrint's order checks.
   */
  private replaceOwn(takerSide: number, priceTicks: number, lots: number, rest: number): boolean {
    // checkHousePrint's argument checks, in its order, before its two order checks
    if ((takerSide !== Side.BUY && takerSide !== Side.SELL) || !Number.isSafeInteger(rest) || this.book === this.taker)
      return false;
    const pair = this.pair;
    const restSide = takerSide === Side.BUY ? Side.SELL : Side.BUY;
    checkHouseOrder(pair, restSide, this.book, lots + rest, priceTicks);
    checkHouseOrder(pair, takerSide, this.taker, lots, priceTicks);
    const book = pair.book;
    if (!book.replacesOwnLevel(this.book, restSide, priceTicks)) return false;
    const id = this.core.takeOrderId();
    this.orderId = id;
    if (!book.replaceOwnLevel(id, this.book, restSide, priceTicks, rest))
      book.placeLimit(id, this.book, restSide, priceTicks, rest, TimeInForce.GTC, 0, -1, StpMode.ExpireMaker);
    drain(this.core, pair, null);
    return true;
  }

  /** A resting house order reduced to `lots` in place, 0 cancels it (the 'houseTrim' command); returns `lots`. */
  trim(orderId: number, lots: number): number {
    return trimHouseOrderOf(this.core, this.pair, orderId, lots);
  }

  /** The last order of its level grown to `lots` in place (the 'houseGrow' command); returns `lots`. */
  grow(orderId: number, lots: number): number {
    this.core.checkHealthy();
    return growHouseOrderOf(this.core, this.pair, orderId, lots);
  }

  /**
   * A trade between the desk's untracked orders, booked as recordUntrackedTrade (fills.ts) books it
   * (trade id, last price, the 'trade' event), every listener but `unheard` called.
   */
  private book1(priceTicks: number, qtyLots: number, takerSide: number): void {
    const core = this.core;
    const pair = this.pair;
    const time = core.now();
    const tradeId = core.takeTradeId();
    pair.lastPriceTicks = priceTicks;
    if (pair.lastWatch.size !== 0 || pair.lastConditionals !== 0) core.noteTrade(pair, priceTicks);
    this.booked++;
    core.events.emit('trade', { symbol: pair.row.symbol, tradeId, priceTicks, qtyLots, takerSide, time }, this.unheard);
  }

  private enter(): void {
    if (this.busy) throw new Error('the house desk was called from inside one of its own calls');
    this.busy = true;
  }

  /** A house order of `account` (the 'houseOrder' command's work after its shape checks). */
  // eslint-disable-next-line max-params -- per print: the command's own numbers, nothing allocated per call
  private order(
    account: number,
    tif: number,
    side: number,
    priceTicks: number,
    lots: number,
    expireOwn: boolean,
  ): number {
    const core = this.core;
    core.checkHealthy();
    const pair = this.pair;
    checkHouseOrder(pair, side, account, lots, priceTicks);
    this.enter();
    try {
      const id = core.takeOrderId();
      this.orderId = id;
      const sink = pair.sink;
      sink.columns = true;
      try {
        pair.book.placeLimit(id, account, side, priceTicks, lots, tif, 0, -1, expireOwn ? StpMode.ExpireMaker : 0);
      } finally {
        sink.columns = false;
      }
      const taken = this.settle(id);
      core.writer.flush();
      return taken;
    } finally {
      this.busy = false;
    }
  }

  /**
   * Books what the engine recorded for the command: the trades it kept as numbers (nothing else
   * was recorded) or, else, its events through drain(); returns the lots `takerId` took.
   */
  private settle(takerId: number): number {
    const core = this.core;
    const pair = this.pair;
    const sink = pair.sink;
    if (sink.events.length !== 0) return drain(core, pair, null, takerId);
    const n = sink.colTrades;
    if (n === 0) return 0;
    sink.colTrades = 0;
    const c = sink.cols;
    let taken = 0;
    for (let k = 0; k < n; k++) {
      const b = k * 7;
      const qty = c[b + 5];
      if (c[b + 2] === takerId) taken += qty;
      this.book1(c[b + 4], qty, c[b + 6]);
    }
    return taken;
  }
}
