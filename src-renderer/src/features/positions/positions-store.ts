// Open positions and their take-profit / stop-loss triggers. Records come from
// GET /fapi/v1/position/list and the user channel's 'position' events (the service sends the
// account's whole list; a single record is accepted too); a record with quantity 0 means the
// position closed. The triggers come from GET /fapi/v1/position/tpsl on refresh and from what
// POST /fapi/v1/position/tpsl answers (the spec's position record does not carry them).
// Keeps true: a position event that arrives while a refresh is in flight wins over that
// refresh's answer (which may have been read before the event's change): a whole-list event
// makes the answer's positions stale altogether, a single record its own position.
// Triggers are spent at once, from the user channel, not at the next poll: a take-profit or
// stop-loss that fires sends one market close whose order record (client_order_id tp-<id> or
// sl-<id>) spends both triggers of its position, even when the book leaves part of it open
// (docs/api.md); a position that closes (missing from a list, or quantity 0) loses its own, as
// the venue's next position on that side starts without any. A refresh whose answer was read
// before such an event does not bring those triggers back.
import { createStore } from 'zustand/vanilla';
import type { OrderRecord, PositionRecord } from '../../../../src-shared/types.ts';
import type { RestClient, TpSlRequest } from '../../../../src-shared/sdk/rest-client.ts';
import { MarginMode, OrderType, PositionAction, PositionSide, Side } from '../../../../src-shared/enums.ts';
import { positionDirection } from './position-direction.ts';

export interface TpSl {
  takeProfit: string | null;
  stopLoss: string | null;
  /** The take-profit's working type when set, else the stop-loss' (GET's `working_type`). */
  workingType: number;
  /** The price each trigger watches (1 mark, 2 last): set apart, they may differ. */
  tpWorkingType: number;
  slWorkingType: number;
}

/** A position's triggers as GET /fapi/v1/position/tpsl (or a record carrying them) writes them. */
function tpslFrom(x: {
  take_profit_price?: string | null;
  stop_loss_price?: string | null;
  working_type?: number;
  take_profit_working_type?: number | null;
  stop_loss_working_type?: number | null;
}): TpSl {
  const workingType = x.working_type ?? 1;
  return {
    takeProfit: x.take_profit_price ?? null,
    stopLoss: x.stop_loss_price ?? null,
    workingType,
    tpWorkingType: x.take_profit_working_type ?? workingType,
    slWorkingType: x.stop_loss_working_type ?? workingType,
  };
}

export interface PositionsState {
  positions: readonly PositionRecord[];
  tpsl: Record<string, TpSl>;
  loaded: boolean;
  actions: {
    refresh(): Promise<void>;
    /** The whole list (REST, or a user-channel snapshot); records missing from it are closed. */
    replace(list: readonly PositionRecord[]): void;
    apply(record: PositionRecord): void;
    /** An order event: a take-profit / stop-loss close spends its position's triggers. */
    applyOrder(order: OrderRecord): void;
    setTpSl(body: TpSlRequest): Promise<void>;
    /** Reads every position's triggers now (GET /fapi/v1/position/tpsl); those of one position, null for none. */
    loadTpSl(symbol: string, side: number): Promise<TpSl | null>;
    clear(): void;
  };
}

export const positionKey = (symbol: string, side: number): string => `${symbol}:${side}`;

function sortPositions(list: PositionRecord[]): PositionRecord[] {
  return list.sort((a, b) => a.symbol.localeCompare(b.symbol) || a.position_side - b.position_side);
}

/** Triggers carried by a record, when the server adds them to it. */
function triggersOf(r: PositionRecord): TpSl | null {
  const x = r as PositionRecord & Parameters<typeof tpslFrom>[0];
  if (x.take_profit_price === undefined && x.stop_loss_price === undefined) return null;
  return tpslFrom(x);
}

/**
 * The position a venue take-profit / stop-loss close (tpsl.ts: a reduce-only market close,
 * client_order_id tp-<id> or sl-<id>) fired on, as a position key: a close sells a long and
 * buys a short, in both modes; null for any other order.
 */
export function firedPositionKey(o: OrderRecord): string | null {
  if (o.type !== OrderType.MARKET || o.position_action !== PositionAction.CLOSE) return null;
  if (!/^(tp|sl)-\d+$/.test(o.client_order_id)) return null;
  // (one-way mode: the close carries position_side LONG either way, and the short's record SHORT)
  return positionKey(o.symbol, o.side === Side.SELL ? PositionSide.LONG : PositionSide.SHORT);
}

/** What position events brought while one refresh was in flight. */
interface DuringRefresh {
  /** A whole list arrived: the refresh's own list is older than what is shown. */
  whole: boolean;
  /** Single records that arrived, by position key. */
  keys: Set<string>;
  /** Positions whose triggers an event spent or ended: the answer's triggers for them are older. */
  spent: Set<string>;
}

export function createPositionsStore(api: RestClient) {
  const inFlight = new Set<DuringRefresh>();
  /** Bumped by clear(): an answer to a refresh sent before (another login's) is dropped. */
  let epoch = 0;
  return createStore<PositionsState>()((set, get) => {
    /** An event ended the triggers of position `k`: a refresh in flight must not bring them back. */
    const spend = (k: string): void => {
      for (const during of inFlight) during.spent.add(k);
    };
    const replaceList = (list: readonly PositionRecord[], fromEvent: boolean): void => {
      const tpsl = { ...get().tpsl };
      const live = new Set<string>();
      for (const p of list) {
        if (p.quantity === 0) continue;
        const k = positionKey(p.symbol, p.position_side);
        live.add(k);
        const t = triggersOf(p);
        if (t) tpsl[k] = t;
      }
      // a position that closed: the venue's next one on that side starts without triggers
      for (const k of [...Object.keys(tpsl), ...get().positions.map((p) => positionKey(p.symbol, p.position_side))]) {
        if (live.has(k)) continue;
        delete tpsl[k];
        if (fromEvent) spend(k);
      }
      set({ positions: sortPositions(list.filter((p) => p.quantity !== 0)), tpsl, loaded: true });
    };
    const setTriggers = (
      triggers: Awaited<ReturnType<RestClient['tpslList']>>,
      stale: ReadonlySet<string> = new Set(),
    ): void => {
      const tpsl = { ...get().tpsl };
      for (const t of triggers) {
        const k = positionKey(t.symbol, t.position_side);
        if (stale.has(k)) continue;
        if (t.take_profit_price === null && t.stop_loss_price === null) delete tpsl[k];
        else tpsl[k] = tpslFrom(t);
      }
      set({ tpsl });
    };
    const touched = (during: DuringRefresh) => (p: PositionRecord) =>
      during.keys.has(positionKey(p.symbol, p.position_side));
    return {
      positions: [],
      tpsl: {},
      loaded: false,
      actions: {
        async refresh() {
          const during: DuringRefresh = { whole: false, keys: new Set(), spent: new Set() };
          const at = epoch;
          inFlight.add(during);
          let list: PositionRecord[];
          let triggers: Awaited<ReturnType<RestClient['tpslList']>>;
          try {
            [list, triggers] = await Promise.all([api.positions(), api.tpslList()]);
          } finally {
            inFlight.delete(during);
          }
          // (cleared meanwhile, another login: the answer is the account before's)
          if (at !== epoch) return;
          // an event newer than the answer wins: the answer only fills in what no event touched
          if (during.whole) set({ loaded: true });
          else {
            const isTouched = touched(during);
            replaceList([...list.filter((p) => !isTouched(p)), ...get().positions.filter(isTouched)], false);
          }
          setTriggers(triggers, during.spent);
        },
        async loadTpSl(symbol, side) {
          setTriggers(await api.tpslList());
          return get().tpsl[positionKey(symbol, side)] ?? null;
        },
        replace(list) {
          for (const during of inFlight) during.whole = true;
          replaceList(list, true);
        },
        apply(record) {
          const k = positionKey(record.symbol, record.position_side);
          for (const during of inFlight) during.keys.add(k);
          const rest = get().positions.filter((p) => positionKey(p.symbol, p.position_side) !== k);
          const tpsl = { ...get().tpsl };
          if (record.quantity === 0) {
            delete tpsl[k];
            spend(k);
          } else {
            const t = triggersOf(record);
            if (t) tpsl[k] = t;
          }
          set({ positions: record.quantity === 0 ? rest : sortPositions([...rest, record]), tpsl });
        },
        applyOrder(order) {
          const k = firedPositionKey(order);
          if (k === null) return;
          spend(k);
          if (get().tpsl[k] === undefined) return;
          const { [k]: _spent, ...tpsl } = get().tpsl;
          set({ tpsl });
        },
        async setTpSl(body) {
          const r = await api.setTpSl(body);
          const k = positionKey(body.symbol, body.position_side);
          set({
            tpsl: {
              ...get().tpsl,
              [k]: tpslFrom(r),
            },
          });
          const {
            take_profit_price: _tp,
            stop_loss_price: _sl,
            working_type: _wt,
            take_profit_working_type: _tpw,
            stop_loss_working_type: _slw,
            ...record
          } = r;
          get().actions.apply(record as PositionRecord);
        },
        clear: () => {
          epoch++;
          set({ positions: [], tpsl: {}, loaded: false });
        },
      },
    };
  });
}

/**
 * Live unrealized PnL at `mark` (the record's own mark when none is given): the service's figure
 * at the record's mark, moved by the mark's change since. Not (mark - entry) x size: the record's
 * entry price is an average rounded to 8 decimals, so 1,500 TRX bought at 0.25462 and 0.25461
 * (entry 0.25461333) at a mark of 0.25451 made -0.154995, "-0.15", where the service (and the
 * replay report beside it) has -0.155, "-0.16".
 */
export function livePnl(p: PositionRecord, mark?: number): number {
  const m = mark !== undefined && mark > 0 ? mark : p.mark_price;
  const d = positionDirection(p);
  if (Number.isFinite(p.unrealized_pnl) && p.mark_price > 0) {
    // the venue's 8 decimals, so the sum's floating-point noise does not decide a half cent
    return Math.round((p.unrealized_pnl + (m - p.mark_price) * d.size * d.sign) * 1e8) / 1e8;
  }
  return (m - p.entry_price) * d.size * d.sign;
}

/**
 * A position's margin at `mark` (the record's own mark when none is given), as the service
 * computes it (ledger.ts): cross, the initial margin at the mark, |Q| x mark / leverage, so it
 * moves with every mark; isolated, what is allocated to it, which the mark does not move.
 */
export function liveMargin(p: PositionRecord, mark?: number): number {
  if (p.margin_mode === MarginMode.ISOLATED) return p.margin;
  const m = mark !== undefined && mark > 0 ? mark : p.mark_price;
  return (Math.abs(p.quantity) * m) / Math.max(1, p.leverage);
}

/** Return on the initial margin (entry notional / leverage). */
export function roe(p: PositionRecord, pnl: number): number {
  const im = (Math.abs(p.quantity) * p.entry_price) / Math.max(1, p.leverage);
  return im > 0 ? pnl / im : NaN;
}
