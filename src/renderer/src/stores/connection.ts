import { create } from 'zustand';
import type { EventPayload } from '@shared/ipc/contract';

export type ConnectionState = EventPayload<'connection:state'>;

interface ConnectionStore {
  /** The last `connection:state`; null until the core sends one (taken as online). */
  connection: ConnectionState | null;
  apply(state: ConnectionState): void;
}

/** Whether the active profile's service answers; offline means reads come from the cache. */
export const useConnection = create<ConnectionStore>()((set) => ({
  connection: null,
  apply: (connection) => set({ connection }),
}));

export const selectConnection = (s: ConnectionStore): ConnectionState | null => s.connection;
export const selectOffline = (s: ConnectionStore): boolean => s.connection?.state === 'offline';
