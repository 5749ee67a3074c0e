// The user's default font size and computed styles, for the specs that check the screen scales
// with it (e2e/zoom.spec.ts, e2e/sweeps-font.spec.ts).
import type { Locator, Page } from 'playwright/test';

/** A computed style of the element (in the page; this file is compiled without the DOM's types). */
export function styleOf(l: Locator, prop: string): Promise<string> {
  return l.evaluate(
    (el, p) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(el)[p],
    prop,
  );
}

export async function defaultFontSize(page: Page, px: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: px } });
}
