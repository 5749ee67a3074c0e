// The leverage editor (the "20x" button of the order form) closes without applying on Esc, from
// anywhere in it or on the button that opened it, and on a click outside it; the focus goes back
// to the button (unless the click put it on another control).
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';

test('the leverage editor closes without applying on Esc and on a click outside', async ({ page, service, trader }) => {
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/leverage')) posts.push(r.url());
  });
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  const opener = screen.form.root.getByTestId('leverage-button');
  const editor = screen.form.root.getByRole('group', { name: 'Leverage' });
  await expect(opener).toHaveText('20x');
  await screen.form.size.fill('0.005');

  // Esc after a click on a preset (the focus on that preset button): closed, 50x not applied
  await opener.click();
  await expect(editor).toBeVisible();
  await editor.getByRole('button', { name: '50x', exact: true }).click();
  await expect(editor.getByRole('button', { name: 'Confirm 50x' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(opener).toBeFocused();
  await expect(opener).toHaveAttribute('aria-expanded', 'false');

  // opened from the keyboard the focus stays on the button; Esc there closes the editor (and only
  // that: the form keeps its size)
  await page.keyboard.press('Enter');
  await expect(editor).toBeVisible();
  await expect(opener).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(opener).toBeFocused();
  await expect(screen.form.size).toHaveValue('0.005');

  // Esc in its number field, as before
  await opener.click();
  await editor.getByRole('textbox', { name: 'Leverage value' }).fill('75');
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(opener).toBeFocused();

  // a click outside on nothing focusable: closed, the focus back on the button
  await opener.click();
  await editor.getByRole('textbox', { name: 'Leverage value' }).fill('75');
  await screen.form.root.getByTitle('Available margin').click();
  await expect(editor).toBeHidden();
  await expect(opener).toBeFocused();

  // a click outside on another control: closed, that control keeps the focus
  await opener.click();
  await expect(editor).toBeVisible();
  await screen.form.price.click();
  await expect(editor).toBeHidden();
  await expect(screen.form.price).toBeFocused();

  // nothing was applied
  await expect(opener).toHaveText('20x');
  expect(posts).toEqual([]);
});
