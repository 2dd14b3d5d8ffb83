#!/usr/bin/env bash
# npm test: every gate and every suite. The last line is "N passed, N failed, N skipped",
# summing the unit, integration and end-to-end suites (CI reads only that line).
set -uo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 ELECTRON_SKIP_BINARY_DOWNLOAD=1
rm -rf test-results && mkdir -p test-results test-artifacts

gate() {
  local name=$1; shift
  echo "── $name"
  if ! "$@"; then
    echo "── $name FAILED"
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
  fi
}

gate "typecheck (node)" npx tsc --noEmit -p tsconfig.node.json
gate "typecheck (web)" npx tsc --noEmit -p tsconfig.web.json
gate "lint" npx eslint --max-warnings 0 .
gate "format" npx prettier --check . --log-level warn
gate "build" npx electron-vite build

# No test may reach the real venue: the local services the tests start point their venue feed at
# a closed port on 127.0.0.1 (tests/support/offline-venue.ts sets the same; this covers anything
# started outside those harnesses).
export COPYDESK_FEED_URL=http://127.0.0.1:9 COPYDESK_FEED_WS_URL=ws://127.0.0.1:9/ws \
  COPYDESK_FEED_LEADERBOARD_URL=http://127.0.0.1:9/leaderboard

# Tests talk to a real keychain: a private D-Bus session with an unlocked gnome-keyring,
# never the developer's own keychain.
echo "── unit, integration and end-to-end tests"
COPYDESK_FORCE_EPHEMERAL_KEYCHAIN=1 bash scripts/with-keychain.sh bash -c '
  npx vitest run --reporter=default --reporter=json --outputFile=test-results/vitest.json
  echo $? > test-results/vitest.status
  PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json npx playwright test --reporter=list,json
  echo $? > test-results/playwright.status
'
node scripts/summarize-tests.mjs
