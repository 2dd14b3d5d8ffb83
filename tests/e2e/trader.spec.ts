import type { Page } from '@playwright/test';
import { loginAsDemo } from './demo-user';
import { RANKING_KEYS } from '../../src/shared/api/statistics';
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

/** Opens the leaderboard on one protocol, all time, and returns the top trader's address. */
async function topTrader(page: Page, url: string, protocol = 'NOVA_ARB'): Promise<string> {
  await loginAsDemo(page, url);
  await page.getByTestId('nav-leaderboard').click();
  const table = page.getByTestId('leaderboard-table');
  await expect(table.getByTestId('table-row').first()).toBeVisible();
  await page.getByTestId('protocol-picker').click();
  await page.getByTestId(`protocol-only-${protocol}`).click();
  await page.getByTestId('leaderboard-window-FULL').click();
  await expect(page.getByTestId('protocol-picker')).toContainText(protocol);
  await expect(page.getByTestId('leaderboard-body')).not.toHaveAttribute('aria-busy', 'true');
  const first = table.getByTestId('table-row').first();
  await expect(first).toBeVisible();
  return (await first.locator('[data-col="account"] [title]').getAttribute('title'))!;
}

test('a trader page shows every statistic with its formula, the percentiles, the daily PnL and the positions with their orders', async ({
  page,
  terminal,
}) => {
  const account = await topTrader(page, terminal.url);
  await page.getByTestId('leaderboard-table').getByTestId('table-row').first().click();

  // Identity and freshness.
  await expect(page.getByTestId('trader-address')).toHaveText(account);
  await expect(page.getByTestId('trader-freshness')).toHaveAttribute('data-tone', /live|cached/);

  // Statistics: every one has its formula as a tooltip, and inline on demand.
  const grid = page.getByTestId('stat-grid');
  await expect(grid).toBeVisible();
  await expect(page.getByTestId('stat-pnl')).toHaveAttribute('title', /Σ pnl/);
  await expect(page.getByTestId('stat-winRate')).toHaveAttribute('title', /wins \/ trades × 100/);
  await expect(page.getByTestId('stat-totalTrade').locator('dd')).toHaveText(/^\d[\d,]*$/);
  await page.getByTestId('show-formulas').check();
  expect(await grid.locator('.tr-stat-formula').count()).toBeGreaterThanOrEqual(40);
  await page.getByTestId('show-formulas').uncheck();

  // Percentiles: one bar per ranked statistic the local service sends (the spec's 13 and ours),
  // between 0 and 100, and their average.
  const ranking = page.getByTestId('ranking');
  await expect(ranking.getByRole('meter')).toHaveCount(RANKING_KEYS.length);
  const score = Number(await page.getByTestId('ranking-score').textContent());
  expect(score).toBeGreaterThanOrEqual(0);
  expect(score).toBeLessThanOrEqual(100);
  // A column of figures, each with two decimals so that they line up (docs/ui.md, Numbers).
  const percentiles = await ranking.locator('.ranking-value').allTextContents();
  expect(percentiles).toHaveLength(RANKING_KEYS.length);
  for (const text of percentiles) expect(text).toMatch(/^\d{1,3}\.\d{2}$/);

  // The daily PnL chart draws on a canvas; its caption sums the days.
  await expect(page.getByTestId('pnl-chart').locator('canvas').first()).toBeVisible();
  await expect(page.getByTestId('pnl-chart-total')).toHaveText(/^[+−]?\$[\d,.]+$/);
  await dismissToasts(page);
  await page.screenshot({ path: 'test-artifacts/trader.png' });

  // Positions history: closed ones only, sorted by PnL, then the orders of one.
  const history = page.getByTestId('history-table');
  await expect(history.getByTestId('table-row').first()).toBeVisible();
  await page.getByTestId('status-CLOSE').click();
  await expect(page.getByTestId('status-CLOSE')).toHaveAttribute('aria-pressed', 'true');
  await expect(history.locator('[data-col="closeBlockTime"] .tag')).toHaveCount(0);
  const pnlHeader = history.locator('[role="columnheader"][data-col="pnl"]');
  await pnlHeader.getByRole('button').click();
  await expect(pnlHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(history.getByTestId('table-row').first()).toBeVisible();
  await expect(page.getByTestId('history-range')).toContainText(/^1–\d+ of \d+/);
  await history.getByTestId('table-row').first().click();
  const orders = page.getByTestId('orders-table');
  await expect(orders.getByTestId('table-row').first()).toBeVisible();
  await expect(orders.locator('[role="gridcell"][data-col="type"]').first()).toHaveText('OPEN');
  await expect(orders.locator('[role="gridcell"][data-col="type"]').last()).toHaveText('CLOSE');
  await dismissToasts(page);
  await page.getByTestId('position-orders').screenshot({ path: 'test-artifacts/trader-orders.png' });
  await page.getByTestId('positions-history').screenshot({ path: 'test-artifacts/trader-positions.png' });

  // Another window: the tabs switch the statistics.
  await page.getByTestId('trader-window-D7').click();
  await expect(page.getByTestId('trader-window-D7')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText(/Daily PnL · 7D|No closed position in 7D/).first()).toBeVisible();

  // Copy this trader: the copy page opens with the trader handed over.
  await page.getByTestId('copy-trader').click();
  await expect(page).toHaveURL(/#\/copy$/);
});

test('the trader page without a trader asks for an address and opens it', async ({ page, terminal }) => {
  const account = await topTrader(page, terminal.url, 'ORBIT_BASE');
  await page.getByTestId('nav-trader').click();
  await expect(page.getByTestId('trader-picker')).toBeVisible();
  await page.getByTestId('trader-address-input').fill('0x1234');
  await page.getByTestId('trader-open').click();
  await expect(page.getByRole('alert').filter({ hasText: /40 hex digits/ })).toBeVisible();
  await dismissToasts(page);
  await page.screenshot({ path: 'test-artifacts/trader-picker.png' });
  await page.getByTestId('trader-address-input').fill(account);
  await page.getByTestId('trader-protocol-select').selectOption('ORBIT_BASE');
  await page.getByTestId('trader-open').click();
  await expect(page).toHaveURL(new RegExp(`#/trader/ORBIT_BASE/${account}$`));
  await expect(page.getByTestId('stat-grid')).toBeVisible();
  // A reload lands on the same trader.
  await page.reload();
  await expect(page.getByTestId('trader-address')).toHaveText(account);
});
