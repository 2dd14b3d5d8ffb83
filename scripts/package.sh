#!/usr/bin/env bash
# npm run package [-- electron-builder flags]: builds Copydesk and makes installers with
# electron-builder (electron-builder.yml): on Linux an AppImage and a .deb, on macOS a .dmg, on
# Windows an NSIS installer, into dist/. `-- --linux --win` and the like choose other platforms.
#
# electron-builder downloads the Electron build of each target platform and rebuilds the native
# modules (better-sqlite3, keytar) for Electron's ABI in node_modules; afterwards this script
# rebuilds them for this machine's Node again, so `npm run service`, `npm run web` and the tests
# keep working. It needs the network (GitHub, for Electron's builds); see docs/desktop.md.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "package: building…"
npm run build

restore_node_modules() {
  echo "package: rebuilding better-sqlite3 and keytar for Node $(node --version) again…"
  npm rebuild better-sqlite3 keytar >/dev/null
}
trap restore_node_modules EXIT

echo "package: electron-builder $(npx electron-builder --version)"
npx electron-builder --config electron-builder.yml --publish never "$@"
echo "package: installers are in dist/"
