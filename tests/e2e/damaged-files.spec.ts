import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, startTerminal, stopTerminal, test } from './fixtures';

// A cache database that cannot be opened is moved aside and rebuilt empty, and the user is told
// (issue 15, item 8): the terminal opens, shows a banner naming the file, and pages work.
test('a damaged cache is set aside, the terminal opens, and the user is told', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'copydesk-e2e-damaged-'));
  mkdirSync(join(dataDir, 'cache'), { recursive: true });
  writeFileSync(
    join(dataDir, 'cache', 'core.db'),
    'this is not a SQLite database, it is a damaged file'.repeat(100),
  );
  const terminal = await startTerminal(dataDir);
  try {
    await page.goto(terminal.url);
    const banner = page.getByTestId('damaged-files-banner');
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner).toContainText('Damaged local data was set aside');
    await expect(banner).toContainText('core.db');
    expect(readdirSync(join(dataDir, 'cache')).some((name) => name.startsWith('core.db.damaged-'))).toBe(
      true,
    );
    // The pages still work on the rebuilt cache.
    await expect(page.getByTestId('leaderboard-table').getByTestId('table-row').first()).toBeVisible({
      timeout: 30_000,
    });
    await page.screenshot({ path: 'test-artifacts/damaged-files.png' });
  } finally {
    await stopTerminal(terminal);
  }
});
