// The order form beyond the shared page model: hints, % sizing, leverage, reduce-only, focus.
import type { Locator, Page } from 'playwright/test';
import type { TradingPage } from './trading-page.ts';

/** What this spec reads beyond the shared page model. */
export class FormExtras {
  readonly page: Page;
  readonly screen: TradingPage;
  readonly hint: Locator;
  readonly pctQty: Locator;
  readonly pct: (p: 25 | 50 | 75 | 100) => Locator;
  readonly leverageButton: Locator;
  readonly leverage: Locator;
  constructor(page: Page, screen: TradingPage) {
    this.page = page;
    this.screen = screen;
    const root = screen.form.root;
    this.hint = page.getByTestId('order-hint');
    this.pctQty = page.getByTestId('pct-qty');
    this.pct = (p) => root.getByRole('button', { name: `${p}%`, exact: true });
    this.leverageButton = page.getByTestId('leverage-button');
    this.leverage = root.getByRole('group', { name: 'Leverage' });
  }
  /** 'pct' or 'qty', as the size field's unit button shows it ("% ⇄" or "BTC ⇄"). */
  async sizeMode(): Promise<'pct' | 'qty'> {
    const unit = await this.screen.form.root.getByRole('button', { name: 'Size unit' }).textContent();
    return unit?.trim().startsWith('%') ? 'pct' : 'qty';
  }
  reduceOnly(): Locator {
    return this.screen.form.root.getByRole('checkbox', { name: 'Reduce-only' });
  }
  /** Focus on nothing in particular: where the global shortcuts act. */
  async bodyFocused(): Promise<boolean> {
    return this.page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { activeElement: unknown; body: unknown } }).document;
      return doc.activeElement === doc.body || doc.activeElement === null;
    });
  }
}
