import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { loginAsDemo } from './demo-user';
import { expect, test } from './fixtures';

// Every page of the rail, by its nav test id (pages/registry.tsx).
const RAIL = [
  'nav-leaderboard',
  'nav-trader',
  'nav-live',
  'nav-tokens',
  'nav-copy',
  'nav-funds',
  'nav-login-key',
  'nav-settings',
] as const;

/** Runs axe on the page as it is; fails on critical violations and low contrast, reports the others. */
async function audit(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  // Loading skeletons and toasts come and go: let the page settle on what it shows.
  await page.waitForLoadState('networkidle');
  await page
    .locator('[aria-busy="true"]')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const lines = results.violations.map(
    (v) =>
      `${v.impact ?? 'unknown'} ${v.id}: ${v.help} (${v.nodes.length}) — ${v.nodes
        .slice(0, 15)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
  );
  if (lines.length > 0) testInfo.annotations.push({ type: `axe ${name}`, description: lines.join('\n') });
  // Critical violations, and any text under 4.5:1 contrast (axe rates that "serious"), fail.
  const critical = results.violations.filter((v) => v.impact === 'critical' || v.id === 'color-contrast');
  expect(
    critical.map((v) => `${name}: ${v.id} ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`),
  ).toEqual([]);
}

for (const scheme of ['dark', 'light'] as const) {
  test(`no page of the rail has a critical accessibility violation or low contrast (${scheme} theme)`, async ({
    page,
    terminal,
  }, testInfo) => {
    test.setTimeout(120_000);
    // The theme setting is System by default: the OS's preference picks the palette.
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(terminal.url);
    await expect(page.getByTestId('service-state')).toContainText(/ready/i, { timeout: 30_000 });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    for (const nav of RAIL) {
      await page.getByTestId(nav).click();
      await expect(page.getByTestId(nav)).toHaveAttribute('aria-current', 'page');
      await audit(page, `${nav.replace('nav-', '')} (${scheme})`, testInfo);
    }
  });
}

for (const scheme of ['dark', 'light'] as const) {
  test(`the leaderboard with rows, a trader page with data, and the command palette pass (${scheme} theme)`, async ({
    page,
    terminal,
  }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme });
    await loginAsDemo(page, terminal.url);
    await page.getByTestId('nav-leaderboard').click();
    const table = page.getByTestId('leaderboard-table');
    await expect(table.getByTestId('table-row').first()).toBeVisible();
    await page.getByTestId('filters-toggle').click();
    await audit(page, 'leaderboard with rows and filters', testInfo);

    await table.getByTestId('table-row').first().click();
    await expect(page.getByTestId('stat-grid')).toBeVisible();
    await expect(page.getByTestId('pnl-chart')).toBeVisible();
    await page.getByTestId('history-table').getByTestId('table-row').first().click();
    await expect(page.getByTestId('orders-table').getByTestId('table-row').first()).toBeVisible();
    await audit(page, 'trader with orders', testInfo);

    await page.keyboard.press('Control+k');
    await expect(page.getByTestId('palette')).toBeVisible();
    await audit(page, 'command palette', testInfo);
  });
}
