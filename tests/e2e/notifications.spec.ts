import type { Page } from '@playwright/test';
import { loginAsDemo } from './demo-user';
import { expect, test } from './fixtures';

// The OS notification centre cannot be looked at headless, so the page's Notification API is
// recorded at its boundary: everything up to it is real (the service's event stream, the core,
// the renderer's store and the settings).
type Permission = 'default' | 'granted' | 'denied';
interface Notice {
  title: string;
  body: string;
}
/** The page's global object as the recorder sees it (this config has no DOM types). */
interface RecordingPage {
  __notices: Notice[];
}

/** Replaces the page's Notification API by a recorder that starts with `permission`. */
async function recordNotifications(page: Page, permission: Permission): Promise<void> {
  await page.addInitScript((initial) => {
    const host = globalThis as unknown as RecordingPage;
    host.__notices = [];
    class RecordedNotification {
      static permission: Permission = initial;
      static requestPermission(): Promise<Permission> {
        RecordedNotification.permission = 'granted';
        return Promise.resolve('granted');
      }
      constructor(title: string, options?: { body?: string }) {
        host.__notices.push({ title, body: options?.body ?? '' });
      }
    }
    Object.defineProperty(globalThis, 'Notification', { value: RecordedNotification, configurable: true });
  }, permission);
}

/** What the page has shown so far. */
const shown = (page: Page): Promise<Notice[]> =>
  page.evaluate(() => (globalThis as unknown as RecordingPage).__notices);

test('with notifications on, closing a copy position shows a desktop notification', async ({
  page,
  terminal,
}) => {
  await recordNotifications(page, 'default');
  await loginAsDemo(page, terminal.url);
  await page.getByTestId('nav-settings').click();
  const toggle = page.getByTestId('settings-notifications');
  await expect(toggle).toBeEnabled();
  // The switch's label, as a trader clicks it: Playwright waits for it to stand still. Forcing a
  // check on the 1-px checkbox failed when the page's panels grew after it was scrolled to.
  await page.locator('label', { hasText: 'Desktop notifications' }).click();
  await expect(toggle).toBeChecked();

  await page.getByTestId('nav-copy').click();
  await page.getByTestId('copy-tabs-positions').click();
  const btc = page
    .getByTestId('copy-positions-table')
    .getByTestId('table-row')
    .filter({ hasText: 'BTC/USD' });
  await btc.getByTestId('copy-position-close').click();
  await page.getByTestId('close-position-dialog').getByTestId('close-position-dialog-confirm').click();

  await expect
    .poll(() => shown(page).then((notices) => notices.map((n) => n.title)))
    .toContain('Copy closed: BTC/USD long');
  const notice = (await shown(page)).find((n) => n.title.startsWith('Copy closed'));
  expect(notice?.body).toMatch(/^BTC trend follower closed BTC\/USD long \(manual\)\. PnL [+−]\$[\d,.]+\.$/);
});

test('with notifications off, nothing is shown', async ({ page, terminal }) => {
  await recordNotifications(page, 'granted');
  await loginAsDemo(page, terminal.url);
  await page.getByTestId('nav-copy').click();
  await page.getByTestId('copy-tabs-positions').click();
  const rows = page.getByTestId('copy-positions-table').getByTestId('table-row');
  await expect(rows).toHaveCount(2);
  await rows.filter({ hasText: 'BTC/USD' }).getByTestId('copy-position-close').click();
  await page.getByTestId('close-position-dialog').getByTestId('close-position-dialog-confirm').click();
  await expect(rows).toHaveCount(1);
  // The close's events have arrived (the list re-read on them); still no notification.
  await page.getByTestId('copy-tabs-activity').click();
  await expect(page.getByTestId('activity-table').getByTestId('table-row').first()).toContainText('Close');
  expect(await shown(page)).toEqual([]);
});
