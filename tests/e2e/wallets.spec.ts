import { expect, test } from './fixtures';
import { loginAsDemo } from './demo-user';

const DESTINATION = '0x9999999999999999999999999999999999999999';

const usd = (text: string | null): number => Number((text ?? '').replace(/[^0-9.-]/g, ''));

test('withdraw from the embedded wallet: fees, confirmation, the record and the new balance', async ({
  page,
  terminal,
}) => {
  await page.goto(terminal.url);
  await page.getByTestId('nav-funds').click();
  await expect(page.getByTestId('login-first')).toContainText('Log in to see your wallets');

  await loginAsDemo(page, terminal.url);
  await page.getByTestId('nav-funds').click();
  const card = page.getByTestId('embedded-wallet');
  await expect(card.getByTestId('wallet-balance')).toHaveText(/\$[\d,]+\.\d\d/);
  const before = usd(await card.getByTestId('wallet-balance').textContent());
  expect(before).toBeGreaterThan(100);
  await page.screenshot({ path: 'test-artifacts/wallets.png', animations: 'disabled' });

  // The address is checked before anything is sent: a broken checksum is refused.
  const destination = page.getByTestId('withdraw-destination');
  await destination.fill('0x71C7656EC7ab88b098defB751B7401B5f6d8976f');
  await destination.blur();
  await expect(page.getByTestId('withdraw-destination-field-error')).toContainText('checksum');
  await destination.fill(DESTINATION);

  // Under the minimum: the preview says so and the form cannot go on.
  const amount = page.getByTestId('withdraw-amount');
  await amount.fill('6');
  await expect(page.getByTestId('withdraw-amount-field-error')).toContainText('minimum withdrawal');
  await expect(page.getByTestId('withdraw-review')).toBeDisabled();

  await amount.fill('100');
  const breakdown = page.getByTestId('withdraw-breakdown');
  await expect(page.getByTestId('withdraw-receive')).toHaveText(/\$9\d\.\d\d/);
  await expect(breakdown).toContainText('Service fee');
  const receive = await page.getByTestId('withdraw-receive').textContent();
  await page.screenshot({ path: 'test-artifacts/wallets-withdraw-form.png', animations: 'disabled' });

  await page.getByTestId('withdraw-review').click();
  const confirm = page.getByTestId('withdraw-confirm');
  await expect(confirm).toContainText(DESTINATION);
  await expect(confirm).toContainText(receive!);
  await page.screenshot({ path: 'test-artifacts/wallets-withdraw-confirm.png', animations: 'disabled' });
  await confirm.getByTestId('withdraw-confirm-confirm').click();

  const receipt = page.getByTestId('withdraw-receipt');
  await expect(receipt).toContainText('SUCCESSFUL');
  await expect(receipt).toContainText(receive!);
  // The new balance: the receipt and the wallet card agree, and it is 100 lower. The fixture's copy
  // trades keep running on the live market, so a copy closing meanwhile may move it by its PnL.
  await expect(async () => {
    const shown = await page.getByTestId('withdraw-new-balance').textContent();
    expect(shown).toBe(await card.getByTestId('wallet-balance').textContent());
    expect(Math.abs(usd(shown) - (before - 100))).toBeLessThan(20);
  }).toPass();
  const rows = page.getByTestId('withdrawals-table').getByTestId('table-row');
  await expect(rows.first()).toContainText('$100.00');
  await expect(rows.first()).toContainText('SUCCESSFUL');
  await page.screenshot({
    path: 'test-artifacts/wallets-after-withdrawal.png',
    fullPage: true,
    animations: 'disabled',
  });

  // The login key stays on its own page.
  await page.getByTestId('funds-login-key-link').click();
  await expect(page.getByTestId('wallet-address')).toBeVisible();
});
