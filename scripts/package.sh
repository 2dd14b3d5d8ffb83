#!/usr/bin/env bash
# npm run package [-- electron-builder flags]: builds Copydesk and makes installers with
# electron-builder (electron-builder.yml): on Linux an AppImage and a .deb, on macOS a .dmg, on
# Windows an NSIS installer, into dist/. `-- --linux --win` and the like choose other platforms.
# See docs/desktop.md, Packaging.
set -euo pipefail
cd "$(dirname "$0")/.."

# electron-builder 26 rebuilds the native modules with @electron/rebuild, which, like Electron's
# own downloader, requires Node 22.12 or later; the rest of Copydesk runs on Node 20.
if ! node -e 'const [major, minor] = process.versions.node.split(".").map(Number); process.exit(major > 22 || (major === 22 && minor >= 12) ? 0 : 1)'; then
  echo "package: electron-builder needs Node 22.12 or later to rebuild the native modules; this is Node $(node --version)."
  exit 1
fi

# electron-builder downloads Electron's build of each target (from GitHub, or ELECTRON_MIRROR) and
# the headers to rebuild the native modules against. Without them it would fail half-way, after
# having started to rebuild node_modules, so a machine that cannot reach them stops here.
download_from=${ELECTRON_MIRROR:-https://github.com/electron/electron/releases/}
if ! node -e 'fetch(process.argv[1], { method: "HEAD", signal: AbortSignal.timeout(10000) }).then(() => process.exit(0), () => process.exit(1))' "$download_from"; then
  echo "package: cannot reach $download_from, where electron-builder downloads Electron's builds;"
  echo "package: no installer can be made on this machine (set ELECTRON_MIRROR to a reachable mirror)."
  exit 1
fi

echo "package: building…"
npm run build

# electron-builder rebuilds better-sqlite3 and keytar for Electron's ABI inside node_modules, where
# the tests, `npm run service` and `npm run web` need this machine's Node's builds. Those builds are
# kept aside and put back when this script ends, however it ends (no compiler or network needed).
native_modules=(better-sqlite3 keytar)
kept=$(mktemp -d)
for module in "${native_modules[@]}"; do
  tar -C "node_modules/$module" -cf "$kept/$module.tar" build
done
put_back_node_builds() {
  for module in "${native_modules[@]}"; do
    rm -rf "node_modules/$module/build"
    tar -C "node_modules/$module" -xf "$kept/$module.tar"
  done
  rm -rf "$kept"
  echo "package: better-sqlite3 and keytar are built for Node $(node --version) again"
}
trap put_back_node_builds EXIT

echo "package: electron-builder $(npx electron-builder --version)"
npx electron-builder --config electron-builder.yml --publish never "$@"
echo "package: installers are in dist/"
