// The user stream's ORDER_TRADE_UPDATE of the venue's orders (user-events.ts; a liquidation's or an
// ADL's close order and the bankruptcy / ADL closes that fill them included). Its `o` lists
// Binance's fields in Binance's order (reference a.4); what every order of the venue shows alike
// is set here: no stop price (sp "0"), the contract price as working type, no close-all, no price
// protection, no iceberg (si, ss 0), the venue's self-trade prevention mode, no price match, no
// good-till date. `T` and `o.T` are the time of what the event reports (OrderUpdate.T), `E` the
// time it is sent.
import { Decimal } from 'decimal.js';
import { TradeRole } from '../../../../src-shared/enums.ts';
import type { OrderRecord, TradeRecord } from '../../../../src-shared/types.ts';
import { orderFigures } from '../translate/account.ts';
import { positionSideName, STP_MODE, type Mode } from '../translate/orders.ts';

/** What one ORDER_TRADE_UPDATE says of its order: Binance's `o` fields but the shared ones, and the native position side (ps). */
export interface OrderUpdate {
  s: string;
  c: string;
  S: string;
  o: string;
  f: string;
  q: string;
  p: string;
  ap: string;
  x: string;
  X: string;
  i: number;
  l: string;
  z: string;
  L: string;
  N: string;
  n: string;
  t: number;
  b: string;
  a: string;
  m: boolean;
  R: boolean;
  ot: string;
  positionSide: number;
  rp: string;
  /**
   * The time of what the event reports (Binance's transaction time `T` and order trade time `o.T`),
   * on the market clock as the REST records: the order's `time` for NEW, the fill's for a TRADE, the
   * order's `updateTime` for an AMENDMENT, CANCELED or EXPIRED.
   */
  T: number;
}

/**
 * An order event's b / a: the open bid and ask notional of its positionRisk entry, from `open`
 * (the account's open orders on the pair): the symbol's orders one-way, its position side's hedge.
 */
export function openNotionals(open: OrderRecord[], mode: Mode, positionSide: number): { b: string; a: string } {
  const f = orderFigures(open, mode === 'one_way' ? null : positionSide, 0n);
  return { b: new Decimal(f.bidNotional).toFixed(8), a: new Decimal(f.askNotional).toFixed(8) };
}

/** Nothing filled: "0", as Binance writes `z` then (the venue's texts carry the pair's decimals, "0.000"). */
const NOTHING = /^0(?:\.0*)?$/;

/** The ORDER_TRADE_UPDATE sent at `now` (its event time `E`) of `u` on an account in position mode `mode`. */
export function orderTradeUpdate(now: number, mode: Mode, u: OrderUpdate): { e: string } & Record<string, unknown> {
  return {
    e: 'ORDER_TRADE_UPDATE',
    E: now,
    T: u.T,
    o: {
      s: u.s,
      c: u.c,
      S: u.S,
      o: u.o,
      f: u.f,
      q: u.q,
      p: u.p,
      ap: u.ap,
      sp: '0',
      x: u.x,
      X: u.X,
      i: u.i,
      l: u.l,
      z: NOTHING.test(u.z) ? '0' : u.z,
      L: u.L,
      N: u.N,
      n: u.n,
      T: u.T,
      t: u.t,
      b: u.b,
      a: u.a,
      m: u.m,
      R: u.R,
      wt: 'CONTRACT_PRICE',
      ot: u.ot,
      ps: positionSideName(mode, u.positionSide),
      cp: false,
      rp: u.rp,
      pP: false,
      si: 0,
      ss: 0,
      V: STP_MODE,
      pm: 'NONE',
      gtd: 0,
    },
  };
}

/**
 * Binance's TRADE_LITE of a fill (its "fast trade stream": a TRADE execution's few fields, sent
 * ahead of that fill's ORDER_TRADE_UPDATE, none for a liquidation's CALCULATED ones): `q` / `p`
 * the order's quantity and price, `L` / `l` / `t` / `m` the fill's, `T` its time, `E` the sending.
 */
export function tradeLite(now: number, u: Pick<OrderUpdate, 's' | 'q' | 'p' | 'c' | 'S' | 'i'>, fill: TradeRecord) {
  return {
    e: 'TRADE_LITE',
    E: now,
    T: fill.created_at,
    s: u.s,
    q: u.q,
    p: u.p,
    m: fill.role === TradeRole.MAKER,
    c: u.c,
    S: u.S,
    L: fill.price,
    l: fill.qty,
    t: Number(fill.id),
    i: u.i,
  };
}
