import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pkg from '../../../package.json';
import { logUnhandledRejections } from '../../node/process-faults';
import { defaultDataDir, ensurePrivateDir, logDirOf } from '../../node/data-dir';
import { captureConsole, createFileLogger } from '../../node/log-file';
import { onStopSignal } from '../../node/stop-signals';
import { startCore } from '../core/core';
import { exportsFolderPicker } from '../core/export/exports-folder';
import { KEYCHAIN_SERVICE, KeytarSecretStore } from '../core/secrets/keytar-store';
import { startWebShell } from './server';

/**
 * `node out/main/web.js [--port N] [--data-dir DIR] [--ephemeral-keychain] [--keychain-service NAME]
 *  [--world demo|fixture|empty] [--static]`: the terminal in a
 * browser, for machines without a display or without the Electron binary.
 */
async function main(): Promise<void> {
  // A forgotten await somewhere in the core is logged, not the end of the terminal.
  logUnhandledRejections();
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string' },
      'renderer-dir': { type: 'string' },
      'ephemeral-keychain': { type: 'boolean', default: false },
      // The world a new local database starts with, and whether its market keeps moving.
      world: { type: 'string', default: 'demo' },
      static: { type: 'boolean', default: false },
      // Separate terminals (e.g. tests) keep separate keychain items.
      'keychain-service': {
        type: 'string',
        default: process.env.COPYDESK_KEYCHAIN_SERVICE ?? KEYCHAIN_SERVICE,
      },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535)
    throw new Error('--port must be a whole number from 0 to 65535');
  const world = values.world;
  if (world !== 'demo' && world !== 'fixture' && world !== 'empty')
    throw new Error('--world must be demo, fixture or empty');
  const dataDir = values['data-dir'] ?? defaultDataDir();
  // The folder holds the wallet's sessions and the service's signing secret: the user's only.
  ensurePrivateDir(dataDir);
  captureConsole(createFileLogger(logDirOf(dataDir), 'core'));
  const rendererDir = values['renderer-dir'] ?? findRenderer();
  const core = await startCore({
    dataDir,
    shell: 'web',
    secrets: new KeytarSecretStore(values['keychain-service']),
    appVersion: pkg.version,
    ephemeralKeychain: values['ephemeral-keychain'] || process.env.COPYDESK_EPHEMERAL_KEYCHAIN === '1',
    world,
    live: !values.static,
    // No save dialog in a browser tab: exports land in the data folder, and the answer says where.
    pickSavePath: exportsFolderPicker(dataDir),
  });
  const shell = await startWebShell({ core, rendererDir, port });
  // Before the URL is printed: whoever waits for it may signal a stop at once.
  onStopSignal(() => {
    console.log('Stopping Copydesk…');
    void Promise.all([shell.close(), core.close()]).then(() => process.exit(0));
  });
  console.log(`Copydesk data folder: ${dataDir}`);
  console.log(`Copydesk is running in the web shell. Open this URL in a browser on this machine:`);
  console.log(shell.url);
  core.events.on('service:state', (state) => {
    if (state.state === 'failed')
      console.error(`copydesk: the local service failed: ${state.message ?? 'no reason given'}`);
  });
  void core.ready().then(
    () => console.log(`Copydesk local service ready at ${core.profile().baseUrl}`),
    () => undefined,
  );
}

/** out/renderer beside the built bundle, or under the project root when run from source. */
function findRenderer(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = join(here, '..', 'renderer');
  if (existsSync(join(built, 'index.html'))) return built;
  const fromSource = resolve(here, '../../../out/renderer');
  if (existsSync(join(fromSource, 'index.html'))) return fromSource;
  throw new Error('The renderer is not built: run npm run build:renderer (npm start does it).');
}

main().catch((error: unknown) => {
  console.error(`copydesk: ${(error as Error).message}`);
  process.exit(1);
});
