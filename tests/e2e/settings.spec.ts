import { openTerminal } from './demo-user';
import { expect, test } from './fixtures';

test('settings: switch the theme, add a remote service profile, see the data and versions', async ({
  page,
  terminal,
}) => {
  await openTerminal(page, terminal.url);
  await page.getByTestId('nav-settings').click();

  const html = page.locator('html');
  // System is the default (theme.spec.ts checks it follows the OS).
  await expect(page.getByTestId('settings-theme-system')).toHaveAttribute('aria-checked', 'true');
  await page.getByTestId('settings-theme-light').click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect(page.getByTestId('settings-theme-light')).toHaveAttribute('aria-checked', 'true');

  await expect(page.getByTestId('profile-local')).toContainText('IN USE');
  await page.getByTestId('profile-add').click();
  const form = page.getByTestId('profile-form');
  await form.getByTestId('profile-baseUrl').fill('ftp://nope');
  await form.getByTestId('profile-save').click();
  await expect(form.getByText('must be an http or https URL')).toBeVisible();
  await form.getByTestId('profile-name').fill('Staging EU');
  await form.getByTestId('profile-baseUrl').fill('https://staging.example.com');
  await form.getByTestId('profile-venue').fill('acme');
  await form.getByTestId('profile-apiKey').fill('sk-test-123');
  await form.getByTestId('profile-save').click();
  await expect(form).toHaveCount(0);
  const staging = page.getByTestId('profile-staging-eu');
  await expect(staging).toContainText('Staging EU');
  await expect(staging).toContainText('https://staging.example.com');
  await expect(staging).toContainText('API key stored');
  // The key itself is write-only: nowhere on the page.
  await expect(page.getByText('sk-test-123')).toHaveCount(0);

  await expect(page.getByTestId('cache-usage')).toBeVisible();
  await expect(page.getByTestId('about-data-dir')).toHaveText(terminal.dataDir);
  await page.screenshot({
    path: 'test-artifacts/settings-light.png',
    fullPage: true,
    animations: 'disabled',
  });

  // The theme is kept: a reload opens in light.
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.getByTestId('settings-theme-dark').click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: 'test-artifacts/settings.png', fullPage: true, animations: 'disabled' });
});
