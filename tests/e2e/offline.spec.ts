import { mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { loginAsDemo } from './demo-user';

/** The pid of the terminal's local service: the process whose command line names its database. */
function servicePid(dataDir: string): number {
  const db = join(dataDir, 'service', 'service.db');
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmdline.split('\0').includes(db)) return Number(entry);
  }
  throw new Error(`no local service process for ${db}`);
}

test('with the service gone, pages keep showing what was read and say it is offline', async ({
  page,
  terminal,
}) => {
  await loginAsDemo(page, terminal.url);

  // Browse: each page's reads land in the core's cache.
  await page.getByTestId('nav-copy').click();
  const trades = page.getByTestId('copy-trades-table').getByTestId('table-row');
  await expect(trades).toHaveCount(3);
  await page.getByTestId('copy-tabs-positions').click();
  await expect(page.getByTestId('copy-positions-table').getByTestId('table-row')).toHaveCount(2);
  await page.getByTestId('nav-funds').click();
  await expect(page.getByTestId('embedded-wallet').getByTestId('wallet-balance')).toHaveText(/\$/);
  const balance = await page.getByTestId('embedded-wallet').getByTestId('wallet-balance').textContent();
  await page.getByTestId('nav-live').click();
  await expect(page.getByTestId('live-top-table').getByTestId('table-row').first()).toBeVisible();

  // The local service dies and cannot come back: the core restarts it, but its database is gone
  // (a folder stands in its place, so every restart fails at once). Core and web shell keep running.
  const db = join(terminal.dataDir, 'service', 'service.db');
  process.kill(servicePid(terminal.dataDir), 'SIGKILL');
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      renameSync(db + suffix, `${db}${suffix}.moved`);
    } catch {
      // -wal and -shm exist only while the database is open in WAL mode.
    }
  }
  mkdirSync(db);

  // Live keeps its last rows and says they are not live.
  await expect(page.getByTestId('live-top-freshness')).toHaveAttribute('data-tone', /stale|cached/, {
    timeout: 20_000,
  });
  await expect(page.getByTestId('live-top-table').getByTestId('table-row').first()).toBeVisible();

  // The cached pages still open, with their data, and say it is offline.
  await page.getByTestId('nav-copy').click();
  await expect(page.getByTestId('copy-tabs-trades')).toBeVisible();
  await page.getByTestId('copy-tabs-trades').click();
  await expect(trades).toHaveCount(3);
  await expect(page.getByTestId('copy-trades-freshness')).toHaveAttribute('data-tone', 'stale', {
    timeout: 20_000,
  });
  await expect(page.getByTestId('copy-trades-freshness')).toContainText('Offline');
  await expect(
    page.getByTestId('offline-banner').or(page.getByTestId('service-failed-banner')).first(),
  ).toBeVisible();
  await page.screenshot({ path: 'test-artifacts/offline-copy-trading.png', animations: 'disabled' });

  await page.getByTestId('nav-funds').click();
  await expect(page.getByTestId('embedded-wallet').getByTestId('wallet-balance')).toHaveText(balance!);
  await expect(page.getByTestId('wallets-freshness')).toHaveAttribute('data-tone', 'stale', {
    timeout: 20_000,
  });
  await page.screenshot({ path: 'test-artifacts/offline-wallets.png', animations: 'disabled' });

  // A change cannot be made offline: the user is told so in words, not left waiting.
  await page.getByTestId('nav-copy').click();
  await trades
    .first()
    .getByTestId(/copy-trade-(start|stop)/)
    .click();
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: /status/i })
      .first(),
  ).toBeVisible({ timeout: 35_000 });
});
