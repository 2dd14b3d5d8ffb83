import { chmodSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The data folder and every folder Copydesk makes in it: the user's alone. */
export const PRIVATE_DIR_MODE = 0o700;
/** Every database and log Copydesk writes: the user's alone (they hold secrets and history). */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Where Copydesk keeps its data when no folder is given: `COPYDESK_DATA_DIR`, else the folder
 * Electron's `app.getPath('userData')` would use, so the web shell and the desktop app share data.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.COPYDESK_DATA_DIR) return env.COPYDESK_DATA_DIR;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Copydesk');
  if (process.platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Copydesk');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Copydesk');
}

/** Where the service and the core write their rotating logs: `<dataDir>/logs`. */
export const logDirOf = (dataDir: string): string => join(dataDir, 'logs');

/**
 * Makes a folder Copydesk owns (the data folder, its `logs`, `cache`, `service` folders): created
 * 0700 with its missing parents, and set back to 0700 when an older Copydesk left it open to others.
 * Only for Copydesk's own folders: a folder the user named for something else is not changed.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (process.platform !== 'win32') chmodSync(dir, PRIVATE_DIR_MODE);
}
