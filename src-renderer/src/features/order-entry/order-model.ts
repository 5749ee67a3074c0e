// The order form's trading math, apart from the view: what each side (buy, sell) would send,
// its preview (cost, margin, fee, estimated liquidation price or PnL), its Max, whether it has
// anything to close, and the request a click would send, or the form's own reason not to.
//
// Pure: orderModel() reads the form and the records it is handed (use-order-model.ts picks
// them from the stores), so it can be tested with worked values. Numbers that are not known
// yet (no catalogue, no summary, no book) come out NaN or '' and estimate nothing; a price
// that is not a number is never replaced by the market price.
import {
  MarginMode,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  TimeInForce,
  WorkingType,
} from '../../../../src-shared/enums.ts';
import type { AccountSummary } from '../../../../src-shared/sdk/rest-client.ts';
import type { PriceLevel } from '../../../../src-shared/sdk/local-order-book.ts';
import type { FuturesSymbol, OrderRecord, OrderRequest, PositionRecord } from '../../../../src-shared/types.ts';
import { num, toStep } from '../../lib/format.ts';
import { positionDirection } from '../positions/position-direction.ts';
import { parseDecimalInput, type DecimalInput } from '../../lib/decimal-input.ts';
import { notionalRoomQty, oneWaySide, sideNotional, type OneWaySide } from './notional-cap.ts';
import type { FormAction, FormType, SizeMode } from './form-kinds.ts';
import { crossBacking, maxOpenQty, preview, type BackingPosition, type Preview, type Tier } from './preview.ts';
import { fillOrKillShort } from './fill-or-kill.ts';
import { capOf, pctQty, qtyShare } from './size.ts';

export const NOT_A_NUMBER = 'use digits and a decimal point, e.g. 90000.5 (thousands separators are fine)';

/**
 * A typed size that is a number but not above 0 ("0", "-1"), said under the Size field as it is
 * typed and again on send; null otherwise (empty, not a number: said apart). A minus sign is not
 * how a side is chosen: the buttons are.
 */
export function sizeNotAboveZero(qty: DecimalInput): string | null {
  if (qty.kind === 'negative') return 'Size must be above 0: the buttons choose buy or sell.';
  return qty.kind === 'ok' && !(qty.n > 0) ? 'Size must be above 0.' : null;
}

/** Leverage shown before the pair's setting is loaded (never sent: orders take the venue's). */
export const DEFAULT_LEVERAGE = 20;
/** Highest leverage offered before the setting or the catalogue says. */
const DEFAULT_MAX_LEVERAGE = 125;
/**
 * The share of the mark a market order's Max leaves for the mark to rise before the venue values
 * the order (the screen's mark is up to a second old, pushed every 1 s; the venue's moves every
 * 100 ms, in the simulated market by up to about 0.07% in a second and a half): without it 100%
 * of Max is refused (3009) whenever the mark ticks up on the way.
 */
export const MARKET_MAX_HEADROOM = 0.002;

export interface OrderModelInput {
  symbol: string;
  form: {
    action: FormAction;
    type: FormType;
    price: string;
    qty: string;
    sizeMode: SizeMode;
    pct: number;
    tif: TimeInForce;
    reduceOnly: boolean;
    /** The Stop kind: its order is a market one without a limit price, estimated at the trigger. */
    stop?: boolean;
    /** A stop's trigger price, as typed. */
    trigger?: string;
    /** The Stop kind's Trailing: a market order, estimated at its activation price or the watched price now. */
    trailing?: boolean;
    /** A trailing stop's callback rate and activation price, as typed. */
    callback?: string;
    activation?: string;
    /** The price a stop watches (default the mark). */
    working?: WorkingType;
  };
  /** The pair's futures filters (undefined until the catalogue is loaded). */
  futures:
    | Pick<
        FuturesSymbol,
        'taker_fee_rate' | 'maker_fee_rate' | 'maintenance_margin_rate' | 'max_qty' | 'qty_step' | 'max_leverage'
      >
    | undefined;
  /** The account at live marks (null before login). */
  summary: Pick<AccountSummary, 'available_balance' | 'wallet_balance' | 'position_mode'> | null;
  /** The pair's leverage and margin mode in force (undefined until loaded). */
  setting: { leverage: number; marginMode: MarginMode; maxLeverage: number } | undefined;
  positions: readonly PositionRecord[];
  openOrders: readonly OrderRecord[];
  /** Live mark price of a symbol. */
  markOf: (symbol: string) => number | undefined;
  bestBid: number;
  bestAsk: number;
  /**
   * The book's levels, best first, as far as the screen holds them: those a limit price crosses
   * (its fee is estimated at their prices); the best price alone stands in when not given.
   */
  bids?: readonly PriceLevel[];
  asks?: readonly PriceLevel[];
  last: number | undefined;
  /** The notional cap of the leverage in force, when known. */
  maxNotional: number | undefined;
  /**
   * A pair's maintenance tiers, lowest first, when known: the estimated liquidation price uses
   * those of the pair and of every pair with a cross position (their maintenance margin).
   */
  tiersOf?: (symbol: string) => readonly Tier[] | undefined;
  loggedIn: boolean;
  positionsLoaded: boolean;
}

/** One side of the form: its preview, the quantity it would send and its Max. */
export interface SideModel extends Preview {
  side: Side;
  /** The button's words: Open long / Close short (buy), Open short / Close long (sell); Buy / Long, Sell / Short for a one-way open. */
  label: string;
  /** The quantity a click would send, as a decimal string ('' when none or not a number). */
  qty: string;
  /** Largest quantity of one order (open: what margin and the notional cap allow; close: the position), on the step. */
  max: number;
  /** Why the side is disabled in Close or a one-way reduce-only open (no position it could reduce), or null. */
  nothingToClose: string | null;
  /**
   * A fill-or-kill limit order larger than the book shows at its price or better: what it shows
   * there (the venue refuses the order whole, 3023); NaN when it fills or the book does not say.
   */
  fokFills: number;
}

type OrderOutcome = { ok: true; order: OrderRequest } | { ok: false; error: string; field?: 'price' };

export interface OrderModel {
  leverage: number;
  maxLeverage: number;
  marginMode: MarginMode;
  oneWay: boolean;
  priceIn: DecimalInput;
  qtyIn: DecimalInput;
  /** A stop's trigger price as typed. */
  triggerIn: DecimalInput;
  /** A trailing stop's callback rate and activation price as typed. */
  callbackIn: DecimalInput;
  activationIn: DecimalInput;
  /** The order's type: the form's, or a stop's (limit with a limit price, else market; a trailing stop's market). */
  type: OrderType;
  buy: SideModel;
  sell: SideModel;
  /** What the size percentage is a share of (sizePctBasis). */
  pctOf: PctBasis;
  /** Where the size slider stands, 0..100: the percentage, or a typed quantity's share (size.ts qtyShare). */
  sizeShare: number;
  /**
   * A post-only (GTX) limit order whose price reaches the other side of the book: the side it is
   * for and the best price there. The venue refuses it whole (3022, it never takes), so its
   * preview has no taker fee; null otherwise.
   */
  postOnlyTakes: { side: Side; best: number } | null;
  /** The request a click on `side` sends, or the form's own reason to send nothing. */
  order(side: Side): OrderOutcome;
}

/** What the size percentage is a share of: a short label ('% of Max') and its explanation. */
interface PctBasis {
  label: string;
  detail: string;
}

/**
 * The size percentage's basis, as wholeFor() takes it: an open is a share of each side's Max,
 * the largest order the venue takes on that side (in one-way mode the position an order against
 * it closes first, which needs no margin, plus what the available margin opens beyond it within
 * the leverage's notional cap), so 100% is Max; a close or a one-way reduce-only order is a share
 * of the position it reduces.
 */
function sizePctBasis(open: boolean, oneWay: boolean, reduceOnly: boolean): PctBasis {
  if (!open || (oneWay && reduceOnly))
    return { label: '% of position', detail: 'a share of the position the order reduces' };
  return {
    label: '% of Max',
    detail: oneWay
      ? "a share of each side's Max: the position an order against it closes first (no margin needed) plus what the available margin opens beyond it, within the leverage's notional cap"
      : "a share of each side's Max: what the available margin opens at the leverage, within its notional cap",
  };
}

export function orderModel(i: OrderModelInput): OrderModel {
  const { symbol, form: f, futures: fut, summary, positions, bestBid, bestAsk, last } = i;
  const oneWay = summary?.position_mode === 'one_way';
  const leverage = i.setting?.leverage ?? DEFAULT_LEVERAGE;
  const maxLeverage = i.setting?.maxLeverage ?? fut?.max_leverage ?? DEFAULT_MAX_LEVERAGE;
  const marginMode = i.setting?.marginMode ?? MarginMode.CROSS;
  const available = num(summary?.available_balance);
  const takerFee = num(fut?.taker_fee_rate);
  const makerFee = num(fut?.maker_fee_rate);
  const mmr = num(fut?.maintenance_margin_rate);
  const priceIn = parseDecimalInput(f.price);
  const qtyIn = parseDecimalInput(f.qty);
  const triggerIn = parseDecimalInput(f.trigger ?? '');
  const callbackIn = parseDecimalInput(f.callback ?? '');
  const activationIn = parseDecimalInput(f.activation ?? '');
  const stop = f.stop === true;
  // a trailing stop places a market order, whatever the price field holds
  const trailing = stop && f.trailing === true;
  // a stop without a limit price is a stop-market
  const type = trailing || (stop && priceIn.kind === 'empty') ? OrderType.MARKET : stop ? OrderType.LIMIT : f.type;
  // a stop-market's price is where it fires: its trigger, not the book now (NaN: not typed yet)
  const stopMarket = stop && !trailing && type === OrderType.MARKET;
  // a trailing stop's: its activation price, else the watched price now, where the venue checks
  // its minimum notional (it fires the callback rate back from the best price after that)
  const watched = f.working === WorkingType.LAST_PRICE ? last : i.markOf(symbol);
  const trailPrice =
    activationIn.kind === 'empty'
      ? watched !== undefined && watched > 0
        ? watched
        : NaN
      : activationIn.kind === 'ok' && activationIn.n > 0
        ? activationIn.n
        : NaN;
  const triggerPrice = triggerIn.kind === 'ok' && triggerIn.n > 0 ? triggerIn.n : NaN;
  const maxQty = fut?.max_qty ?? '';
  const open = f.action === 'open';

  const refPrice = (side: Side): number => {
    if (trailing) return trailPrice;
    // (none typed yet: the book, as a limit price not typed yet, so Max and % still size it)
    if (stopMarket && triggerIn.kind !== 'empty') return triggerPrice;
    if (type === OrderType.LIMIT && priceIn.kind === 'ok') return priceIn.n;
    // a price that is not a number estimates nothing (never the market price in its place)
    if (type === OrderType.LIMIT && priceIn.kind !== 'empty') return NaN;
    const book = side === Side.BUY ? bestAsk : bestBid;
    return book > 0 ? book : (last ?? NaN);
  };
  // The price the venue values an open at when it freezes its margin and counts it against the
  // notional cap: a limit order's own, a market order's the mark (api.md, Order rules), wherever
  // in the book it then fills; so a market sell's Max is not measured at a bid below the mark,
  // which the venue would refuse (3009)
  const marginPriceOf = (side: Side): number => {
    const mark = type === OrderType.MARKET && !stop ? i.markOf(symbol) : undefined;
    return mark !== undefined && mark > 0 ? mark : refPrice(side);
  };
  // long or short from the record (positionDirection reads the side and the quantity's sign)
  const positionOf = (long: boolean) => {
    const p = positions.find((x) => x.symbol === symbol && positionDirection(x).long === long);
    return p ? { qty: positionDirection(p).size, entry: p.entry_price, margin: p.margin } : null;
  };

  /**
   * What a new open of `side` meets: in one-way mode the part of it the net position takes first
   * (a reduce-only open: all of the position against it, and it never opens) and the notional the
   * cap measures (notional-cap.ts oneWaySide); in hedge mode nothing covered, the side's notional.
   */
  const meets = (side: Side): OneWaySide => {
    const mark = i.markOf(symbol);
    if (!oneWay) {
      const positionSide = side === Side.BUY ? PositionSide.LONG : PositionSide.SHORT;
      return { cover: 0, existing: sideNotional({ symbol, positionSide, positions, orders: i.openOrders, mark }) };
    }
    if (f.reduceOnly) return { cover: positionOf(side === Side.SELL)?.qty ?? 0, existing: 0 };
    return oneWaySide({ symbol, positions, orders: i.openOrders, mark }, side);
  };

  /**
   * The largest open of `side`: what the net position covers (one-way mode), plus what the available margin buys at
   * the leverage within the room its notional cap leaves beside the side's position and orders (nothing more for a
   * one-way reduce-only order); unknown (NaN, no Max) with no price to value it at, not 0 and every size over it.
   */
  const openableQty = (side: Side): number => {
    const price = marginPriceOf(side) * (type === OrderType.MARKET ? 1 + MARKET_MAX_HEADROOM : 1);
    const m = meets(side);
    if (oneWay && f.reduceOnly) return m.cover;
    const opens = Math.min(
      maxOpenQty(available, price, leverage, takerFee),
      notionalRoomQty(i.maxNotional, m.existing, price),
    );
    return price > 0 ? m.cover + opens : NaN;
  };

  /** What an order of `side` is a share of: the largest open, or the position it closes. */
  const wholeFor = (side: Side): number => (open ? openableQty(side) : (positionOf(side === Side.SELL)?.qty ?? 0));

  /** What one order of `side` could carry at most: capped at max_qty, on the step. */
  const maxFor = (side: Side): number => {
    // no account behind the screen (view only): no Max, rather than 0 and every size "over" it
    if (!i.loggedIn) return NaN;
    const cap = Math.min(wholeFor(side), capOf(maxQty));
    // floored to the step: a rounded-up Max would be refused
    return fut && Number.isFinite(cap) ? Number(toStep(cap, fut.qty_step) || 0) : cap;
  };

  const qtyFor = (side: Side): string => {
    if (f.sizeMode === 'qty') return qtyIn.kind === 'ok' ? qtyIn.value : '';
    if (!fut || f.pct <= 0) return '';
    return pctQty({ pct: f.pct, base: wholeFor(side), qtyStep: fut.qty_step, maxQty });
  };

  // The cross wallet that backs a new cross position of this pair (the reference formula's
  // WB - TMM1 + UPNL1), from the server's wallet and the live marks. The pair's own positions are
  // left out: the one the order adds to counts through its quantity, and in hedge mode the other
  // side is solved with it (preview's `opposite`).
  const backing = (): number => {
    const wallet = num(summary?.wallet_balance);
    if (!Number.isFinite(wallet)) return available;
    const isThis = (p: BackingPosition): boolean => p.symbol === symbol;
    return crossBacking(wallet, positions, isThis, i.markOf, i.tiersOf);
  };
  /** Hedge mode, cross: the symbol's position on the side opposite to a `long` open, if any. */
  const oppositeOf = (long: boolean) => {
    if (oneWay || marginMode !== MarginMode.CROSS) return null;
    const p = positions.find(
      (x) => x.symbol === symbol && x.margin_mode === MarginMode.CROSS && positionDirection(x).long !== long,
    );
    return p ? { qty: positionDirection(p).size, entry: p.entry_price } : null;
  };

  // Close, and a one-way reduce-only open: a side with no position against it has nothing to
  // close or reduce (the venue would refuse it, 3018 / 3010)
  const reduces = !open || (oneWay && f.reduceOnly);
  const nothingToClose = (side: Side): string | null =>
    reduces && i.loggedIn && i.positionsLoaded && positionOf(side === Side.SELL) === null
      ? `No ${side === Side.BUY ? 'short' : 'long'} to ${open ? 'reduce' : 'close'}`
      : null;

  // a post-only limit order (a stop's limit order meets the book only when it fires)
  const postOnly = !stop && type === OrderType.LIMIT && f.tif === TimeInForce.GTX;
  const postOnlyTakes = ((): OrderModel['postOnlyTakes'] => {
    if (!postOnly || priceIn.kind !== 'ok' || !(priceIn.n > 0)) return null;
    if (bestAsk > 0 && priceIn.n >= bestAsk) return { side: Side.BUY, best: bestAsk };
    if (bestBid > 0 && priceIn.n <= bestBid) return { side: Side.SELL, best: bestBid };
    return null;
  })();

  const sideModel = (side: Side): SideModel => {
    const label = sideLabel(side, open, oneWay);
    // nothing it could close or reduce: no quantity, no figures (a fee or size of an order the
    // venue would refuse, 3018 / 3010, is no estimate)
    const none = nothingToClose(side);
    if (none !== null) return { ...NO_PREVIEW, side, label, qty: '', max: 0, nothingToClose: none, fokFills: NaN };
    // no limit price, no estimate: the order would not be sent at the market's price (Max and
    // the % sizes still read it, to size the order before the price is typed)
    const unpriced =
      (type === OrderType.LIMIT && priceIn.kind === 'empty') || (stopMarket && triggerIn.kind === 'empty');
    const price = unpriced ? NaN : refPrice(side);
    const qty = qtyFor(side);
    // a stop fires when the price is at its trigger: estimated as taking liquidity then
    const crosses = side === Side.BUY ? price >= bestAsk : price <= bestBid;
    // a post-only order never takes: the venue refuses one that would (3022), so no taker fee
    const taker = stop || type === OrderType.MARKET || (crosses && !postOnly);
    // a limit crossing the book fills at the book's prices, not at its own (its fee is of those)
    // and a market order walks the levels it needs, each at its price (not all at the best)
    const market = !stop && type === OrderType.MARKET;
    const fills =
      market || (!stop && type === OrderType.LIMIT && crosses && !postOnly) ? bookFills(side, i) : undefined;
    const p = preview({
      side,
      action: f.action,
      price,
      marginPrice: marginPriceOf(side),
      qty: num(qty),
      taker,
      fills,
      market,
      // an IOC limit's unfilled rest expires, it never rests (a stop's order meets the book only when it fires)
      expires: !stop && type === OrderType.LIMIT && f.tif === TimeInForce.IOC,
      leverage,
      marginMode,
      makerFee,
      takerFee,
      mmr,
      tiers: i.tiersOf?.(symbol),
      available,
      crossBacking: open ? backing() : undefined,
      opposite: open ? oppositeOf(side === Side.BUY) : null,
      position: open ? positionOf(side === Side.BUY) : positionOf(side === Side.SELL),
      // one-way: an open against the net position reduces it first, and is margined for the rest
      against: open && oneWay ? positionOf(side === Side.SELL) : null,
      covered: open && oneWay && !f.reduceOnly ? meets(side).cover : 0,
      // a reduce-only one never opens, and the venue trims it to the position: it never flips
      reduceOnly: open && oneWay && f.reduceOnly,
    });
    // a close or reduce-only order enters trimmed to the position: that is what must fill
    const fok = f.tif === TimeInForce.FOK && !stop && type === OrderType.LIMIT && priceIn.kind === 'ok';
    const whole = Number.isFinite(p.trimmedTo) ? p.trimmedTo : num(qty);
    const fokFills = fok ? fillOrKillShort(side, priceIn.n, whole, i) : NaN;
    return { ...p, side, label, qty, max: maxFor(side), nothingToClose: null, fokFills };
  };
  const buy = sideModel(Side.BUY);
  const sell = sideModel(Side.SELL);

  const order = (side: Side): OrderOutcome => {
    const none = side === Side.BUY ? buy.nothingToClose : sell.nothingToClose;
    if (none !== null) return { ok: false, error: `${none}.` };
    const long = open ? side === Side.BUY : side === Side.SELL;
    const qty = side === Side.BUY ? buy.qty : sell.qty;
    // Only what the API cannot say better is checked here: that something was typed at all,
    // and that it is a number (the API would answer with its pattern, not with what to do).
    if (type === OrderType.LIMIT && priceIn.kind === 'empty')
      return { ok: false, error: 'Enter a limit price (or click a price in the order book).', field: 'price' };
    if (type === OrderType.LIMIT && priceIn.kind === 'invalid')
      return { ok: false, error: `Price "${priceIn.text}" is not a number: ${NOT_A_NUMBER}.`, field: 'price' };
    if (type === OrderType.LIMIT && (priceIn.kind === 'negative' || (priceIn.kind === 'ok' && !(priceIn.n > 0))))
      return { ok: false, error: 'Enter a limit price above 0.', field: 'price' };
    if (f.sizeMode === 'qty' && qtyIn.kind === 'invalid')
      return { ok: false, error: `Size "${qtyIn.text}" is not a number: ${NOT_A_NUMBER}.` };
    const notAboveZero = f.sizeMode === 'qty' ? sizeNotAboveZero(qtyIn) : null;
    if (notAboveZero !== null) return { ok: false, error: notAboveZero };
    if (qty === '' || !(num(qty) > 0)) {
      // a Max of 0 (no margin, or the notional tier full): no percentage of it, 100% neither, is a size
      const noMax = f.sizeMode === 'pct' && maxFor(side) === 0;
      return {
        ok: false,
        error: noMax
          ? 'Max is 0 on this side: no percentage of it is a size to send.'
          : f.sizeMode === 'pct'
            ? 'The percentage gives no whole quantity step: raise it.'
            : 'Enter a size.',
      };
    }
    const req: OrderRequest = {
      symbol,
      side,
      position_side: oneWay || long ? PositionSide.LONG : PositionSide.SHORT,
      position_action: open ? PositionAction.OPEN : PositionAction.CLOSE,
      type,
      qty,
    };
    if (type === OrderType.LIMIT && priceIn.kind === 'ok') {
      req.price = priceIn.value;
      req.time_in_force = f.tif;
    }
    // No leverage or margin mode: the order takes the pair's setting at the venue. The form's
    // buttons set them there at once (POST /fapi/v1/leverage, /fapi/v1/marginType), so an order has
    // nothing of its own to carry, and sending the form's copy would put back a setting changed
    // since by another client (a bot) that the form had not learnt yet.
    if (open) {
      // hedge mode refuses a reduce-only open (3010) and makes every close reduce-only
      // a one-way reduce-only order goes as a close too (the same rule at the venue): its record,
      // which carries no reduce_only, then says it never opens (notional-cap.ts)
      if (oneWay && f.reduceOnly) {
        req.reduce_only = true;
        req.position_action = PositionAction.CLOSE;
      }
    }
    return { ok: true, order: req };
  };

  const pctOf = sizePctBasis(open, oneWay, f.reduceOnly);
  const sizeShare =
    f.sizeMode === 'pct'
      ? f.pct
      : qtyShare(qtyIn, [Side.BUY, Side.SELL].filter((s) => !nothingToClose(s)).map(wholeFor));
  return {
    leverage,
    maxLeverage,
    marginMode,
    oneWay,
    priceIn,
    qtyIn,
    triggerIn,
    callbackIn,
    activationIn,
    type,
    buy,
    sell,
    pctOf,
    sizeShare,
    postOnlyTakes,
    order,
  };
}

/** The levels an order of `side` meets ([price, quantity], best first): the book's, else its best price alone. */
function bookFills(side: Side, i: OrderModelInput): Array<[number, number]> | undefined {
  const levels = side === Side.BUY ? i.asks : i.bids;
  if (levels && levels.length > 0) return levels.map(([p, q]) => [Number(p), Number(q)]);
  const best = side === Side.BUY ? i.bestAsk : i.bestBid;
  return best > 0 ? [[best, Infinity]] : undefined;
}

/** A side with nothing to close or reduce estimates nothing. */
const NO_PREVIEW: Preview = {
  notional: NaN,
  margin: NaN,
  fee: NaN,
  cost: NaN,
  liquidation: NaN,
  pnl: NaN,
  trimmedTo: NaN,
};

/** The button's words; one-way: an open may reduce, close or flip the net position, so it is named by its side. */
function sideLabel(side: Side, open: boolean, oneWay: boolean): string {
  if (open && oneWay) return side === Side.BUY ? 'Buy / Long' : 'Sell / Short';
  if (side === Side.BUY) return open ? 'Open long' : 'Close short';
  return open ? 'Open short' : 'Close long';
}

/** max_qty written on the step, as pctQty() writes a capped quantity. */
export function maxOnStep(maxQty: string, step: string): string {
  return pctQty({ pct: 100, base: Infinity, qtyStep: step, maxQty });
}
