// A limit price over the pair's maximum price (its PRICE_FILTER maxPrice, as /binance/fapi/v1/exchangeInfo
// publishes it; /fapi/v1/symbols does not carry it): said under the field as it is typed, as a price off
// the tick is, and valued at nothing, so Max reads "—" rather than 0.000 with the size over it. Until
// 2026-12-08 the form said nothing under the field ("Cost 5,050,000.00", "Max 0.000 BTC · size over" for
// 99999999999 on BTCUSDT) and the order was refused only on send.
import { test, expect } from './support/fixtures.ts';
import { openLimitForm } from './support/desk.ts';

test("a limit price over the pair's maximum price is said under the field, Max is unknown, and the venue still has the last word", async ({
  page,
  service,
  trader,
}) => {
  const symbol = 'BTCUSDT';
  const info = (await (await page.request.get(`${service.url}/binance/fapi/v1/exchangeInfo`)).json()) as {
    symbols: { symbol: string; filters: { filterType: string; maxPrice?: string; tickSize?: string }[] }[];
  };
  const filter = info.symbols.find((s) => s.symbol === symbol)!.filters.find((f) => f.filterType === 'PRICE_FILTER')!;
  const max = filter.maxPrice!;
  const screen = await openLimitForm(page, service.url, trader, symbol, '99999999999');
  await screen.form.size.fill('0.001');
  const priceCheck = page.getByTestId('price-check');
  const shown = Number(max).toLocaleString('en-US', {
    minimumFractionDigits: filter.tickSize!.split('.')[1]?.length ?? 0,
  });
  await expect(priceCheck).toHaveText(`Over the maximum price of ${shown}: the venue refuses it.`);
  await expect(screen.form.price).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('over-max')).toHaveCount(0);
  // the maximum itself is a price the form takes
  await screen.form.price.fill(max);
  await expect(priceCheck).toHaveCount(0);
  // said, not enforced: sent, the venue refuses it and nothing is placed
  await screen.form.price.fill('99999999999');
  await screen.form.button('Open long').click();
  await expect(screen.form.error).toContainText('above the maximum');
  expect(await trader.api.openOrders(symbol)).toEqual([]);
});
