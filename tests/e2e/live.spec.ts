import { loginAsDemo, openTerminal } from './demo-user';
import { expect, test } from './fixtures';

test('live feeds show rows, refresh, and narrow with the filters', async ({ page, terminal }) => {
  await openTerminal(page, terminal.url);
  // Before login the feeds answer with the local profile's API key: a read made while the core
  // is still making that key waits for it rather than asking the user to log in.
  await page.getByTestId('nav-live').click();
  await expect(page.getByTestId('live-top-table').getByTestId('table-row').first()).toBeVisible();
  await expect(page.getByTestId('live-login')).toHaveCount(0);

  await loginAsDemo(page, terminal.url);
  await page.getByTestId('nav-live').click();

  const top = page.getByTestId('live-top-table').getByTestId('table-row');
  const feed = page.getByTestId('live-positions-table').getByTestId('table-row');
  const orders = page.getByTestId('live-orders-table').getByTestId('table-row');
  await expect(top.first()).toBeVisible();
  await expect(feed.first()).toBeVisible();
  await expect(orders.first()).toBeVisible();
  await page.screenshot({ path: 'test-artifacts/live.png', animations: 'disabled' });

  // One protocol: every row of every feed is of it.
  const protocol = page.getByTestId('live-filter-protocol');
  const choice = await protocol.locator('option').nth(1).getAttribute('value');
  await protocol.selectOption(choice!);
  await expect(async () => {
    const texts = await top.allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text).toContain(choice!);
  }).toPass();

  // Shorts only.
  await page.getByTestId('live-filter-side-short').click();
  await expect(async () => {
    const texts = await top.allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text).toContain('SHORT');
    expect(texts.join('')).not.toContain('LONG');
  }).toPass();

  // A minimum size nobody reaches empties the feeds and says what to do.
  await page.getByTestId('live-filter-min-size').fill('1000000000000');
  await expect(page.getByTestId('live-top').getByText('No open positions match these filters')).toBeVisible();
  await page.getByTestId('live-filter-min-size').fill('abc');
  await expect(page.getByText('Enter a size in USD')).toBeVisible();
  await page.screenshot({ path: 'test-artifacts/live-filtered.png', animations: 'disabled' });

  await page.getByTestId('live-clear-filters').click();
  await expect(top.first()).toBeVisible();
  await expect(page.getByTestId('live-filter-side-both')).toHaveAttribute('aria-checked', 'true');
});
