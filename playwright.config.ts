import { defineConfig } from '@playwright/test';
import { OFFLINE_VENUE_ENV } from './tests/support/offline-venue';

// No test may reach the real venue: whatever a spec starts (web shells, Electron, their local
// services) inherits a venue feed pointed at a closed port on 127.0.0.1, unless the spec passes a
// fake venue's URLs itself (tests/support/offline-venue.ts). Set here, the runner and its workers
// both have it.
Object.assign(process.env, OFFLINE_VENUE_ENV);

// Debian's Chromium, never a downloaded browser; one worker because each test starts its own
// terminal (web shell + local service) on this 2-core machine.
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  retries: 0,
  outputDir: 'test-results/playwright',
  use: {
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
