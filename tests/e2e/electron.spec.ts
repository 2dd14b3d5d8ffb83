import { _electron as electron, expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OFFLINE_VENUE_ENV } from '../support/offline-venue';
import { watchConsole } from './fixtures';

// The same slice in the real desktop window. It needs the Electron binary, which npm cannot
// download on every machine (not on CI here); without it the test is skipped and says why.
const electronBinary = execFileSync(process.execPath, ['scripts/electron-binary.mjs']).toString().trim();
const noDisplay = !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
const reason = !electronBinary
  ? 'the Electron binary is not installed on this machine (npm could not download it), so the desktop window cannot run'
  : noDisplay
    ? 'there is no display; run under xvfb-run to include the Electron test'
    : '';
if (reason) console.log(`electron.spec: skipped because ${reason}`);

test('Electron: create a wallet, log in, see tokens', async () => {
  test.skip(reason !== '', reason);
  const app = await electron.launch({
    executablePath: electronBinary,
    args: ['.'],
    env: {
      ...process.env,
      ...OFFLINE_VENUE_ENV,
      COPYDESK_DATA_DIR: mkdtempSync(join(tmpdir(), 'copydesk-electron-')),
    },
  });
  // The desktop window's console must be as clean as the browser's (tests/e2e/fixtures.ts).
  const guard = watchConsole(app.context());
  const page = await app.firstWindow();
  await page.getByTestId('nav-login-key').click();
  await page.getByTestId('wallet-create').click();
  await expect(page.getByTestId('wallet-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await page.getByTestId('auth-login').click();
  await expect(page.getByTestId('auth-session')).toBeVisible();
  await page.getByTestId('nav-tokens').click();
  expect(await page.locator('[data-testid^="token-group-"]').count()).toBeGreaterThanOrEqual(2);
  guard.close();
  await app.close();
  expect(guard.problems, 'the window logged console errors or page errors').toEqual([]);
});
