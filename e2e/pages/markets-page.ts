import type { Locator, Page } from 'playwright/test';

export class MarketsPage {
  readonly page: Page;
  readonly table: Locator;
  readonly search: Locator;

  constructor(page: Page) {
    this.page = page;
    this.table = page.getByTestId('symbol-table');
    this.search = page.getByRole('searchbox', { name: 'Search pairs' });
  }

  async open(baseUrl: string): Promise<void> {
    await this.page.goto(`${baseUrl}/`);
  }

  row(symbol: string): Locator {
    return this.page.getByTestId(`symbol-row-${symbol}`);
  }

  rows(): Locator {
    return this.table.locator('tbody tr');
  }

  async filterTag(name: 'All' | 'New' | 'Meme' | 'Innovation'): Promise<void> {
    await this.page.getByRole('tab', { name }).click();
  }
}
