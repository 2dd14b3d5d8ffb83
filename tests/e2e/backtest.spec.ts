import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { loginAsDemo } from './demo-user';
import { expect, test } from './fixtures';

/**
 * Opens the leaderboard on one protocol, all time, and the top trader's page; returns the top two
 * traders' addresses.
 */
async function openTopTrader(page: Page, url: string, protocol = 'NOVA_ARB'): Promise<[string, string]> {
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
  const account = (await first.locator('[data-col="account"] [title]').getAttribute('title'))!;
  const second = table.getByTestId('table-row').nth(1);
  const other = (await second.locator('[data-col="account"] [title]').getAttribute('title'))!;
  await first.click();
  await expect(page.getByTestId('trader-address')).toHaveText(account);
  return [account, other];
}

/** Closes the toasts so that the screenshots show the page. */
async function dismissToasts(page: Page): Promise<void> {
  const close = page.getByTestId('toast').getByRole('button', { name: 'Dismiss notification' });
  for (let i = 0; i < 8 && (await close.count()) > 0; i++)
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
}

/** A screenshot of the whole page: the window made tall enough to hold it, then put back. */
async function shoot(page: Page, path: string): Promise<void> {
  await dismissToasts(page);
  const height = await page.getByTestId('backtest-page').evaluate((e) => e.scrollHeight + 160);
  await page.setViewportSize({ width: 1440, height: Math.max(900, Math.min(height, 4000)) });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `test-artifacts/${path}` });
  await page.setViewportSize({ width: 1440, height: 900 });
}

/**
 * axe on the Backtest page as it is: no critical violation. Contrast findings are reported as
 * annotations, not failures: the colours are the shared palette's (theme.css), which
 * accessibility.spec.ts judges for every page.
 */
async function audit(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .include('[data-testid="backtest-page"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const describe = (v: (typeof results.violations)[number]) =>
    `${name}: ${v.impact ?? 'unknown'} ${v.id} ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`;
  const other = results.violations.filter((v) => v.impact !== 'critical');
  if (other.length > 0)
    test.info().annotations.push({ type: `axe ${name}`, description: other.map(describe).join('\n') });
  expect(results.violations.filter((v) => v.impact === 'critical').map(describe)).toEqual([]);
}

/** A figure of the grid as a number (`+$12.50` → 12.5, `−3.2%` → −3.2). */
async function figure(page: Page, id: string): Promise<number> {
  const text = (await page.getByTestId(`bt-figure-${id}`).locator('dd').textContent()) ?? '';
  return Number(text.replace(/[−]/g, '-').replace(/[$,%+×\s]/g, ''));
}

test('backtest a trader from their page, read the grid and the charts, sweep two settings and open a cell', async ({
  page,
  terminal,
}) => {
  test.setTimeout(120_000);
  const [account, other] = await openTopTrader(page, terminal.url);

  // "Backtest" on the trader page opens the page on that trader and protocol.
  await page.getByTestId('backtest-trader').click();
  await expect(page.getByTestId('backtest-page')).toBeVisible();
  await expect(page.getByTestId('bt-protocol').locator('select')).toHaveValue('NOVA_ARB');
  await expect(page.getByTestId('bt-accounts').locator('textarea')).toHaveValue(account);

  // A bad value is refused with the contract's rule before anything is sent.
  const leverage = page.getByTestId('bt-leverage').locator('input');
  await leverage.fill('1');
  await page.getByTestId('bt-run').click();
  await expect(page.getByTestId('bt-issue-count')).toHaveText('1 field needs fixing');
  await expect(page.getByTestId('bt-leverage')).toContainText('must be between 2 and 50');
  await leverage.fill('5');

  // The whole history of the fixture world: from a year back.
  const from = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('From').fill(from);
  await page.getByTestId('bt-run').click();

  const run = page.getByTestId('bt-run-view');
  await expect(run).toBeVisible();
  await expect(page.getByTestId('bt-tabs-run-1')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('bt-settings-summary')).toContainText('$1,000.00 balance');
  await expect(page.getByTestId('bt-settings-summary')).toContainText('$100.00 × 5×');

  // The grid: trades made, win rate a percentage, the ROI equal to profit / balance.
  const trades = await figure(page, 'totalTrade');
  expect(trades).toBeGreaterThan(0);
  const winRate = await figure(page, 'winRate');
  expect(winRate).toBeGreaterThanOrEqual(0);
  expect(winRate).toBeLessThanOrEqual(100);
  // A share of whole trades: win rate × trades / 100 is a count of wins (the figure has 2 decimals).
  const wins = (winRate * trades) / 100;
  expect(Math.abs(wins - Math.round(wins))).toBeLessThan(0.01 * trades);
  expect(winRate).toBeLessThanOrEqual(100);
  const profit = await figure(page, 'profit');
  const roi = await figure(page, 'roi');
  expect(Math.abs(roi - (profit / 1000) * 100)).toBeLessThan(0.02);

  // The equity curve ends at the balance plus the profit; the charts draw on canvases.
  await expect(page.getByTestId('bt-equity-chart').locator('canvas').first()).toBeVisible();
  const end = Number(((await page.getByTestId('bt-equity-end').textContent()) ?? '').replace(/[$,]/g, ''));
  expect(Math.abs(end - (1000 + profit))).toBeLessThan(0.02);
  await expect(page.getByTestId('bt-token').first().locator('canvas').first()).toBeVisible();
  // Each token's chart draws the service's candles (here of the stored fills) around its trades.
  await expect(page.getByTestId('bt-token').first()).toHaveAttribute('data-source', 'candles');
  await expect(page.getByTestId('bt-token').first().locator('figcaption')).toContainText(
    'candles of the stored fills',
  );

  // The positions table: one row per simulated position, each with why it closed.
  const rows = page.getByTestId('bt-positions').getByTestId('table-row');
  await expect(rows.first()).toBeVisible();
  await expect(rows.first().locator('[data-col="closeReason"]')).toHaveText(
    /Trader closed|Overwritten|Stop loss|Take profit|Liquidated|Window end/,
  );
  await shoot(page, 'backtest.png');
  await audit(page, 'run');

  // The exits' amounts and units appear with their switch.
  await page.getByTestId('bt-enableStopLoss').check();
  await page.getByTestId('bt-stopLossAmount').locator('input').fill('10');
  await page.getByTestId('bt-enableTakeProfit').check();
  await page.getByTestId('bt-settings').screenshot({ path: 'test-artifacts/backtest-settings.png' });
  await page.getByTestId('bt-enableStopLoss').uncheck();
  await page.getByTestId('bt-enableTakeProfit').uncheck();

  // The sweep: leverage across, margin down, ranked by ROI.
  await page.getByTestId('bt-tabs-sweep').click();
  await page.getByTestId('bt-axis-x-field').selectOption('leverage');
  await page.getByTestId('bt-axis-x-values').fill('2, 5, 10');
  await page.getByTestId('bt-axis-y-field').selectOption('orderVolume');
  await page.getByTestId('bt-axis-y-values').fill('50, 100');
  await page.getByTestId('bt-sweep-run').click();
  const cells = page.getByTestId('bt-heat-cell');
  await expect(cells).toHaveCount(6);
  await expect(page.getByTestId('bt-sweep-table').getByTestId('table-row')).toHaveCount(6);
  // The ranked table's first row is the best ROI of the map.
  const best = Math.max(
    ...(await cells.allTextContents()).map((t) => Number(t.replace(/[−]/g, '-').replace(/[,]/g, ''))),
  );
  const firstRoi =
    (await page
      .getByTestId('bt-sweep-table')
      .getByTestId('table-row')
      .first()
      .locator('[data-col="roi"]')
      .textContent()) ?? '';
  expect(Math.abs(Number(firstRoi.replace(/[−]/g, '-').replace(/[+%,]/g, '')) - best)).toBeLessThan(0.01);
  await shoot(page, 'backtest-sweep.png');
  await audit(page, 'sweep');

  // A cell opens that configuration's full result as a new run: leverage 10, margin 50.
  const cell = page.getByTestId('bt-heatmap').getByRole('row').nth(1).getByTestId('bt-heat-cell').nth(2);
  const cellRoi = Number(((await cell.textContent()) ?? '').replace(/[−]/g, '-').replace(/,/g, ''));
  await cell.click();
  await expect(page.getByTestId('bt-tabs-run-2')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('bt-settings-summary')).toContainText('$50.00 × 10×');
  expect(Math.abs((await figure(page, 'roi')) - cellRoi)).toBeLessThan(0.01);

  // Both runs side by side.
  await page.getByTestId('bt-tabs-compare').click();
  await expect(page.getByTestId('bt-compare').getByTestId('table-row')).toHaveCount(2);
  await shoot(page, 'backtest-compare.png');

  // "Copy with these settings" opens the copy-trade form with them; the form's "Backtest these
  // settings" comes back with what was changed there.
  await page.getByTestId('bt-tabs-run-2').click();
  await page.getByTestId('bt-run-copy-with').click();
  const form = page.getByTestId('copy-form');
  await expect(form.getByTestId('copy-form-account')).toHaveValue(account);
  await expect(form.getByTestId('copy-form-volume')).toHaveValue('50');
  await expect(form.getByTestId('copy-form-leverage')).toHaveValue('10');
  await form.getByTestId('copy-form-leverage').fill('8');
  await form.getByTestId('copy-form-backtest').click();
  await expect(page.getByTestId('backtest-page')).toBeVisible();
  await expect(page.getByTestId('bt-leverage').locator('input')).toHaveValue('8');
  await expect(page.getByTestId('bt-orderVolume').locator('input')).toHaveValue('50');
  await expect(page.getByTestId('bt-accounts').locator('textarea')).toHaveValue(account);
  await expect(page.getByLabel('From')).toHaveValue(from);

  // Two traders under one configuration: one sortable table, a row opens that trader's detail.
  await page.getByTestId('bt-accounts').locator('textarea').fill(`${account}\n${other}`);
  await page.getByTestId('bt-run').click();
  await expect(page.getByTestId('bt-tabs-run-3')).toHaveAttribute('aria-selected', 'true');
  const traders = page.getByTestId('bt-traders').getByTestId('table-row');
  await expect(traders).toHaveCount(2);
  await traders.filter({ has: page.locator(`[title="${other}"]`) }).click();
  await expect(page.getByTestId('bt-run-view').locator('.bt-detail-title')).toContainText(other.slice(0, 6));
  await expect(
    page.getByTestId('bt-equity-chart').or(page.getByText('No position was copied')),
  ).toBeVisible();

  // The light theme: the charts take its colours when drawn.
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-theme-light').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.getByTestId('nav-backtest').click();
  await page.getByTestId('bt-tabs-run-1').click();
  await expect(page.getByTestId('bt-equity-chart').locator('canvas').first()).toBeVisible();
  await shoot(page, 'backtest-light.png');
  await audit(page, 'run, light theme');
});
