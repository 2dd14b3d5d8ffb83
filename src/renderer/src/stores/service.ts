import { create } from 'zustand';
import type { AppInfo, EventPayload } from '@shared/ipc/contract';
import type { LinkState } from '@renderer/ipc/bridge';
import { call } from '@renderer/ipc/call';
import { currentLink } from '@renderer/ipc/events';

export type ServiceStateEvent = EventPayload<'service:state'>;
/** What the service badge shows: the last `service:state`, or a guess until one arrives. */
export type ServiceBadge = ServiceStateEvent['state'] | 'remote' | 'unknown';

interface ServiceStore {
  /** `app:info`, null until it answers. */
  info: AppInfo | null;
  /** The last `service:state` event, null until the core sends one. */
  service: ServiceStateEvent | null;
  /** The link to the core (the web shell's event socket; always up in Electron). */
  link: LinkState;
  loadInfo(): Promise<void>;
  applyServiceState(state: ServiceStateEvent): void;
  setLink(link: LinkState): void;
}

/** App information, the local service's state and the link to the core. */
export const useService = create<ServiceStore>()((set) => ({
  info: null,
  service: null,
  link: currentLink(),
  async loadInfo() {
    try {
      set({ info: await call('app:info', {}) });
    } catch {
      // The toast already said why; the top bar keeps showing what it knew.
    }
  },
  applyServiceState: (service) => set({ service }),
  setLink: (link) => set({ link }),
}));

/**
 * The badge's state. The core starts the local service with the window, so until the first
 * event the service is taken to be starting; a remote profile has no local service to wait for.
 */
export const selectServiceBadge = (s: ServiceStore): ServiceBadge => {
  // Without the core there is no news of the service: say so rather than repeat stale news.
  if (s.link !== 'up' && s.link !== 'connecting') return 'unknown';
  if (s.service) return s.service.state;
  return s.info?.profile.kind === 'remote' ? 'remote' : 'starting';
};
export const selectServiceMessage = (s: ServiceStore): string | null => s.service?.message ?? null;
export const selectEphemeralKeychain = (s: ServiceStore): boolean => s.info?.ephemeralKeychain === true;
/** Cache files the core found damaged at start, moved aside and rebuilt empty (docs/security.md). */
export const selectDamagedFiles = (s: ServiceStore) => s.info?.damagedFiles ?? NO_DAMAGED_FILES;
const NO_DAMAGED_FILES: readonly { file: string; movedTo: string; at: string }[] = [];
export const selectProfileName = (s: ServiceStore): string | null => s.info?.profile.name ?? null;
export const selectAppVersion = (s: ServiceStore): string | null => s.info?.appVersion ?? null;
export const selectLink = (s: ServiceStore): LinkState => s.link;
