import { app, dialog, ipcMain, shell, type BrowserWindow } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AlreadyRunningError } from '../node/data-dir-lock';
import { logUnhandledRejections } from '../node/process-faults';
import { ensurePrivateDir, logDirOf } from '../node/data-dir';
import { captureConsole, createFileLogger } from '../node/log-file';
import { startCore, type Core } from './core/core';
import { KeytarSecretStore } from './core/secrets/keytar-store';
import { showAbout } from './electron/about';
import { electronDataDir, setAppIdentity } from './electron/app-identity';
import { forwardEvents, registerIpc } from './electron/ipc';
import { menuTemplate } from './electron/menu';
import { applySecurity, isAppUrl, restrictPermissions } from './electron/security';
import { saveDialogPicker } from './electron/save-dialog';
import { claimSingleInstance } from './electron/single-instance';
import { TaskbarProgress, showCoreProgress, trackCall } from './electron/taskbar-progress';
import { createMainWindow } from './electron/window';
import { placeWindow, readWindowState, trackWindowState, windowStateFile } from './electron/window-state';

/**
 * The Electron shell: windows, security and IPC wiring only. Everything else is the plain-Node
 * core, which the web shell hosts the same way.
 */
const outDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const devServerUrl = process.env.ELECTRON_RENDERER_URL;
const appUrl = () => devServerUrl ?? new URL(`file://${join(outDir, 'renderer', 'index.html')}`).toString();

let core: Core | null = null;
let mainWindow: BrowserWindow | null = null;

// Before anything reads `userData` (the single-instance lock keeps its file there): one data
// folder for both shells, and the app ids Windows and Linux need (docs/desktop.md).
setAppIdentity(app);

async function boot(): Promise<void> {
  applySecurity(app, shell, appUrl);
  await app.whenReady();
  const { Menu, screen, session } = await import('electron');
  restrictPermissions(session.defaultSession);
  // An unpackaged app is a developer's: only there do DevTools exist.
  const development = !app.isPackaged;
  const dataDir = electronDataDir(app);
  // The folder holds the wallet's sessions and the service's signing secret: the user's only.
  ensurePrivateDir(dataDir);
  captureConsole(createFileLogger(logDirOf(dataDir), 'core'));
  const menu = menuTemplate(
    { platform: process.platform, development },
    {
      openLogsFolder: () =>
        void shell.openPath(logDirOf(dataDir)).then((failure) => {
          if (failure) console.warn(`Copydesk could not open its logs folder: ${failure}`);
        }),
      showAbout: () =>
        showAbout(dialog, mainWindow, { version: app.getVersion(), versions: process.versions, dataDir }),
    },
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(menu));
  core = await startCore({
    dataDir,
    shell: 'electron',
    secrets: new KeytarSecretStore(),
    appVersion: app.getVersion(),
    ephemeralKeychain: process.env.COPYDESK_EPHEMERAL_KEYCHAIN === '1',
    // The service runs on Electron's own Node, so nothing else need be installed.
    serviceExecPath: process.execPath,
    serviceEnv: { ELECTRON_RUN_AS_NODE: '1' },
    // Exports go where the user says, through the system's save dialog.
    pickSavePath: saveDialogPicker(
      dialog,
      () => mainWindow,
      () => app.getPath('downloads'),
    ),
  });
  const started = core;
  const progress = new TaskbarProgress(() => mainWindow);
  registerIpc(
    ipcMain,
    started,
    (event) => isAppUrl(event.senderFrame?.url ?? '', appUrl()),
    (channel) => trackCall(progress, channel),
  );
  showCoreProgress(started.events, progress);
  const stateFile = windowStateFile(dataDir);
  const placement = placeWindow(
    readWindowState(stateFile),
    screen.getAllDisplays().map((display) => display.workArea),
    screen.getPrimaryDisplay().workArea,
  );
  const window = createMainWindow(outDir, devServerUrl, { placement, development });
  trackWindowState(window, stateFile);
  mainWindow = window;
  window.on('closed', () => (mainWindow = null));
  forwardEvents(started, window.webContents);
}

app.on('window-all-closed', () => app.quit());
app.on('before-quit', (event) => {
  if (!core) return;
  event.preventDefault();
  const closing = core;
  core = null;
  void closing.close().finally(() => app.quit());
});

// A forgotten await somewhere in the core is logged, not the end of the terminal.
logUnhandledRejections();
if (claimSingleInstance(app, () => mainWindow))
  boot().catch((error: unknown) => {
    console.error('Copydesk could not start:', error);
    // A web shell holds the data folder: say so, rather than vanish.
    if (error instanceof AlreadyRunningError)
      dialog.showErrorBox('Copydesk is already running', error.message);
    app.exit(1);
  });
