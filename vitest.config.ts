import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Two projects: fast unit tests, and integration tests that start real processes
// (the local service over HTTP, SQLite files, the OS keychain). No test may reach the real venue:
// every process a test starts inherits a venue feed pointed at a closed port on 127.0.0.1, unless
// the test passes a fake venue's URLs itself. The same values as tests/support/offline-venue.ts
// (written out here: Vite's config loader wants no extension-less imports), which a test checks.
const OFFLINE_VENUE_ENV = {
  COPYDESK_FEED_URL: 'http://127.0.0.1:9',
  COPYDESK_FEED_WS_URL: 'ws://127.0.0.1:9/ws',
  COPYDESK_FEED_LEADERBOARD_URL: 'http://127.0.0.1:9/leaderboard',
};

// The renderer's import aliases (tsconfig.web.json's paths, electron.vite.config.ts; docs/ui.md),
// so the renderer's unit tests load its modules as the renderer build does.
const RENDERER_ALIASES = {
  '@renderer': resolve(import.meta.dirname, 'src/renderer/src'),
  '@shared': resolve(import.meta.dirname, 'src/shared'),
};

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: RENDERER_ALIASES },
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          env: OFFLINE_VENUE_ENV,
          // Property tests run hundreds of cases; 5 s (the default) was hit at 6 s on a loaded
          // machine. A timeout only stops a hung test: speed goals live in the benchmarks.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          env: OFFLINE_VENUE_ENV,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
