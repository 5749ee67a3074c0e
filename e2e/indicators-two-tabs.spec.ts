// The Indicators dialog open in one tab while another tab changes a slot's parameters (both on one
// address share them, indicators-store.ts): the open dialog shows the other tab's values, and a
// field edited next writes its own value only. The dialog kept the values it opened with, and the
// next edit of any field of the slot wrote them all back: MACD slow set to 40 in one tab went back
// to 26 when the signal period was changed in the other.
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';

test.use({ serviceOptions: { args: ['--no-sim'] } });

test("an open Indicators dialog takes another tab's parameters and does not write its old ones back", async ({
  page,
  service,
}) => {
  const other = await page.context().newPage();
  await new TradingPage(page).open(service.url);
  await new TradingPage(other).open(service.url);
  const dialogOf = async (p: typeof page) => {
    await p.getByRole('button', { name: 'Indicators' }).click();
    const d = p.getByRole('dialog', { name: 'Indicators' });
    await expect(d).toBeVisible();
    return d;
  };
  const here = await dialogOf(page);
  const there = await dialogOf(other);
  const field = (d: typeof here, name: string) => d.getByRole('textbox', { name: `MACD ${name}`, exact: true });
  await expect(field(here, 'slow')).toHaveValue('26');

  await field(there, 'slow').fill('40');
  // this tab's open dialog follows
  await expect(field(here, 'slow')).toHaveValue('40');
  // an edit here of another field of the slot keeps the other tab's slow period
  await field(here, 'signal').fill('10');
  await expect(field(there, 'signal')).toHaveValue('10');
  await expect(field(there, 'slow')).toHaveValue('40');
  const stored = await page.evaluate("localStorage.getItem('perpdesk.indicators')");
  const macd = (JSON.parse(stored as string) as Array<{ id: string; params: number[] }>).find((x) => x.id === 'macd');
  expect(macd?.params).toEqual([12, 40, 10]);
  await other.close();
});
