// The order form's two send buttons keep their words on one line, with the size tag of a % size
// ("Open short · 50%", "Close short · 100%", "Sell / Short · 100%"), at 1280 and 1440 px: the
// order column has the same width at every window width the layout allows. At 13 px "Open
// short · 50%" wrapped to two lines in its 38 px button while "Open long · 50%" fitted.
import type { Locator } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { FormExtras } from './pages/form-extras.ts';

interface DOMRectLike {
  width: number;
  height: number;
}

interface Fit {
  text: string;
  /** Height of the words (their range), px. */
  height: number;
  lineHeight: number;
  /** Width of the words on one line, and the room inside the button's padding, px. */
  width: number;
  room: number;
}

/** How each send button's words sit in it. */
async function fits(root: Locator): Promise<Fit[]> {
  return root.locator('.oe-buttons button').evaluateAll((els) =>
    els.map((b) => {
      const w = globalThis as unknown as {
        getComputedStyle(e: typeof b): Record<'lineHeight' | 'fontSize' | 'paddingLeft' | 'paddingRight', string>;
        document: { createRange(): { selectNodeContents(n: typeof b): void; getBoundingClientRect(): DOMRectLike } };
      };
      const cs = w.getComputedStyle(b);
      const range = w.document.createRange();
      range.selectNodeContents(b);
      const r = range.getBoundingClientRect();
      const lh = cs.lineHeight === 'normal' ? Number.parseFloat(cs.fontSize) * 1.2 : Number.parseFloat(cs.lineHeight);
      return {
        text: b.textContent ?? '',
        height: r.height,
        lineHeight: lh,
        width: r.width,
        room: b.clientWidth - Number.parseFloat(cs.paddingLeft) - Number.parseFloat(cs.paddingRight),
      };
    }),
  );
}

function expectOneLine(all: Fit[], at: string): void {
  expect(all).toHaveLength(2);
  for (const f of all) {
    // one line: the words are no taller than one line box (two lines are twice as tall)
    expect(f.height, `${at}: "${f.text}" on one line`).toBeLessThan(f.lineHeight * 1.5);
    expect(f.width, `${at}: "${f.text}" inside its button`).toBeLessThanOrEqual(f.room + 0.5);
  }
}

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
];

for (const size of SIZES) {
  test(`the send buttons keep their words on one line at ${size.width} px: hedge mode, open and close, % sizes`, async ({
    page,
    service,
    trader,
  }) => {
    const screen = await openTrading(page, service.url, trader, 'BTCUSDT', { size });
    const x = new FormExtras(page, screen);
    await expect(screen.form.button('Open long')).toBeEnabled();
    for (const pct of [50, 100] as const) {
      await x.pct(pct).click();
      await expect(screen.form.button('Open short')).toContainText(`${pct}%`);
      expectOneLine(await fits(screen.form.root), `open ${pct}%`);
    }
    await screen.form.tab('Close').click();
    await x.pct(100).click();
    await expect(screen.form.button('Close short')).toContainText('100%');
    expectOneLine(await fits(screen.form.root), 'close 100%');
  });

  test(`the send buttons keep their words on one line at ${size.width} px: one-way mode, named by side`, async ({
    page,
    service,
    trader,
  }) => {
    // one-way mode names the buttons by side: the longest words
    await trader.api.setPositionMode('one_way');
    const screen = await openTrading(page, service.url, trader, 'BTCUSDT', { size });
    const x = new FormExtras(page, screen);
    await expect(screen.form.button('Sell / Short')).toBeEnabled();
    await x.pct(100).click();
    await expect(screen.form.button('Sell / Short')).toContainText('100%');
    expectOneLine(await fits(screen.form.root), 'one-way open 100%');
  });
}
