import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { loginAsDemo } from './demo-user';
import { expect, test } from './fixtures';

/** Closes the toasts (login, import…) so that the screenshots show the page. */
async function dismissToasts(page: Page): Promise<void> {
  const close = page.getByTestId('toast').getByRole('button', { name: 'Dismiss notification' });
  // A toast may leave on its own meanwhile: a click that finds nothing is fine.
  for (let i = 0; i < 8 && (await close.count()) > 0; i++)
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
}

/** The numbers shown in one column of the rows in the DOM ("54.81%" → 54.81, "—" → NaN). */
async function columnNumbers(table: Locator, column: string): Promise<number[]> {
  const texts = await table.locator(`[data-testid="table-row"] [data-col="${column}"]`).allTextContents();
  return texts.map((t) => Number(t.replace(/[^0-9.\-−]/g, '').replace('−', '-')));
}

/** The number of traders the leaderboard counts ("40 of 40 traders" → 40), or -1 before it says. */
async function traderCount(page: Page): Promise<number> {
  const text = await page.getByTestId('leaderboard-count').textContent();
  return Number(text?.match(/of ([\d,]+)/)?.[1]?.replace(/,/g, '') ?? -1);
}

/** Waits for the answer to the last change of protocols, window, filters or sort. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId('leaderboard-body')).not.toHaveAttribute('aria-busy', 'true');
}

async function openLeaderboard(page: Page, url: string): Promise<Locator> {
  await loginAsDemo(page, url);
  await page.getByTestId('nav-leaderboard').click();
  const table = page.getByTestId('leaderboard-table');
  await expect(table.getByTestId('table-row').first()).toBeVisible();
  return table;
}

test('filter the leaderboard by protocol, window and win rate, sort it, and open a trader', async ({
  page,
  terminal,
}) => {
  // (Before any login the rows come with the local profile's API key: "a fresh terminal shows
  // the leaderboard before any login" below.)
  const table = await openLeaderboard(page, terminal.url);
  // Every protocol is ranked by default; the answer says how fresh it is.
  await expect(page.getByTestId('leaderboard-count')).toContainText(/of \d+ traders/);
  await expect(page.getByTestId('leaderboard-freshness')).toHaveAttribute('data-tone', /live|cached/);
  await expect(table.locator('[data-col="protocol"]').first()).toBeVisible();

  // One protocol, all time.
  await page.getByTestId('protocol-picker').click();
  await page.getByTestId('protocol-only-NOVA_ARB').click();
  await expect(page.getByTestId('protocol-picker')).toContainText('NOVA_ARB');
  await page.getByTestId('leaderboard-window-FULL').click();
  await expect(page.getByTestId('leaderboard-window-FULL')).toHaveAttribute('aria-pressed', 'true');
  await settled(page);
  await expect(table.getByTestId('table-row').first()).toBeVisible();
  const allCount = await traderCount(page);
  expect(allCount).toBeGreaterThan(5);

  // Win rate of at least 50%: fewer traders, every one at 50 or more.
  await page.getByTestId('filters-toggle').click();
  const row = page.getByTestId('filter-row').first();
  await row.getByTestId('filter-field').selectOption('winRate');
  await row.getByTestId('filter-min').fill('50');
  await expect.poll(() => traderCount(page)).toBeLessThan(allCount);
  await expect(page.getByTestId('filters-toggle')).toContainText('1');
  await settled(page);
  const winRates = await columnNumbers(table, 'winRate');
  expect(winRates.length).toBeGreaterThan(0);
  for (const w of winRates) expect(w).toBeGreaterThanOrEqual(50);

  // Sort by win rate, lowest first (a numeric column sorts biggest first on the first click).
  const header = table.locator('[role="columnheader"][data-col="winRate"]');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect
    .poll(async () => {
      const rates = await columnNumbers(table, 'winRate');
      return rates.every((r, i) => i === 0 || r >= rates[i - 1]!) && rates.length > 0;
    })
    .toBe(true);

  // Every row has a PnL trend drawn from statistics:pnl.
  await expect(table.locator('[data-col="sparkline"] svg').first()).toBeVisible();
  await dismissToasts(page);
  await page.screenshot({ path: 'test-artifacts/leaderboard.png' });

  // Open the first trader with the mouse.
  await settled(page);
  const first = table.getByTestId('table-row').first();
  const account = (await first.locator('[data-col="account"] [title]').getAttribute('title'))!;
  await first.click();
  await expect(page).toHaveURL(new RegExp(`#/trader/NOVA_ARB/${account}$`));
  await expect(page.getByTestId('trader-address')).toHaveText(account);
  // The trader opens on the leaderboard's window.
  await expect(page.getByTestId('trader-window-FULL')).toHaveAttribute('aria-pressed', 'true');
});

test('the keyboard drives the table, columns and filters are remembered, CSV exports what is shown', async ({
  page,
  terminal,
}) => {
  const table = await openLeaderboard(page, terminal.url);

  // Column chooser: add the PnL percentile, drop the volume; kept after a reload.
  await page.getByTestId('leaderboard-columns').click();
  await page.getByTestId('leaderboard-columns-ranking.pnl').check();
  await page.getByTestId('leaderboard-columns-totalVolume').uncheck();
  await page.keyboard.press('Escape');
  await expect(table.locator('[role="columnheader"][data-col="ranking.pnl"]')).toBeVisible();
  await expect(table.locator('[role="columnheader"][data-col="totalVolume"]')).toHaveCount(0);
  await page.reload();
  await expect(table.getByTestId('table-row').first()).toBeVisible();
  await expect(table.locator('[role="columnheader"][data-col="ranking.pnl"]')).toBeVisible();
  await expect(table.locator('[role="columnheader"][data-col="totalVolume"]')).toHaveCount(0);

  // A preset applies its filters.
  await page.getByTestId('presets').click();
  await page.getByRole('button', { name: /Top 10% by PnL/ }).click();
  await expect(page.getByTestId('filters-toggle')).toContainText('1');
  await settled(page);
  await expect.poll(async () => (await columnNumbers(table, 'ranking.pnl')).every((v) => v >= 90)).toBe(true);

  // CSV of the rows loaded, with the columns shown (not the sparkline).
  await page.getByTestId('leaderboard-export').click();
  const toast = page.getByTestId('toast').filter({ hasText: /Exported/ });
  await expect(toast).toBeVisible();
  const path = (await toast.textContent())!.match(/Saved to (.+\.csv)/)![1]!;
  const lines = readFileSync(path, 'utf8').trim().split(/\r?\n/);
  expect(lines[0]).toContain('Trader');
  expect(lines[0]).not.toContain('PnL trend');
  const shown = await table.getAttribute('data-rows');
  expect(lines.length - 1).toBe(Number(shown));

  // Keyboard: focus the grid, move down two rows, Enter opens that trader.
  const grid = table.getByRole('grid');
  await grid.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const active = table.locator('[data-testid="table-row"][aria-selected="true"]');
  await expect(active).toHaveAttribute('aria-rowindex', '3');
  const account = (await active.locator('[data-col="account"] [title]').getAttribute('title'))!;
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('trader-address')).toHaveText(account);
});

test('Ctrl+K jumps to a page by name and to a trader by address', async ({ page, terminal }) => {
  const table = await openLeaderboard(page, terminal.url);
  const account = (await table
    .getByTestId('table-row')
    .first()
    .locator('[data-col="account"] [title]')
    .getAttribute('title'))!;

  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette')).toBeVisible();
  await page.getByTestId('palette-input').fill('tokns');
  await expect(page.getByTestId('palette-item').first()).toContainText('Tokens');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('palette')).toHaveCount(0);
  await expect(page).toHaveURL(/#\/tokens$/);

  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill(account);
  await expect(page.getByTestId('palette-item').first()).toContainText('Open trader');
  await dismissToasts(page);
  await page.screenshot({ path: 'test-artifacts/palette.png' });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('trader-address')).toHaveText(account);
});

test('download a protocol for offline use; the leaderboard then answers from the download', async ({
  page,
  terminal,
}) => {
  const table = await openLeaderboard(page, terminal.url);
  await page.getByTestId('protocol-picker').click();
  await page.getByTestId('protocol-only-NOVA_ARB').click();
  await page.getByTestId('leaderboard-window-FULL').click();
  await settled(page);
  const fromService = await traderCount(page);
  expect(fromService).toBeGreaterThan(0);
  await expect(page.getByTestId('leaderboard-freshness')).not.toContainText('Downloaded');

  // The download runs through the built core: the batch reader and the dataset worker threads.
  await page.getByTestId('downloads').click();
  const dataset = page.getByTestId('dataset-NOVA_ARB');
  await expect(dataset).toHaveAttribute('data-state', 'none');
  await page.getByTestId('download-start-NOVA_ARB').click();
  await expect(dataset).toHaveAttribute('data-state', 'complete', { timeout: 60_000 });
  await page.keyboard.press('Escape');

  // The same traders, now from the downloaded dataset, still sortable.
  await page.getByTestId('leaderboard-window-D30').click();
  await page.getByTestId('leaderboard-window-FULL').click();
  await settled(page);
  await expect(page.getByTestId('leaderboard-freshness')).toContainText('Downloaded');
  expect(await traderCount(page)).toBe(fromService);
  const header = table.locator('[role="columnheader"][data-col="winRate"]');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect
    .poll(async () => {
      const rates = await columnNumbers(table, 'winRate');
      return rates.length > 0 && rates.every((r, i) => i === 0 || r <= rates[i - 1]!);
    })
    .toBe(true);
  await dismissToasts(page);
  await page.screenshot({ path: 'test-artifacts/leaderboard-downloaded.png' });
});

test('a fresh terminal shows the leaderboard before any login: the local profile makes its own API key', async ({
  page,
  terminal,
}) => {
  // The leaderboard opens at once, while the core is still provisioning the key; its first read
  // waits for the key instead of asking the user to log in.
  await page.goto(terminal.url);
  const table = page.getByTestId('leaderboard-table');
  await expect(table.getByTestId('table-row').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('leaderboard-login')).toHaveCount(0);
  // Still logged out: the rows came with the key, not a session.
  await expect(page.getByTestId('topbar-login')).toBeVisible();
});
