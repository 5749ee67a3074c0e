// Page model of the trading screen: role and test-id locators only, grouped by area.
import type { Locator, Page } from 'playwright/test';

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

/** The order form's send buttons (one-way opens are named by side). */
type FormButton = 'Open long' | 'Open short' | 'Close long' | 'Close short' | 'Buy / Long' | 'Sell / Short';

export class TradingPage {
  readonly page: Page;
  readonly topbar: Topbar;
  readonly picker: SymbolPicker;
  readonly chart: ChartArea;
  readonly ladder: LadderArea;
  readonly form: OrderForm;
  readonly tabs: BottomTabs;

  constructor(page: Page) {
    this.page = page;
    this.topbar = new Topbar(page);
    this.picker = new SymbolPicker(page);
    this.chart = new ChartArea(page);
    this.ladder = new LadderArea(page);
    this.form = new OrderForm(page);
    this.tabs = new BottomTabs(page);
  }

  /** Opens the screen without credentials (view only). */
  async open(baseUrl: string): Promise<void> {
    await this.page.goto(`${baseUrl}/`);
    await this.mounted();
  }

  /**
   * Waits for the app's first render: its keyboard shortcuts are installed in that commit
   * (app.tsx, a layout effect), and the page's load event may come before it (a key pressed
   * then did nothing: on 12-03's host "?" at once after the load never opened the help).
   */
  private async mounted(): Promise<void> {
    await this.page.getByRole('button', { name: 'Keyboard shortcuts' }).waitFor();
  }

  /** Opens the screen logged in as `creds`: the credentials go where the login link would put them (localStorage). */
  async openAs(baseUrl: string, creds: Credentials, symbol?: string): Promise<void> {
    await this.page.addInitScript(
      ([key, secret, base, sym]) => {
        localStorage.setItem('perpdesk.credentials', JSON.stringify({ apiKey: key, apiSecret: secret, baseUrl: base }));
        if (sym) localStorage.setItem('perpdesk.workspace', JSON.stringify({ symbol: sym, interval: '1m' }));
      },
      [creds.apiKey, creds.apiSecret, baseUrl, symbol ?? ''] as const,
    );
    await this.page.goto(`${baseUrl}/`);
    await this.mounted();
  }

  async selectSymbol(symbol: string): Promise<void> {
    await this.topbar.symbolButton.click();
    await this.picker.search.fill(symbol);
    await this.picker.row(symbol).click();
  }

  /** Opens the settings drawer. */
  settings(): Locator {
    return this.page.getByRole('dialog', { name: 'Settings' });
  }

  async openSettings(): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Settings' }).click();
    return this.settings();
  }

  botPanel(): Locator {
    return this.page.getByRole('dialog', { name: 'Bot orders' });
  }

  async openBotPanel(): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Bots' }).click();
    return this.botPanel();
  }

  toast(kind: 'fill' | 'error' | 'success' | 'liquidation' | 'funding' | 'alert' | 'margin'): Locator {
    return this.page.getByTestId(`toast-${kind}`);
  }
}

export class Topbar {
  readonly symbolButton: Locator;
  readonly lastPrice: Locator;
  readonly markPrice: Locator;
  readonly fundingRate: Locator;
  readonly fundingCountdown: Locator;
  readonly connection: Locator;
  /** The banner of a venue that cannot store changes (a failed commit, a nearly full disk). */
  readonly storeStatus: Locator;
  constructor(page: Page) {
    this.symbolButton = page.getByTestId('symbol-button');
    this.lastPrice = page.getByTestId('last-price');
    this.markPrice = page.getByTestId('mark-price');
    this.fundingRate = page.getByTestId('funding-rate');
    this.fundingCountdown = page.getByTestId('funding-countdown');
    this.connection = page.getByTestId('connection-status');
    this.storeStatus = page.getByTestId('store-status');
  }
}

export class SymbolPicker {
  readonly dialog: Locator;
  readonly search: Locator;
  readonly table: Locator;
  constructor(page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Markets' });
    this.search = this.dialog.getByRole('combobox', { name: 'Search pairs' });
    this.table = page.getByTestId('symbol-table');
  }
  row(symbol: string): Locator {
    return this.table.getByTestId(`symbol-row-${symbol}`);
  }
  rows(): Locator {
    return this.table.locator('tbody tr');
  }
  async filterTag(name: 'All' | 'New' | 'Meme' | 'Innovation'): Promise<void> {
    await this.dialog.getByRole('tab', { name }).click();
  }
  /** Clicks a column header (sorts by it; again: the other way). */
  async sortBy(column: string): Promise<void> {
    await this.table.getByRole('button', { name: column, exact: false }).first().click();
  }
  /** The listed pairs, top to bottom. */
  async symbols(): Promise<string[]> {
    const ids = await this.rows().evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
    return ids.map((id) => id.replace('symbol-row-', ''));
  }
}

export class ChartArea {
  readonly box: Locator;
  readonly legend: Locator;
  constructor(page: Page) {
    this.box = page.getByTestId('chart');
    this.legend = page.getByTestId('chart-legend');
  }
  interval(iv: string): Locator {
    return this.box.page().getByRole('tablist', { name: 'Chart interval' }).getByRole('tab', { name: iv, exact: true });
  }
  async candles(): Promise<number> {
    return Number(await this.box.getAttribute('data-candles'));
  }
  /** Open time of the oldest candle loaded, ms. */
  async oldest(): Promise<number> {
    return Number(await this.box.getAttribute('data-oldest'));
  }
  async lines(): Promise<string[]> {
    return ((await this.box.getAttribute('data-lines')) ?? '').split(' ').filter(Boolean);
  }
  /** Lines whose label the price axis shows: those whose price is in view. */
  async labelled(): Promise<string[]> {
    return ((await this.box.getAttribute('data-axis-labels')) ?? '').split(' ').filter(Boolean);
  }
  /**
   * Widens the visible price range as a user does, by dragging the price axis down (the chart
   * leaves autoscale then): lines near the market come into view whatever the recent candles'
   * range.
   */
  async widenPrices(): Promise<void> {
    const b = (await this.box.boundingBox())!;
    const page = this.box.page();
    const x = b.x + b.width - 25;
    await page.mouse.move(x, b.y + b.height * 0.3);
    await page.mouse.down();
    await page.mouse.move(x, b.y + b.height * 0.7, { steps: 10 });
    await page.mouse.up();
  }
  /**
   * Where the pointer takes a movable line, found as a user finds it: moving down the pane at
   * page x `x` until the cursor says a line is under it (the box's `line-grab`); null if none.
   */
  async grabY(x: number): Promise<number | null> {
    const b = (await this.box.boundingBox())!;
    const page = this.box.page();
    // a line takes the pointer 5 px either side (line-geometry.ts GRAB_PX): steps of 8 miss none
    for (let y = b.y + 4; y < b.y + b.height - 30; y += 8) {
      await page.mouse.move(x, y);
      if (((await this.box.getAttribute('class')) ?? '').includes('line-grab')) return y;
    }
    return null;
  }
}

export class LadderArea {
  readonly root: Locator;
  readonly asks: Locator;
  readonly bids: Locator;
  readonly grouping: Locator;
  constructor(page: Page) {
    this.root = page.getByTestId('ladder');
    this.asks = page.getByTestId('ladder-ask-row');
    this.bids = page.getByTestId('ladder-bid-row');
    this.grouping = page.getByRole('combobox', { name: 'Grouping' });
  }
  /** The rows shown, best first: [price, qty] as the data attributes carry them. */
  async levels(side: 'ask' | 'bid'): Promise<Array<[string, string]>> {
    const rows = side === 'ask' ? this.asks : this.bids;
    const out = await rows.evaluateAll((els) =>
      els.map((e) => [e.getAttribute('data-price') ?? '', e.getAttribute('data-qty') ?? ''] as [string, string]),
    );
    return out;
  }
  async updateId(): Promise<number> {
    return Number(await this.root.getAttribute('data-update-id'));
  }
  row(side: 'ask' | 'bid', price: string): Locator {
    return (side === 'ask' ? this.asks : this.bids).and(this.root.page().locator(`[data-price="${price}"]`));
  }
}

export class OrderForm {
  readonly root: Locator;
  readonly price: Locator;
  readonly size: Locator;
  readonly error: Locator;
  readonly notice: Locator;
  readonly preview: Locator;
  constructor(page: Page) {
    this.root = page.getByTestId('order-entry');
    // exact: the Stop kind's "Trigger price" is a field of its own
    this.price = this.root.getByRole('textbox', { name: 'Price', exact: true });
    this.size = this.root.getByRole('textbox', { name: 'Size', exact: true });
    this.error = page.getByTestId('order-error');
    this.notice = page.getByTestId('order-notice');
    this.preview = page.getByTestId('order-preview');
  }
  tab(name: 'Open' | 'Close'): Locator {
    return this.root.getByRole('tablist', { name: 'Open or close' }).getByRole('tab', { name });
  }
  type(name: 'Limit' | 'Market' | 'Stop'): Locator {
    return this.root.getByRole('tablist', { name: 'Order type' }).getByRole('tab', { name });
  }
  button(name: FormButton): Locator {
    return this.root.getByRole('button', { name });
  }
  async limit(side: FormButton, price: string, qty: string): Promise<void> {
    await this.type('Limit').click();
    await this.price.fill(price);
    await this.size.fill(qty);
    await this.button(side).click();
  }
  async market(side: FormButton, qty: string): Promise<void> {
    await this.type('Market').click();
    await this.size.fill(qty);
    await this.button(side).click();
  }
}

export class BottomTabs {
  readonly page: Page;
  readonly positions: Locator;
  readonly openOrders: Locator;
  readonly positionHistory: Locator;
  readonly orderHistory: Locator;
  readonly tradeHistory: Locator;
  readonly alerts: Locator;
  constructor(page: Page) {
    this.page = page;
    this.positions = page.getByTestId('positions-table');
    this.openOrders = page.getByTestId('open-orders-table');
    this.positionHistory = page.getByTestId('position-history-table');
    this.orderHistory = page.getByTestId('order-history-table');
    this.tradeHistory = page.getByTestId('trade-history-table');
    this.alerts = page.getByTestId('alerts-table');
  }
  async show(
    name: 'Positions' | 'Open orders' | 'Order history' | 'Trade history' | 'Position history' | 'Account' | 'Alerts',
  ): Promise<void> {
    await this.page
      .getByRole('tablist', { name: 'Account views' })
      .getByRole('tab', { name: new RegExp(`^${name}`) })
      .click();
  }
  position(symbol: string, side: 1 | 2): Locator {
    return this.page.getByTestId(`position-row-${symbol}-${side}`);
  }
  order(id: string): Locator {
    return this.page.getByTestId(`order-row-${id}`);
  }
}
