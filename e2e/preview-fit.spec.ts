// The order form's preview at 1024x700 with figures of nine digits and more (a size over the venue's
// maximum, or a 1e9 paper balance): each figure stays in its side's column. A figure has no place to
// break ("1,919,980.8000"), so until 2026-12-08 the fee ran past its column, the Buy side's into the
// Sell side's label ("1,919,980.8000Fee (est.)"); it now breaks where it must, inside its column.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';

test('at 1024x700 the preview of a huge limit order keeps each figure inside its column', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  const screen = await openTrading(page, service.url, trader, symbol, { size: { width: 1024, height: 700 } });
  await screen.form.type('Limit').click();
  await screen.form.price.fill('96000');
  await screen.form.size.fill('99999');
  await expect(screen.form.preview).toContainText('size over');
  const spill = await screen.form.preview.locator('dl').evaluateAll((dls) =>
    dls.flatMap((dl) => {
      const box = dl.getBoundingClientRect();
      return [...dl.querySelectorAll('dd')]
        .filter((dd) => {
          const r = dd.getBoundingClientRect();
          return r.right > box.right + 0.5 || r.left < box.left - 0.5 || dd.scrollWidth > dd.clientWidth + 0.5;
        })
        .map((dd) => `${dd.previousElementSibling?.textContent} ${dd.textContent}`);
    }),
  );
  expect(spill, 'figures past their column').toEqual([]);
});
