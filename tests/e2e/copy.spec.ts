import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { loginAsDemo, loginWithNewWallet } from './demo-user';

const TRADER = '0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a';

/**
 * Turns a switch on or off by its label, as a trader clicks it: Playwright waits for the label
 * to stand still. Forcing a check on the switch's 1-px checkbox failed in the notifications test
 * when the page grew after it was scrolled to.
 */
async function flipSwitch(input: Locator, on: boolean): Promise<void> {
  await expect(input).toBeEnabled();
  await expect(input).toBeChecked({ checked: !on });
  await input.locator('xpath=following-sibling::label').click();
  await expect(input).toBeChecked({ checked: on });
}

test('create a copy trade with options, see it listed, stop and start it; close a copy position', async ({
  page,
  terminal,
}) => {
  await loginAsDemo(page, terminal.url);
  await page.getByTestId('nav-copy').click();

  // The fixture's demo user has three copy trades; two run.
  const trades = page.getByTestId('copy-trades-table').getByTestId('table-row');
  await expect(trades).toHaveCount(3);
  await expect(page.getByTestId('copy-quota')).toContainText('2 / 5');
  await page.screenshot({ path: 'test-artifacts/copy-trading.png', animations: 'disabled' });

  // A new copy trade: every rule is checked before anything is sent.
  await page.getByTestId('copy-new').click();
  const form = page.getByTestId('copy-form');
  await expect(form).toBeVisible();
  await form.getByTestId('copy-form-submit').click();
  await expect(form.getByTestId('copy-form-issue-count')).toBeVisible();

  await form.getByTestId('copy-form-title').fill('E2E whale follower');
  await form.getByTestId('copy-form-account').fill(TRADER);
  await form.getByTestId('copy-form-protocol').selectOption('NOVA_ARB');
  await form.getByTestId('copy-form-wallet').selectOption({ index: 1 });
  await form.getByTestId('copy-form-volume').fill('50');
  await form.getByTestId('copy-form-leverage').fill('60');
  await form.getByTestId('copy-form-leverage').blur();
  await expect(form.getByText('must be between 2 and 50')).toBeVisible();
  await form.getByTestId('copy-form-leverage').fill('8');
  await form.getByTestId('copy-form-side-long').click();

  // A USD stop loss may not exceed the margin.
  await flipSwitch(form.getByTestId('copy-form-stop-loss'), true);
  await form.getByTestId('copy-form-stop-loss-amount').fill('80');
  await form.getByTestId('copy-form-stop-loss-amount').blur();
  await expect(form.getByText(/must be at most Margin per position/)).toBeVisible();
  await form.getByTestId('copy-form-stop-loss-amount').fill('20');

  // Only chosen tokens: the picker comes from tokens:list.
  await flipSwitch(form.getByTestId('copy-form-copy-all'), false);
  await form.getByTestId('copy-form-tokens-BTC').click();
  await flipSwitch(form.getByTestId('copy-form-skip-leverage'), true);
  await form.getByTestId('copy-form-low-leverage').fill('2');
  await expect(form.getByTestId('copy-form-issue-count')).toHaveCount(0);
  await page.screenshot({ path: 'test-artifacts/copy-trade-form.png', animations: 'disabled' });
  await form.getByTestId('copy-form-submit').click();
  await expect(form).toHaveCount(0);

  const created = trades.filter({ hasText: 'E2E whale follower' });
  await expect(created).toHaveCount(1);
  await expect(created).toContainText('Longs only');
  await expect(created.getByTestId('copy-trade-status')).toHaveText('Running');
  await expect(page.getByTestId('copy-quota')).toContainText('3 / 5');

  // Stop and start it again inline.
  await created.getByTestId('copy-trade-stop').click();
  await expect(created.getByTestId('copy-trade-status')).toHaveText('Stopped');
  await expect(page.getByTestId('copy-quota')).toContainText('2 / 5');
  await created.getByTestId('copy-trade-start').click();
  await expect(created.getByTestId('copy-trade-status')).toHaveText('Running');

  // Edit it: the saved change shows in the list.
  await created.getByTestId('copy-trade-edit').click();
  await expect(form).toBeVisible();
  await form.getByTestId('copy-form-volume').fill('75');
  await form.getByTestId('copy-form-submit').click();
  await expect(form).toHaveCount(0);
  await expect(created).toContainText('$75.00');

  // Close an open copy position, behind a confirmation.
  await page.getByTestId('copy-tabs-positions').click();
  const positions = page.getByTestId('copy-positions-table').getByTestId('table-row');
  await expect(positions).toHaveCount(2);
  await page.screenshot({ path: 'test-artifacts/copy-positions.png', animations: 'disabled' });
  const btc = positions.filter({ hasText: 'BTC/USD' });
  await btc.getByText('Orders').click();
  const drawer = page.getByTestId('position-drawer');
  await expect(drawer.getByTestId('position-orders-table').getByTestId('table-row')).toHaveCount(2);
  // Newest first: the increase, then the open; a copy order's size is its notional in USD.
  const sizes = drawer
    .getByTestId('position-orders-table')
    .locator('[data-testid="table-row"] [data-col="size"]');
  await expect(sizes).toHaveText(['$500.00', '$1,000.00']);
  await page.screenshot({ path: 'test-artifacts/copy-position-orders.png', animations: 'disabled' });
  await drawer.getByTestId('position-close').click();
  const confirm = page.getByTestId('close-position-dialog');
  await expect(confirm).toBeVisible();
  await confirm.getByTestId('close-position-dialog-confirm').click();
  await expect(drawer).toHaveCount(0);
  await expect(positions).toHaveCount(1);

  await page.getByTestId('copy-positions-status-close').click();
  await expect(positions.filter({ hasText: 'You closed' })).toHaveCount(1);

  await page.getByTestId('copy-tabs-activity').click();
  await expect(page.getByTestId('activity-table').getByTestId('table-row').first()).toBeVisible();
  // The fixture's failed copy says why it failed, from the service through the core.
  const failed = page.getByTestId('activity-table').getByTestId('table-row').filter({ hasText: 'FAILED' });
  await expect(failed.getByTestId('activity-reason')).toHaveText(
    'the venue rejected the order: the price moved beyond the slippage limit',
  );
  await page.screenshot({ path: 'test-artifacts/copy-activity.png', animations: 'disabled' });
});

test('a new user copies a trader from the leaderboard: their only wallet is chosen, amounts are asked for', async ({
  page,
  terminal,
}) => {
  await loginWithNewWallet(page, terminal.url);

  // Straight from the leaderboard to the form: the copy page has not read the wallets yet.
  await page.getByTestId('nav-leaderboard').click();
  await page.getByTestId('leaderboard-table').getByTestId('table-row').first().click();
  await page.getByTestId('copy-trader').click();
  const form = page.getByTestId('copy-form');
  await expect(form).toBeVisible();
  // The new user's one wallet, the embedded one, is chosen once the wallets arrive.
  await expect(form.getByTestId('copy-form-wallet')).not.toHaveValue('');
  await expect(form.getByTestId('copy-form-wallet').locator('option:checked')).toContainText(
    'Embedded wallet',
  );
  // Margin and leverage are the user's to choose: empty, with examples that do not read as values.
  await expect(form.getByTestId('copy-form-volume')).toHaveValue('');
  await expect(form.getByTestId('copy-form-volume')).toHaveAttribute('placeholder', 'e.g. 100');
  await form.getByTestId('copy-form-submit').click();
  await expect(form.getByTestId('copy-form-issue-count')).toHaveText('2 fields need fixing');
  await form.getByTestId('copy-form-volume').fill('25');
  await form.getByTestId('copy-form-leverage').fill('5');
  await form.getByTestId('copy-form-submit').click();
  await expect(form).toBeHidden();
  const created = page.getByTestId('copy-trades-table').getByTestId('table-row');
  await expect(created).toHaveCount(1);
  await expect(created.first().getByTestId('copy-trade-status')).toHaveText('Running');
});

test('on a laptop-sized window the row actions stay in reach without scrolling sideways', async ({
  page,
  terminal,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await loginAsDemo(page, terminal.url);
  await page.getByTestId('nav-copy').click();
  // The copy trades table is wider than the window here: its actions stay pinned to the right.
  const trade = page.getByTestId('copy-trades-table').getByTestId('table-row').first();
  await expect(trade.getByTestId('copy-trade-edit')).toBeInViewport({ ratio: 1 });
  await page.getByTestId('copy-tabs-positions').click();
  const position = page.getByTestId('copy-positions-table').getByTestId('table-row').first();
  await expect(position.getByTestId('copy-position-close')).toBeInViewport({ ratio: 1 });
  await expect(position.getByTestId('copy-position-unlink')).toBeInViewport({ ratio: 1 });
});
