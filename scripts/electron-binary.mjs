// Prints the path of an installed Electron binary, or nothing. It must not `require('electron')`:
// from v42 that downloads the binary on first use, which fails on a machine without the network.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let found = '';
try {
  const root = dirname(require.resolve('electron/package.json'));
  const pathFile = join(root, 'path.txt');
  if (existsSync(pathFile)) {
    const relative = readFileSync(pathFile, 'utf8').trim();
    const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(root, 'dist');
    const binary = join(dist, relative);
    if (existsSync(binary)) found = binary;
  }
} catch {
  found = '';
}
process.stdout.write(found);
