import { expect, startTerminal, stopTerminal, test } from './fixtures';

test('create a wallet, log in by signing on the device, see tokens of several protocols', async ({
  page,
  terminal,
}) => {
  await page.goto(terminal.url);
  // The token is taken out of the address bar once the page has it.
  await expect(page).not.toHaveURL(/token=/);
  await expect(page.getByTestId('service-state')).toContainText(/ready/i);

  await page.getByTestId('nav-login-key').click();
  await page.getByTestId('wallet-create').click();
  const address = page.getByTestId('wallet-address');
  await expect(address).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  const walletAddress = (await address.textContent())!.trim();

  await page.getByTestId('auth-login').click();
  await expect(page.getByTestId('auth-session')).toContainText(walletAddress.slice(0, 6));
  await page.screenshot({ path: 'test-artifacts/e2e-wallet-logged-in.png', fullPage: true });

  await page.getByTestId('nav-tokens').click();
  await expect(page.locator('[data-testid^="token-group-"]').nth(1)).toBeVisible();
  const groups = await page.locator('[data-testid^="token-group-"]').count();
  expect(groups).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('token-group-NOVA_ARB').getByTestId('token-row').first()).toBeVisible();
  await page.screenshot({ path: 'test-artifacts/e2e-tokens.png', fullPage: true });
});

test('bad input is refused in words and changes nothing', async ({ page, terminal }) => {
  await page.goto(terminal.url);
  await page.getByTestId('nav-login-key').click();
  await page.getByTestId('wallet-import-input').fill('not a key');
  await page.getByTestId('wallet-import-submit').click();
  await expect(page.getByText(/hex digits/i).first()).toBeVisible();
  await expect(page.getByTestId('wallet-create')).toBeVisible();
  await expect(page.getByTestId('wallet-address')).toHaveCount(0);
});

test('a second start reuses the data, the wallet and the login', async ({ page, terminal }) => {
  await page.goto(terminal.url);
  await page.getByTestId('nav-login-key').click();
  await page.getByTestId('wallet-create').click();
  await expect(page.getByTestId('wallet-address')).toHaveText(/^0x/);
  const first = await page.getByTestId('wallet-address').textContent();
  await page.getByTestId('auth-login').click();
  await expect(page.getByTestId('auth-session')).toBeVisible();

  // Stop the whole terminal (web shell, core, local service) and start it again on the same data.
  await stopTerminal(terminal, false);
  const again = await startTerminal(terminal.dataDir, terminal.keychainService);
  try {
    await page.goto(again.url);
    await page.getByTestId('nav-login-key').click();
    await expect(page.getByTestId('wallet-address')).toHaveText(first!);
    // The token was kept in the keychain and the service's database kept the user and its secret.
    await expect(page.getByTestId('auth-session')).toContainText(first!.slice(0, 6));
    await page.getByTestId('nav-tokens').click();
    await expect(page.getByTestId('token-group-NOVA_ARB')).toBeVisible();
  } finally {
    await stopTerminal(again, false);
  }
});
