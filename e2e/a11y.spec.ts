// What a keyboard-only trader with a screen reader gets (the Chromium accessibility tree): the
// side armed with B / S is pressed and describes the price and size fields, with a look of its
// own apart from the focus ring.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';

test('B / S arm a side a screen reader hears: pressed, and the fields described by it', async ({
  page,
  service,
  trader,
}) => {
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  const f = screen.form;
  const long = f.root.getByRole('button', { name: 'Open long' });
  const short = f.root.getByRole('button', { name: 'Open short' });
  await expect(long).toBeEnabled();
  await expect(long).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('b');
  await expect(f.size).toBeFocused();
  await expect(long).toHaveAttribute('aria-pressed', 'true');
  await expect(short).toHaveAttribute('aria-pressed', 'false');
  await expect(f.size).toHaveAccessibleDescription('Open long armed: Enter sends it');
  await expect(f.price).toHaveAccessibleDescription('Open long armed: Enter sends it');
  // S in the field switches the side, said by the live region
  await page.keyboard.press('s');
  await expect(short).toHaveAttribute('aria-pressed', 'true');
  await expect(f.size).toHaveAccessibleDescription('Open short armed: Enter sends it');
  await expect(f.root.getByRole('status').filter({ hasText: 'armed' })).toHaveText('Open short armed: Enter sends it');
  // Esc disarms
  await page.keyboard.press('Escape');
  await expect(short).toHaveAttribute('aria-pressed', 'false');
  await expect(f.size).toHaveAccessibleDescription('');
  // a size off the step is said under the field and describes it
  await f.size.fill('0.0001');
  await expect(f.size).toHaveAttribute('aria-invalid', 'true');
  await expect(f.size).toHaveAccessibleDescription(await page.getByTestId('size-check').innerText());
  if (process.env.A11Y_SHOT) {
    await page.keyboard.press('s');
    await short.focus();
    await f.root.screenshot({ path: process.env.A11Y_SHOT });
  }
});

test('the pair picker is a combobox over a list of pairs: ArrowDown makes the next pair the active option', async ({
  page,
  service,
  trader,
}) => {
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  await page.keyboard.press('/');
  const box = screen.picker.search;
  await expect(box).toBeFocused();
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  const list = screen.picker.dialog.getByRole('listbox', { name: 'Pairs' });
  await expect(box).toHaveAttribute('aria-controls', (await list.getAttribute('id'))!);
  const options = list.getByRole('option');
  await expect(options.first()).toBeVisible();
  // the cursor starts on the current pair, the active descendant; ArrowDown moves it to the next row
  await expect(box).toHaveAttribute('aria-activedescendant', 'symbol-option-BTCUSDT');
  const ids = await options.evaluateAll((els) => els.map((e) => e.id));
  const at = ids.indexOf('symbol-option-BTCUSDT');
  await box.press('ArrowDown');
  const next = ids[at + 1];
  await expect(box).toHaveAttribute('aria-activedescendant', next);
  const option = page.locator(`#${next}`);
  await expect(option).toHaveAttribute('aria-selected', 'true');
  // its name is the pair and its tags apart, never run together ("ETHUSDThot")
  const sym = next.replace('symbol-option-', '');
  await expect(option).toHaveAccessibleName(new RegExp(`^${sym}(, [A-Za-z]+)*$`));
  for (const name of await options.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? '')))
    expect(name).toMatch(/^[A-Z0-9]+(, [A-Za-z]+)*$/);
  await box.press('Enter');
  await expect(screen.topbar.symbolButton).toContainText(sym);
});
