import type { App, Session, Shell, WebContents, WebPreferences } from 'electron';

/** Every window's preferences, from one constant (Electron's security checklist). */
export const SECURE_WEB_PREFERENCES: WebPreferences = {
  sandbox: true,
  contextIsolation: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
};

/** External pages the terminal may open in the user's browser; nothing else leaves the app. */
export const EXTERNAL_LINK_ALLOWLIST: readonly string[] = [
  'https://github.com/',
  'https://etherscan.io/',
  'https://arbiscan.io/',
];

/** True when `url` may be opened in the system browser. */
export function isAllowedExternal(url: string): boolean {
  return EXTERNAL_LINK_ALLOWLIST.some((prefix) => url.startsWith(prefix));
}

/** True when `url` is a page of the app itself (the built renderer or the dev server). */
export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const target = new URL(url);
    const app = new URL(appUrl);
    return target.protocol === app.protocol && target.host === app.host && target.pathname === app.pathname;
  } catch {
    return false;
  }
}

/**
 * Blocks navigation away from the app and every new window; allow-listed links open in the
 * browser instead. Denies every permission request (camera, geolocation, …) except notifications.
 */
export function applySecurity(app: App, shell: Shell, appUrl: () => string): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url, appUrl())) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isAllowedExternal(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

/** Allows only desktop notifications (the opt-in copy alerts); everything else is denied. */
export function restrictPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(permission === 'notifications'),
  );
}
