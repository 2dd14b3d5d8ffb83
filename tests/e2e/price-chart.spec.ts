import { loginAsDemo } from './demo-user';
import { expect, test } from './fixtures';

// Issue #20 item 9: the trader page shows a token's price as candles with the trader's entries and
// exits marked, from the local service's candles endpoint (docs/ui.md, Trader → Price chart).

test('the trader page draws a traded token’s candles with the trader’s orders marked on them', async ({
  page,
  terminal,
}) => {
  await loginAsDemo(page, terminal.url);
  await page.getByTestId('nav-leaderboard').click();
  const row = page.getByTestId('leaderboard-table').getByTestId('table-row').first();
  await expect(row).toBeVisible();
  await row.click();

  const panel = page.getByTestId('price-chart-panel');
  await expect(panel).toBeVisible();
  // The caption counts what was drawn: candles from the stored fills, and the marked orders.
  const caption = panel.locator('.chart-caption');
  await expect(caption).toHaveText(
    /^[1-9]\d* candles of (1m|5m|15m|1h|4h|1d) from the stored fills · [1-9]\d* of the trader’s orders marked$/,
  );
  await expect(panel.getByTestId('price-chart').locator('canvas').first()).toBeVisible();

  // Another token the trader traded: the chart follows the choice.
  const picker = panel.getByTestId('price-chart-token');
  const options = await picker.locator('option').allTextContents();
  expect(options.length).toBeGreaterThan(0);
  if (options.length > 1) {
    await picker.selectOption({ index: 1 });
    await expect(caption).toHaveText(/candles of .* orders marked$/);
    expect(options[1]).not.toBe(options[0]);
  }
  await panel.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: 'test-artifacts/trader-price-chart.png' });
});
