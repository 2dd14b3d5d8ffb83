import { openTerminal } from './demo-user';
import { expect, test } from './fixtures';

test('? lists every shortcut, G then a key goes to a page, / focuses its filter', async ({
  page,
  terminal,
}) => {
  await openTerminal(page, terminal.url);
  await page.locator('body').click();

  await page.keyboard.press('?');
  const sheet = page.getByTestId('shortcut-sheet');
  await expect(sheet).toBeVisible();
  // ?, /, Ctrl-K, one go-to per page of the rail, and the table keys.
  await expect(sheet.getByTestId('shortcut-row')).toHaveCount(3 + 9 + 4);
  await expect(sheet).toContainText('Go to Leaderboard');
  await page.screenshot({ path: 'test-artifacts/keyboard-shortcuts.png' });
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();

  await page.keyboard.press('g');
  await page.keyboard.press('k');
  await expect(page.getByTestId('nav-tokens')).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('/');
  const search = page.locator('main input[type="search"]');
  await expect(search).toBeFocused();
  // Typed into the field, ? and g are text, not shortcuts.
  await page.keyboard.type('?g');
  await expect(search).toHaveValue('?g');
  await expect(sheet).toBeHidden();
  await page.keyboard.press('Escape');
  await search.blur();

  await page.keyboard.press('g');
  await page.keyboard.press('v');
  await expect(page.getByTestId('nav-live')).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('/');
  await expect(page.locator('main [role="search"] :focus')).toHaveCount(1);
  await page.locator('main [role="search"] :focus').blur();

  await page.keyboard.press('g');
  await page.keyboard.press('s');
  await expect(page.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('g');
  await page.keyboard.press('l');
  await expect(page.getByTestId('nav-leaderboard')).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('/');
  await expect(page.getByTestId('filters-toggle')).toBeFocused();
});

test('every shortcut is in the command palette too', async ({ page, terminal }) => {
  await openTerminal(page, terminal.url);
  await page.keyboard.press('Control+k');
  const palette = page.getByTestId('palette');
  await expect(palette).toBeVisible();
  // Pages show their go-to keys.
  await page.getByTestId('palette-input').fill('tokens');
  await expect(palette.getByTestId('palette-item').first()).toContainText('G K');
  await page.getByTestId('palette-input').fill('keyboard shortcuts');
  await expect(palette.getByTestId('palette-item').first()).toContainText('Show the keyboard shortcuts');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByTestId('shortcut-sheet')).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByTestId('nav-tokens').click();
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill('focus filter');
  await expect(palette.getByTestId('palette-item').first()).toContainText("Focus the page's filter");
  await page.keyboard.press('Enter');
  await expect(page.locator('main input[type="search"]')).toBeFocused();
});
