// Page model of the positions tab, its TP/SL and margin dialogs and the bulk-action confirmations.
import type { Locator, Page } from 'playwright/test';

export class PositionsArea {
  readonly page: Page;
  readonly table: Locator;
  readonly closeAll: Locator;
  readonly closeAllConfirm: Locator;
  readonly cancelAll: Locator;
  readonly cancelAllConfirm: Locator;
  readonly dialog: Locator;
  readonly takeProfit: Locator;
  readonly stopLoss: Locator;
  readonly marginDialog: Locator;
  readonly marginAmount: Locator;
  constructor(page: Page) {
    this.page = page;
    this.table = page.getByTestId('positions-table');
    this.closeAll = page.getByRole('button', { name: 'Close all' });
    this.closeAllConfirm = page.getByTestId('close-all-confirm');
    this.cancelAll = page.getByRole('button', { name: 'Cancel all' });
    this.cancelAllConfirm = page.getByTestId('cancel-all-confirm');
    this.dialog = page.getByRole('dialog', { name: 'Take profit / stop loss' });
    this.takeProfit = this.dialog.getByRole('textbox', { name: 'Take profit price' });
    this.stopLoss = this.dialog.getByRole('textbox', { name: 'Stop loss price' });
    this.marginDialog = page.getByRole('dialog', { name: 'Adjust margin' });
    this.marginAmount = this.marginDialog.getByRole('textbox', { name: 'Margin amount' });
  }
  row(symbol: string, side: 1 | 2): Locator {
    return this.page.getByTestId(`position-row-${symbol}-${side}`);
  }
  /** How many elements inside the dialog have the focus (1 while it is trapped there). */
  focusedInDialog(): Locator {
    return this.dialog.locator(':focus');
  }
}
