import type { Page } from '@playwright/test';
import { FakeHyperliquid, type LeaderboardRow, type VenueFill } from '../support/fake-hyperliquid';
import { generateAccounts, generateFills } from '../support/hyperliquid-fills';
import { venueEnv } from '../support/offline-venue';
import { loginWithNewWallet, openTerminal } from './demo-user';
import { expect, startTerminal, stopTerminal, test, type Terminal } from './fixtures';

const DAY = 86_400_000;
const FILLS = 150;
// Four traders on the venue's leaderboard (the last one's first pages are malformed, so its
// backfill takes a while and shows an error meanwhile), one the user adds in Settings, one tracked
// from its page.
const [first, second, third, slow, added, visited] = generateAccounts(6, 2024) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const LEADERS = [first, second, third, slow];

/** A leaderboard file row with volume in every window, so the feed's discovery keeps it. */
const row = (ethAddress: string, pnl: number): LeaderboardRow => ({
  ethAddress,
  accountValue: '250000.0',
  displayName: null,
  prize: 0,
  windowPerformances: (['day', 'week', 'month', 'allTime'] as const).map((w) => [
    w,
    { pnl: String(pnl), roi: '0.12', vlm: '900000.0' },
  ]),
});

let venue: FakeHyperliquid;
let terminal: Terminal | null = null;

test.beforeAll(async () => {
  // The venue, on 127.0.0.1: the terminal's feed reaches nothing else.
  venue = await FakeHyperliquid.start({ pageCap: 60 });
  const now = Date.now();
  [...LEADERS, added, visited].forEach((account, i) => {
    const fills: VenueFill[] = generateFills({
      account,
      seed: 300 + i,
      count: FILLS,
      startMs: now - 50 * DAY,
      endMs: now - 60_000,
    });
    venue.setFills(account, fills);
  });
  venue.setLeaderboard([row(first, 9000), row(second, 6000), row(third, 3000), row(slow, 1000)]);
  // A price that does not parse: the page is refused whole, reported on the account, and asked
  // again later (5 s, then 10 s).
  venue.malformNext(slow, (page) => page.map((fill) => ({ ...fill, px: 'not a price' })), 2);
});
test.afterAll(async () => {
  if (terminal) await stopTerminal(terminal);
  await venue?.close();
});

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-artifacts/${name}.png`, fullPage: true, animations: 'disabled' });

/** A row of the tracked accounts table, by account (the feed spells them checksummed). */
const trackedRow = (page: Page, account: string) =>
  page
    .getByTestId('feed-accounts')
    .getByTestId('table-row')
    .filter({ has: page.locator(`[title="${account}" i]`) });

/** Opens a trader's Hyperliquid page with the palette: paste the address, pick the protocol. */
async function openFeedTrader(page: Page, account: string): Promise<void> {
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill(account);
  await page.getByTestId('palette-item').filter({ hasText: 'on HYPERLIQUID' }).click();
  await expect(page.getByTestId('trader-address')).toHaveText(account);
}

/** Turns a data source on or off by its label, as a user does, and waits for the restart. */
async function setSource(page: Page, label: RegExp, testId: string, on: boolean): Promise<void> {
  const toggle = page.getByTestId(testId);
  await expect(toggle).toBeChecked({ checked: !on });
  await page.getByTestId('settings-data-sources').getByText(label).click();
  // Applied by restarting the local service; the toggle waits for it.
  await expect(toggle).toBeChecked({ checked: on });
  await expect(page.getByTestId('sources-applying')).toHaveCount(0, { timeout: 30_000 });
  await expect(toggle).toBeEnabled();
  await expect(page.getByTestId('service-state')).toContainText(/ready/i, { timeout: 30_000 });
}

test('data sources: both on, demo off and on, tracked accounts from the venue, track a trader, the feed in the top bar', async ({
  page,
}) => {
  test.setTimeout(240_000);
  terminal = await startTerminal(undefined, undefined, venueEnv(venue));

  // A fresh install: beside the service, the feed says it is filling in.
  await openTerminal(page, terminal.url);
  const feed = page.getByTestId('feed-state');
  await expect(feed).toContainText(/Hyperliquid\s*filling in/, { timeout: 30_000 });
  await shot(page, 'data-sources-first-start');
  // The first leaderboard ranks HYPERLIQUID as soon as the feed has stored the venue's tokens,
  // with no restart in between.
  await page.getByTestId('protocol-picker').click();
  await page.getByTestId('protocol-only-HYPERLIQUID').click({ timeout: 45_000 });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('leaderboard-count')).toHaveText(/traders/, { timeout: 20_000 });
  await expect(page.getByText('The leaderboard could not be loaded')).toHaveCount(0);
  await loginWithNewWallet(page, terminal.url);

  // Settings → Data sources: both on, the leaderboard's traders tracked and backfilled.
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('source-demo')).toBeChecked();
  await expect(page.getByTestId('source-hyperliquid')).toBeChecked();
  const table = page.getByTestId('feed-accounts');
  await expect(table.getByTestId('table-row')).toHaveCount(4, { timeout: 30_000 });
  await shot(page, 'data-sources-filling-in');
  for (const account of LEADERS) {
    const line = trackedRow(page, account);
    await expect(line).toContainText('venue leaderboard');
    await expect(line).toContainText('COMPLETE', { timeout: 60_000 });
    await expect(line.locator('[data-col="fills"]')).toHaveText(String(FILLS));
  }
  await expect(page.getByTestId('feed-progress')).toContainText('4 / 4 accounts backfilled');
  await expect(page.getByTestId('feed-budget')).toContainText(/Requests [\d,]+ \/ [\d,]+ weight a minute/);
  await expect(feed).toContainText(/Hyperliquid\s*(live|polling)/);

  // Add an account: the address is checked before anything is sent.
  const input = page.getByTestId('feed-add-input');
  await input.fill('abc');
  await page.getByTestId('feed-add').click();
  await expect(page.getByTestId('feed-add-error')).toHaveText('An account starts with 0x.');
  await input.fill(`${added.slice(0, 20)}`);
  await page.getByTestId('feed-add').click();
  await expect(page.getByTestId('feed-add-error')).toHaveText('An account is 0x and 40 hex digits.');
  await input.fill(added);
  await page.getByTestId('feed-add').click();
  await expect(input).toHaveValue('');
  await expect(table.getByTestId('table-row')).toHaveCount(5);
  await expect(trackedRow(page, added)).toContainText('added by you');
  await expect(trackedRow(page, added)).toContainText('COMPLETE', { timeout: 60_000 });
  await shot(page, 'data-sources');
  await page
    .getByTestId('settings-data-sources')
    .screenshot({ path: 'test-artifacts/data-sources-panel.png' });

  // Demo market off, then on: the local service restarts each time, the session stays.
  await setSource(page, /^Demo market \(simulated\)$/, 'source-demo', false);
  await expect(page.getByTestId('topbar-session')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('source-demo')).not.toBeChecked();
  await expect(page.getByTestId('source-hyperliquid')).toBeChecked();
  await expect(table.getByTestId('table-row')).toHaveCount(5, { timeout: 30_000 });
  await setSource(page, /^Demo market \(simulated\)$/, 'source-demo', true);
  await expect(page.getByTestId('topbar-session')).toBeVisible();

  // The leaderboard ranks HYPERLIQUID like any protocol.
  await page.getByTestId('nav-leaderboard').click();
  await page.getByTestId('protocol-picker').click();
  await page.getByTestId('protocol-only-HYPERLIQUID').click({ timeout: 45_000 });
  await page.keyboard.press('Escape');
  const rows = page.getByTestId('leaderboard-table').getByTestId('table-row');
  await expect(rows).toHaveCount(5, { timeout: 30_000 });
  await expect(page.getByTestId('leaderboard-assumed-leverage')).toContainText(
    /ROI and leverage assume \d+(\.\d+)?× where the venue did not report it/,
  );
  await shot(page, 'data-sources-leaderboard');

  // A tracked trader's page: "Tracked", and the figures that rest on an assumed leverage say so.
  await rows.first().click();
  await expect(page.getByTestId('trader-page')).toBeVisible();
  await expect(page.getByTestId('track-trader')).toHaveText('✓ Tracked');
  await expect(page.getByTestId('track-trader')).toBeDisabled();
  await expect(page.getByTestId('assumed-leverage')).toContainText(
    /ROI and leverage assume \d+(\.\d+)?× where the venue did not report it/,
  );
  await shot(page, 'data-sources-trader');

  // Any 0x account can be tracked from its page.
  await openFeedTrader(page, visited);
  const track = page.getByTestId('track-trader');
  await expect(track).toHaveText('Track this trader');
  await expect(page.getByTestId('trader-feed-empty')).toContainText('Not tracked on Hyperliquid');
  await shot(page, 'data-sources-untracked');
  await track.click();
  await expect(track).toHaveText('✓ Tracked');
  // Its statistics appear as its history comes in, without a reload.
  await expect(page.getByText(/Active \d+ days on HYPERLIQUID/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('trader-feed-empty')).toHaveCount(0);
  await page.getByTestId('nav-settings').click();
  await expect(trackedRow(page, visited)).toContainText('added by you');

  // The venue goes away: the top bar says since when; what was fetched stays.
  venue.setOffline(true);
  await expect(feed).toContainText(/offline since \d{2}:\d{2}/, { timeout: 60_000 });
  await expect(table.getByTestId('table-row')).toHaveCount(6);
  await shot(page, 'data-sources-offline');
  venue.setOffline(false);

  // Hyperliquid off: no feed in the top bar, and tracking says why it cannot.
  await setSource(page, /^Hyperliquid \(real, public data; needs internet\)$/, 'source-hyperliquid', false);
  await expect(feed).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId('feed-off')).toContainText('Turn Hyperliquid on');
  await openFeedTrader(page, third);
  await expect(page.getByTestId('track-trader')).toBeDisabled();
  await expect(page.getByTestId('track-trader-reason')).toHaveText(
    'Turn Hyperliquid on in Settings → Data sources to track traders.',
  );
  await shot(page, 'data-sources-off');
});
