// The ladder's cumulative bars and its B / S share are of the levels in sight: the column shows
// fewer rows than the ladder holds (the rest wrap out of view), and before, the bars were scaled
// to the deepest level held and the share counted every level held, so at 1440 x 900 the deepest
// total shown drew a bar of about 40% and the share said "B 68%" where the levels shown were 62%
// bids.
import { test, expect } from './support/fixtures.ts';
import { setPaused } from './support/sim.ts';
import { watchLadder } from './support/desk.ts';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

/** Each side's rows in sight, best first: [qty, total, the total bar's width in %]. */
const SHOWN = `(() => {
  const side = (name) => {
    const box = document.querySelector('.ladder-side.' + name);
    const bb = box.getBoundingClientRect();
    const rows = [...box.querySelectorAll('.ladder-row')].filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= bb.top - 1 && b.bottom <= bb.bottom + 1 && b.left < bb.right - 1;
    });
    return {
      held: box.querySelectorAll('.ladder-row').length,
      rows: rows.map((r) => [Number(r.dataset.qty), Number(r.querySelector('.total').textContent.replaceAll(',', '')), parseFloat(r.style.getPropertyValue('--total'))]),
    };
  };
  return { asks: side('asks'), bids: side('bids'), ratio: document.querySelector('[data-testid=ratio-bids]').textContent };
})()`;

interface Shown {
  asks: { held: number; rows: Array<[number, number, number]> };
  bids: { held: number; rows: Array<[number, number, number]> };
  ratio: string;
}

test('the cumulative bars reach across at the deepest level in sight, and B / S is the share of the levels in sight', async ({
  page,
  service,
  market,
}) => {
  const symbol = 'ETHUSDT';
  // more levels than the column shows at 1440 x 900
  await market.ensureBook(symbol, 30);
  await watchLadder(page, service.url, symbol);
  await setPaused(service.url, true);
  // the book still (paused) and drawn: the same rows twice running
  let shown: Shown | undefined;
  await expect
    .poll(async () => {
      const before = JSON.stringify(shown);
      shown = (await page.evaluate(SHOWN)) as Shown;
      return before === JSON.stringify(shown) && shown.asks.rows.length > 0 && shown.bids.rows.length > 0;
    })
    .toBe(true);
  const { asks, bids, ratio } = shown!;
  // (the case of the defect: the ladder holds levels out of sight)
  expect(asks.held, 'asks held beyond those in sight').toBeGreaterThan(asks.rows.length);
  expect(bids.held, 'bids held beyond those in sight').toBeGreaterThan(bids.rows.length);
  const deepest = Math.max(asks.rows.at(-1)![1], bids.rows.at(-1)![1]);
  const widest = Math.max(asks.rows.at(-1)![2], bids.rows.at(-1)![2]);
  expect(widest, `the bar of the deepest total in sight (${deepest})`).toBe(100);
  for (const [, total, w] of [...asks.rows, ...bids.rows])
    expect(w).toBeCloseTo(Math.round((total / deepest) * 200) / 2, 5);
  const sum = (rows: Array<[number, number, number]>): number => rows.reduce((a, [q]) => a + q, 0);
  const share = sum(bids.rows) / (sum(bids.rows) + sum(asks.rows));
  expect(ratio).toBe(`B ${Math.round(share * 100)}%`);
});
