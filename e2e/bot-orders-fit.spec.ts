// The Bot orders drawer's cached orders fit it: at 1440 x 900 the table was 787 px wide in the
// 727 px the drawer gives it, so the Cancel of every row was cut to "Can" at the drawer's edge and
// was reached only by scrolling the drawer sideways. The table now fits (the date above the time,
// closer cells) and the Cancel column is pinned at the right edge, in view, at 1440 and 1024 px.
// Cancelling the rows keeps the focus in the drawer (the last one's goes to the table's heading).
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';
import { onTick } from './support/prices.ts';

for (const size of [
  { width: 1440, height: 900 },
  { width: 1024, height: 640 },
]) {
  test(`cached bot orders fit the drawer at ${size.width} px, every Cancel in view`, async ({
    page,
    service,
    market,
  }) => {
    await page.setViewportSize(size);
    const ids: string[] = [];
    // a BTC buy below the market and a 1000PEPE sell of a million above it: long prices and quantities
    for (const [symbol, side, away, qty] of [
      ['BTCUSDT', 1, 0.97, '0.123'],
      ['1000PEPEUSDT', 2, 1.03, '1000000'],
    ] as const) {
      const s = await market.symbol(symbol);
      const price = onTick((await market.mid(symbol)) * away, s.price_step);
      const r = await market.api.placeBotOrder({
        symbol,
        side,
        position_side: side,
        position_action: 1,
        type: 1,
        price,
        qty,
        need_cache: true,
        client_order_id: `fit-${symbol.toLowerCase()}-${size.width}`,
      });
      ids.push(r.order_id);
    }

    const screen = new TradingPage(page);
    await screen.open(service.url);
    const panel = await screen.openBotPanel();
    const table = panel.getByTestId('bot-orders-table');
    for (const id of ids) await expect(table.getByTestId(`bot-order-row-${id}`)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`bot-orders-${size.width}.png`) });

    // nothing scrolls sideways: the table is as wide as the room it has
    const widths = await table.evaluate((t) => ({ table: t.scrollWidth, room: t.parentElement!.clientWidth }));
    expect(widths.table).toBeLessThanOrEqual(widths.room);
    // each Cancel is whole inside the drawer's visible area
    const body = (await panel.evaluate((d) => {
      const b = (d.querySelector('.drawer-body') ?? d).getBoundingClientRect();
      return { left: b.left, right: b.right };
    })) as { left: number; right: number };
    for (const id of ids) {
      const box = (await table.getByRole('button', { name: `Cancel bot order ${id}` }).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(body.left);
      expect(box.x + box.width).toBeLessThanOrEqual(body.right);
    }
    // Cancel hands the focus to the other row's Cancel, and the last one to the table's heading: it
    // stays in the (modal) drawer, never falls to the page
    const [first, second] = ids;
    await table.getByRole('button', { name: `Cancel bot order ${first}` }).click();
    await expect(table.getByTestId(`bot-order-row-${first}`)).toHaveCount(0);
    await expect(table.getByRole('button', { name: `Cancel bot order ${second}` })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(table.getByTestId(`bot-order-row-${second}`)).toHaveCount(0);
    await expect(panel.getByRole('heading', { name: 'Cached bot orders' })).toBeFocused();
    expect(await panel.evaluate((d) => d.contains(d.ownerDocument.activeElement))).toBe(true);
  });
}
