// The small buttons beside a position's figures (✎ TP/SL, ± isolated margin) keep the figures
// readable when focused from the keyboard: the focus ring stays clear of the price's last digit
// (it was drawn 1 px outside the button, 2 px from it, over the last digit of the TP price), and
// each heading stands over its figures, not over the button (at 1440 and 1280 px).
import type { Locator } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { PositionsArea } from './pages/positions-area.ts';
import { onTick } from './support/prices.ts';

interface RingFit {
  /** The focus ring's left edge (the button's box grown by the outline), px. */
  ringLeft: number;
  /** The right edge of the figures beside the button, px. */
  figuresRight: number;
  /** The right edge of the column heading's words, px. */
  headRight: number;
  focusVisible: boolean;
}

/** Focuses `button` as the keyboard would and reads where its ring and the figures stand. */
async function ringFit(button: Locator): Promise<RingFit> {
  return button.evaluate((b) => {
    // focused as by the keyboard (focusVisible: Chromium draws the ring as after a Tab)
    (b as unknown as { focus(o: { focusVisible: boolean }): void }).focus({ focusVisible: true });
    const w = globalThis as unknown as {
      getComputedStyle(e: typeof b): Record<'outlineStyle' | 'outlineOffset' | 'outlineWidth', string>;
    };
    const cs = w.getComputedStyle(b);
    const grow =
      cs.outlineStyle === 'none' ? 0 : Number.parseFloat(cs.outlineOffset) + Number.parseFloat(cs.outlineWidth);
    const figures = b.previousElementSibling!;
    const cell = b.closest('td') as unknown as { cellIndex: number; closest(s: string): typeof b | null };
    const head = cell.closest('table')!.querySelectorAll('thead th')[cell.cellIndex]!;
    const words = head.querySelector('.pos-stack') ?? head;
    return {
      ringLeft: b.getBoundingClientRect().left - grow,
      figuresRight: Math.max(...[...figures.querySelectorAll('span')].map((s) => s.getBoundingClientRect().right)),
      headRight: words.getBoundingClientRect().right,
      focusVisible: b.matches(':focus-visible'),
    };
  });
}

function expectClear(f: RingFit, what: string): void {
  expect(f.focusVisible, `${what}: focused as from the keyboard`).toBe(true);
  // at least 2 px between the ring and the last digit
  expect(f.ringLeft - f.figuresRight, `${what}: ring clear of the figures`).toBeGreaterThanOrEqual(2);
  expect(Math.abs(f.headRight - f.figuresRight), `${what}: heading over the figures`).toBeLessThanOrEqual(1);
}

for (const size of [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
]) {
  test(`at ${size.width} px the focused ✎ and ± buttons leave the TP and margin figures readable`, async ({
    page,
    service,
    trader,
    market,
  }) => {
    const symbol = 'BTCUSDT';
    await trader.api.setMarginMode(symbol, 1);
    const { s, pos } = await market.position(trader.api, symbol, 1, '0.010');
    // prices as long as the pair writes them (6 digits and a decimal)
    await trader.api.setTpSl({
      symbol,
      position_side: 1,
      take_profit_price: onTick(pos.mark_price * 1.3, s.price_step),
      stop_loss_price: onTick(pos.mark_price * 0.7, s.price_step),
    });
    await openTrading(page, service.url, trader, symbol, { size });
    const area = new PositionsArea(page);
    const row = area.row(symbol, 1);
    await expect(row).toContainText('Isolated');
    const edit = row.getByRole('button', { name: /^TP\/SL / });
    await expect(row.locator('.pos-tpsl .up').first()).not.toHaveText('—');
    expectClear(await ringFit(edit), 'TP/SL ✎');
    expectClear(await ringFit(row.getByRole('button', { name: /^Adjust margin / })), 'margin ±');
  });
}
