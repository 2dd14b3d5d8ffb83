import { homedir } from 'node:os';
import { join } from 'node:path';

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
