// The trading screen as a spec sets it up: opened logged in as a paper trader on a pair (at a
// window size if the spec needs one) or view only on a pair with its order book live or its chart
// loaded, and the
// trader's orders placed through the API before the screen shows them.
import { expect, type Page } from 'playwright/test';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import type { FuturesSymbol, PlacementResult } from '../../src-shared/types.ts';
import type { BotMarket } from './bot-market.ts';
import { TradingPage, type Credentials } from '../pages/trading-page.ts';

export interface OpenOptions {
  /** The window's size (the default: the config's viewport). */
  size?: { width: number; height: number };
  /** Wait until the ladder is live (in sync with the book). */
  live?: boolean;
}

/** The screen at `base`, logged in as `trader` on `symbol` (else the pair the screen opens on). */
export async function openTrading(
  page: Page,
  base: string,
  trader: Credentials,
  symbol?: string,
  opts: OpenOptions = {},
): Promise<TradingPage> {
  if (opts.size !== undefined) await page.setViewportSize(opts.size);
  const screen = new TradingPage(page);
  await screen.openAs(base, trader, symbol);
  if (opts.live) await expect(screen.ladder.root).toHaveAttribute('data-sync', 'live');
  return screen;
}

/** The screen as `openTrading` opens it, once its order buttons are on: a limit order at `price` in the form. */
export async function openLimitForm(
  page: Page,
  base: string,
  trader: Credentials,
  symbol: string,
  price: string,
): Promise<TradingPage> {
  const screen = await openTrading(page, base, trader, symbol);
  await expect(screen.form.button('Open long')).toBeEnabled();
  await screen.form.type('Limit').click();
  await screen.form.price.fill(price);
  return screen;
}

/** The screen at `base` without credentials, `symbol` picked and its ladder live (in sync with the book). */
export async function watchLadder(page: Page, base: string, symbol: string): Promise<TradingPage> {
  const screen = new TradingPage(page);
  await screen.open(base);
  await screen.selectSymbol(symbol);
  await expect(screen.ladder.root).toHaveAttribute('data-sync', 'live');
  return screen;
}

/** The open time the chart's summary names ("... candle of 2026-12-05 01:59: open ..."), ms. */
export function candleTime(summary: string | null): number {
  const m = /candle of (\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)?)/.exec(summary ?? '');
  expect(m, summary ?? '').not.toBeNull();
  return Date.parse(`${m![1].replace(' ', 'T')}Z`);
}

/**
 * The screen view only (no account) on the default pair `symbol`, its book filled by the bots
 * and its chart loaded: the pair's configuration and the screen.
 */
export async function openChart(
  page: Page,
  base: string,
  market: BotMarket,
  symbol: string,
): Promise<{ s: FuturesSymbol; screen: TradingPage }> {
  const s = await market.symbol(symbol);
  await market.ensureBook(symbol);
  const screen = new TradingPage(page);
  await screen.open(base);
  await expect(screen.chart.box).toHaveAttribute('data-status', 'ready');
  return { s, screen };
}

/** A limit buy opening a long (good till cancel) of `qty` at `price`, placed by the account `api` calls with. */
export function restingBuy(api: RestClient, symbol: string, price: string, qty: string): Promise<PlacementResult> {
  return api.placeOrder({
    symbol,
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 1,
    price,
    qty,
    time_in_force: 1,
  });
}

/** A market order of `qty` opening a position on `side` (1 long, 2 short; hedge mode) by the account `api` calls with. */
export function marketOrder(api: RestClient, symbol: string, side: 1 | 2, qty: string): Promise<PlacementResult> {
  return api.placeOrder({ symbol, side, position_side: side, position_action: 1, type: 2, qty });
}

/**
 * A round trip of the account `api` calls with on `symbol`, against the bot market's book: a market
 * buy opening a long of twice the pair's minimum notional, then a market sell closing it, both
 * filled. Its two placements.
 */
export async function roundTrip(
  market: BotMarket,
  api: RestClient,
  symbol: string,
): Promise<{ open: PlacementResult; close: PlacementResult }> {
  const s = await market.symbol(symbol);
  await market.ensureBook(symbol);
  const qty = String(Math.ceil((2 * Number(s.min_notional)) / (await market.mid(symbol))));
  const open = await api.placeOrder({ symbol, side: 1, position_side: 1, position_action: 1, type: 2, qty });
  const close = await api.placeOrder({ symbol, side: 2, position_side: 1, position_action: 2, type: 2, qty });
  expect([open.status, close.status]).toEqual([3, 3]);
  return { open, close };
}
