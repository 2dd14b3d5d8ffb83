import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { loginAsDemo } from './demo-user';
import { expect, test } from './fixtures';

/**
 * Clicks an export button and reads back the file its toast names (`<name>-<date>.csv`): the
 * byte-order mark checked, the records split.
 */
async function exportAndRead(page: Page, button: Locator, name: string): Promise<string[]> {
  await button.click();
  const toast = page.getByTestId('toast').filter({ hasText: new RegExp(`Saved to .*/${name}-\\d{4}-`) });
  await expect(toast).toBeVisible();
  const path = (await toast.textContent())!.match(/Saved to (.+\.csv)/)![1]!;
  const bytes = readFileSync(path);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes.toString('utf8').slice(1).trim().split('\r\n');
}

test('every table exports a CSV with a byte-order mark, through the one export path', async ({
  page,
  terminal,
}) => {
  test.setTimeout(120_000);
  await loginAsDemo(page, terminal.url);

  await page.getByTestId('nav-tokens').click();
  const tokenButton = page.locator('[data-testid^="token-export-"]').first();
  const protocol = (await tokenButton.getAttribute('data-testid'))!.replace('token-export-', '');
  const tokenLines = await exportAndRead(page, tokenButton, `tokens-${protocol}`);
  expect(tokenLines[0]).toBe('Symbol,Index tokens,Forex');
  expect(tokenLines.length).toBeGreaterThan(1);

  await page.getByTestId('nav-live').click();
  for (const [id, name] of [
    ['live-top', 'live-top-positions'],
    ['live-positions', 'live-positions'],
    ['live-orders', 'live-orders'],
  ] as const) {
    await expect(page.getByTestId(`${id}-table`).getByTestId('table-row').first()).toBeVisible();
    const lines = await exportAndRead(page, page.getByTestId(`${id}-export`), name);
    expect(lines.length).toBeGreaterThan(1);
  }

  await page.getByTestId('nav-leaderboard').click();
  await page.getByTestId('leaderboard-table').getByTestId('table-row').first().click();
  await expect(page.getByTestId('history-table').getByTestId('table-row').first()).toBeVisible();
  const history = await exportAndRead(page, page.getByTestId('history-export'), 'trader-positions');
  const shown = await page.getByTestId('history-table').getAttribute('data-rows');
  expect(history.length - 1).toBe(Number(shown));
  await page.getByTestId('history-table').getByTestId('table-row').first().click();
  await expect(page.getByTestId('orders-table').getByTestId('table-row').first()).toBeVisible();
  expect(
    (await exportAndRead(page, page.getByTestId('orders-export'), 'trader-position-orders')).length,
  ).toBeGreaterThan(1);

  await page.getByTestId('nav-copy').click();
  await expect(page.getByTestId('copy-trades-table').getByTestId('table-row').first()).toBeVisible();
  const trades = await exportAndRead(page, page.getByTestId('copy-trades-export'), 'copy-trades');
  expect(trades.length).toBeGreaterThan(1);
  // Button columns (Edit, Start/Stop) are not data.
  expect(trades[0]).not.toMatch(/,$/);

  await page.getByTestId('nav-funds').click();
  await expect(page.getByTestId('copy-wallets-table').getByTestId('table-row').first()).toBeVisible();
  expect(
    (await exportAndRead(page, page.getByTestId('copy-wallets-export'), 'copy-wallets')).length,
  ).toBeGreaterThan(1);
  // The withdrawals table exports too; with none made yet there is nothing to export.
  await expect(page.getByTestId('withdrawals-export')).toBeVisible();
});
