// The user data stream's events (reference a.4): the native pushes of one command (order record,
// fills, positions, balance; a commit's commands, a batch's entries, each in turn with the figures
// it left: command-runs.ts) turned into Binance's sequence: ORDER_TRADE_UPDATE NEW, AMENDMENT for a
// modified order (right before the TRADEs of a modification that trades at once; a reduce-only
// order trimmed by another order's fills after those fills), one TRADE per fill with running
// totals, CANCELED / EXPIRED (a liquidation's cancels before its close order's NEW, as Binance
// cancels first), then ACCOUNT_UPDATE with the changed positions (pa "0" and its margin type for a
// closed one) and the wallet when it moved; ACCOUNT_CONFIG_UPDATE for a leverage change on any
// surface; TRADE_LITE before each TRADE. ORDER_TRADE_UPDATE's `T`, `o.T`: when what it reports happened, `E`: its sending.
//
// Invariants: an account's first stream starts from its wallet, positions and open orders as they
// are, so only changes after it are sent (no NEW for an order already open then); a TRADE's
// running totals (z, ap, X) are the order record's own less the batch's fills still to come, so
// fills made while the account had no stream count; what is kept of an order lives only while it
// is open and its account has a stream; ACCOUNT_UPDATE only for a fill, a funding payment, a
// wallet moved from outside trading (deposit, reset) or isolated margin moved by hand
// (MARGIN_TRANSFER: the position's new iw and the wallet entry with its new cw), never for an order
// placement or a setting change (leverage, margin type, take-profit / stop-loss); MARGIN_CALL for the
// venue's margin call (trading/margin-call.ts); with a replay's response latency every event is held
// for it, in order.
// ALGO_UPDATE for each change of a conditional order (placed NEW, CANCELED, fired TRIGGERED or
// REJECTED), a fired one's before its order's ORDER_TRADE_UPDATEs and after those of the batch's
// fills that came before the fire (its own account's fill that fired it), and FINISHED once the
// order it placed has ended (in that batch, or a later one while the stream stays open).
import { Decimal } from 'decimal.js';
import { ConditionalStatus, OrderStatus, OrderType, Side, TradeRole } from '../../../../src-shared/enums.ts';
import type {
  AccountSummary,
  ConditionalOrderRecord,
  OrderRecord,
  PositionRecord,
  TradeRecord,
} from '../../../../src-shared/types.ts';
import type { AccountEvent } from '../../../trading/events.ts';
import type { OrderState } from '../../../trading/ports.ts';
import type { BinanceContext } from '../context.ts';
import { moneyText } from '../../../trading/pair-figures.ts';
import { LatencyGate } from '../../ws/latency-gate.ts';
import { isForcedCloseClientId } from '../../../trading/liquidation-client-id.ts';
import { algoStatus, algoUpdate } from '../translate/algo-orders.ts';
import { averagePrice, STATUS, TIF, type Mode } from '../translate/orders.ts';
import {
  marginCallEvent,
  positionChanges,
  positionSignatures,
  walletEntry,
  type MarginCallData,
  type PositionSignatures,
} from './account-update.ts';
import { commandRuns, type AsThen } from './command-runs.ts';
import { openNotionals, orderTradeUpdate, tradeLite, type OrderUpdate } from './order-update.ts';

const NO_FILL = { l: '0', L: '0', N: 'USDT', n: '0', t: 0, m: false, rp: '0' };

/** Of a command of a commit of several: the pair's open orders then, the orders later ones change (command-runs.ts). */
type Run = { asThen?: AsThen; later?: ReadonlySet<number> };

/** A user stream event, `e` its name. */
type UserEvent = { readonly e: string } & Record<string, unknown>;

/** Where the events go: the account's user streams (the hub's). */
export interface UserSink {
  /** `msg.e` names the event (a stream opened with `events=` takes only those it names). */
  deliver(accountId: number, msg: UserEvent): void;
  hasStream(accountId: number): boolean;
}

export class UserEvents {
  private readonly ctx: BinanceContext;
  private readonly sink: UserSink;
  private readonly pending = new Map<number, AccountEvent[]>();
  private flushing = false;
  /**
   * Per account with a stream: its orders the stream knows (announced, or open when it started),
   * each as it last showed it (a change of its price or quantity is an AMENDMENT).
   */
  private readonly known = new Map<number, Map<number, OrderRecord>>();
  /** Per account with a stream: what the last ACCOUNT_UPDATE (or the stream's start) showed of its positions. */
  private readonly sentPositions = new Map<number, PositionSignatures>();
  private readonly sentWallet = new Map<number, string>();
  /** Per account with a stream: its fired conditional orders whose order is open, by that order's id. */
  private readonly firing = new Map<number, Map<number, ConditionalOrderRecord>>();
  /** A replay's response latency (ms of market time, 0: none) and the sends it holds (ws/latency-gate.ts). */
  private readonly gate: LatencyGate<() => void>;

  /** `until`: the replay's end, where the events due after it come. */
  constructor(ctx: BinanceContext, sink: UserSink, responseLatency: number, until?: number) {
    this.ctx = ctx;
    this.sink = sink;
    this.gate = new LatencyGate(responseLatency, () => ctx.venue.clock.now(), until);
  }

  /** The wallet, positions and open orders as they are when an account's first stream opens. */
  seed(accountId: number): void {
    const { exchange } = this.ctx.venue;
    const sum = exchange.summary(accountId);
    const orders = new Map<number, OrderRecord>();
    for (const o of exchange.openOrders(accountId)) orders.set(Number(o.id), o);
    this.known.set(accountId, orders);
    this.sentWallet.set(accountId, sum.wallet_balance);
    const pairOf = exchange.pair.bind(exchange);
    this.sentPositions.set(accountId, positionSignatures(exchange.positions(accountId), sum.position_mode, pairOf));
  }

  /** An account without a stream: what was sent no longer describes what its next stream has seen. */
  forget(accountId: number): void {
    this.sentPositions.delete(accountId);
    this.sentWallet.delete(accountId);
    this.known.delete(accountId);
    this.firing.delete(accountId);
  }

  clear(): void {
    this.gate.clear();
  }

  /** Sends the held events whose time has come, oldest first. */
  release(now: number): void {
    this.gate.release((send) => send(), now);
  }

  onAccount(e: AccountEvent): void {
    let list = this.pending.get(e.accountId);
    if (list === undefined) this.pending.set(e.accountId, (list = []));
    list.push(e);
    if (this.flushing) return;
    this.flushing = true;
    // the native pushes of one command arrive in one synchronous run: translate them together
    queueMicrotask(() => {
      this.flushing = false;
      const batches = [...this.pending];
      this.pending.clear();
      for (const [id, events] of batches) {
        // one account's stream failing (a bug, a socket that throws) must neither stop the other
        // accounts' events nor, uncaught in a microtask, the service
        try {
          this.flush(id, events);
        } catch (err) {
          console.error(`perpdesk: the Binance user stream of account ${id} could not send an event`, err);
        }
      }
    });
  }

  /** An account's leverage changed, on any surface. */
  configUpdate(accountId: number, symbol: string, leverage: number): void {
    const now = this.ctx.venue.clock.now();
    this.sink.deliver(accountId, { e: 'ACCOUNT_CONFIG_UPDATE', E: now, T: now, ac: { s: symbol, l: leverage } });
  }

  /** An account's events of one commit: each command's in turn (a batch's entries), as if sent alone (command-runs.ts). */
  private flush(accountId: number, events: AccountEvent[]): void {
    if (!this.sink.hasStream(accountId)) return;
    const mode: Mode = this.ctx.venue.exchange.summary(accountId).position_mode;
    // one command's (the usual case): nothing to split
    if (events[0]!.command === events[events.length - 1]!.command) return this.flushCommand(accountId, mode, events);
    // `known` is read as each command is translated: what the stream showed after the ones before
    for (const run of commandRuns(events, (id) => this.known.get(accountId)?.get(id)))
      this.flushCommand(accountId, mode, run.events, run);
  }

  /** The events of one command; `run`, of a commit of several: its open orders as they stood after it. */
  private flushCommand(accountId: number, mode: Mode, events: AccountEvent[], run: Run = {}): void {
    const { asThen, later } = run;
    const { exchange, clock } = this.ctx.venue;
    const now = clock.now();
    const stamp = events[0]?.time ?? now;
    const send = !this.gate.active
      ? (msg: UserEvent) => this.sink.deliver(accountId, msg)
      : (msg: UserEvent) => this.gate.hold(() => this.sink.deliver(accountId, msg), stamp);
    const fills: TradeRecord[] = [];
    let positions: PositionRecord[] | undefined;
    let balance: AccountSummary | undefined;
    // The orders' and algo orders' events in parts, each part's algo orders first: a fired
    // conditional order (its record comes after the order it placed) goes right before that order,
    // in a new part when fills came before it in the batch, so the fills that fired it (its own
    // account's among them) go out before its TRIGGERED and the order it placed
    const newPart = () => ({
      orders: new Map<number, OrderRecord>(),
      fills: [] as TradeRecord[],
      algos: [] as ConditionalOrderRecord[],
    });
    const parts = [newPart()];
    const firedBy = new Map<number, ConditionalOrderRecord>();
    for (const e of events) {
      const r = e.kind === 'conditional' ? (e.data as ConditionalOrderRecord) : undefined;
      if (r?.status === ConditionalStatus.TRIGGERED && r.order_id !== null) firedBy.set(Number(r.order_id), r);
    }
    const taken = new Set<ConditionalOrderRecord>();
    for (const e of events) {
      let part = parts[parts.length - 1]!;
      const algo =
        e.kind === 'conditional'
          ? (e.data as ConditionalOrderRecord)
          : e.kind === 'order'
            ? firedBy.get(Number((e.data as OrderRecord).id))
            : undefined;
      if (algo !== undefined && !taken.has(algo)) {
        taken.add(algo);
        const fired = algo.status === ConditionalStatus.TRIGGERED || algo.status === ConditionalStatus.REJECTED;
        if (fired && part.fills.length > 0) parts.push((part = newPart()));
        part.algos.push(algo);
      }
      if (e.kind === 'margin_call')
        send(marginCallEvent(e.data as MarginCallData, mode, now, exchange.pair.bind(exchange)));
      else if (e.kind === 'order') part.orders.set(Number((e.data as OrderRecord).id), e.data as OrderRecord);
      else if (e.kind === 'fill') {
        fills.push(e.data as TradeRecord);
        part.fills.push(e.data as TradeRecord);
      } else if (e.kind === 'position') positions = e.data as PositionRecord[];
      else if (e.kind === 'balance') balance = e.data as AccountSummary;
    }
    for (const part of parts) {
      const finished = this.algoEvents(accountId, part.algos, later, (r, status, actual) =>
        send(algoUpdate(exchange.pair(r.symbol)!.math, r, mode, { now, status, actual })),
      );
      this.orderEvents({ accountId, mode, now, orders: part.orders, fills: part.fills, send, asThen });
      finished();
    }
    const moved = events.some((e) => e.kind === 'margin');
    // the wallet entry when it moved since the last one sent: its cross wallet from the positions
    // pushed with it, its `bc` that move less the batch's fills (account-update.ts)
    let B: unknown[] = [];
    const previous = this.sentWallet.get(accountId);
    if (balance !== undefined && previous !== balance.wallet_balance) {
      this.sentWallet.set(accountId, balance.wallet_balance);
      B = [walletEntry(previous, balance.wallet_balance, positions ?? exchange.positions(accountId), fills)];
    }
    // isolated margin moved by hand leaves the wallet as it was but moves the cross wallet (cw, the
    // wallet less the isolated wallets) by the amount: Binance sends the USDT entry with it (bc "0")
    if (moved && B.length === 0) {
      const wallet = balance?.wallet_balance ?? exchange.summary(accountId).wallet_balance;
      B = [walletEntry(wallet, wallet, positions ?? exchange.positions(accountId), [])];
    }
    // Binance's reasons: a fill, a funding payment, isolated margin moved by hand, or a wallet
    // moved from outside trading (deposit, reset). Positions and balance pushed for anything else
    // (a leverage change repricing a cross margin, a take-profit set) are no account update:
    // nothing is sent, and what was sent stays the reference, so the next update carries every
    // change since.
    const m =
      fills.length > 0
        ? 'ORDER'
        : events.some((e) => e.kind === 'funding')
          ? 'FUNDING_FEE'
          : moved
            ? 'MARGIN_TRANSFER'
            : B.length > 0
              ? 'DEPOSIT'
              : undefined;
    if (m === undefined) return;
    let P: unknown[] = [];
    if (positions !== undefined) {
      const before = this.sentPositions.get(accountId) ?? new Map<string, string>();
      const changes = positionChanges(before, positions, mode, fills, exchange.pair.bind(exchange));
      this.sentPositions.set(accountId, changes.after);
      P = changes.P;
    }
    if (B.length === 0 && P.length === 0) return;
    // T, the transaction's time: the last fill's, the funding settlement's, else (a deposit, a
    // reset, margin moved by hand: nothing of their own carries a time) the sending's
    const funding = events.find((e) => e.kind === 'funding')?.data as { time?: number } | undefined;
    const T =
      m === 'ORDER'
        ? Math.max(...fills.map((f) => f.created_at))
        : m === 'FUNDING_FEE' && typeof funding?.time === 'number'
          ? funding.time
          : now;
    send({ e: 'ACCOUNT_UPDATE', E: now, T, a: { m, B, P } });
  }

  /**
   * ALGO_UPDATE of each conditional record of the batch (sent now, before the orders' events), and
   * what sends FINISHED, after them, for the fired ones whose order has ended (this batch's or before)
   * but those a `later` command of the commit changes, which say their end with that command.
   */
  private algoEvents(
    accountId: number,
    algos: ConditionalOrderRecord[],
    later: ReadonlySet<number> | undefined,
    send: (r: ConditionalOrderRecord, status: string, actual?: Readonly<OrderState>) => void,
  ): () => void {
    const { exchange } = this.ctx.venue;
    let firing = this.firing.get(accountId);
    for (const r of algos) {
      const actual = r.order_id === null ? undefined : exchange.liveOrder(accountId, Number(r.order_id));
      // a fired one is TRIGGERED first, whatever its order did since (FINISHED follows)
      send(r, r.status === ConditionalStatus.TRIGGERED ? 'TRIGGERED' : algoStatus(r, actual), actual);
      if (actual === undefined) continue;
      if (firing === undefined) this.firing.set(accountId, (firing = new Map()));
      firing.set(actual.id, r);
    }
    return () => {
      if (firing === undefined) return;
      for (const [id, r] of firing) {
        if (later?.has(id) === true) continue;
        const actual = exchange.liveOrder(accountId, id);
        if (actual !== undefined && algoStatus(r, actual) === 'TRIGGERED') continue;
        firing.delete(id);
        send(r, 'FINISHED', actual);
      }
    };
  }

  private orderEvents(o: {
    accountId: number;
    mode: Mode;
    now: number;
    orders: Map<number, OrderRecord>;
    fills: TradeRecord[];
    send: (msg: UserEvent) => void;
    asThen?: AsThen;
  }): void {
    const { exchange } = this.ctx.venue;
    const { mode, now, orders, fills, send } = o;
    let known = this.known.get(o.accountId);
    if (known === undefined) this.known.set(o.accountId, (known = new Map()));
    // b / a: the open bid and ask notional of the order's positionRisk entry (the symbol's
    // orders, one-way; those of its position side, hedge), as they stand right after the event:
    // the orders open once the batch is done, plus those the batch ends (cancels, expires) after
    // the event, when they were open before it (Binance sends one event per order, in turn)
    const wasOpen = new Set(known.keys());
    const openNow = new Map<string, OrderRecord[]>();
    const notionalOf = (symbol: string, positionSide: number, endedLater: readonly OrderRecord[]) => {
      let open = openNow.get(symbol);
      if (open === undefined) {
        open = exchange.openOrders(o.accountId, symbol);
        openNow.set(symbol, (open = o.asThen === undefined ? open : o.asThen(symbol, open)));
      }
      const later = endedLater.filter((r) => r.symbol === symbol);
      return openNotionals(later.length === 0 ? open : [...open, ...later], mode, positionSide);
    };
    const ended = [...orders.values()].filter(
      (rec) => rec.status !== OrderStatus.NEW && rec.status !== OrderStatus.PARTIALLY_FILLED,
    );
    // A liquidation expires the orders it cancels before it places its close order: their ends
    // go first, as Binance sends them (the rest of the batch's ends after its fills).
    const liquidating = [...orders.values()].some((rec) => isForcedCloseClientId(rec.client_order_id));
    const cancelledFirst = liquidating
      ? ended.filter(
          (rec) =>
            rec.status !== OrderStatus.FILLED &&
            wasOpen.has(Number(rec.id)) &&
            !isForcedCloseClientId(rec.client_order_id),
        )
      : [];
    const endedResting = ended.filter(
      (rec) => rec.status !== OrderStatus.FILLED && wasOpen.has(Number(rec.id)) && !cancelledFirst.includes(rec),
    );
    const restingAfter = (i: number) => ended.slice(i + 1).filter((rec) => endedResting.includes(rec));
    const base = (id: number) => {
      // the live order while it is open (no store read, which would flush the turn's writes)
      const r = exchange.liveOrder(o.accountId, id)!;
      const m = exchange.pair(r.symbol)!.math;
      const market = r.type === OrderType.MARKET;
      // its terms as this command left them (a later command of the same commit may change them)
      const rec = orders.get(id);
      // a liquidation's or an ADL's close order is Binance's LIQUIDATION order, its fills CALCULATED
      // executions (the bankruptcy and ADL closes included: they fill those orders)
      const liquidation = isForcedCloseClientId(r.clientOrderId);
      const type = liquidation ? 'LIQUIDATION' : market ? 'MARKET' : 'LIMIT';
      return {
        fields: {
          s: r.symbol,
          c: r.clientOrderId,
          S: r.side === Side.BUY ? 'BUY' : 'SELL',
          o: type,
          f: market ? 'GTC' : TIF[r.tif],
          q: rec?.qty ?? m.formatQty(r.qtyLots),
          p: market ? '0' : (rec?.price ?? m.formatPrice(r.priceTicks)),
          i: r.id,
          b: '0',
          a: '0',
          R: mode === 'one_way' ? r.reduceOnly : false,
          ot: type,
          positionSide: r.positionSide,
        },
        inMatch: r.expiredInMatch === true,
        created: r.createdAt,
        // its last change: the batch's record's, else the live order's
        updated: rec?.updated_at ?? r.updatedAt,
        liquidation,
        math: m,
        // the order's totals after this batch: its record's, else (no record came) the live order's
        filled: new Decimal(rec?.filled_qty ?? m.formatQty(r.filledLots)),
        quote: new Decimal(rec?.filled_quote ?? moneyText(r.filledQuote)),
      };
    };
    type Base = ReturnType<typeof base>;
    type Fill = Pick<OrderUpdate, 'ap' | 'z' | 'l' | 'L' | 'N' | 'n' | 't' | 'm' | 'rp' | 'T'>;
    // every event but the batch's ends comes before all of them
    const event = (b: Base, x: string, X: string, fill: Fill, endedLater: readonly OrderRecord[] = endedResting) =>
      orderTradeUpdate(now, mode, {
        ...b.fields,
        ...notionalOf(b.fields.s, b.fields.positionSide, endedLater),
        x,
        X,
        ...fill,
      });
    const totals = (b: Base, lots: Decimal, quote: Decimal) => ({
      ap: averagePrice(b.math, quote, lots),
      z: b.math.formatQty(b.math.qty.mustToUnits(lots.toFixed(), { allowZero: true })),
    });
    // Each order's totals before this batch's fills: what its record says now, less those fills
    // (so fills made while the account had no stream, or between two of its streams, count).
    const ids = new Set<number>([...orders.keys(), ...fills.map((f) => Number(f.order_id))]);
    const bases = new Map<number, Base>();
    const before = new Map<number, { lots: Decimal; quote: Decimal }>();
    for (const id of ids) {
      const b = base(id);
      bases.set(id, b);
      before.set(id, { lots: b.filled, quote: b.quote });
    }
    for (const f of fills) {
      const r = before.get(Number(f.order_id));
      if (r === undefined) continue;
      r.lots = r.lots.minus(f.qty);
      r.quote = r.quote.minus(f.quote_qty);
    }
    const end = (rec: OrderRecord, endedLater: readonly OrderRecord[]): void => {
      const id = Number(rec.id);
      known.delete(id); // final: nothing more will come for it
      if (rec.status === OrderStatus.FILLED) return;
      const b = bases.get(id)!;
      // a taker expired by self-trade prevention: X EXPIRED_IN_MATCH, execution type EXPIRED
      const X = rec.status === OrderStatus.EXPIRED && b.inMatch ? 'EXPIRED_IN_MATCH' : STATUS[rec.status];
      send(
        event(
          b,
          X === 'CANCELED' ? 'CANCELED' : 'EXPIRED',
          X,
          {
            ap: averagePrice(b.math, rec.filled_quote, rec.filled_qty),
            z: rec.filled_qty,
            ...NO_FILL,
            T: rec.updated_at,
          },
          endedLater,
        ),
      );
    };
    for (const [i, rec] of cancelledFirst.entries()) end(rec, cancelledFirst.slice(i + 1));
    const amended = new Map<number, UserEvent>();
    for (const id of ids) {
      if (cancelledFirst.some((rec) => Number(rec.id) === id)) continue;
      const b = bases.get(id)!;
      const last = known.get(id);
      const rec = orders.get(id);
      if (rec !== undefined) known.set(id, rec);
      // NEW for an order the stream has not seen (placed since it opened), before its fills
      if (last === undefined) {
        send(event(b, 'NEW', 'NEW', { ap: '0', z: '0', ...NO_FILL, T: b.created }));
        continue;
      }
      // AMENDMENT for one whose price or quantity changed (PUT order, a reduce-only order trimmed
      // to its position). An open order's record pushed with its terms unchanged and no fill is
      // no modification: a leverage change moving the pair's orders to it (Binance sends
      // ACCOUNT_CONFIG_UPDATE alone for that)
      if (last.qty === b.fields.q && (last.type === OrderType.MARKET || last.price === b.fields.p)) continue;
      const r = before.get(id)!;
      const X = r.lots.isZero() ? 'NEW' : 'PARTIALLY_FILLED';
      amended.set(id, event(b, 'AMENDMENT', X, { ...totals(b, r.lots, r.quote), ...NO_FILL, T: b.updated }));
    }
    // An AMENDMENT goes right before its order's first fill of the batch (a modification that
    // trades at once), else after the batch's fills: a reduce-only order trimmed by the fills of
    // another order comes after the fills that shrank its position
    const sendAmendment = (id: number) => {
      const msg = amended.get(id);
      if (msg === undefined) return;
      amended.delete(id);
      send(msg);
    };
    for (const f of fills) {
      const id = Number(f.order_id);
      const b = bases.get(id);
      const r = before.get(id);
      if (b === undefined || r === undefined) continue;
      sendAmendment(id);
      r.lots = r.lots.plus(f.qty);
      r.quote = r.quote.plus(f.quote_qty);
      const full = r.lots.equals(b.fields.q);
      if (!b.liquidation) send(tradeLite(now, b.fields, f)); // Binance's fast trade stream, ahead of the TRADE
      send(
        event(b, b.liquidation ? 'CALCULATED' : 'TRADE', full ? 'FILLED' : 'PARTIALLY_FILLED', {
          ...totals(b, r.lots, r.quote),
          l: f.qty,
          L: f.price,
          N: 'USDT',
          n: f.fee,
          t: Number(f.id),
          m: f.role === TradeRole.MAKER,
          rp: f.realized_pnl,
          T: f.created_at,
        }),
      );
      if (full) known.delete(id);
    }
    for (const id of [...amended.keys()]) sendAmendment(id);
    for (const [i, rec] of ended.entries()) if (!cancelledFirst.includes(rec)) end(rec, restingAfter(i));
  }
}
