import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { loginAsDemo, openTerminal } from './demo-user';
import { expect, test } from './fixtures';

// Every page of the rail, by its nav test id (pages/registry.tsx).
const RAIL = [
  'nav-leaderboard',
  'nav-trader',
  'nav-live',
  'nav-tokens',
  'nav-backtest',
  'nav-copy',
  'nav-funds',
  'nav-login-key',
  'nav-settings',
] as const;

/** What of the DOM the pixel count reads (the Node typecheck has no DOM types). */
interface ChartElement {
  querySelectorAll(selector: 'canvas'): ArrayLike<{
    width: number;
    height: number;
    getContext(kind: '2d'): {
      getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
    } | null;
  }>;
}

/**
 * The share of a chart's canvas pixels that are near black: the dark theme's grid and axis
 * colours drawn on the light theme (the bug this guards against) make a visible share.
 */
async function darkPixelShare(page: Page, chartTestId = 'pnl-chart'): Promise<number> {
  return page.getByTestId(chartTestId).evaluate((chart) => {
    let dark = 0;
    let drawn = 0;
    const canvases = (chart as unknown as ChartElement).querySelectorAll('canvas');
    for (const canvas of Array.from(canvases)) {
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0 || canvas.height === 0) continue;
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3]! < 128) continue;
        drawn += 1;
        if (data[i]! < 60 && data[i + 1]! < 60 && data[i + 2]! < 60) dark += 1;
      }
    }
    return drawn === 0 ? 1 : dark / drawn;
  });
}

test('System (the default) follows the OS light or dark setting as it changes', async ({
  page,
  terminal,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openTerminal(page, terminal.url);
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('settings-theme-system')).toHaveAttribute('aria-checked', 'true');

  // The OS switches: the window follows at once, without a reload.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-theme', 'light');

  // A fixed theme no longer follows the OS; System again does.
  await page.getByTestId('settings-theme-dark').click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('settings-theme-system').click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  // Kept across a reload, painted before the core answers.
  await page.reload();
  await expect(page.getByTestId('service-state')).toContainText(/ready/i);
  await expect(html).toHaveAttribute('data-theme', 'light');
});

test('the PnL and price charts take the theme’s colours, and every page is shot in both themes', async ({
  page,
  terminal,
}) => {
  test.setTimeout(180_000);
  mkdirSync('test-artifacts', { recursive: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await loginAsDemo(page, terminal.url);
  await page.getByTestId('nav-leaderboard').click();
  await page.getByTestId('leaderboard-table').getByTestId('table-row').first().click();
  await expect(page.getByTestId('pnl-chart').locator('canvas').first()).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect.poll(() => darkPixelShare(page)).toBeLessThan(0.01);
  // The price chart below it too, once its candles are drawn.
  await expect(page.getByTestId('price-chart-panel').locator('.chart-caption')).toHaveText(/candles of/);
  await expect.poll(() => darkPixelShare(page, 'price-chart')).toBeLessThan(0.01);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // In the dark theme the grid and the axes are dark: the charts did redraw.
  await expect.poll(() => darkPixelShare(page)).toBeGreaterThan(0.05);
  await expect.poll(() => darkPixelShare(page, 'price-chart')).toBeGreaterThan(0.05);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    for (const nav of RAIL) {
      await page.getByTestId(nav).click();
      await expect(page.getByTestId(nav)).toHaveAttribute('aria-current', 'page');
      await page
        .locator('[aria-busy="true"]')
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 })
        .catch(() => undefined);
      await page.screenshot({ path: `test-artifacts/theme-${nav.replace('nav-', '')}-${scheme}.png` });
    }
  }
});
