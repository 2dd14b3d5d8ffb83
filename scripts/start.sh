#!/usr/bin/env bash
# npm start: builds Copydesk, starts the local service with its data in the user's data folder
# (or COPYDESK_DATA_DIR), and opens the terminal: the Electron window where it can run, the
# web shell otherwise. Runs until interrupted.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "copydesk: building…"
npx electron-vite build >/tmp/copydesk-build.log 2>&1 || { cat /tmp/copydesk-build.log; exit 1; }

electron_bin=$(node scripts/electron-binary.mjs)
reason=""
if [ -z "$electron_bin" ]; then
  reason="the Electron binary is not installed (npm could not download it on this machine)"
elif [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  reason="there is no display (DISPLAY and WAYLAND_DISPLAY are unset)"
fi

if [ -z "$reason" ]; then
  exec bash scripts/with-keychain.sh "$electron_bin" .
fi

echo "copydesk: starting the web shell instead of the desktop window, because $reason."
if [ "${COPYDESK_EPHEMERAL_KEYCHAIN:-0}" = "1" ] || [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
  echo "copydesk: WARNING: no OS keychain is running here, so Copydesk starts a private one for this run only."
  echo "copydesk: WARNING: a wallet created or imported now is GONE when Copydesk stops. Keep a copy of any key you import."
fi
exec bash scripts/with-keychain.sh node out/main/web.js "$@"
