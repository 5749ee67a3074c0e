import { test, expect } from './support/fixtures.ts';
import type { DepthSnapshot } from '../src-shared/types.ts';
import { setPaused } from './support/sim.ts';
import { watchLadder } from './support/desk.ts';

async function depth(url: string, symbol: string): Promise<DepthSnapshot> {
  const r = (await (await fetch(`${url}/fapi/v1/depth?symbol=${symbol}&with_id=true&limit=50`)).json()) as {
    data: DepthSnapshot;
  };
  return r.data;
}

test('the ladder follows the book and matches the REST depth', async ({ page, service, market }) => {
  const symbol = 'ETHUSDT';
  await market.ensureBook(symbol, 15);
  const screen = await watchLadder(page, service.url, symbol);
  const ladder = screen.ladder;
  await expect(ladder.bids.first()).toBeVisible();

  // A resting order shows in the ladder at once: with the market quiet (the simulator paused
  // until the test ends, so the level cannot scroll away or change by itself), a bid at the
  // third level raises that row by exactly its size.
  await setPaused(service.url, true);
  const s = await market.symbol(symbol);
  const d0 = await depth(service.url, symbol);
  const [price, before] = d0.bids[2];
  const ticks = (q: string): number => Math.round(Number(q) / Number(s.qty_step));
  await expect
    .poll(async () => ticks((await ladder.row('bid', price).getAttribute('data-qty')) ?? 'NaN'))
    .toBe(ticks(before));
  await market.restBid(symbol, price, '0.777');
  await expect
    .poll(async () => ticks((await ladder.row('bid', price).getAttribute('data-qty')) ?? '0'))
    .toBe(ticks(before) + ticks('0.777'));

  // At the finest grouping the ladder equals the REST snapshot of the same update id.
  await expect(ladder.grouping).toHaveValue(s.price_merges[0]);
  await expect
    .poll(
      async () => {
        const rest = await depth(service.url, symbol);
        const id = await ladder.updateId();
        if (id !== rest.id) return `ladder at ${id}, REST at ${rest.id}`;
        const bids = await ladder.levels('bid');
        const asks = await ladder.levels('ask');
        const same = (ui: Array<[string, string]>, api: Array<[string, string]>): boolean =>
          ui.length > 0 &&
          ui.every(
            ([p, q], i) => api[i] !== undefined && Number(api[i][0]) === Number(p) && Number(api[i][1]) === Number(q),
          );
        return same(bids, rest.bids) && same(asks, rest.asks) ? 'equal' : `differ at id ${id}`;
      },
      { timeout: 20_000 },
    )
    .toBe('equal');

  // Grouping by the coarsest price_merges step: each row is the sum of the REST levels in its
  // bucket (bids down to a multiple of the step, asks up), computed here in integer ticks.
  const step = s.price_merges[s.price_merges.length - 1];
  await ladder.grouping.selectOption(step);
  await expect(ladder.root).toHaveAttribute('data-step', step);
  const tick = Number(s.price_step);
  const stepTicks = Math.round(Number(step) / tick);
  expect(stepTicks).toBeGreaterThan(1);
  const grouped = (levels: Array<[string, string]>, side: 'bid' | 'ask'): Array<[number, number]> => {
    const out: Array<[number, number]> = [];
    for (const [p, q] of levels) {
      const t = Math.round(Number(p) / tick);
      const g = (side === 'bid' ? Math.floor(t / stepTicks) : Math.ceil(t / stepTicks)) * stepTicks;
      const last = out[out.length - 1];
      if (last !== undefined && last[0] === g) last[1] += Number(q);
      else out.push([g, Number(q)]);
    }
    return out;
  };
  await expect
    .poll(
      async () => {
        const rest = (await (
          await fetch(`${service.url}/fapi/v1/depth?symbol=${symbol}&with_id=true&limit=1000`)
        ).json()) as { data: DepthSnapshot };
        for (const side of ['bid', 'ask'] as const) {
          const want = grouped(side === 'bid' ? rest.data.bids : rest.data.asks, side);
          const ui = await ladder.levels(side);
          if (ui.length === 0) return `no ${side} rows`;
          for (let i = 0; i < ui.length; i++) {
            const [p, q] = ui[i];
            const w = want[i];
            if (w === undefined || Math.round(Number(p) / tick) !== w[0] || Math.abs(Number(q) - w[1]) > 1e-9) {
              return `${side} row ${i}: ${p} ${q}, expected ${w ? `${w[0] * tick} ${w[1]}` : 'none'}`;
            }
          }
        }
        return 'equal';
      },
      { timeout: 20_000 },
    )
    .toBe('equal');

  // Clicking a level puts its price into the order form.
  const askPrice = (await ladder.asks.first().getAttribute('data-price'))!;
  await ladder.row('ask', askPrice).click();
  await expect(screen.form.price).toHaveValue(askPrice);
});

test('a focused level the book pushes past the column stays in sight at its end; ArrowDown there stays on it, never to the asks', async ({
  page,
  service,
  market,
}) => {
  const symbol = 'ETHUSDT';
  await market.ensureBook(symbol, 15);
  const ladder = (await watchLadder(page, service.url, symbol)).ladder;
  // the market quiet: only the orders below move the book
  await setPaused(service.url, true);
  const s = await market.symbol(symbol);
  const tick = Number(s.price_step);
  const ticks = (p: string): number => Math.round(Number(p) / tick);
  // a sell takes the two best bids, opening the spread; by the taker account, whose balance
  // covers them however deep the simulated market made them (the trader's 10,000 USDT did not)
  const d0 = await depth(service.url, symbol);
  const qty = d0.bids.slice(0, 2).reduce((a, [, q]) => a + Number(q), 0);
  await market.take(symbol, 2, Math.round(qty / Number(s.qty_step)));
  const d1 = await depth(service.url, symbol);
  expect(ticks(d1.asks[0][0]) - ticks(d1.bids[0][0]), 'the spread the sell opened').toBeGreaterThan(1);
  await expect.poll(async () => ticks((await ladder.levels('bid'))[0]?.[0] ?? 'NaN')).toBe(ticks(d1.bids[0][0]));
  // the focus on the lowest bid the column shows
  await ladder.grouping.focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('End');
  const focused = ladder.root.locator('.ladder-row:focus');
  await expect(focused).toHaveAttribute('data-testid', 'ladder-bid-row');
  const low = (await focused.getAttribute('data-price'))!;
  // a new best bid in that spread: every bid drawn moves down a row, the focused one past the column's end
  const price = ((ticks(d1.bids[0][0]) + 1) * tick).toFixed(s.price_precision);
  await market.restBid(symbol, price, '0.777');
  await expect.poll(async () => ticks((await ladder.levels('bid'))[0]?.[0] ?? 'NaN')).toBe(ticks(price));
  await expect(focused).toHaveAttribute('data-price', low);
  // kept in the column, its last row (a row that does not fit whole wraps out of sight, ladder.css)
  const inColumn = () =>
    focused.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const c = el.closest('.ladder-side')!.getBoundingClientRect();
      return r.bottom <= c.bottom + 1 && r.left < c.right - 1;
    });
  expect(await inColumn(), 'the focused level is in the column').toBe(true);
  // nothing shown below it: ArrowDown stays on it (it wrapped to the asks once)
  await page.keyboard.press('ArrowDown');
  await expect(focused).toHaveAttribute('data-testid', 'ladder-bid-row');
  await expect(focused).toHaveAttribute('data-price', low);
  // ArrowUp: the level drawn just above it (the levels between it and the end left out)
  const bids = (await ladder.levels('bid')).map(([p]) => p);
  await page.keyboard.press('ArrowUp');
  await expect(focused).toHaveAttribute('data-price', bids[bids.indexOf(low) - 1]);
});

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

/** What WATCH_ROWS records: [price, lit, ms] of each flash overlay's change; the price of each row written to. */
interface Watched {
  lit: Array<[string, boolean, number]>;
  drawn: string[];
}

/** Records, from now on, every change of a level's flash overlay and every row made or rewritten (in the page). */
const WATCH_ROWS = `(() => {
  const rows = (window.rows = { lit: [], drawn: [] });
  new MutationObserver((list) => {
    for (const m of list) {
      const el = m.target instanceof Element ? m.target : m.target.parentElement;
      const row = el && el.closest('.ladder-row');
      if (!row) continue;
      if (m.type === 'attributes' && el.classList.contains('ladder-flash'))
        rows.lit.push([row.dataset.price, el.classList.contains('lit'), performance.now()]);
      else rows.drawn.push(row.dataset.price);
    }
  }).observe(document.querySelector('[data-testid="ladder"]'), {
    subtree: true, attributes: true, attributeFilter: ['class'], characterData: true, childList: true,
  });
})()`;

test('a trade lights its level once, for a moment; the bids it did not touch are left as they were', async ({
  page,
  service,
  market,
}) => {
  const symbol = 'ETHUSDT';
  await market.ensureBook(symbol, 15);
  const ladder = (await watchLadder(page, service.url, symbol)).ladder;
  await setPaused(service.url, true);
  const s = await market.symbol(symbol);
  // a deep best ask of ours, so that the buy below leaves the level in the book
  const d0 = await depth(service.url, symbol);
  const ask = d0.asks[0][0];
  await market.api.placeBotOrder({
    symbol,
    side: 2,
    position_side: 2,
    position_action: 1,
    type: 1,
    price: ask,
    qty: (Number(s.min_qty) * 1000).toFixed(s.qty_precision),
    need_cache: true,
  });
  const at = async (): Promise<number | undefined> =>
    Number((await ladder.levels('ask')).find(([p]) => Number(p) === Number(ask))?.[1]);
  await expect.poll(at).toBeGreaterThan(Number(d0.asks[0][1]));
  // the market ran until just now: a trade there then may still have the level lit, and the buy's
  // light would change no class (the watch saw only its going out); so it is out first
  const litNow = `[...document.querySelectorAll('[data-testid="ladder"] .ladder-row')].some((r) =>
    Number(r.dataset.price) === ${Number(ask)} && r.querySelector('.ladder-flash.lit') !== null)`;
  await expect.poll(() => page.evaluate(litNow), { timeout: 5000 }).toBe(false);
  // from here on: every change of a flash overlay's class, and every row added or rewritten
  await page.evaluate(WATCH_ROWS);
  await market.take(symbol, 1, 1);
  // (a level lit before the watch may go out meanwhile: only the bought level's changes are read)
  const litAt = async (): Promise<Watched['lit']> =>
    ((await page.evaluate('window.rows')) as Watched).lit.filter(([p]) => Number(p) === Number(ask));
  // lit, and out again 300 ms after the last trade on it (the buy may fill against more than one
  // order there, in more than one push: each lights it anew)
  await expect.poll(async () => (await litAt()).at(-1)?.[1], { timeout: 5000 }).toBe(false);
  const lit = await litAt();
  const { drawn } = (await page.evaluate('window.rows')) as Watched;
  expect(lit.length, 'lit, then out').toBeGreaterThanOrEqual(2);
  expect(lit.map(([, on]) => on)).toEqual([...lit.slice(1).map(() => true), false]);
  expect(lit.at(-1)![2] - lit.at(-2)![2], 'lit for 300 ms (read when the page got to it)').toBeGreaterThan(150);
  // the trade took from the best ask only (its size, and the asks' totals from it on): no bid row
  // was made again or rewritten
  const bids = new Set((await ladder.levels('bid')).map(([p]) => p));
  expect(drawn.length, 'the ask rows were rewritten').toBeGreaterThan(0);
  expect(drawn.filter((p) => bids.has(p))).toEqual([]);
});

test('the grouping picked for a pair is kept across a reload and a visit to another pair', async ({
  page,
  service,
  market,
}) => {
  await market.ensureBook('ETHUSDT', 5);
  const screen = await watchLadder(page, service.url, 'ETHUSDT');
  const eth = await market.symbol('ETHUSDT');
  const coarsest = eth.price_merges[eth.price_merges.length - 1];
  expect(coarsest).not.toBe(eth.price_merges[0]);
  await screen.ladder.grouping.selectOption(coarsest);
  await page.reload();
  await expect(screen.ladder.root).toHaveAttribute('data-sync', 'live');
  await expect(screen.ladder.grouping).toHaveValue(coarsest);
  // another pair opens at its own (finest: nothing kept for it), and ETHUSDT comes back at its pick
  const btc = await market.symbol('BTCUSDT');
  await screen.selectSymbol('BTCUSDT');
  await expect(screen.ladder.grouping).toHaveValue(btc.price_merges[0]);
  await screen.selectSymbol('ETHUSDT');
  await expect(screen.ladder.grouping).toHaveValue(coarsest);
});
