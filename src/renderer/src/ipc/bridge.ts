import type { CopydeskApi } from '@shared/ipc/contract';
import type { LinkState } from './web-api';
import { createWebApi } from './web-api';
import { takeWebToken } from './web-token';

export type { LinkState } from './web-api';

/** The state of the link to the core, for the top bar; in Electron the link is the IPC pipe. */
export interface BridgeLink {
  state(): LinkState;
  onChange(listener: (state: LinkState) => void): () => void;
}

function choose(): { api: CopydeskApi; shell: 'electron' | 'web'; link: BridgeLink } {
  if (window.api) {
    return { api: window.api, shell: 'electron', link: { state: () => 'up', onChange: () => () => {} } };
  }
  const web = createWebApi(takeWebToken());
  return { api: web, shell: 'web', link: { state: web.linkState, onChange: web.onLinkChange } };
}

const chosen = choose();

/**
 * The one object that reaches the core: the preload's `window.api` in Electron, or the same API
 * over HTTP and a WebSocket in the web shell. Only `ipc/` imports it; components go through
 * stores, which go through `ipc/call.ts` and `ipc/events.ts`.
 */
export const api: CopydeskApi = chosen.api;
/** Which shell hosts this window, known before `app:info` answers. */
export const bridgeShell = chosen.shell;
/** Whether the core is reachable right now (only the web shell can lose it while the page lives). */
export const bridgeLink: BridgeLink = chosen.link;
