#!/usr/bin/env bash
# npm run setup: installs what Copydesk needs on a Debian-like machine, then its npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(libsecret-1-dev gnome-keyring dbus-x11 chromium xvfb xauth)

if command -v apt-get >/dev/null 2>&1; then
  missing=()
  for pkg in "${DEBIAN_PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "setup: installing Debian packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: Debian packages present"
  fi
else
  echo "setup: no apt-get here; install libsecret, gnome-keyring, dbus, Chromium and Xvfb with your package manager"
fi

# Browsers and the Electron binary cannot be downloaded here: tests use Debian's Chromium.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 ELECTRON_SKIP_BINARY_DOWNLOAD=1
stamp=node_modules/.copydesk-lock.sha256
want=$(sha256sum package-lock.json package.json | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "setup: npm packages up to date"
else
  echo "setup: npm ci (builds keytar and better-sqlite3; a few minutes the first time)"
  npm ci --no-audit --no-fund
  echo "$want" >"$stamp"
fi
echo "setup: done"
