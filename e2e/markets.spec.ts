import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { TradingPage } from './pages/trading-page.ts';
import { setPaused } from './support/sim.ts';

test('the symbol picker lists every symbol from the API', async ({ page, service }) => {
  const res = await fetch(`${service.url}/api/v1/symbols`);
  const api = (await res.json()) as { data: Array<{ symbol: string }> };
  expect(api.data.length).toBeGreaterThanOrEqual(6);

  const screen = new TradingPage(page);
  await screen.open(service.url);
  await screen.topbar.symbolButton.click();
  await expect(screen.picker.table).toBeVisible();
  await expect(screen.picker.rows()).toHaveCount(api.data.length);
  for (const s of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT']) {
    await expect(screen.picker.row(s)).toBeVisible();
  }
  await expect(screen.picker.row('BTCUSDT')).toContainText('125x');
  await page.screenshot({ path: test.info().outputPath('symbol-picker.png') });
});

test('search and tag filters narrow the list, and picking a pair switches the screen', async ({ page, service }) => {
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await expect(screen.topbar.symbolButton).toContainText('BTCUSDT');
  await page.keyboard.press('/');
  await expect(screen.picker.search).toBeFocused();
  await screen.picker.search.fill('eth');
  await expect(screen.picker.rows()).toHaveCount(1);
  await expect(screen.picker.row('ETHUSDT')).toBeVisible();
  await screen.picker.search.fill('');

  const meme = (await (await fetch(`${service.url}/fapi/v1/symbols?tag=meme`)).json()) as { data: unknown[] };
  await screen.picker.filterTag('Meme');
  await expect(screen.picker.rows()).toHaveCount(meme.data.length);
  await expect(screen.picker.row('DOGEUSDT')).toBeVisible();
  await expect(screen.picker.row('BTCUSDT')).toHaveCount(0);

  await screen.picker.row('DOGEUSDT').click();
  await expect(screen.picker.dialog).toBeHidden();
  await expect(screen.topbar.symbolButton).toContainText('DOGEUSDT');
  await expect(screen.ladder.root).toHaveAttribute('data-step', '0.00001');
});

test('a paused pair says so in the top bar, the chart and the order form', async ({ page, service, trader }) => {
  const general = (await (await fetch(`${service.url}/api/v1/symbols/FTTUSDT`)).json()) as { data: { status: number } };
  expect(general.data.status).toBe(2); // the catalogue ships FTTUSDT paused
  const screen = await openTrading(page, service.url, trader);
  await screen.selectSymbol('FTTUSDT');
  await expect(page.getByTestId('symbol-status')).toHaveText('Trading paused');
  await expect(page.getByTestId('chart-empty')).toContainText('No trades on FTTUSDT yet');
  // the order form refuses before the API would (3001)
  await expect(screen.form.button('Open long')).toBeDisabled();
  await expect(page.getByTestId('order-halted')).toContainText('FTTUSDT is paused');
  // a pair that settles no funding (next_funding_time 0) has no rate nor countdown; an empty book no B/S ratio
  await expect(page.getByTestId('funding-rate')).toHaveText('—');
  await expect(page.getByTestId('funding-countdown')).toHaveText('—');
  await expect(page.getByTestId('ratio-bids')).toHaveText('B —');
  await expect(page.getByTestId('ratio-asks')).toHaveText('— S');
  // and so does its row in the picker (it listed 0.0100%, the rate its price record still carries)
  await screen.topbar.symbolButton.click();
  await expect(screen.picker.row('FTTUSDT').locator('td').nth(4)).toHaveText('—');
  await expect(screen.picker.row('BTCUSDT').locator('td').nth(4)).toHaveText(/^-?\d\.\d{4}%$/);
  await page.keyboard.press('Escape');
  await expect(screen.picker.dialog).toBeHidden();
  // a delisted pair has no mark nor index either (complete_price answers 7001)
  await screen.selectSymbol('LUNA2USDT');
  await expect(page.getByTestId('symbol-status')).toHaveText('Delisted');
  for (const id of ['mark-price', 'index-price', 'funding-rate']) await expect(page.getByTestId(id)).toHaveText('—');
  // a trading pair shows none of it
  await screen.selectSymbol('BTCUSDT');
  await expect(page.getByTestId('funding-rate')).toHaveText(/^-?\d\.\d{4}%$/);
  await expect(page.getByTestId('ratio-bids')).toHaveText(/^B \d+%$/);
  await expect(page.getByTestId('symbol-status')).toHaveCount(0);
  await expect(page.getByTestId('chart-empty')).toHaveCount(0);
  await expect(page.getByTestId('order-halted')).toHaveCount(0);
  await expect(screen.form.button('Open long')).toBeEnabled();
});

test('the picker sorts by a clicked column and starts its cursor on the current pair', async ({ page, service }) => {
  const futures = (await (await fetch(`${service.url}/fapi/v1/symbols`)).json()) as {
    data: Array<{ symbol: string; max_leverage: number }>;
  };
  const lev = new Map(futures.data.map((f) => [f.symbol, f.max_leverage]));
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await screen.selectSymbol('ETHUSDT');
  await screen.topbar.symbolButton.click();
  await expect(screen.picker.row('ETHUSDT')).toHaveAttribute('aria-selected', 'true');

  await screen.picker.sortBy('Max leverage');
  await expect(screen.picker.table.locator('th[aria-sort="descending"]')).toContainText('Max leverage');
  const down = (await screen.picker.symbols()).map((sym) => lev.get(sym)!);
  expect(down).toEqual([...down].sort((a, b) => b - a));
  expect(new Set(down).size).toBeGreaterThan(1); // the order is not trivially constant
  await screen.picker.sortBy('Max leverage');
  const up = (await screen.picker.symbols()).map((sym) => lev.get(sym)!);
  expect(up).toEqual([...up].sort((a, b) => a - b));
});

test("Enter on a column's sort button sorts, and does not pick the active pair", async ({ page, service }) => {
  // it picked the highlighted pair and closed the picker, unsorted
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await expect(screen.topbar.symbolButton).toContainText('BTCUSDT');
  await page.keyboard.press('/');
  await expect(screen.picker.search).toBeFocused();
  await page.keyboard.press('ArrowDown'); // the cursor on ETHUSDT
  const pairHeader = screen.picker.table.getByRole('button', { name: 'Pair', exact: true });
  await pairHeader.focus();
  await page.keyboard.press('Enter');
  await expect(screen.picker.dialog).toBeVisible();
  await expect(screen.picker.table.locator('th[aria-sort="ascending"]')).toContainText('Pair');
  const names = await screen.picker.symbols();
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  await expect(screen.topbar.symbolButton).toContainText('BTCUSDT');
  // from the search field Enter still picks
  await screen.picker.search.focus();
  await page.keyboard.press('Enter');
  await expect(screen.picker.dialog).toBeHidden();
});

test("the top bar's 24 h figures are the venue's 24 h ticker, in its exact decimals", async ({ page, service }) => {
  await setPaused(service.url, true); // the window stands still with the market clock
  try {
    const screen = new TradingPage(page);
    await screen.open(service.url);
    const r = (await (await fetch(`${service.url}/api/v1/ticker/24h?symbols=BTCUSDT`)).json()) as {
      data: Array<{ price_change: string; price_change_percent: string; high_price: string; low_price: string }>;
    };
    const t = r.data[0];
    const signed = (x: string) => (x.startsWith('-') || /^[0.]*$/.test(x) ? x : `+${x}`);
    const shown = async (id: string) => ((await page.getByTestId(id).textContent()) ?? '').replaceAll(',', '');
    await expect.poll(() => shown('change-24h')).toBe(`${signed(t.price_change)} ${signed(t.price_change_percent)}%`);
    expect(await shown('high-24h')).toBe(t.high_price);
    expect(await shown('low-24h')).toBe(t.low_price);
  } finally {
    await setPaused(service.url, false); // the worker's service is shared with the specs after this one
  }
});
