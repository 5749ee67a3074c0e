// One book's commands as plain objects, for tests, property runs and replays of a book.
// applyCommand() maps one onto the book's primitive methods, which the exchange calls directly
// (the venue's own command objects, with accounts and wire fields, are trading/commands.ts).

import type { BookCommands } from './types.ts';

/** placeLimit's arguments by name (the reference book takes them so). */
export interface LimitOrder {
  orderId: number;
  account: number;
  side: number;
  priceTicks: number;
  qtyLots: number;
  tif: number;
  flags?: number;
  /** Reduce-only cap from the risk layer; -1 or absent = none. */
  maxFillLots?: number;
  /** 0 or absent = the book's default. */
  stp?: number;
}

/** placeMarket's arguments by name. */
export interface MarketOrder {
  orderId: number;
  account: number;
  side: number;
  qtyLots: number;
  /** Reference price for the protection band (mark). */
  refPriceTicks: number;
  flags?: number;
  maxFillLots?: number;
  stp?: number;
  /** IOC (2, the default), FOK (3) or GTX (4). */
  tif?: number;
}

/** amend's arguments by name: the new price and TOTAL quantity. */
export interface Amendment {
  orderId: number;
  priceTicks: number;
  qtyLots: number;
  account?: number;
  maxFillLots?: number;
  requeue?: boolean;
}

export type Command =
  | ({ kind: 'limit' } & Omit<LimitOrder, 'tif'> & { /** Default GTC. */ tif?: number })
  | ({ kind: 'market' } & MarketOrder)
  | { kind: 'cancel'; orderId: number; account?: number }
  | { kind: 'cancelAll'; account: number }
  | ({ kind: 'amend' } & Amendment)
  | { kind: 'trim'; orderId: number; capLots: number };

export function applyCommand(book: BookCommands, c: Command): void {
  switch (c.kind) {
    case 'limit':
      book.placeLimit(
        c.orderId,
        c.account,
        c.side,
        c.priceTicks,
        c.qtyLots,
        c.tif ?? 1,
        c.flags ?? 0,
        c.maxFillLots ?? -1,
        c.stp ?? 0,
      );
      return;
    case 'market':
      book.placeMarket(
        c.orderId,
        c.account,
        c.side,
        c.qtyLots,
        c.refPriceTicks,
        c.flags ?? 0,
        c.maxFillLots ?? -1,
        c.stp ?? 0,
        c.tif ?? 2,
      );
      return;
    case 'cancel':
      book.cancel(c.orderId, c.account ?? -1);
      return;
    case 'cancelAll':
      book.cancelAll(c.account);
      return;
    case 'amend':
      book.amend(c.orderId, c.priceTicks, c.qtyLots, c.account ?? -1, c.maxFillLots ?? -1, c.requeue ?? false);
      return;
    case 'trim':
      book.trimOrder(c.orderId, c.capLots);
      return;
  }
}
