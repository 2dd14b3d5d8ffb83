import type { Locator, Page } from '@playwright/test';
import { loginAsDemo } from './demo-user';
import { expect, test } from './fixtures';

// The statistics added for real clients (docs/statistics.md) in the terminal: chosen as leaderboard
// columns, filtered and sorted on, ranked, and listed on the trader page. Screenshots:
// test-artifacts/leaderboard-added-statistics.png and trader-added-statistics.png.

/** The numbers of one column of the rows shown ("1.25" → 1.25, "—" → NaN). */
async function columnNumbers(table: Locator, column: string): Promise<number[]> {
  const texts = await table.locator(`[data-testid="table-row"] [data-col="${column}"]`).allTextContents();
  return texts.map((t) => (/\d/.test(t) ? Number(t.replace(/[^0-9.\-−]/g, '').replace('−', '-')) : NaN));
}

async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId('leaderboard-body')).not.toHaveAttribute('aria-busy', 'true');
}

async function dismissToasts(page: Page): Promise<void> {
  const close = page.getByTestId('toast').getByRole('button', { name: 'Dismiss notification' });
  for (let i = 0; i < 8 && (await close.count()) > 0; i++)
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
}

const ADDED = ['realisedSharpeRatio', 'realisedSortinoRatio', 'maxWinStreak', 'longPnl', 'shortPnl'];
const DROPPED = ['totalVolume', 'avgLeverage', 'avgDuration', 'realisedProfitLossRatio'];

test('the leaderboard and the trader page offer Sharpe, Sortino, streaks and long/short PnL', async ({
  page,
  terminal,
}) => {
  await loginAsDemo(page, terminal.url);
  await page.getByTestId('nav-leaderboard').click();
  const table = page.getByTestId('leaderboard-table');
  await expect(table.getByTestId('table-row').first()).toBeVisible();
  await page.getByTestId('protocol-picker').click();
  await page.getByTestId('protocol-only-NOVA_ARB').click();
  await page.getByTestId('leaderboard-window-FULL').click();
  await settled(page);

  // The new statistics and one new percentile as columns, in place of four default ones.
  await page.getByTestId('leaderboard-columns').click();
  for (const id of [...ADDED, 'ranking.realisedSharpeRatio'])
    await page.getByTestId(`leaderboard-columns-${id}`).check();
  for (const id of DROPPED) await page.getByTestId(`leaderboard-columns-${id}`).uncheck();
  await page.keyboard.press('Escape');
  for (const id of ADDED)
    await expect(table.locator(`[role="columnheader"][data-col="${id}"]`)).toBeVisible();

  // Traders with a winning run of at least 3: every row shown has one.
  await page.getByTestId('filters-toggle').click();
  const row = page.getByTestId('filter-row').first();
  await row.getByTestId('filter-field').selectOption('maxWinStreak');
  await row.getByTestId('filter-min').fill('3');
  await expect(page.getByTestId('filters-toggle')).toContainText('1');
  await settled(page);
  await expect
    .poll(async () => {
      const streaks = await columnNumbers(table, 'maxWinStreak');
      return streaks.length > 0 && streaks.every((v) => v >= 3);
    })
    .toBe(true);
  expect((await columnNumbers(table, 'maxWinStreak')).length).toBeGreaterThan(0);

  // Sorted by the Sharpe percentile, best first: the Sharpe ratios shown descend (nulls rank last).
  const header = table.locator('[role="columnheader"][data-col="ranking.realisedSharpeRatio"]');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await settled(page);
  const sharpe = (await columnNumbers(table, 'realisedSharpeRatio')).filter((v) => !Number.isNaN(v));
  expect(sharpe.length).toBeGreaterThan(1);
  expect(sharpe).toEqual([...sharpe].sort((a, b) => b - a));
  const percentiles = await columnNumbers(table, 'ranking.realisedSharpeRatio');
  expect(percentiles[0]).toBeGreaterThan(50);

  await dismissToasts(page);
  await page.getByTestId('filters-toggle').click();
  // The sort click scrolled the table to its right edge: the shot shows the new percentile too.
  await page.screenshot({ path: 'test-artifacts/leaderboard-added-statistics.png', animations: 'disabled' });

  // The first trader's page lists them, with their formulas, and ranks the Sharpe ratio.
  await table.getByTestId('table-row').first().click();
  await expect(page.getByTestId('trader-page')).toBeVisible();
  for (const key of ['realisedSharpeRatio', 'sortinoRatio', 'winStreak', 'maxLoseStreak', 'totalShortVolume'])
    await expect(page.getByTestId(`stat-${key}`)).toBeVisible();
  await expect(page.getByTestId('stat-maxWinStreak').locator('dd')).toHaveText(/^[3-9]|\d\d/);
  await expect(page.getByTestId('stat-realisedSharpeRatio')).toHaveAttribute(
    'title',
    /sample standard deviation/,
  );
  await expect(page.getByTestId('ranking').getByText('Sharpe ratio', { exact: true })).toBeVisible();
  await dismissToasts(page);
  await page
    .getByTestId('stat-grid')
    .screenshot({ path: 'test-artifacts/trader-added-statistics.png', animations: 'disabled' });
});
